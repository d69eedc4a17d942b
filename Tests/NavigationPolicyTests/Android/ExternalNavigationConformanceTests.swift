@testable import PlainviewURL
import Foundation
import Testing
import TestSupport
@testable import NavigationPolicy

/// A device where every scheme, package, universal link and app link has an app: the worst case for safety
/// rules (an unsafe URL must be blocked even though an app would take it).
struct EverythingInstalled: SystemServices {
    func universalLinkApp(for url: String) -> String? { "AnyApp" }
    func appLinkApp(for url: String) -> String? { "AnyApp" }
    func customSchemeApp(for scheme: String) -> String? { "\(scheme)-app" }
    func intentApp(for intent: AndroidIntent) -> String? { intent.package ?? "AnyApp" }
}

private func androidEngine(_ system: any SystemServices) -> NavigationPolicyEngine {
    NavigationPolicyEngine(policy: Fixture.policy(.android), system: system)
}

/// `Tests/Vectors/conformance/geckoview_intentutils_safe_uri.json`: GeckoView's "safe to hand to Android" check.
@Suite struct GeckoViewSafeURIConformanceTests {
    struct Case: Decodable, Sendable, CustomTestStringConvertible {
        var id: Int
        var function: String
        var input: String
        var expected: Bool?
        var testDescription: String { "\(id): \(input)" }
        enum CodingKeys: String, CodingKey { case id, function, input, expected }
        init(from decoder: Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            id = try c.decode(Int.self, forKey: .id)
            function = try c.decode(String.self, forKey: .function)
            input = try c.decode(String.self, forKey: .input)
            expected = try? c.decode(Bool.self, forKey: .expected)
        }
    }

    static let cases: [Case] = Project.requiredConformanceCases("geckoview_intentutils_safe_uri.json")

    @Test func allCasesLoaded() { #expect(Self.cases.count == 10) }

    /// Safe URIs may reach an app when one is installed; unsafe ones are blocked even then.
    @Test(arguments: cases.filter { $0.function == "isUriSafeForScheme" })
    func unsafeURIsNeverReachAnApp(_ c: Case) throws {
        let d = androidEngine(EverythingInstalled()).decide(Navigation(url: c.input, currentURL: Fixture.acs))
        let safe: Bool = try #require(c.expected as Bool?)
        if safe {
            #expect(d.action != .block, "\(d.rule): \(d.reason)")
            #expect(!["intent.unsafe", "custom-scheme.unsafe", "scheme.never-external"].contains(d.rule.rawValue))
        } else {
            #expect(d.action == .block, "\(d.rule): \(d.reason)")
            if case .openApp = d.action { Issue.record("unsafe URI reached an app") }
        }
    }

    /// Deviation: WHATWG serialisation adds `/` to an empty http(s) path (`https://mozilla.org/`), where
    /// Android's Uri.normalizeScheme keeps the string as is; both lower-case the scheme, which is what is checked.
    @Test func schemeIsLowerCased() throws {
        let c = try #require(Self.cases.first { $0.function == "normalizeUri" })
        #expect(WebURL(c.input)?.scheme == "https")
        #expect(WebURL(c.input)?.href == "https://mozilla.org/")
    }
}

/// `Tests/Vectors/conformance/react_native_webview_origin_whitelist.json`: which URLs load in the web view.
/// Plainview has no scheme allow-list: only http(s) ever loads at top level; every other scheme goes to an app
/// (or is blocked). Cases with an `onShouldStartLoadWithRequest` override or a whitelist narrower than
/// http/https model app code Plainview does not have and are recorded here as not applicable.
@Suite struct ReactNativeOriginWhitelistConformanceTests {
    struct Expected: Decodable, Sendable { var decision: String }
    struct Case: Decodable, Sendable, CustomTestStringConvertible {
        var id: Int
        var url: String
        var originWhitelist: [String]
        var onShouldStartLoadWithRequest: String?
        var expected: Expected
        var testDescription: String { "\(id): \(url)" }
    }

    static let all: [Case] = Project.requiredConformanceCases("react_native_webview_origin_whitelist.json")

    static func notApplicable(_ c: Case) -> String? {
        if c.onShouldStartLoadWithRequest != nil { return "an app-supplied override decides" }
        if Set(c.originWhitelist) != ["http://*", "https://*"] {
            if c.expected.decision == "load_in_webview" {
                return "a custom-scheme/https-only allow-list; Plainview loads only http(s) and never custom schemes"
            }
            if c.url.hasPrefix("http://") {
                return "https-only allow-list; Plainview's redirect policy is per host, not per scheme"
            }
        }
        return nil
    }

    static let applicable = all.filter { notApplicable($0) == nil }

    @Test func casesLoaded() {
        #expect(Self.all.count == 15)
        #expect(Self.applicable.count >= 7)
    }

    @Test(arguments: applicable)
    func onlyHTTPLoadsInTheWebView(_ c: Case) {
        let d = androidEngine(NoApps()).decide(Navigation(url: c.url, currentURL: Fixture.acs))
        if c.expected.decision == "load_in_webview" {
            #expect(d.action == .allow, "\(d.rule)")
        } else {
            #expect(d.action != .allow, "\(d.rule)")
        }
    }
}

/// `Tests/Vectors/conformance/android_external_navigation_chromium.json`: Chrome's ExternalNavigationHandler.
/// Most rows depend on browser state a web view embedding does not have (gesture chains, incognito prompts,
/// Custom Tabs, WebAPKs, trusted callers); the rows below are the ones that model a decision Plainview makes.
@Suite struct ChromiumExternalNavigationConformanceTests {
    struct Expected: Decodable, Sendable { var decision: String?; var navigate_to: String? }
    struct Case: Decodable, Sendable, CustomTestStringConvertible {
        var id: Int
        var url: String?
        var expected: Expected?
        var testDescription: String { "\(id): \(url ?? "")" }
        enum CodingKeys: String, CodingKey { case id, url, expected }
        init(from decoder: Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            id = try c.decode(Int.self, forKey: .id)
            url = try? c.decode(String.self, forKey: .url)
            expected = try? c.decode(Expected.self, forKey: .expected)
        }
    }

    static let all: [Case] = Project.requiredConformanceCases("android_external_navigation_chromium.json")

    /// Rows whose URL must never reach an app, even with every app installed.
    static let neverLaunch: Set<Int> = [19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 126, 139, 158, 159, 160]
    /// Rows where an installed app takes the intent / custom scheme.
    static let launch: Set<Int> = [
        5, 16, 41, 42, 43, 51, 52, 53, 75, 124, 125, 127, 128, 129, 142, 143, 144, 151, 155, 157, 170, 192,
    ]
    /// Rows where no app is installed and the http(s) browser_fallback_url loads instead.
    static let fallback: Set<Int> = [50]
    /// Rows where nothing can resolve the scheme: no launch.
    static let noApp: Set<Int> = [152, 154]

    /// Rows not modelled, with the reason (kept, not deleted; see the conformance README).
    static let notApplicable: [ClosedRange<Int>: String] = [
        1...4: "http(s) app-link heuristics depend on Chrome's navigation state (gesture chain, incognito, referrer)",
        6...15:
            "form-submit/redirect chain and incognito rules of Chrome; Plainview tries app links on every main-frame navigation like the seed's SDK",
        17...18: "embedder delegate switches (disable all intents, return to caller)",
        34...37: "Chrome's typed/reload/redirect-chain rules for http(s) app links",
        38...40: "Chrome's WTAI (wtai://) special handling",
        44...49: "address-bar/typed navigations and 'ask first' prompts do not exist in an embedded web view",
        54...74: "Custom Tabs, initial intents, instant apps, incognito and pairing rules of Chrome",
        76...123: "incognito prompts, referrer/same-host, WebAPK, PWA windowing, background tabs, PDF handling of Chrome",
        130...138: "Chrome's referrer and redirect-chain expiry rules",
        140...141: "file access permission prompts of Chrome",
        145...150: "WebAPK routing",
        153...153: "incognito prompt",
        156...156: "incognito prompt",
        161...166:
            "deliberate deviation: Chrome may hand intents to other browsers; Plainview launches only non-browser apps (Swedbank Pay's plain web view guide, FLAG_ACTIVITY_REQUIRE_NON_BROWSER)",
        167...169: "http(s) disambiguation dialogs",
        171...187: "target package/trusted caller and navigation-chain expiry rules of Chrome",
        188...189:
            "deliberate deviation: Chrome navigates the main frame to a sub-frame intent's data; Plainview blocks app launches from sub-frames",
        190...191: "hidden cross-frame navigations and the embedder's self scheme",
        193...201: "helper predicates, not decisions",
    ]

    static func reason(_ id: Int) -> String? { notApplicable.first { $0.key.contains(id) }?.value }

    @Test func everyRowIsModelledOrRecorded() {
        #expect(Self.all.count == 201)
        for c in Self.all {
            let modelled =
                Self.neverLaunch.contains(c.id) || Self.launch.contains(c.id) || Self.fallback.contains(c.id)
                || Self.noApp.contains(c.id)
            #expect(modelled != (Self.reason(c.id) != nil), "row \(c.id) must be modelled xor recorded")
        }
    }

    @Test(arguments: all.filter { neverLaunch.contains($0.id) })
    func unsafeURLsNeverReachAnApp(_ c: Case) {
        #expect(c.expected?.decision == "no_external_launch")
        let d = androidEngine(EverythingInstalled()).decide(Navigation(url: c.url ?? "", currentURL: Fixture.acs))
        #expect(d.action == .block, "\(d.rule): \(d.reason)")
    }

    @Test(arguments: all.filter { launch.contains($0.id) })
    func installedAppsAreLaunched(_ c: Case) {
        #expect(c.expected?.decision == "open_external_app")
        let d = androidEngine(EverythingInstalled()).decide(Navigation(url: c.url ?? "", currentURL: Fixture.acs))
        #expect(d.action.name == "open-app", "\(d.rule): \(d.reason)")
    }

    /// Chrome navigates its tab to the fallback. The one vector's fallback is plain http, which Plainview never
    /// keeps in a payment web view (`web.insecure`): it goes to the browser, where Chrome would show it too.
    @Test(arguments: all.filter { fallback.contains($0.id) })
    func missingAppNavigatesToTheFallback(_ c: Case) {
        let d = androidEngine(NoApps()).decide(Navigation(url: c.url ?? "", currentURL: Fixture.acs))
        let target = c.expected?.navigate_to ?? "?"
        if target.hasPrefix("http:") {
            #expect(d.action == .openBrowser(target: target), "\(d.rule): \(d.reason)")
            #expect(d.rule == .webInsecure)
        } else {
            #expect(d.action == .load(target: target), "\(d.rule): \(d.reason)")
        }
    }

    @Test(arguments: all.filter { noApp.contains($0.id) })
    func unresolvableSchemesDoNotLaunch(_ c: Case) {
        let d = androidEngine(NoApps()).decide(Navigation(url: c.url ?? "", currentURL: Fixture.acs))
        #expect(d.action == .block, "\(d.rule): \(d.reason)")
    }
}

/// `Tests/Vectors/conformance/firefox_applinks_usecases.json` and `_interceptor.json` (Firefox for Android).
/// Modelled: unsafe schemes never redirect to an app (even when an app resolves them), http(s) opens an app
/// only when a (non-browser) app claims it, intents without an app use an http(s) fallback, sub-frame requests
/// are never intercepted. Not modelled (recorded): marketplace (install) intents, the user's "open links in
/// apps" setting (`launchInApp`, `interceptLinkClicks`), same-domain and gesture rules, engine-supported and
/// always-denied scheme lists, helper predicates.
@Suite struct FirefoxAppLinksConformanceTests {
    struct Case: Decodable, Sendable, CustomTestStringConvertible {
        var id: Int
        var url: String?
        var uri: String?
        var testDescription: String { "\(id): \(url ?? uri ?? "")" }
    }

    static let usecases: [Case] = Project.requiredConformanceCases("firefox_applinks_usecases.json")
    static let interceptor: [Case] = Project.requiredConformanceCases("firefox_applinks_interceptor.json")

    static func usecase(_ id: Int) -> String { usecases.first { $0.id == id }?.url ?? "" }

    @Test func vectorsLoaded() {
        #expect(Self.usecases.count == 51)
        #expect(Self.interceptor.count == 51)
    }

    /// Usecases 7–12: file:, data:, javascript:, about:config, jar:file:, content: are never a redirect,
    /// even though a resolver (an app) exists for them.
    @Test(arguments: [7, 8, 9, 10, 11, 12])
    func unsafeSchemesNeverRedirect(_ id: Int) {
        let url = Self.usecase(id)
        #expect(!url.isEmpty)
        let d = androidEngine(EverythingInstalled()).decide(Navigation(url: url, currentURL: Fixture.acs))
        #expect(d.action == .block, "\(url): \(d.rule)")
    }

    /// Usecase 1: a malformed intent-looking URL with nothing installed: no crash, no redirect.
    /// Usecase 3: https with no app: stays in the web view. Usecase 23: intent, no app, no fallback: no redirect.
    @Test(arguments: [1, 3, 23])
    func nothingInstalledMeansNoApp(_ id: Int) {
        let d = androidEngine(NoApps()).decide(Navigation(url: Self.usecase(id), currentURL: Fixture.acs))
        #expect(d.action.name != "open-app", "\(d.rule)")
        #expect(d.action.name != "load", "\(d.rule)")
    }

    /// Usecases 4 and 20: an app claims the https URL / takes the intent → it opens.
    @Test(arguments: [4, 20])
    func installedAppOpens(_ id: Int) {
        let d = androidEngine(EverythingInstalled()).decide(Navigation(url: Self.usecase(id), currentURL: Fixture.acs))
        #expect(d.action.name == "open-app", "\(d.rule)")
    }

    /// Usecase 24: no app, fallback http://zxing.org → Firefox loads the fallback. It is plain http, so
    /// Plainview sends it to the browser instead of the payment web view (`web.insecure`).
    @Test func missingAppUsesHTTPFallback() {
        let d = androidEngine(NoApps()).decide(Navigation(url: Self.usecase(24), currentURL: Fixture.acs))
        #expect(d.rule == .webInsecure)
        #expect(d.action.name == "open-browser")
        #expect(d.action.target?.hasPrefix("http://zxing.org") == true)
    }

    /// Interceptor 3 and 17: sub-frame requests are never intercepted (they load).
    @Test(arguments: [3, 17])
    func subframeRequestsAreNotIntercepted(_ id: Int) {
        let uri = Self.interceptor.first { $0.id == id }?.uri ?? ""
        let d = androidEngine(EverythingInstalled()).decide(Navigation(url: uri, currentURL: Fixture.acs, frame: .sub))
        #expect(d.action == .allow, "\(uri): \(d.rule)")
    }

    /// Interceptor 30: `javascript:;` never becomes an app intent (Firefox lets the engine run it in the page;
    /// Plainview, stricter, blocks top-level javascript: navigations).
    @Test func javascriptNeverBecomesAnAppIntent() {
        let uri = Self.interceptor.first { $0.id == 30 }?.uri ?? ""
        #expect(uri == "javascript:;")
        let d = androidEngine(EverythingInstalled()).decide(Navigation(url: uri, currentURL: Fixture.acs))
        #expect(d.action == .block)
    }
}
