// User activation on the simulated clock: a tapped handler's later navigation is the user's only while the
// tap's activation lasts (`UserActivation`: WebKit on iOS, Chromium on Android; docs/environment.md).
import NavigationPolicy
import PlainviewURL

extension World {
    /// The engine's rule for this flow: the environment's values, the platform's where none is given.
    var activationRule: UserActivation {
        (flow.webView.userActivation ?? UserActivation()).resolved(for: flow.policy.platform)
    }

    /// Whether a navigation to `url` that a handler tapped at `tappedAt` makes now still has the tap's activation;
    /// when it has not, the trace says why. Where activation decides what happens (the browser hands links to
    /// apps only on it, a new window opens only with it) it is also the run's problem, named if the payment stops.
    func activationHolds(
        _ surface: Surface, _ url: String, tappedAt: Int, afterNetworkWait: Bool, newWindow: Bool
    ) -> Bool {
        let rule = activationRule
        let elapsed = clock - tappedAt
        // Vipps MobilePay's app opens from its link only within its own window after the tap.
        let vipps = KnownApp.identify(url: url) == .vippsMobilePay && URLTools.isWeb(url)
        let pastVippsWindow = vipps && elapsed > KnownApp.vippsMobilePayTapWindowMs
        if !pastVippsWindow, rule.holds(elapsedMs: elapsed, afterNetworkWait: afterNetworkWait) { return true }
        let engine = flow.policy.platform == .ios ? "WebKit" : "Chromium"
        let why =
            afterNetworkWait && rule.survivesNetworkWait != true
            ? "it waited on a network answer, and \(engine)'s user activation does not survive one"
            : pastVippsWindow && rule.holds(elapsedMs: elapsed, afterNetworkWait: afterNetworkWait)
                ? "\(elapsed) ms after the tap: Vipps MobilePay's app opens only when its link is followed within about \(KnownApp.vippsMobilePayTapWindowMs / 1000) s of the tap (Vipps MobilePay's \"Return URLs and redirects\" guide)"
                : "\(elapsed) ms after the tap, past \(engine)'s user activation of \(rule.lifespanMs ?? 0) ms"
        let text =
            "the page navigated to \(url) without the user's activation (\(why)); a navigation that is not the user's opens no app from the browser (Safari's universal links, Chrome's app launches) and no popup"
        if surface == .browser || newWindow || !URLTools.isWeb(url) {
            problem(text, context: surface, url: url)
        } else {
            emit(.note, context: surface.name, url: url, reason: text)
        }
        return false
    }
}
