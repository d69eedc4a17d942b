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
        let here = BrowserNavigation(
            topLevel: frame != .sub, gesture: gesture, currentHost: browser.page.flatMap { URLTools.host($0.url) })
        switch router.route(url, from: .browser(here)) {
        case .browser:
            fetchAndShow(
                .browser, url, frame: frame, frameIndex: frameIndex, trigger: trigger, gesture: gesture, method: method,
                redirects: redirects)
        case .app(let app, let target, let via):
            launch(app, url: target, via: via, from: .browser)
        case .prompt(let app, let target):
            showPrompt(app, url: target)
        case .fallback(let target):
            emit(.note, context: "browser", url: url, reason: "no app for the intent: Chrome loads S.browser_fallback_url")
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

    /// Safari's “Open this page in …?”: the user answers it next (a step, or explore's choice).
    func showPrompt(_ app: String, url: String) {
        prompt = (app, url)
        emit(.prompt, context: "browser", url: url, reason: "Open this page in “\(app)”?", app: app)
    }
}
