// The other apps on the device: what one does when the user is done in it (return to the previous app, open
// a URL through the OS, get stuck, or wait).
import AppSwitch
import NavigationPolicy
import PlainviewConfig
import PlainviewURL

/// The other apps' state: how each was last launched, and which one waits for the user.
struct OtherApps {
    struct Launch {
        var url: String
        /// The context that opened it (where “back to the previous app” goes).
        var launcher: Surface
        /// Counts launches; an app's pending act belongs to its latest launch only.
        var generation: Int
    }

    private(set) var launches: [String: Launch] = [:]
    /// The app that stays open waiting for the user, if any.
    var waiting: String?

    /// Records a launch of `app`; returns its generation.
    mutating func launch(_ app: String, url: String, from: Surface) -> Int {
        let g = (launches[app]?.generation ?? 0) + 1
        launches[app] = Launch(url: url, launcher: from, generation: g)
        waiting = nil
        return g
    }
}

extension World {
    /// The time a user spends in another app is over: the app acts (as the next `app:` step says, else as its
    /// behaviour's `then`).
    func appTimerFired(_ name: String, generation: Int) {
        guard apps.launches[name]?.generation == generation else { return }
        var outcome = flow.apps[name]?.then ?? .complete
        if stepIndex < flow.steps.count, case .app(let n, let o) = flow.steps[stepIndex], n == name {
            stepIndex += 1
            emit(.user, context: Surface.app(name).name, reason: flow.steps[stepIndex - 1].description, app: name)
            autoLoads.removeAll()
            outcome = o
        }
        appAct(name, outcome)
    }

    /// What the app does when the user is done in it. BankID on iOS, returning by its protocol, follows what its
    /// integrators report: with `redirect=null` it stays, and the user must switch back by hand
    /// (swedenconnect/bankid-saml-idp #156 and #165; ActiveLogin.Authentication #520 and #548, which keeps
    /// `redirect=null` only for the iOS browsers it cannot name); a web page it returns to opens in Safari even when
    /// another browser is the default (BankID's own sample client; ActiveLogin.Authentication #83 and #86).
    func appAct(_ name: String, _ outcome: AppBehaviour.Outcome) {
        if outcome == .complete { network.completedApps.insert(name) }
        let behaviour = flow.apps[name] ?? AppBehaviour()
        let url = apps.launches[name]?.url ?? ""
        // BankID on iOS, returning by its protocol (`redirect`): the rules in the comment above.
        let bankIDOnIOS =
            flow.policy.platform == .ios
            && (outcome == .cancel ? behaviour.cancelReturnTo ?? behaviour.returnTo : behaviour.returnTo) == .appSwitchProtocol
            && { if case .bankIDLaunch? = try? AppSwitchMessage.parse(url) { true } else { false } }()
        switch behaviour.resolve(outcome, launchURL: url) {
        case .previousApp where bankIDOnIOS:
            let launcher = apps.launches[name]?.launcher ?? .host
            finish(
                .stuck, place: .app(name),
                reason:
                    "\(name): BankID on iOS does not switch back by itself when redirect=null; the user has to go back to \(launcher == .host ? flow.hostApp : launcher == .browser ? systemBrowserApp().displayName : launcher.name) by hand (swedenconnect/bankid-saml-idp #165; give the browser's own scheme, such as googlechromes://, or the page's URL)"
            )
        case .previousApp:
            emit(.return, context: Surface.app(name).name, action: "previous", reason: outcome.rawValue, app: name)
            switchTo(apps.launches[name]?.launcher ?? .host)
        case .open(let target):
            emit(.return, context: Surface.app(name).name, url: target, action: "open", reason: outcome.rawValue, app: name)
            // BankID on iOS opens a web page it returns to in Safari, whatever the default browser.
            osOpen(target, from: .app(name), browser: bankIDOnIOS && URLTools.isWeb(target) ? .safari : nil)
        case .stuck(let reason):
            finish(.stuck, place: .app(name), reason: "\(name): \(reason)")
        case .stays(let reason):
            if outcome == .fail {
                finish(.stuck, place: .app(name), reason: "\(name) failed")
            } else {
                apps.waiting = name
                emit(.note, context: Surface.app(name).name, reason: reason, app: name)
            }
        }
    }
}
