// The OS of the simulated device: the environment's answers (which app claims a URL), filtered by the run's
// choices (is the app installed, does the universal link work this time, does the browser let an automatic
// redirect open an app). Every answer that can go either way is a `ChoiceOracle` question.
import NavigationPolicy
import PlainviewURL

/// The answers the OS routing table needs: the environment's, and whether the browser lets a redirect that
/// no user tapped open an app.
protocol RoutingSystem: SystemServices {
    /// False when the browser blocks an automatic (no user tap) navigation to an app at `url`.
    func automaticAppRedirectAllowed(_ url: String) -> Bool
}

/// The OS of the simulated device: the environment's answers, filtered by the run's choices.
/// Within one attempt (one decision, one OS routing) answers are cached, so the engine and the world agree.
final class DeviceSystem: RoutingSystem, @unchecked Sendable {
    // @unchecked: one run owns it and uses it from one thread; it never escapes the run.
    let base: any SystemServices
    let oracle: ChoiceOracle
    let assumptions: Assumptions
    let hostApp: String
    private var cache: [String: String?] = [:]
    private var installed: [String: Bool] = [:]
    /// Attempts per host, for the flow's `assume: universalLinks` lists (normal runs).
    private var linkAttempts: [String: Int] = [:]
    /// App-link verification per "app host", decided once a run.
    private var verifiedAppLinks: [String: Bool] = [:]

    init(base: any SystemServices, oracle: ChoiceOracle, assumptions: Assumptions, hostApp: String) {
        self.base = base
        self.oracle = oracle
        self.assumptions = assumptions
        self.hostApp = hostApp
    }

    /// A new attempt: answers may differ from the previous attempt's (universal links fail per attempt).
    func beginAttempt() { cache.removeAll(keepingCapacity: true) }

    func isInstalled(_ app: String) -> Bool {
        if app == hostApp { return true }
        if let known = installed[app] { return known }
        let fixed = assumptions.missingApps.contains(app) ? 1 : nil
        let ok = oracle.choose("app-installed \(app)", ["app-installed:\(app)", "app-missing:\(app)"], fixed: fixed) == 0
        installed[app] = ok
        return ok
    }

    private func cached(_ key: String, _ compute: () -> String?) -> String? {
        if let hit = cache[key] { return hit }
        let v = compute()
        cache[key] = .some(v)
        return v
    }

    /// A universal link (or app link) attempt to `url` claimed by `app`: works or fails, per attempt.
    private func linkWorks(_ url: String, app: String, kind: String) -> Bool {
        let host = URLTools.host(url) ?? url
        let n = linkAttempts[host, default: 0]
        linkAttempts[host] = n + 1
        var fixed: Int?
        if let list = assumptions.universalLinks[host] ?? assumptions.universalLinks["*"], n < list.count {
            fixed = list[n] ? 0 : 1
        }
        return oracle.choose("\(kind) \(app) \(url)", ["\(kind)-works:\(host)", "\(kind)-fails:\(host)"], fixed: fixed) == 0
    }

    func universalLinkApp(for url: String) -> String? {
        cached("ul " + url) {
            guard let app = base.universalLinkApp(for: url), isInstalled(app), linkWorks(url, app: app, kind: "universal-link")
            else { return nil }
            return app
        }
    }

    func appLinkApp(for url: String) -> String? {
        cached("al " + url) {
            guard let app = base.appLinkApp(for: url), isInstalled(app), appLinkVerified(url, app: app) else { return nil }
            return app
        }
    }

    /// Android App Links: Android verifies an app's `autoVerify` claim once, at install, against the site's
    /// assetlinks.json; it can fail (file unreachable, wrong certificate fingerprint), and then the link opens
    /// in the browser. One choice per app and host for the whole run (not per attempt, unlike iOS universal
    /// links); `assume: universalLinks` fixes it with its first answer.
    private func appLinkVerified(_ url: String, app: String) -> Bool {
        let host = URLTools.host(url) ?? url
        let key = app + " " + host
        if let known = verifiedAppLinks[key] { return known }
        var fixed: Int?
        if let first = (assumptions.universalLinks[host] ?? assumptions.universalLinks["*"])?.first { fixed = first ? 0 : 1 }
        let ok =
            oracle.choose("app-link \(app) \(host)", ["app-link-verified:\(host)", "app-link-unverified:\(host)"], fixed: fixed)
            == 0
        verifiedAppLinks[key] = ok
        return ok
    }

    func defaultApp(for scheme: String, on platform: Platform) -> String? {
        base.defaultApp(for: scheme, on: platform)
    }

    func customSchemeApp(for scheme: String) -> String? {
        cached("cs " + scheme.lowercased()) {
            guard let app = base.customSchemeApp(for: scheme), isInstalled(app) else { return nil }
            return app
        }
    }

    func intentApp(for intent: AndroidIntent) -> String? {
        let key = "in \(intent.package ?? "") \(intent.action ?? "") \(intent.data ?? "") \(intent.component ?? "")"
        return cached(key) {
            guard let app = base.intentApp(for: intent), isInstalled(app) else { return nil }
            return app
        }
    }

    func isHostApp(_ app: String) -> Bool { app == hostApp }

    func automaticAppRedirectAllowed(_ url: String) -> Bool {
        let fixed = assumptions.blockAutomaticAppRedirects ? 1 : nil
        return oracle.choose("automatic-app-redirect \(url)", ["redirect-allowed", "redirect-blocked"], fixed: fixed) == 0
    }
}
