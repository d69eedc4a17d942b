// Fuzzing the decision procedure against the contract's security rules (docs/decisions.md, the security rules):
// script/local schemes never reach an app or load at top level; userinfo, backslash and similar tricks
// never make a host more welcome than the host a browser would really contact; malformed URLs are blocked;
// every decision carries a rule and a reason. Seeded, bounded, with a device where every app is installed
// (the worst case for "open-app").
import Foundation
import Testing
import TestSupport
@testable import NavigationPolicy

@Suite("Fuzz: navigation policy engine")
struct EngineFuzzTests {
    /// Every app installed: every URL some app could take, it takes.
    struct EverythingInstalled: SystemServices {
        func universalLinkApp(for url: String) -> String? { "com.example.ul" }
        func appLinkApp(for url: String) -> String? { "com.example.applink" }
        func customSchemeApp(for scheme: String) -> String? { "app.\(scheme)" }
        func intentApp(for intent: AndroidIntent) -> String? { "com.example.intent" }
    }

    static let allowed = ["shop.example.com", "psp.example"]
    static let attacker = "evil.example"

    static let policies: [Policy] = Platform.allCases.flatMap { platform in
        RedirectPolicy.allCases.map { redirect in
            Policy(
                platform: platform, paymentURL: "https://shop.example.com/pay?o=1", completeURL: "https://shop.example.com/done",
                cancelURL: "https://shop.example.com/cancel", termsOfServiceURL: "https://shop.example.com/terms",
                callbackScheme: "shopapp", redirectPolicy: redirect, allowedHosts: allowed)
        }
    }

    static let engines: [NavigationPolicyEngine] = policies.flatMap {
        [NavigationPolicyEngine(policy: $0), NavigationPolicyEngine(policy: $0, system: EverythingInstalled())]
    }

    static let unsafeSchemes = ["javascript", "file", "data", "vbscript"]

    static let corpus: [String] = {
        var urls = FuzzCorpus.strings(in: "android_external_navigation_chromium.json") { $0.contains(":") && !$0.contains(" ") }
        urls += FuzzCorpus.strings(in: "geckoview_intentutils_safe_uri.json") { $0.contains(":") }
        urls += FuzzCorpus.strings(in: "react_native_webview_origin_whitelist.json") { $0.contains(":") }
        urls += [
            "https://shop.example.com/pay?o=1", "https://shop.example.com/done?x=1", "shopapp://shop.example.com/pay?o=1",
            "https://psp.example/3ds", "https://evil.example/", "swish://paymentrequest?token=T&callbackurl=shopapp%3A%2F%2F",
            "bankid:///?autostarttoken=7c40b5c9-fa74-49cf-b98c-bfe651f9a7c6&redirect=null",
            "intent://shop.example.com/pay#Intent;scheme=https;package=com.example;S.browser_fallback_url=https%3A%2F%2Fshop.example.com%2F;end",
            "javascript:alert(1)", "data:text/html,<b>x</b>", "file:///etc/passwd",
        ]
        return urls
    }()

    static let dictionary = [
        "https://", "http://", "javascript:", "JaVaScRiPt:", "data:", "file:", "vbscript:", "intent:", "#Intent;", ";end",
        "scheme=javascript;", "S.browser_fallback_url=", "@", "\\", "%40", "%2F", "%00", "#", "?", ":443", ":99999", "[",
        "]", "shop.example.com", "evil.example", ".", "..", "\t", "\n", " ", "\u{0}", "é", "xn--", "。", "shopapp://",
    ]

    // MARK: properties

    /// Every decision names its rule and gives a reason; nothing handed on uses a script or local scheme;
    /// an intent handed to the OS has safe data.
    static func checkDecision(_ d: Decision, for n: Navigation, _ findings: inout FuzzFindings) {
        if d.rule.rawValue.isEmpty || d.reason.isEmpty { findings.record("decision without rule or reason", input: n.url) }
        if let target = d.action.target, let s = AndroidIntent.lenientScheme(of: target), unsafeSchemes.contains(s) {
            findings.record("\(d.action.name) hands on an unsafe scheme", input: n.url, detail: target)
        }
        if case .openApp(let target, .intent) = d.action, let intent = try? AndroidIntent.parse(target), intent.isUnsafeData {
            findings.record("open-app with an intent whose data is unsafe", input: n.url, detail: target)
        }
        if n.frame == .main, let s = AndroidIntent.lenientScheme(of: n.url), unsafeSchemes.contains(s) {
            switch d.action {
            case .allow, .openApp: findings.record("top-level \(s): got \(d.action.name)", input: n.url)
            default: break
            }
        }
    }

    static func navigation(_ url: String, _ rng: inout FuzzRNG) -> Navigation {
        Navigation(
            url: url, currentURL: rng.pick([nil, "https://shop.example.com/pay?o=1", "https://psp.example/3ds"]),
            frame: rng.pick(NavigationFrame.allCases), trigger: rng.pick(NavigationTrigger.allCases),
            userGesture: rng.pick([nil, true, false]), method: rng.pick(["GET", "POST", "get"]))
    }

    @Test(arguments: [UInt64(1), 2, 3])
    func mutatedNavigationsKeepTheSecurityRules(seed: UInt64) {
        var fuzz = FuzzRun(seed: seed, dictionary: Self.dictionary)
        for _ in 0..<1000 {
            let url = fuzz.mutant(of: Self.corpus)
            let n = Self.navigation(url, &fuzz.rng)
            Self.checkDecision(fuzz.rng.pick(Self.engines).decide(n), for: n, &fuzz.findings)
        }
        #expect(fuzz.findings.isEmpty, "\(fuzz.findings)")
    }

    @Test(arguments: [UInt64(11), 12])
    func disguisedScriptAndLocalSchemesNeverOpenAnAppOrLoadAtTopLevel(seed: UInt64) {
        var fuzz = FuzzRun(seed: seed)
        for _ in 0..<250 {
            let engines = (0..<4).map { _ in fuzz.rng.pick(Self.engines) }
            let scheme = IntentFuzzTests.disguise(fuzz.rng.pick(Self.unsafeSchemes), &fuzz.rng)
            let rest = fuzz.rng.pick([
                "alert(1)", "//shop.example.com/pay?o=1", "///etc/passwd", "text/html,<script>x</script>",
                "//evil.example/%0Aalert(1)", "",
            ])
            var n = Self.navigation(scheme + ":" + rest, &fuzz.rng)
            n.frame = .main
            for engine in engines { Self.checkDecision(engine.decide(n), for: n, &fuzz.findings) }
            // The same inside an intent (data and browser fallback) and as a custom-scheme callback target.
            let clean = scheme.unicodeScalars.filter { $0.value > 0x20 && $0.value != 0x7F }.map(String.init).joined()
            for wrapped in [
                "intent:\(rest)#Intent;scheme=\(clean);package=com.example;end",
                "intent://x#Intent;scheme=https;S.browser_fallback_url=\(clean)%3Aalert(1);end",
                "intent://x#Intent;SEL;scheme=\(clean);end",
            ] {
                let w = Navigation(url: wrapped, frame: .main, trigger: .link)
                for engine in engines { Self.checkDecision(engine.decide(w), for: w, &fuzz.findings) }
            }
        }
        #expect(fuzz.findings.isEmpty, "\(fuzz.findings)")
    }

    /// Variants whose real host (as a browser parses them, WHATWG) is the attacker's, however much of an
    /// allowed host they show.
    static func hostTricks(allowed h: String, attacker e: String) -> [String] {
        [
            "https://\(h)@\(e)/", "https://\(h):443@\(e)/pay", "https://\(e)\\@\(h)/", "https://\(e)\\\(h)/",
            "https://\(e)#@\(h)/", "https://\(e)?@\(h)/", "https://\(h).\(e)/", "https://\(h)%2F@\(e)/",
            "https://\(h)\t@\(e)/", " https://\(h)@\(e)/", "HTTPS://\(h.uppercased())@\(e)/", "https://:\(h)@\(e)/",
            "https://\(e):443\\@\(h)/", "https:\\\\\(e)\\\(h)", "https://\(h)%40\(e)/", "https://\(e)%2F\(h)/",
            "https://\(e)%00\(h)/", "https://\(e)/\(h)", "https://x\(h)/", "https://\(h)x/", "http://\(h)@\(e)/",
        ]
    }

    @Test func userinfoAndBackslashTricksNeverWidenWhatIsAllowed() {
        var findings = FuzzFindings()
        for engine in Self.engines {
            for h in Self.allowed {
                for frame in NavigationFrame.allCases {
                    let baseline = engine.decide(
                        Navigation(url: "https://\(Self.attacker)/", currentURL: "https://shop.example.com/pay?o=1", frame: frame)
                    )
                    for trick in Self.hostTricks(allowed: h, attacker: Self.attacker) {
                        let n = Navigation(url: trick, currentURL: "https://shop.example.com/pay?o=1", frame: frame)
                        let d = engine.decide(n)
                        Self.checkDecision(d, for: n, &findings)
                        let context = "\(engine.policy.platform), \(engine.policy.redirectPolicy), \(frame)"
                        if d.action == .allow, baseline.action != .allow {
                            findings.record(
                                "a trick URL is allowed where its real host is not (\(context))", input: trick,
                                detail: "\(d.rule): \(d.reason)")
                        }
                        if d.action.via != nil, baseline.action.via == nil {
                            findings.record(
                                "a trick URL opens an app where its real host does not (\(context))", input: trick,
                                detail: "\(d.rule): \(d.reason)")
                        }
                    }
                }
            }
        }
        #expect(findings.isEmpty, "\(findings)")
    }

    /// URLs no browser could load are blocked, whatever the policy.
    @Test(arguments: [
        "", " ", "https://", "http://", "https://[::1/", "https://exa mple.com/", "https://shop.example.com:99999/",
        "https://shop.example.com:port/", "https://%/", "https://a\u{0}b/", "https://shop.example.com\u{0}/", "http://[zz]/",
    ])
    func malformedURLsAreBlocked(_ url: String) {
        for engine in Self.engines {
            for frame in NavigationFrame.allCases {
                let d = engine.decide(Navigation(url: url, frame: frame))
                #expect(
                    d.action == .block,
                    "\(engine.policy.platform) \(engine.policy.redirectPolicy) \(frame): \(d.action.name) (\(d.rule): \(d.reason))"
                )
            }
        }
    }

    /// WHATWG URL parsing failures on http(s) inputs are never allowed or handed to an app.
    @Test func whatwgFailuresAreNeverAllowed() {
        struct Row: Decodable { var input: String; var base: String?; var failure: Bool? }
        let rows = (try? Project.conformanceCases("url_whatwg_urltestdata_subset.json", as: Row.self)) ?? []
        let failures = rows.filter {
            $0.failure == true && ($0.input.lowercased().hasPrefix("http:") || $0.input.lowercased().hasPrefix("https:"))
        }
        #expect(failures.count > 10)
        var findings = FuzzFindings()
        for row in failures {
            for engine in Self.engines {
                let n = Navigation(url: row.input, currentURL: row.base)
                let d = engine.decide(n)
                Self.checkDecision(d, for: n, &findings)
                if d.action == .allow || d.action.via != nil {
                    findings.record("a URL that fails WHATWG parsing got \(d.action.name)", input: row.input, detail: "\(d.rule)")
                }
            }
        }
        #expect(findings.isEmpty, "\(findings)")
    }
}
