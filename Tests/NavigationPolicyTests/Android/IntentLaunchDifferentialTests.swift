// The intents the policy tells an Android app to start, checked against Chrome for Android's launch rules
// (ExternalNavigationHandler, the cases in Tests/Vectors/conformance/android_external_navigation_chromium.json):
// a page's intent is launched with CATEGORY_BROWSABLE added, without its explicit component (crbug.com/1254422
// for selectors) and with launch flags masked to the ones Chrome allows; an intent into the embedder itself is
// never launched. The oracle below is written from those rules, not from the engine's code.
import Testing
import TestSupport
@testable import NavigationPolicy

@Suite struct IntentLaunchDifferentialTests {
    /// Chrome's ALLOWED_INTENT_FLAGS, by name (android.content.Intent's values).
    static let chromeAllowedFlags: [String: Int] = [
        "FLAG_EXCLUDE_STOPPED_PACKAGES": 0x10, "FLAG_ACTIVITY_MATCH_EXTERNAL": 0x800,
        "FLAG_ACTIVITY_LAUNCH_ADJACENT": 0x1000, "FLAG_ACTIVITY_RETAIN_IN_RECENTS": 0x2000,
        "FLAG_ACTIVITY_NEW_DOCUMENT": 0x8_0000, "FLAG_ACTIVITY_CLEAR_TOP": 0x0400_0000,
        "FLAG_ACTIVITY_MULTIPLE_TASK": 0x0800_0000, "FLAG_ACTIVITY_NEW_TASK": 0x1000_0000,
        "FLAG_ACTIVITY_SINGLE_TOP": 0x2000_0000,
    ]
    static let hostPackage = "com.example.app"
    static let packages = [hostPackage, "com.bankid.bus", "se.bankgirot.swish", "no.missing.app"]
    static let schemes = ["https", "bankid", "swish", "shopapp", "tel", "javascript", "file", "content", "zxing"]
    static let hosts = ["shop.example.com/pay?order=42", "app.bankid.com/x", "evil.example/a", "x", ""]
    static let flagChoices = [
        "0x10008000", "0x10000000", "0x8000", "0x4000", "0x1", "0x2", "0x40", "0x7FFFFFFF", "0x24000000", "0x80000",
        "0x30000000", "0x00800000", "0x00010000",
    ]

    /// A page's intent URL with the parts that decide what an app may start: package, component (into the host,
    /// into another app, class only), selector, launch flags, data scheme, fallback.
    static func generate(_ rng: inout FuzzRNG) -> String {
        var uri = rng.oneIn(8) ? "android-app://\(rng.pick(packages))/\(rng.pick(["https", "bankid"]))/h/p" : ""
        guard uri.isEmpty else { return uri }
        uri = rng.oneIn(5) ? "intent:" : "intent://\(rng.pick(hosts))"
        uri += "#Intent;"
        var parts: [String] = []
        if !rng.oneIn(4) { parts.append("scheme=\(rng.pick(schemes))") }
        if rng.oneIn(2) { parts.append("package=\(rng.pick(packages))") }
        if rng.oneIn(2) {
            parts.append("component=\(rng.pick(packages))/\(rng.pick([".AdminActivity", ".internal.Debug", "x.y.Z"]))")
        }
        if rng.oneIn(3) { parts.append("launchFlags=\(rng.pick(flagChoices))") }
        if rng.oneIn(4) { parts.append("action=\(rng.pick(["android.intent.action.VIEW", "android.settings.SETTINGS"]))") }
        if rng.oneIn(6) { parts.append("S.browser_fallback_url=https%3A%2F%2Fshop.example.com%2Fretry") }
        if rng.oneIn(4) {
            var sel = ["SEL"]
            if rng.oneIn(2) { sel.append("component=\(rng.pick(packages))/.Inner") }
            if rng.oneIn(2) { sel.append("package=\(rng.pick(packages))") }
            if rng.oneIn(2) { sel.append("action=android.intent.action.MAIN") }
            parts += sel
        }
        return uri + parts.joined(separator: ";") + ";end"
    }

    /// What Chrome would launch for `page`, by its rules (the oracle).
    static func chromeLaunch(_ page: AndroidIntent) -> AndroidIntent {
        var out = page
        out.component = nil
        out.selector = nil
        out.flags &= chromeAllowedFlags.values.reduce(0, |)
        if !out.categories.contains("android.intent.category.BROWSABLE") {
            out.categories.append("android.intent.category.BROWSABLE")
        }
        return out
    }

    static func sameIntent(_ a: AndroidIntent, _ b: AndroidIntent) -> Bool {
        var a = a, b = b
        a.categories.sort()
        b.categories.sort()
        return a == b
    }

    @Test(arguments: [UInt64(1), 2, 3, 4])
    func everyLaunchIsOneChromeWouldMake(seed: UInt64) throws {
        let system = EnvironmentSystem(Fixture.environment)
        #expect(system.isHostApp("Shop"))
        let engine = Fixture.engine(.android)
        var rng = FuzzRNG(seed: seed)
        var launches = 0, refusedByChrome: [String] = [], intoHost = 0
        for _ in 0..<1_000 {
            let url = Self.generate(&rng)
            let decision = engine.decide(Navigation(url: url, currentURL: Fixture.acs))
            guard case .openApp(let target, .intent) = decision.action else {
                if let page = try? AndroidIntent.parse(url),
                    page.package == Self.hostPackage
                        || page.component?.hasPrefix(Self.hostPackage + "/") == true
                {
                    intoHost += 1
                }
                continue
            }
            launches += 1
            let page = try AndroidIntent.parse(url)
            guard let launched = try? AndroidIntent.parse(target) else {
                refusedByChrome.append("\(url): the target does not parse: \(target)")
                continue
            }
            // What the app starts is exactly what Chrome would start, and it resolves to an app that is not the host.
            if !Self.sameIntent(launched, Self.chromeLaunch(page)) {
                refusedByChrome.append("\(url) → \(target)")
            }
            if launched.component != nil || launched.selector != nil
                || launched.flags & ~Self.chromeAllowedFlags.values.reduce(0, |) != 0
            {
                refusedByChrome.append("\(url): launches a component, selector or unsafe flag: \(target)")
            }
            guard let app = system.intentApp(for: launched), !system.isHostApp(app) else {
                refusedByChrome.append("\(url): the launched intent reaches the host app or no app: \(target)")
                continue
            }
            if launched.isUnsafeData { refusedByChrome.append("\(url): unsafe data reaches \(app)") }
        }
        #expect(refusedByChrome.isEmpty, "\(refusedByChrome.count) launches Chrome would not make: \(refusedByChrome.prefix(5))")
        // The generator reaches both sides: launches, and intents into the host app that are not launched.
        #expect(launches > 150)
        #expect(intoHost > 150)
    }
}
