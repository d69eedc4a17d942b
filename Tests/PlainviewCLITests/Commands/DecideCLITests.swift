import AppSwitch
import FlowSimulator
import Foundation
import PlainviewConfig
import Testing
import TestSupport

/// Black-box tests of `plainview decide`: stdout (one JSON object per URL), stderr and exit status.
@Suite struct DecideCLITests {
    static let policy = """
        platform: ios
        paymentUrl: https://shop.example.com/pay?order=42
        completeUrl: https://shop.example.com/complete
        cancelUrl: https://shop.example.com/cancel
        callbackScheme: shopapp
        goodlist: []
        """

    static let environment = """
        apps:
          - name: BankID
            schemes: [bankid]
            universalLinks: [{host: app.bankid.com, paths: ["/*"]}]
            package: com.bankid.bus
            appLinks: [{host: app.bankid.com, paths: ["/*"]}]
        """

    /// Writes the files into a fresh directory and runs `plainview ARGS` there.
    func run(_ args: [String], files: [String: String] = ["policy.yaml": policy, "env.yaml": environment]) throws -> CLIResult {
        let dir = try Project.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        for (name, text) in files {
            try text.write(to: dir.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        return try CLI.run(args, in: dir)
    }

    func objects(_ r: CLIResult) throws -> [[String: Any]] {
        try r.stdoutLines.map { line in
            let obj = try JSONSerialization.jsonObject(with: Data(line.utf8), options: [.fragmentsAllowed])
            guard let dict = obj as? [String: Any] else { throw CocoaError(.coderReadCorrupt) }
            return dict
        }
    }

    @Test func oneJSONObjectPerURLWithTheContractKeysInOrder() throws {
        let r = try run([
            "decide", "--policy", "policy.yaml", "--env", "env.yaml",
            "https://shop.example.com/complete", "bankid:///?autostarttoken=x",
        ])
        #expect(r.status == 0, "\(r)")
        #expect(r.stderr.isEmpty, "\(r)")
        #expect(
            r.stdoutLines == [
                #"{"url":"https://shop.example.com/complete","action":"complete","target":null,"via":null,"rule":"intercept.complete","reason":"completeUrl reached: the payment is finished"}"#,
                #"{"url":"bankid:///?autostarttoken=x","action":"open-app","target":"bankid:///?autostarttoken=x","via":"custom-scheme","rule":"custom-scheme.app","reason":"BankID handles bankid:"}"#,
            ])
    }

    @Test func paymentUrlVariantsReload() throws {
        let r = try run([
            "decide", "--policy", "policy.yaml", "--",
            "https://shop.example.com/pay?fallback=true&order=42", "shopapp://shop.example.com/pay?order=42",
        ])
        #expect(r.status == 0, "\(r)")
        let objs = try objects(r)
        #expect(objs.count == 2)
        #expect(
            r.stdout.hasPrefix(#"{"url":"https://shop.example.com/pay?fallback=true&order=42","#),
            "URLs keep their & in the output")
        for o in objs {
            #expect(o["action"] as? String == "reload")
            #expect(o["target"] as? String == "https://shop.example.com/pay?order=42")
            #expect(o["rule"] as? String == "intercept.payment")
        }
    }

    @Test func pickyPageUsesCurrent() throws {
        let r = try run([
            "decide", "--policy", "policy.yaml", "--current", "https://acs.bank.example/c",
            "https://evilpayex.com/", "https://shop.example.com@evil.example/",
        ])
        #expect(r.status == 0, "\(r)")
        for o in try objects(r) {
            #expect(o["action"] as? String == "open-browser")
            #expect(o["target"] as? String == "https://acs.bank.example/c")
            #expect(o["rule"] as? String == "web.picky-page")
        }
    }

    @Test func platformFrameAndEnvironmentOptions() throws {
        let r = try run([
            "decide", "--policy", "policy.yaml", "--env", "env.yaml", "--platform", "android",
            "--frame", "main", "--gesture", "--redirect",
            "https://app.bankid.com/x", "intent://x#Intent;scheme=bankid;package=com.bankid.bus;end",
            "intent://x#Intent;package=com.none;S.browser_fallback_url=https%3A%2F%2Fok.example%2F;end",
        ])
        #expect(r.status == 0, "\(r)")
        let objs = try objects(r)
        #expect(objs.map { $0["rule"] as? String } == ["android.app-link", "intent.app", "intent.fallback"])
        #expect(objs.map { $0["via"] as? String } == ["app-link", "intent", nil])
        #expect(objs[2]["target"] as? String == "https://ok.example/")

        // The app is told to start the intent Chrome would start, never the page's component or flags; an intent
        // into the host app (the environment's `behaviour: {host: true}`) is not launched at all.
        let hosted = try run(
            [
                "decide", "--policy", "policy.yaml", "--env", "env.yaml", "--platform", "android",
                "intent://x#Intent;scheme=bankid;component=com.bankid.bus/.Debug;launchFlags=0x10008000;end",
                "intent:#Intent;package=com.example.shop;component=com.example.shop/.AdminActivity;end",
            ],
            files: [
                "policy.yaml": Self.policy,
                "env.yaml": Self.environment + "\n  - name: Shop\n    package: com.example.shop\n    behaviour: {host: true}\n",
            ])
        #expect(hosted.status == 0, "\(hosted)")
        let launches = try objects(hosted)
        #expect(launches.map { $0["rule"] as? String } == ["intent.app", "intent.host"])
        #expect(
            launches[0]["target"] as? String
                == "intent://x#Intent;scheme=bankid;category=android.intent.category.BROWSABLE;launchFlags=0x10000000;end")
        #expect(launches[1]["action"] as? String == "block")

        let sub = try run(["decide", "--policy", "policy.yaml", "--frame", "sub", "javascript:alert(1)", "https://any.example/"])
        #expect(try objects(sub).map { $0["action"] as? String } == ["block", "allow"])
    }

    @Test func theDecisionDoesNotDependOnTheWorkingDirectory() throws {
        // No `goodlist` key: the built-in list answers, in a folder with no Goodlist/ and in the repository alike.
        let policy = Self.policy.replacingOccurrences(of: "goodlist: []\n", with: "").replacingOccurrences(
            of: "goodlist: []", with: "")
        let url = "https://acs4.sparebank1.no/acs"
        let elsewhere = try run(
            ["decide", "--policy", "policy.yaml", "--current", "https://x.example/", url], files: ["policy.yaml": policy])
        #expect(elsewhere.status == 0, "\(elsewhere)")
        let dir = try Project.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try policy.write(to: dir.appendingPathComponent("policy.yaml"), atomically: true, encoding: .utf8)
        let here = try CLI.run([
            "decide", "--policy", dir.appendingPathComponent("policy.yaml").path, "--current", "https://x.example/", url,
        ])
        #expect(here.stdout == elsewhere.stdout)
        #expect(elsewhere.stdout.contains("\"rule\":\"web.goodlist\""), "\(elsewhere)")
        #expect(elsewhere.stdout.contains("Goodlist/3ds.goodlist:13"), "\(elsewhere)")
    }

    @Test func aGoodlistWithAPublicSuffixWildcardIsRefused() throws {
        let policy = Self.policy.replacingOccurrences(of: "goodlist: []", with: "goodlist: ['**.github.io']")
        let r = try run(["decide", "--policy", "policy.yaml", "https://evil.github.io/phish"], files: ["policy.yaml": policy])
        #expect(r.status == 64, "\(r)")
        #expect(r.stdout.isEmpty)
        #expect(r.stderr.contains("policy.yaml:6"), "\(r)")
        #expect(r.stderr.contains("public suffix 'github.io'"), "\(r)")
    }

    @Test func malformedURLIsABlockNotAnError() throws {
        let r = try run(["decide", "--policy", "policy.yaml", "--", "http://[::1", "", "-not-a-url"])
        #expect(r.status == 0, "\(r)")
        #expect(try objects(r).map { $0["rule"] as? String } == ["url.malformed", "url.malformed", "url.malformed"])
    }

    @Test func unknownKeyExits64NamingFileLineAndKey() throws {
        let r = try run(
            ["decide", "--policy", "policy.yaml", "https://x.example/"],
            files: ["policy.yaml": Self.policy + "\nredirect: webview\n"])
        #expect(r.status == 64, "\(r)")
        #expect(r.stdout.isEmpty)
        #expect(r.stderr.contains("policy.yaml:7: redirect: unknown key"), "\(r)")
    }

    @Test func missingAndBadFilesExit64() throws {
        let missing = try run(["decide", "--policy", "nope.yaml", "https://x.example/"])
        #expect(missing.status == 64, "\(missing)")
        #expect(missing.stderr.contains("nope.yaml: no such file"), "\(missing)")

    }

    /// The files `decide` reads, in-process against the loaders it calls (PolicyFile.load, EnvironmentFile.device).
    @Test func badPolicyAndEnvironmentFilesNameFileLineAndKey() throws {
        let dir = try Project.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let env = dir.appendingPathComponent("env.yaml").path
        try "apps:\n  - name: X\n    schemes: 42x\n".write(toFile: env, atomically: true, encoding: .utf8)
        #expect(
            throws: ConfigError(file: env, line: 3, key: "apps[0].schemes[0]", "expected a URL scheme (like bankid), found '42x'")
        ) {
            try EnvironmentFile.device(path: env)
        }
        let policy = dir.appendingPathComponent("policy.yaml").path
        try Self.policy.replacingOccurrences(of: "https://shop.example.com/cancel", with: "cancel").write(
            toFile: policy, atomically: true, encoding: .utf8)
        #expect(
            throws: ConfigError(
                file: policy, line: 4, key: "cancelUrl",
                "expected an absolute URL (like https://shop.example.com/path), found 'cancel'")
        ) {
            try PolicyFile.load(path: policy)
        }
    }

    @Test func usageErrorsExit64() throws {
        let noURL = try run(["decide", "--policy", "policy.yaml"])
        #expect(noURL.status == 64, "\(noURL)")
        #expect(!noURL.stderr.isEmpty)
        let badFrame = try run(["decide", "--policy", "policy.yaml", "--frame", "top", "https://x.example/"])
        #expect(badFrame.status == 64, "\(badFrame)")
        let badPlatform = try run(["decide", "--policy", "policy.yaml", "--platform", "windows", "https://x.example/"])
        #expect(badPlatform.status == 64, "\(badPlatform)")
        let badCurrent = try run(["decide", "--policy", "policy.yaml", "--current", "acs page", "https://x.example/"])
        #expect(badCurrent.status == 64, "\(badCurrent)")
        #expect(badCurrent.stderr.contains("--current: expected an absolute URL"), "\(badCurrent)")
    }

    @Test func dashReadsURLsFromStandardInput() throws {
        let dir = try Project.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Self.policy.write(to: dir.appendingPathComponent("policy.yaml"), atomically: true, encoding: .utf8)
        let urls =
            (0..<500).map { "https://shop.example.com/item/\($0)" } + [
                "javascript:alert(1)", "https://shop.example.com/complete",
            ]
        let r = try CLI.run(
            ["decide", "--policy", "policy.yaml", "-"], stdin: Data((urls.joined(separator: "\r\n") + "\n").utf8), in: dir)
        #expect(r.status == 0, "\(r)")
        let objs = try objects(r)
        #expect(objs.count == 502)
        #expect(objs.last?["action"] as? String == "complete")
        #expect(objs[500]["url"] as? String == "javascript:alert(1)")
    }

    @Test func hundredKilobyteURLIsDecided() throws {
        let url = "https://shop.example.com/" + String(repeating: "a", count: 100_000)
        let r = try run(["decide", "--policy", "policy.yaml", url])
        #expect(r.status == 0)
        #expect(try objects(r).first?["rule"] as? String == "web.own-host")
    }
}
