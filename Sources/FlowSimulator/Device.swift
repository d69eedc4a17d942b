// The simulated device's uncertain points: which universal links work, which apps are installed,
// what the user answers to a prompt, whether the browser blocks an automatic redirect to an app.
// In a normal run they take their default (or the flow's `assume:`); `--explore` tries every answer.
import NavigationPolicy

/// One uncertain point met during a run: its alternatives (labels) and the one taken.
public struct ChoicePoint: Sendable, Hashable {
    /// Labels; index 0 is the default (the happy path).
    public var alternatives: [String]
    public var chosen: Int
    public var label: String { alternatives.indices.contains(chosen) ? alternatives[chosen] : "?" }
}

/// Takes choices: from a script of indices (explore), or the default; records every point met.
final class ChoiceOracle {
    let script: [Int]
    let exploring: Bool
    let depth: Int
    private(set) var points: [ChoicePoint] = []
    /// Non-default choices taken (labels), in order: the branch's name.
    private(set) var labels: [String] = []
    var onChoice: ((String) -> Void)?

    init(script: [Int] = [], exploring: Bool, depth: Int) {
        self.script = script
        self.exploring = exploring
        self.depth = depth
    }

    /// Picks one of `alternatives`. `fixed` (a flow assumption, normal runs only) wins without a choice point.
    func choose(_ alternatives: [String], fixed: Int? = nil) -> Int {
        var chosen = 0
        if exploring {
            if points.count < depth {
                let i = points.count
                chosen = i < script.count ? script[i] : 0
                if !alternatives.indices.contains(chosen) { chosen = 0 }
                points.append(ChoicePoint(alternatives: alternatives, chosen: chosen))
            }
        } else if let fixed, alternatives.indices.contains(fixed) {
            chosen = fixed
        }
        if chosen != 0 {
            labels.append(alternatives[chosen])
            onChoice?(alternatives[chosen])
        }
        return chosen
    }
}

/// The OS of the simulated device: the environment's answers, filtered by the run's choices.
/// Within one attempt (one decision, one OS routing) answers are cached, so the engine and the world agree.
final class DeviceSystem: SystemServices, @unchecked Sendable {
    // @unchecked: one run owns it and uses it from one thread; it never escapes the run.
    let base: any SystemServices
    let oracle: ChoiceOracle
    let assumptions: Assumptions
    let hostApp: String
    private var cache: [String: String?] = [:]
    private var installed: [String: Bool] = [:]
    private var linkAttempts: [String: Int] = [:]

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
        let ok = oracle.choose(["app-installed:\(app)", "app-missing:\(app)"], fixed: fixed) == 0
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
    private func linkWorks(_ url: String, kind: String) -> Bool {
        let host = URLTools.host(url) ?? url
        let n = linkAttempts[host, default: 0]
        linkAttempts[host] = n + 1
        var fixed: Int?
        if let list = assumptions.universalLinks[host] ?? assumptions.universalLinks["*"], n < list.count {
            fixed = list[n] ? 0 : 1
        }
        return oracle.choose(["\(kind)-works:\(host)", "\(kind)-fails:\(host)"], fixed: fixed) == 0
    }

    func universalLinkApp(for url: String) -> String? {
        cached("ul " + url) {
            guard let app = base.universalLinkApp(for: url), isInstalled(app), linkWorks(url, kind: "universal-link") else { return nil }
            return app
        }
    }

    func appLinkApp(for url: String) -> String? {
        cached("al " + url) {
            // Verified Android app links do not fail once verified: no per-attempt branch.
            guard let app = base.appLinkApp(for: url), isInstalled(app) else { return nil }
            return app
        }
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
}
