import ArgumentParser
import FlowSimulator
import Foundation
import NavigationPolicy
import PlainviewEngines
import PlainviewRecorder

struct Record: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "record",
        abstract: "Record a real checkout session in a real engine and write it as a flow folder.",
        discussion: """
            Loads URL in Chromium or WebKit as the host app's web view (the same web view settings, User-Agent and \
            policy as simulate --engine) and sends every request to the real servers: TLS verified against the \
            system's trust store (plus --ca-file), redirects followed by the web view. The policy decides every \
            navigation; app URLs go to the simulated OS and apps of --env. What the user does is given with --step, \
            written as in a flow's steps (tap: Pay, app: BankID complete, accept, switch-to-app).
            The folder holds flow.yaml (pages with their methods, the steps, expect from how the session ended) and \
            the bodies, redacted as plainview import redacts them. Before it is written, the flow is replayed in the \
            model and in the engine; where the model cannot follow, expect.modelOutcome says so.
            Exit status: 0 written, 1 a page got no answer or --strict found something unredacted (nothing \
            written), 64 bad input.
            """
    )

    @Argument(help: "The payment page the host app loads first (http or https).")
    var url: String

    @Option(help: "The web view: chromium or webkit.")
    var engine: RecordEngine = .chromium

    @Option(help: "The app's policy file (its platform, paymentUrl, completeUrl, goodlist …).")
    var policy: String

    @Option(name: .customLong("env"), help: "The environment file: installed apps, web view settings.")
    var environment: String?

    @Option(help: "ios or android: must be the policy's platform (a check, not an override).")
    var platform: Platform?

    @Option(name: .customLong("step"), help: "What the user does next, as in a flow's steps (tap: Pay). Repeatable.")
    var steps: [String] = []

    @Option(help: "The flow folder to create.")
    var out: String?

    @Option(
        help:
            "A committed flow folder of this checkout: list what changed (hosts, pages, redirects, what pages do by themselves, the outcome); exit 1 when anything did."
    )
    var diff: String?

    @Flag(help: "Replace the folder if it exists (only once the new one is complete).")
    var force = false

    @Option(help: "The flow's name (default: the folder name).")
    var name: String?

    @Option(
        name: .customLong("resolve"),
        help: "HOST=ADDRESS[:PORT]: connect there for HOST (TLS still checks HOST's certificate). Repeatable.")
    var resolve: [String] = []

    @Option(name: .customLong("ca-file"), help: "A PEM certificate authority to trust besides the system's. Repeatable.")
    var caFiles: [String] = []

    @Flag(help: "Do not check the servers' certificates (only for test servers).")
    var insecure = false

    @Option(help: "Seconds each server answer and the engine may take (default 60).")
    var timeout: Double = 60

    @Flag(help: "Fail closed: write nothing and exit 1 if anything that looks like a secret was not redacted.")
    var strict = false

    @OptionGroup var redaction: RedactionOptions

    func validate() throws {
        guard out != nil || diff != nil else { throw inputError("record needs --out FOLDER, --diff FLOWDIR, or both") }
        try requireFiles([("--policy", policy), ("--env", environment)] + caFiles.map { ("--ca-file", $0) })
        guard url.lowercased().hasPrefix("https://") || url.lowercased().hasPrefix("http://") else {
            throw inputError("URL \(url): expected an absolute http(s) URL")
        }
        guard timeout > 0, timeout <= 3600 else { throw inputError("--timeout \(timeout): expected 1 to 3600 seconds") }
        if insecure, !caFiles.isEmpty { throw inputError("--insecure and --ca-file contradict each other") }
        _ = try resolveMap()
        // Said before the session, not after it: a recording costs a real payment attempt.
        if let out, !force, FileManager.default.fileExists(atPath: out) {
            throw inputError("--out \(out): already exists; choose another folder or pass --force to replace it")
        }
        if let diff, !FileManager.default.fileExists(atPath: diff) {
            throw inputError("--diff \(diff): no such flow folder or file")
        }
    }

    /// `--resolve HOST=ADDRESS[:PORT]` as a map (host lowercased).
    func resolveMap() throws -> [String: UpstreamClient.Destination] {
        var map: [String: UpstreamClient.Destination] = [:]
        for entry in resolve {
            let parts = entry.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, !parts[0].isEmpty, let destination = UpstreamClient.Destination(parts[1]) else {
                throw inputError(
                    "--resolve \(entry): expected HOST=ADDRESS or HOST=ADDRESS:PORT (shop.example.com=127.0.0.1:8443)")
            }
            guard map.updateValue(destination, forKey: parts[0].lowercased()) == nil else {
                throw inputError("--resolve \(entry): \(parts[0]) is given twice")
            }
        }
        return map
    }

    func run() async throws {
        let request: Recorder.Request
        do {
            request = Recorder.Request(
                url: url, policy: policy, environment: environment, steps: steps, out: out, name: name, diff: diff,
                force: force,
                redaction: try redaction.config(), strict: strict)
        } catch {
            throw inputError(error.description)
        }
        let flow: Flow
        do { flow = try Recorder.sessionFlow(request) } catch { throw inputError(error.description) }
        if let platform, platform != flow.policy.platform {
            throw inputError("--platform \(platform.rawValue): the policy \(policy) is for \(flow.policy.platform.rawValue)")
        }
        let trust: UpstreamClient.Trust = insecure ? .none : caFiles.isEmpty ? .system : .adding(caFiles)
        let resolved = try resolveMap()
        let client: UpstreamClient
        do {
            client = try UpstreamClient(trust: trust, resolve: resolved, timeout: timeout)
        } catch {
            throw inputError(error.description)
        }
        let userAgent =
            flow.userAgent
            ?? (flow.policy.platform == .ios ? PlatformUserAgents.iPhoneWebView : PlatformUserAgents.androidWebView)
        let network = LiveRecording(
            client: client, userAgent: userAgent, browserUserAgent: PlatformUserAgents.browser(on: flow.policy.platform))
        let web: any WebEngine
        do throws(EngineFailure) {
            web = engine == .chromium ? try ChromiumEngine(timeout: timeout) : try WebKitEngine(timeout: timeout)
        } catch {
            throw inputError(error.message)
        }
        defer { web.shutdown() }
        let summary: Recorder.Summary
        do {
            summary = try Recorder.record(request, engine: web, network: network)
        } catch {
            switch error {
            case .input(let m): throw inputError(m)
            case .residue(let m), .unanswered(let m):
                printError(m)
                throw Exit.expectationFailed
            }
        }
        let s = summary.session
        print("recorded \(url) in \(web.name): \(s.outcome) · \(s.hops) hops")
        print(
            String(
                format: "  %d request(s), %d of them pages, in %.2f s (%.2f s waiting for the servers)", summary.requests,
                summary.documents, summary.seconds, summary.networkSeconds))
        for f in summary.failures { print("  no answer: \(f)") }
        if let out {
            print("wrote \(out)/flow.yaml and \(summary.files.count - 1) page file(s); \(flow.steps.count) user step(s)")
        }
        let m = summary.model, r = summary.replay
        print("replayed: model \(m.outcome) · \(m.hops) hops; \(web.name) \(r.outcome) · \(r.hops) hops")
        if m.outcome.kind != s.outcome.kind {
            print("  the model cannot follow this session: expect.modelOutcome is \(m.outcome.kind.rawValue)")
        }
        print(summary.redaction.map { $0.summary(places: 200) } ?? "NOT redacted (--no-redact)")
        if r.outcome.kind != s.outcome.kind || r.hops != s.hops {
            printError("warning: replaying the flow in \(web.name) did not end as the session did")
            throw Exit.expectationFailed
        }
        if let diff, let drift = summary.drift {
            if drift.isEmpty {
                print("no drift against \(diff)")
            } else {
                print("drift against \(diff): \(drift.count) change(s)")
                for change in drift { print("  \(change)") }
                throw Exit.expectationFailed
            }
        }
    }
}

enum RecordEngine: String, CaseIterable, ExpressibleByArgument {
    case chromium, webkit
}
