import Foundation
import Testing
import TestSupport

/// `plainview decision-table` on the shipped Android flows, and the Android consumer in
/// Examples/android-decision-table: compiled with the JDK's `javac`, its replay must pass on the generated tables
/// and fail when the app's function or a row disagrees. Under CI=true a missing JDK fails instead of skipping.
@Suite struct DecisionTableCLITests {
    static let policy = "Pages/common/android-policy.yaml"
    static let environment = "Pages/common/android-environment.yaml"
    static let consumer = "Examples/android-decision-table"
    static let replay = "com.example.shop.checkout.DecisionTableReplay"
    /// The apps of `environment`, as the replay's fixed device: PACKAGE[=SCHEME,…].
    static let installed = ["com.example.shop", "com.bank.example=bankapp", "se.bankgirot.swish=swish"]
    static let javac = Program.find("javac")
    static let java = Program.find("java")
    static let jdkMissing = "the JDK (javac, java) is not installed (apt-get install default-jdk-headless)"

    /// The table of the shipped flows on `env` (nil: a phone without apps), as its text and its rows' fields.
    static func table(env: String?, in dir: URL, extra: [String] = []) async throws -> (path: String, lines: [String]) {
        let out = dir.appendingPathComponent(env == nil ? "no-apps.tsv" : "table.tsv").path
        let arguments =
            ["decision-table", "--policy", policy] + (env.map { ["--env", $0] } ?? []) + ["Pages", "--out", out] + extra
        let r = try await offPool { try CLI.run(arguments) }
        #expect(r.status == 0, "\(r)")
        let text = try String(contentsOfFile: out, encoding: .utf8)
        return (out, text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init))
    }

    static func fields(_ line: String) -> [String] {
        line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
    }

    @Test func everyNavigationOfTheShippedAndroidFlowsOnceWithItsCommand() async throws {
        let dir = try Project.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (_, lines) = try await Self.table(env: Self.environment, in: dir)
        #expect(lines.first == "plainview-decision-table\t1")
        let header = Self.fields(lines[1])
        #expect(
            header == [
                "url", "current", "frame", "trigger", "gesture", "method", "action", "target", "via", "rule", "override",
                "then", "launch", "then_url", "reason", "source",
            ])
        let rows = lines.dropFirst(2).map { Dictionary(uniqueKeysWithValues: zip(header, Self.fields($0))) }
        #expect(rows.allSatisfy { $0.count == header.count })
        #expect(rows.count >= 6, "\(lines)")
        let keys = rows.map { row in ["url", "current", "frame", "trigger", "gesture", "method"].map { row[$0]! } }
        #expect(Set(keys).count == keys.count, "a navigation is written once")
        // The app's own loads never reach shouldOverrideUrlLoading; the flows' sources name flow and branch.
        #expect(!rows.contains { $0["trigger"] == "app-load" })
        #expect(rows.allSatisfy { $0["source"]!.hasPrefix("android-") })
        let bank = try #require(
            rows.first { $0["url"]!.hasPrefix("intent://authorize") && $0["source"] == "android-return-page (default)" })
        #expect(bank["action"] == "open-app" && bank["via"] == "intent" && bank["rule"] == "intent.app")
        #expect(bank["override"] == "true" && bank["then"] == "start-activity" && bank["launch"] == "intent-uri")
        #expect(bank["then_url"]!.contains(";category=android.intent.category.BROWSABLE;"))
        let complete = try #require(rows.first { $0["url"] == "https://shop.example.com/payment-completed" })
        #expect(complete["then"] == "finish-complete" && complete["override"] == "true" && complete["target"] == "")
        #expect(rows.contains { $0["rule"] == "intercept.payment" && $0["then"] == "load-payment-page" })
        #expect(rows.contains { $0["action"] == "allow" && $0["override"] == "false" && $0["then"] == "nothing" })
        // The same flows give the same bytes.
        let other = try Project.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: other) }
        let again = try await Self.table(env: Self.environment, in: other).lines
        #expect(again == lines)
    }

    @Test func plainURLsEscapedFieldsAndIOSFlowsSkipped() async throws {
        let r = try await offPool {
            try CLI.run([
                "decision-table", "--policy", Self.policy, "Pages/01-ios-card-3ds-goodlisted", "Pages/04-android-return-page",
                "--url", "https://shop.example.com/a\tb\\c", "--url", "bankapp://authorize",
            ])
        }
        #expect(r.status == 0, "\(r)")
        #expect(r.stderr.contains("skipped 1 iOS flow(s): ios-card-3ds-goodlisted"), "\(r)")
        let lines = r.stdoutLines
        let tabbed = try #require(lines.first { $0.hasPrefix("https://shop.example.com/a\\tb\\\\c\t") }, "\(r)")
        #expect(Self.fields(tabbed).count == 16)
        #expect(Self.fields(tabbed).last == "url")
        let scheme = try #require(lines.first { $0.hasPrefix("bankapp://authorize\t") })
        #expect(Self.fields(scheme)[9] == "custom-scheme.no-app" && Self.fields(scheme)[11] == "nothing")
    }

    @Test func badInputsExit64NamingTheFile() async throws {
        let dir = try Project.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try "platform: android\npaymentUrl: [\n".write(
            to: dir.appendingPathComponent("bad.yaml"), atomically: true, encoding: .utf8)
        let badPolicy = try await offPool {
            try CLI.run(["decision-table", "--policy", "bad.yaml", "--url", "https://x.example/"], in: dir)
        }
        #expect(badPolicy.status == 64 && badPolicy.stderr.contains("bad.yaml:"), "\(badPolicy)")
        let ios = try await offPool { try CLI.run(["decision-table", "--policy", "Pages/common/ios-policy.yaml", "Pages"]) }
        #expect(ios.status == 64 && ios.stderr.contains("platform: android"), "\(ios)")
        let flow = dir.appendingPathComponent("broken")
        try FileManager.default.createDirectory(at: flow, withIntermediateDirectories: true)
        try "name: broken\npolicy: nowhere.yaml\nsteps: 3\n".write(
            to: flow.appendingPathComponent("flow.yaml"), atomically: true, encoding: .utf8)
        let badFlow = try await offPool { try CLI.run(["decision-table", "--policy", Self.policy, flow.path]) }
        #expect(badFlow.status == 64 && badFlow.stderr.contains("broken/flow.yaml"), "\(badFlow)")
        #expect(badFlow.stdout.isEmpty)
        let nothing = try await offPool { try CLI.run(["decision-table", "--policy", Self.policy]) }
        #expect(nothing.status == 64, "\(nothing)")
        let onlyIOS = try await offPool {
            try CLI.run(["decision-table", "--policy", Self.policy, "Pages/01-ios-card-3ds-goodlisted"])
        }
        #expect(onlyIOS.status == 64 && onlyIOS.stderr.contains("no Android flow"), "\(onlyIOS)")
    }

    /// Compiles the consumer (optionally with one source line replaced) into `dir`/classes.
    static func compile(in dir: URL, replacing: (file: String, line: String, with: String)? = nil) async throws -> URL {
        let javac = try #require(Self.javac, "CI=true: \(jdkMissing); .ci/run installs it")
        let sources = dir.appendingPathComponent("src")
        try FileManager.default.copyItem(at: Project.path("\(consumer)/src"), to: sources)
        if let replacing {
            let path = sources.appendingPathComponent(replacing.file)
            let text = try String(contentsOf: path, encoding: .utf8)
            // The broken line must still be in the source: otherwise this check would pass without breaking anything.
            #expect(
                text.components(separatedBy: replacing.line).count == 2, "\(replacing.file) no longer holds '\(replacing.line)'")
            try text.replacingOccurrences(of: replacing.line, with: replacing.with).write(
                to: path, atomically: true, encoding: .utf8)
        }
        let files = FileManager.default.enumerator(atPath: sources.path)!.compactMap { $0 as? String }
            .filter { $0.hasSuffix(".java") }.sorted().map { sources.appendingPathComponent($0).path }
        let classes = dir.appendingPathComponent("classes")
        let arguments = ["-Xlint:all", "-Werror", "-d", classes.path] + files
        let r = try await offPool { try Program.run(javac, arguments, timeout: 300) }
        #expect(r.status == 0, "javac: \(r)")
        return classes
    }

    static func replay(_ classes: URL, _ table: String, _ installed: [String]) async throws -> CLIResult {
        let java = try #require(Self.java, "CI=true: \(jdkMissing)")
        let arguments = ["-cp", classes.path, replay, table] + installed
        return try await offPool { try Program.run(java, arguments, timeout: 300) }
    }

    @Test(.enabled(if: (javac != nil && java != nil) || Program.isCI, "\(jdkMissing)"))
    func theAppsFunctionAnswersEveryRowOnBothDevices() async throws {
        let dir = try Project.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let classes = try await Self.compile(in: dir)
        let phone = try await Self.table(env: Self.environment, in: dir).path
        let ok = try await Self.replay(classes, phone, Self.installed)
        #expect(ok.status == 0, "\(ok)")
        #expect(ok.stdout.contains("replayed") && ok.stdout.contains("every one as the policy does"), "\(ok)")
        // A phone without the bank app: the intents block or load their fallback, and the app must agree.
        let bare = try await Self.table(
            env: nil, in: dir, extra: ["--url", "javascript:alert(1)", "--url", "http://shop.example.com/x"]
        ).path
        let bareText = try String(contentsOfFile: bare, encoding: .utf8)
        #expect(bareText.contains("\tintent.no-app\t") && bareText.contains("\tintent.fallback\t"))
        let ok2 = try await Self.replay(classes, bare, [])
        #expect(ok2.status == 0, "\(ok2)")
    }

    @Test(.enabled(if: (javac != nil && java != nil) || Program.isCI, "\(jdkMissing)"))
    func theReplayFailsWhenTheAppsFunctionIsWrong() async throws {
        let dir = try Project.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        // The app forgets to make the intent browsable (it would reach activities no browser may open).
        let classes = try await Self.compile(
            in: dir,
            replacing: (
                "main/java/com/example/shop/checkout/CheckoutPolicy.java", "if (!safe.contains(BROWSABLE)) {", "if (false) {"
            ))
        let table = try await Self.table(env: Self.environment, in: dir).path
        let r = try await Self.replay(classes, table, Self.installed)
        #expect(r.status == 1, "\(r)")
        #expect(r.stdout.contains("intent://authorize") && r.stdout.contains("[intent.app: "), "\(r)")
        #expect(r.stdout.contains("rows differ"), "\(r)")
    }

    @Test(.enabled(if: (javac != nil && java != nil) || Program.isCI, "\(jdkMissing)"))
    func theReplayFailsOnARowTheAppDoesNotAnswer() async throws {
        let dir = try Project.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let classes = try await Self.compile(in: dir)
        let (path, lines) = try await Self.table(env: Self.environment, in: dir)
        // completeUrl said to load in the web view: the app finishes instead, and the replay names the line.
        let index = try #require(lines.firstIndex { $0.hasPrefix("https://shop.example.com/payment-completed\t") })
        var row = Self.fields(lines[index])
        row[10] = "false"
        row[11] = "nothing"
        var changed = lines
        changed[index] = row.joined(separator: "\t")
        try (changed.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        let r = try await Self.replay(classes, path, Self.installed)
        #expect(r.status == 1, "\(r)")
        #expect(r.stdout.contains("\(path):\(index + 1): https://shop.example.com/payment-completed"), "\(r)")
        #expect(r.stdout.contains("got      override=true then=finish-complete"), "\(r)")
        // A file that is not a decision table is refused, not replayed as zero rows.
        try "url\taction\n".write(toFile: path, atomically: true, encoding: .utf8)
        let refused = try await Self.replay(classes, path, Self.installed)
        #expect(refused.status == 2 && refused.stderr.contains(":1: expected the format line"), "\(refused)")
    }
}
