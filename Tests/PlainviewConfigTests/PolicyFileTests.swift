import Foundation
import Testing
import TestSupport
@testable import NavigationPolicy
@testable import PlainviewConfig
import Synchronization

private let minimal = """
    paymentUrl: https://shop.example.com/pay?order=42
    completeUrl: https://shop.example.com/complete
    cancelUrl: https://shop.example.com/cancel
    """

@Suite struct PolicyFileTests {
    @Test func fullYAMLFileLoads() throws {
        let p = try PolicyFile.parse(
            """
            platform: android
            paymentUrl: https://shop.example.com/pay?order=42
            completeUrl: https://shop.example.com/complete
            cancelUrl: https://shop.example.com/cancel
            termsOfServiceUrl: https://shop.example.com/terms
            callbackScheme: ShopApp
            redirectPolicy: browser
            goodlist: ["**.payex.com", "*.3dsecure.no"]
            allowedHosts: [Shop.Example.com., cdn.example.net]
            """)
        #expect(p.platform == .android)
        #expect(p.paymentURL == "https://shop.example.com/pay?order=42")
        #expect(p.termsOfServiceURL == "https://shop.example.com/terms")
        #expect(p.callbackScheme == "shopapp")
        #expect(p.redirectPolicy == .browser)
        #expect(p.allowedHosts == ["shop.example.com", "cdn.example.net"])
    }

    @Test func jsonWithTheSameKeysLoads() throws {
        let p = try PolicyFile.parse(
            """
            {"platform": "ios", "paymentUrl": "https://shop.example.com/pay?order=42",
             "completeUrl": "https://shop.example.com/complete", "cancelUrl": "https://shop.example.com/cancel",
             "redirectPolicy": "webview"}
            """, file: "p.json")
        #expect(p.platform == .ios)
        #expect(p.redirectPolicy == .webview)
        #expect(p.allowedHosts == ["shop.example.com"])
    }

    @Test func defaultsFollowThePlatform() throws {
        #expect(try PolicyFile.parse(minimal).redirectPolicy == .goodlist)
        #expect(try PolicyFile.parse(minimal).platform == .ios)
        #expect(try PolicyFile.parse(minimal, platform: .android).redirectPolicy == .webview)
        #expect(try PolicyFile.parse("platform: ios\n" + minimal, platform: .android).platform == .android)
    }

    struct BadCase: Sendable, CustomTestStringConvertible {
        var text: String
        var line: Int?
        var key: String?
        var contains: String
        var testDescription: String { contains }
    }

    static let bad: [BadCase] = [
        BadCase(text: minimal + "\nredirect: goodlist", line: 4, key: "redirect", contains: "unknown key"),
        BadCase(
            text: "paymentUrl: https://shop.example.com/pay\ncompleteUrl: https://shop.example.com/c", line: 1, key: "cancelUrl",
            contains: "missing required key"),
        BadCase(
            text: minimal.replacingOccurrences(of: "https://shop.example.com/complete", with: "not a url"), line: 2,
            key: "completeUrl", contains: "expected an absolute URL"),
        BadCase(
            text: minimal.replacingOccurrences(of: "https://shop.example.com/complete", with: "javascript:alert(1)"), line: 2,
            key: "completeUrl", contains: "javascript:"),
        BadCase(
            text: minimal.replacingOccurrences(of: "https://shop.example.com/cancel", with: "[a, b]"), line: 3, key: "cancelUrl",
            contains: "expected a string, found a list"),
        BadCase(text: "platform: windows\n" + minimal, line: 1, key: "platform", contains: "expected ios or android"),
        BadCase(
            text: minimal + "\nredirectPolicy: sometimes", line: 4, key: "redirectPolicy",
            contains: "expected goodlist, webview or browser"),
        BadCase(text: minimal + "\ncallbackScheme: https", line: 4, key: "callbackScheme", contains: "reserved scheme"),
        BadCase(text: minimal + "\ncallbackScheme: 'my app'", line: 4, key: "callbackScheme", contains: "expected a URL scheme"),
        BadCase(
            text: minimal + "\nallowedHosts: [shop.example.com/path]", line: 4, key: "allowedHosts[0]",
            contains: "expected a host, *.host or **.host"),
        BadCase(
            text: minimal + "\nallowedHosts: [a..b]", line: 4, key: "allowedHosts[0]",
            contains: "expected a host, *.host or **.host"),
        BadCase(
            text: minimal + "\nallowedHosts: ['evil*.shop.example']", line: 4, key: "allowedHosts[0]", contains: "expected a host"
        ),
        BadCase(
            text: minimal + "\nallowedHosts: ['**.shop.example:8443']", line: 4, key: "allowedHosts[0]",
            contains: "expected a host"),
        BadCase(
            text: minimal + "\nallowedHosts: ['ftp://shop.example']", line: 4, key: "allowedHosts[0]", contains: "expected a host"
        ),
        BadCase(
            text: minimal + "\ngoodlist: ['**.github.io']", line: 4, key: "goodlist",
            contains: "wildcard over the public suffix 'github.io'"),
        BadCase(
            text: minimal + "\ngoodlist: ['acs.bank.example', '*.com']", line: 4, key: "goodlist",
            contains: "allowPublicSuffixWildcards"),
        BadCase(
            text: minimal + "\nallowPublicSuffixWildcards: maybe", line: 4, key: "allowPublicSuffixWildcards",
            contains: "true or false"),
        BadCase(
            text: minimal + "\ngoodlist: [lists/missing.goodlist]", line: 4, key: "goodlist[0]", contains: "no such goodlist file"
        ),
        BadCase(text: minimal + "\ngoodlist: ['evil*.com']", line: 4, key: "goodlist[0]", contains: "host pattern"),
        BadCase(text: "paymentUrl: [unclosed", line: 2, key: nil, contains: "invalid YAML"),
        BadCase(text: "- just\n- a list", line: 1, key: nil, contains: "expected a mapping"),
        BadCase(text: "", line: nil, key: nil, contains: "is empty"),
    ]

    @Test(arguments: bad)
    func badFilesNameFileLineAndKey(_ c: BadCase) {
        do {
            _ = try PolicyFile.parse(c.text, file: "shop.policy.yaml")
            Issue.record("expected an error")
        } catch let e { // ConfigError: the parsers' throws are typed
            #expect(e.file == "shop.policy.yaml")
            #expect(e.line == c.line, "\(e)")
            #expect(e.key == c.key, "\(e)")
            #expect(e.message.contains(c.contains), "\(e)")
        }
    }

    @Test func aPublicSuffixWildcardIsUsedOnlyWhenThePolicySaysSo() throws {
        let p = try PolicyFile.parse(minimal + "\ngoodlist: ['**.github.io']\nallowPublicSuffixWildcards: true", file: "p.yaml")
        let e = NavigationPolicyEngine(policy: p)
        #expect(
            e.decide(Navigation(url: "https://evil.github.io/phish", currentURL: "https://acs.bank.example/")).rule
                == .webGoodlist)
    }

    @Test func aPublicSuffixWildcardInAGoodlistFileNamesTheFileAndLine() throws {
        let dir = try Project.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try "acs.bank.example issuer=Bank\n# a comment\n*.com issuer=Oops\n".write(
            to: dir.appendingPathComponent("mine.goodlist"), atomically: true, encoding: .utf8)
        try (minimal + "\ngoodlist: [mine.goodlist]\n").write(
            to: dir.appendingPathComponent("policy.yaml"), atomically: true, encoding: .utf8)
        #expect(throws: ConfigError.self) { _ = try PolicyFile.load(path: dir.appendingPathComponent("policy.yaml").path) }
        do {
            _ = try PolicyFile.load(path: dir.appendingPathComponent("policy.yaml").path)
        } catch {
            #expect(error.file == "mine.goodlist", "\(error)")
            #expect(error.line == 3, "\(error)")
        }
    }

    @Test func withoutAGoodlistKeyTheBuiltInListAppliesAnywhere() throws {
        let p = try PolicyFile.parse(minimal, file: "p.yaml", baseDirectory: "/")
        #expect(p.goodlist.entries.count == DefaultGoodlist.entries.count)
        let d = NavigationPolicyEngine(policy: p).decide(
            Navigation(url: "https://acs4.sparebank1.no/acs", currentURL: "https://x.example/"))
        #expect(d.rule == .webGoodlist)
        #expect(d.reason.contains("Goodlist/3ds.goodlist:13"), "\(d.reason)")
    }

    @Test func aPolicyNamesTheBuiltInListToExtendIt() throws {
        let p = try PolicyFile.parse(
            minimal + "\ngoodlist: [plainview:3ds, '**.mybank.example']", file: "p.yaml", baseDirectory: "/")
        #expect(p.goodlist.entries.count == DefaultGoodlist.entries.count + 1)
        let e = NavigationPolicyEngine(policy: p)
        let built = e.decide(Navigation(url: "https://acs4.sparebank1.no/acs", currentURL: "https://x.example/"))
        #expect(built.rule == .webGoodlist)
        #expect(built.reason.contains("Goodlist/3ds.goodlist:13"), "\(built.reason)")
        #expect(e.decide(Navigation(url: "https://acs.mybank.example/", currentURL: "https://x.example/")).rule == .webGoodlist)
        // Naming only your own entries replaces the built-in list.
        let own = try PolicyFile.parse(minimal + "\ngoodlist: ['**.mybank.example']", file: "p.yaml", baseDirectory: "/")
        #expect(
            NavigationPolicyEngine(policy: own).decide(
                Navigation(url: "https://acs4.sparebank1.no/acs", currentURL: "https://x.example/")
            ).rule != .webGoodlist)
        // A misspelled name is an error naming the key and the right name, never an empty list.
        #expect {
            try PolicyFile.parse(minimal + "\ngoodlist: [plainview:3d]", file: "p.yaml", baseDirectory: "/")
        } throws: { error in
            "\(error)".contains("p.yaml") && "\(error)".contains("plainview:3ds (the built-in list)")
        }
    }

    @Test func allowedHostsTakeGoodlistPatterns() throws {
        let p = try PolicyFile.parse(
            minimal + "\nallowedHosts: ['**.nordshop.se', 'http://localhost:8080', 'Shop.Example.com.']", file: "p.yaml")
        let e = NavigationPolicyEngine(policy: p)
        let current = "https://acs.bank.example/"
        #expect(e.decide(Navigation(url: "https://nordshop.se/", currentURL: current)).rule == .webOwnHost)
        #expect(e.decide(Navigation(url: "https://a.b.nordshop.se/x", currentURL: current)).rule == .webOwnHost)
        #expect(e.decide(Navigation(url: "https://evilnordshop.se/", currentURL: current)).rule == .webPickyPage)
        #expect(e.decide(Navigation(url: "https://a.nordshop.se:8443/", currentURL: current)).rule == .webPickyPage)
        #expect(e.decide(Navigation(url: "http://a.nordshop.se/", currentURL: current)).rule == .webInsecure)
        #expect(e.decide(Navigation(url: "http://localhost:8080/pay", currentURL: current)).rule == .webOwnHost)
        #expect(e.decide(Navigation(url: "https://shop.example.com/x", currentURL: current)).rule == .webOwnHost)
    }

    @Test func goodlistFilesResolveRelativeToThePolicyFile() throws {
        let dir = try Project.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("lists"), withIntermediateDirectories: true)
        try "# 3DS hosts\n**.payex.com\n\nacs1.luottokunta.fi   # tested 2024\n".write(
            to: dir.appendingPathComponent("lists/3ds.goodlist"), atomically: true, encoding: .utf8)
        let policyURL = dir.appendingPathComponent("shop.yaml")
        try (minimal + "\ngoodlist: [lists/3ds.goodlist, '*.3dsecure.no']\n").write(
            to: policyURL, atomically: true, encoding: .utf8)
        let p = try PolicyFile.load(path: policyURL.path)
        #expect(p.goodlist.match(host: "ecom.payex.com")?.line == 2)
        #expect(p.goodlist.match(host: "acs1.luottokunta.fi")?.file == "lists/3ds.goodlist")
        #expect(p.goodlist.match(host: "a.3dsecure.no") != nil)
        #expect(p.goodlist.match(host: "evilpayex.com") == nil)
        let entries = try GoodlistFiles.load(
            path: dir.appendingPathComponent("lists/3ds.goodlist").path, displayName: "lists/3ds.goodlist", isDirectory: false)
        #expect(entries.map(\.pattern) == ["**.payex.com", "acs1.luottokunta.fi"])
        #expect(entries.map(\.line) == [2, 4])
    }

    @Test func badGoodlistFileLineIsReported() throws {
        let dir = try Project.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try "ok.example\nevil*.example  # wildcard inside a label\n".write(
            to: dir.appendingPathComponent("x.goodlist"), atomically: true, encoding: .utf8)
        try (minimal + "\ngoodlist: [x.goodlist]\n").write(
            to: dir.appendingPathComponent("p.yaml"), atomically: true, encoding: .utf8)
        do {
            _ = try PolicyFile.load(path: dir.appendingPathComponent("p.yaml").path)
            Issue.record("expected an error for the bad goodlist line")
        } catch let e { // ConfigError: the parsers' throws are typed
            #expect(e.file == "x.goodlist", "\(e)")
            #expect(e.line == 2, "\(e)")
            #expect(!e.message.isEmpty)
        }
    }

    @Test func missingFileIsAnError() {
        #expect(throws: ConfigError(file: "/nonexistent/policy.yaml", "no such file")) {
            _ = try PolicyFile.load(path: "/nonexistent/policy.yaml")
        }
    }
}

@Suite struct EnvironmentFileTests {
    @Test func designExampleLoads() throws {
        let env = try EnvironmentFile.parse(
            """
            apps:
              - name: BankID
                schemes: [bankid]
                universalLinks:
                  - host: App.BankID.com.
                    paths: ["/*"]
                package: com.bankid.bus
                appLinks: [{host: app.bankid.com, paths: ["/*"]}]
              - name: Swish
                schemes: ["swish:"]
            """)
        #expect(env.apps.map(\.name) == ["BankID", "Swish"])
        #expect(env.apps[0].universalLinks == [.init(host: "app.bankid.com", paths: ["/*"])])
        #expect(env.apps[0].appLinks == [.init(host: "app.bankid.com", paths: ["/*"])])
        #expect(env.apps[1].schemes == ["swish"])
        let system = EnvironmentSystem(env)
        #expect(system.universalLinkApp(for: "https://app.bankid.com/?autostarttoken=1") == "BankID")
        #expect(system.customSchemeApp(for: "SWISH") == "Swish")
        #expect(system.customSchemeApp(for: "vipps") == nil)
    }

    /// The file CI's flows use loads in the app: behaviours are read (strictly), the built-in models fill in their
    /// schemes, links and package, and the host app is known; what the simulated apps do is left to the simulator.
    @Test func theSimulatorsEnvironmentFileLoadsAsTheDevice() throws {
        let env = try EnvironmentFile.parse(
            """
            apps:
              - name: Shop
                package: com.example.shop
                behaviour: {host: true}
              - name: BankID
                behaviour: {model: bankid}
              - name: Bank
                schemes: [bankapp]
                behaviour: {then: complete, returnTo: {queryParameter: return}}
            """)
        #expect(env.hostApp == "Shop")
        #expect(env.apps.map(\.name) == ["Shop", "BankID", "Bank"])
        let system = EnvironmentSystem(env)
        #expect(system.customSchemeApp(for: "bankid") == "BankID")
        #expect(system.universalLinkApp(for: "https://app.bankid.com/?autostarttoken=1") == "BankID")
        #expect(system.customSchemeApp(for: "bankapp") == "Bank")
        #expect(system.isHostApp("Shop"))
        // The shipped Pages' environment files load as they are.
        for name in ["android-environment.yaml", "ios-environment.yaml", "ios-app-switch-environment.yaml"] {
            _ = try EnvironmentFile.load(path: Project.path("Pages/common/\(name)").path)
        }
    }

    @Test func aasaFileIsReadRelativeToTheEnvironmentFile() throws {
        let dir = try Project.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try #"{"applinks":{"details":[{"appID":"T.x","paths":["/*"]}]}}"#.write(
            to: dir.appendingPathComponent("aasa.json"), atomically: true, encoding: .utf8)
        try "apps:\n  - name: X\n    universalLinks: [{host: x.example, aasa: aasa.json}]\n".write(
            to: dir.appendingPathComponent("env.yaml"), atomically: true, encoding: .utf8)
        let env = try EnvironmentFile.load(path: dir.appendingPathComponent("env.yaml").path)
        #expect(env.apps[0].universalLinks[0].aasa == "aasa.json")
        #expect(env.apps[0].universalLinks[0].aasaJSON?.contains("applinks") == true)
        let system = EnvironmentSystem(env)
        #expect(system.universalLinkApp(for: "https://X.example./pay") == "X")
        #expect(system.universalLinkApp(for: "https://other.example/pay") == nil)
        #expect(system.universalLinkApp(for: "http://x.example/pay") == nil)
    }

    static let bad: [(String, Int?, String?, String)] = [
        ("apps:\n  - name: X\n    scheme: [x]\n", 3, "apps[0].scheme", "unknown key"),
        ("apps:\n  - schemes: [x]\n", 2, "apps[0].name", "missing required key"),
        ("apps:\n  - name: X\n    schemes: [javascript]\n", 3, "apps[0].schemes[0]", "cannot be an app's custom scheme"),
        ("apps:\n  - name: X\n    universalLinks: [{host: x.example}]\n", 3, "apps[0].universalLinks[0]", "exactly one of paths"),
        (
            "apps:\n  - name: X\n    universalLinks: [{host: 'a b', paths: ['/*']}]\n", 3, "apps[0].universalLinks[0].host",
            "expected a host name"
        ),
        (
            "apps:\n  - name: X\n    universalLinks: [{host: x.example, aasa: missing.json}]\n", 3,
            "apps[0].universalLinks[0].aasa", "cannot read the AASA file"
        ),
        ("apps: {name: X}\n", 1, "apps", "expected a list"),
        (
            "apps:\n  - name: X\n    universalLinks: [{host: x.example, aasa: bad.json}]\n", 3, "apps[0].universalLinks[0].aasa",
            "is not valid"
        ),
        ("devices: []\n", 1, "devices", "unknown key"),
        (
            "apps:\n  - name: X\n    behaviour: {then: finish}\n", 3, "apps[0].behaviour.then",
            "expected complete, cancel, fail or wait"
        ),
    ]

    /// A folder with `bad.json` (JSON, but not an AASA document).
    static let fixtures: String = {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("plainview-envfile-fixtures-\(getpid())")
        try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try? #"{"webcredentials": {"apps": []}, "applinks": 42}"#.write(
            to: dir.appendingPathComponent("bad.json"), atomically: true, encoding: .utf8)
        return dir.path
    }()

    @Test(arguments: 0..<bad.count)
    func badFilesNameFileLineAndKey(_ i: Int) {
        let (text, line, key, contains) = Self.bad[i]
        do {
            _ = try EnvironmentFile.parse(text, file: "device.yaml", baseDirectory: Self.fixtures)
            Issue.record("expected an error for \(text)")
        } catch let e { // ConfigError: the parsers' throws are typed
            #expect(e.file == "device.yaml")
            #expect(e.line == line, "\(e)")
            #expect(e.key == key, "\(e)")
            #expect(e.message.contains(contains), "\(e)")
        }
    }
}

@Suite struct InlineNodeDecodingTests {
    @Test func policyAndEnvironmentDecodeFromInlineNodes() throws {
        let flow = try ConfigNode.parse(
            """
            policy:
              paymentUrl: https://shop.example.com/pay
              completeUrl: https://shop.example.com/complete
              cancelUrl: https://shop.example.com/cancel
            environment:
              apps:
                - name: BankID
                  schemes: [bankid]
                  behaviour: {anything: here}
            """, file: "flow.yaml"
        ).fields(["policy", "environment"])
        let policy = try PolicyFile.decode(try flow.required("policy"), baseDirectory: ".")
        #expect(policy.completeURL == "https://shop.example.com/complete")
        let seen = Mutex<String?>(nil)
        let loaded: LoadedEnvironment<String> = try EnvironmentFile.decode(try flow.required("environment"), baseDirectory: ".") {
            node in
            seen.withLock { $0 = "\(node.file) \(node.path) \(node.line ?? 0)" }
            return ("decoded", KnownApp.bankID)
        }
        #expect(loaded.behaviours == ["BankID": "decoded"])
        #expect(loaded.environment.apps.first?.model == .bankID)
        #expect(seen.withLock { $0 } == "flow.yaml environment.apps[0].behaviour 9")
    }

    @Test func inlinePolicyErrorsNameTheFlowFileAndThePolicyKey() throws {
        let flow = try ConfigNode.parse(
            "name: x\npolicy:\n  paymentUrl: https://shop.example.com/pay\n  completeUrl: nope\n",
            file: "flow.yaml"
        ).fields(["name", "policy"])
        #expect(
            throws: ConfigError(
                file: "flow.yaml", line: 4, key: "policy.completeUrl",
                "expected an absolute URL (like https://shop.example.com/path), found 'nope'")
        ) {
            _ = try PolicyFile.decode(try flow.required("policy"), baseDirectory: ".")
        }
    }

    @Test func behaviourDecoderErrorsKeepFileLineAndKey() throws {
        let root = try ConfigNode.parse("apps:\n  - name: X\n    behaviour: {then: explode}\n", file: "env.yaml")
        #expect(
            throws: ConfigError(
                file: "env.yaml", line: 3, key: "apps[0].behaviour.then", "expected complete, cancel, fail or wait")
        ) {
            _ = try EnvironmentFile.decode(root, baseDirectory: ".") { node throws(ConfigError) -> (String, KnownApp?) in
                throw ConfigError(
                    file: node.file, line: node.line, key: node.keyPath("then"), "expected complete, cancel, fail or wait")
            }
        }
    }
}
