import ArgumentParser
import FlowSimulator
import Foundation
import NavigationPolicy
import PlainviewConfig
import FlowImport

/// Redaction flags shared by `import` and `simulate FILE.har`.
struct RedactionOptions: ParsableArguments {
    @Flag(
        name: .customLong("no-redact"),
        help: "Keep cookies, tokens, card and personal numbers and e-mails as recorded (only when you must).")
    var noRedact = false

    @Option(name: .customLong("redact-config"), help: "A YAML/JSON file of redaction settings (names, keep, patterns, …).")
    var redactConfig: String?

    @Option(name: .customLong("redact-name"), help: "Also redact values of fields with this name (word or glob). Repeatable.")
    var redactNames: [String] = []

    @Option(name: .customLong("keep-name"), help: "Never redact fields with this name by name. Repeatable.")
    var keepNames: [String] = []

    /// The configuration, or nil when redaction is off.
    func config() throws(ConfigError) -> RedactionConfig? {
        if noRedact { return nil }
        var config = RedactionConfig.default
        if let file = redactConfig { config = try RedactionConfig.load(contentsOf: URL(fileURLWithPath: file), name: file) }
        config.names += redactNames
        config.keep += keepNames
        return config
    }
}

struct Import: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Turn a HAR recording into a redacted flow folder.",
        discussion: """
            Reads a HAR 1.2/1.1 file (browser dev tools, Charles, Proxyman, mitmproxy, Playwright), keeps the documents,
            frames and form posts, redacts secrets with stable placeholders (on by default), infers the user's taps,
            and writes FOLDER/flow.yaml with one file per recorded page, atomically. Prints what was redacted.
            With --strict, fails closed: when anything that still looks like a secret (a long digit run, a Bearer
            credential, a JWT, an e-mail, a random-looking value after a credential name) was not redacted, nothing is
            written and the places are listed.
            Exit status: 0 written, 1 --strict found something unredacted (nothing written), 64 bad input (the message
            names the file and the JSON path).
            """
    )

    @Argument(help: "The HAR file.")
    var har: String

    @Option(help: "The flow folder to create (e.g. Pages/my-checkout).")
    var out: String

    @Flag(help: "Replace the folder if it exists (the old one is replaced only once the new one is complete).")
    var force = false

    @Option(
        help: "The policy file the flow uses (written relative to the flow folder). Default: a policy drafted from the recording."
    )
    var policy: String?

    @Option(name: .customLong("env"), help: "The environment file the flow uses (written relative to the flow folder).")
    var environment: String?

    @Option(help: "Platform of a drafted policy: ios or android.")
    var platform: Platform = .ios

    @Option(help: "The outcome the flow must reach (complete, canceled, stuck, …). Default: left for you to fill in.")
    var expect: Outcome.Kind?

    @Option(name: .customLong("tap"), help: "A user step (link text or URL), in order, instead of the inferred taps. Repeatable.")
    var taps: [String] = []

    @Option(help: "The flow's name (default: the folder name).")
    var name: String?

    @Flag(help: "Fail closed: write nothing and exit 1 if anything that looks like a secret was not redacted.")
    var strict = false

    @OptionGroup var redaction: RedactionOptions

    func validate() throws {
        try requireFiles([("--policy", policy), ("--env", environment)])
    }

    func run() async throws {
        var redactConfig: RedactionConfig?
        do { redactConfig = try redaction.config() } catch { throw inputError(error.description) }
        // As in `simulate FILE.har`: the policy's own URLs must still match the flow, so their query values are
        // never redacted (import → simulate then gives the same run as replaying the HAR).
        if let policy, let text = try? ConfigNode.readText(path: policy) {
            redactConfig?.keepQueryValues(ofURLsIn: text)
        }
        let folder = URL(fileURLWithPath: out)
        let writer = HARFlowWriter.Options(
            name: name ?? folder.lastPathComponent, source: har,
            policyPath: policy.map { HARFlowWriter.relativePath(from: folder, to: $0) },
            environmentPath: environment.map { HARFlowWriter.relativePath(from: folder, to: $0) },
            platform: platform.rawValue, expect: expect?.rawValue)
        let result: HARImport.Result
        do {
            result = try HARImport.run(
                har: URL(fileURLWithPath: har), name: har, to: folder, force: force,
                options: .init(
                    redaction: redactConfig, taps: taps.isEmpty ? nil : taps, writer: writer,
                    strict: strict))
        } catch {
            if case .residue = error {
                printError(error.description)
                throw Exit.expectationFailed
            }
            throw inputError(error.description)
        }
        let d = result.draft
        print(
            "wrote \(out)/flow.yaml and \(result.fileNames.count - 1) page file(s): \(d.pages.count) URL(s), \(d.steps.count) user step(s)"
        )
        for note in result.notes { print("note: \(note)") }
        if let end = d.ending { print("recording ends: \(end.message)") }
        print(result.report.map { $0.summary(places: 200) } ?? "NOT redacted (--no-redact)")
        if !result.residue.isEmpty {
            print(
                "warning: \(result.residue.count) value(s) look like secrets but were not redacted (--strict refuses to write them):"
            )
            for f in result.residue.prefix(20) { print("  \(f)") }
        }
        // The command is done: the process ends here rather than free the drafted flow first (every page, header
        // and file name of the recording, about 40 ms for 20,000 pages), which nothing would use.
        fflush(nil)
        Foundation.exit(0)
    }
}

/// Exits 64 naming the flag when a file it names does not exist.
func requireFiles(_ flags: [(String, String?)]) throws {
    for (flag, path) in flags {
        if let path, !FileManager.default.fileExists(atPath: path) { throw inputError("\(flag) \(path): no such file") }
    }
}

/// `plainview simulate FILE.har …`: the HAR-only options (the recording is replayed in memory, see `LoadedFlows`).
struct HARReplayArguments: ParsableArguments {
    @Option(help: "HAR replay: the policy file (required when a PATH is a .har file).")
    var policy: String?

    @Option(name: .customLong("env"), help: "HAR replay: the environment file (installed apps).")
    var environment: String?

    @Option(
        help: "HAR replay: the outcome the recording must reach: complete, canceled, stuck, loop or error (default: complete).")
    var expect: Outcome.Kind?

    @Option(
        name: .customLong("tap"),
        help: "HAR replay: a user step (link text or URL), in order, instead of the inferred taps. Repeatable.")
    var taps: [String] = []

    @OptionGroup var redaction: RedactionOptions

    /// The HAR options are given only with a .har PATH, which needs --policy; the files they name exist.
    func validate(paths: [String]) throws {
        guard paths.contains(where: LoadedFlows.isHAR) else {
            if policy != nil || environment != nil || expect != nil || !taps.isEmpty || redaction.noRedact
                || redaction.redactConfig != nil || !redaction.redactNames.isEmpty || !redaction.keepNames.isEmpty
            {
                throw inputError("--policy, --env, --expect, --tap and the redaction options apply to .har files only")
            }
            return
        }
        guard policy != nil else { throw inputError("replaying a HAR needs --policy FILE (the merchant's policy)") }
        try requireFiles([("--policy", policy), ("--env", environment)])
    }

    /// The replay options, or nil when no policy is given (no .har PATH).
    func options() throws -> HARReplayOptions? {
        guard let policy else { return nil }
        var config: RedactionConfig?
        do { config = try redaction.config() } catch { throw inputError(error.description) }
        return HARReplayOptions(
            policy: policy, environment: environment, expect: expect ?? .complete,
            taps: taps.isEmpty ? nil : taps, redaction: config)
    }
}
