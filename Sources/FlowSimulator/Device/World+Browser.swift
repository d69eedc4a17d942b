// The system browser (Safari / Chrome): no policy; web pages load in its tab, and anything else goes through
// the OS routing table with what the browser knows (top level, user tap, current host). Safari asks before it
// opens an app by a custom scheme.
import NavigationPolicy
import PlainviewURL

extension World {
    /// A navigation in the system browser.
    func browserNavigate(
        _ url: String, frame: NavigationFrame, frameIndex: Int?, trigger: NavigationTrigger,
        gesture: Bool, method: String, redirects: Int
    ) {
        guard
            beginNavigation(
                .browser, context: "browser", url, frame: frame, trigger: trigger, gesture: gesture,
                method: method)
        else { return }
        if frame != .sub, authSessionCallback(url) { return }
        // A tap starts a new navigation chain (Chrome); what follows without one continues it.
        if gesture && frame != .sub { browserChain = BrowserChain(startedAt: clock, userStarted: true, origin: browser.page) }
        let android = flow.policy.platform == .android
        let chainRefusal = android && !gesture ? browserChain.refusal(now: clock) : nil
        // Vipps MobilePay's app opens from its link only within its own window after the tap, chain or not.
        let chainAllowsLaunch =
            android && !gesture && chainRefusal == nil
            && !(clock - browserChain.startedAt > KnownApp.vippsMobilePayTapWindowMs
                && KnownApp.identify(url: url) == .vippsMobilePay && URLTools.isWeb(url))
        let here = BrowserNavigation(
            topLevel: frame != .sub, gesture: gesture, currentHost: browser.page.flatMap { URLTools.host($0.url) },
            chainRefusal: chainRefusal, chainAllowsLaunch: chainAllowsLaunch,
            name: browserName)
        switch router.route(url, from: .browser(here)) {
        case .browser:
            fetchAndShow(
                .browser, url, frame: frame, frameIndex: frameIndex, trigger: trigger, gesture: gesture, method: method,
                redirects: redirects)
        case .app(_, _, .universalLink) where !android && browserKind == .system && !systemBrowserApp().handsOffUniversalLinks:
            emit(
                .note, context: "browser", url: url,
                reason:
                    "\(systemBrowserApp().displayName) on iOS does not open universal links: it loads the page (only Safari hands a tapped universal link to its app: Apple Developer Forums thread 665025)"
            )
            fetchAndShow(
                .browser, url, frame: frame, frameIndex: frameIndex, trigger: trigger, gesture: gesture, method: method,
                redirects: redirects)
        case .namedBrowser(let named, let target):
            openNamedBrowser(named, opens: target, url: url, from: .browser)
        case .app(let app, let target, let via):
            if android { launchedFromChain(automatic: !gesture) }
            launch(app, url: target, via: via, from: .browser)
        case .prompt(let app, let target):
            showPrompt(app, url: target)
        case .fallback(let target):
            browserChain.usedFallback = true
            emit(
                .note, context: "browser", url: url,
                reason: chainRefusal.map { "Chrome does not launch the intent (\($0)): it loads S.browser_fallback_url" }
                    ?? "no app for the intent: Chrome loads S.browser_fallback_url")
            guard redirects < Self.redirectLimit else {
                finish(.loop, place: .browser, reason: "more than \(Self.redirectLimit) redirects from \(url)")
                return
            }
            browserNavigate(
                target, frame: .main, frameIndex: nil, trigger: .serverRedirect, gesture: false, method: "GET",
                redirects: redirects + 1)
        case .nowhere(let refusal):
            refuse(refusal, context: .browser, url: url)
        }
    }

    /// Chrome launched an app from the tab's chain: no second launch without a new activation; launched by a
    /// navigation without a gesture (a redirect chain), the tab goes back to where the chain began, or closes if
    /// it opened for it (components/external_intents README: after an intent launch Chrome restores the tab's
    /// navigation state, "potentially closing the Tab").
    func launchedFromChain(automatic: Bool) {
        browserChain.launched = true
        guard automatic else { return }
        let origin = browserChain.origin
        browser.generation += 1
        browser.page = origin
        browser.frames = [:]
        emit(
            .note, context: "browser", url: origin?.url,
            reason: origin.map { "Chrome restores the tab to \($0.url), where the navigation chain began" }
                ?? "Chrome closes the tab it opened only for this navigation chain")
    }

    /// Safari's “Open this page in …?”: the user answers it next (a step, or explore's choice).
    func showPrompt(_ app: String, url: String) {
        prompt = (app, url)
        emit(.prompt, context: "browser", url: url, reason: "Open this page in “\(app)”?", app: app)
    }
}
