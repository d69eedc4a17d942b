// Chrome's navigation chain in the system browser's tab (Android): the rules its ExternalNavigationHandler and
// RedirectHandler apply before a navigation without a user gesture may launch another app (Chromium's
// components/external_intents: its README and RedirectHandler.java; the repository's conformance set holds the
// ExternalNavigationHandler cases).

/// The navigations that followed one start in the browser's tab: a user's tap, or an app handing the browser a
/// URL (an incoming intent). Server redirects, script navigations, refreshes and self-submitting forms continue it.
struct BrowserChain {
    /// Simulated milliseconds when it began.
    var startedAt: Int
    /// It began with a user's tap or an incoming intent: a navigation without a gesture may still launch an app.
    var userStarted: Bool
    /// An app was launched from it: Chrome launches at most one per activation.
    var launched = false
    /// It loaded an intent's `S.browser_fallback_url`: Chrome launches no app from a fallback, and later intents
    /// without a new gesture use their fallbacks too (ExternalNavigationHandler's anti-probing rule).
    var usedFallback = false
    /// The page the tab showed when it began (nil: the tab opened for it). After an app launched from the chain
    /// without a new gesture, Chrome restores the tab to this point.
    var origin: LoadedPage?

    /// `NAVIGATION_CHAIN_TIMEOUT_MILLIS` in RedirectHandler.java: a chain older than this has lost its right to
    /// launch an app.
    static let timeoutMs = 15_000

    /// A chain before anything happened in the tab: no right to launch.
    static let none = BrowserChain(startedAt: 0, userStarted: false)

    /// Why Chrome launches no app from a navigation without a gesture in this chain now (nil: its rules allow it).
    func refusal(now: Int) -> String? {
        if !userStarted {
            return
                "Chrome launches an app only from a navigation chain a user's tap or another app started (ExternalNavigationHandler)"
        }
        if usedFallback {
            return
                "Chrome launches no app after it loaded an intent's fallback URL in this navigation chain, until the user taps again (ExternalNavigationHandler)"
        }
        if launched {
            return
                "Chrome launches at most one app per user activation, and this navigation chain already launched one (ExternalNavigationHandler)"
        }
        if now - startedAt > Self.timeoutMs {
            return
                "the navigation chain began \(now - startedAt) ms ago, and Chrome launches no app from a chain older than 15 s (RedirectHandler's NAVIGATION_CHAIN_TIMEOUT_MILLIS)"
        }
        return nil
    }
}
