// The OS of the simulated device: every URL handed over (by the web view, the browser, an app) goes through
// the one routing table (`OSRouter`); here the route is carried out — an app launched (the host app receives
// its URL in the web view), the browser brought to the front, or a refusal recorded.
import NavigationPolicy

extension World {
    /// An app (the host app, or another app returning) asks the OS to open `url`.
    func osOpen(_ url: String, from: Surface, browser named: SystemBrowser? = nil) {
        guard outcome == nil else { return }
        navigationCount += 1
        let asker: String =
            switch from {
            case .host: flow.hostApp
            case .browser: "browser"
            case .app(let n): n
            }
        emit(.navigate, context: "os", url: url, action: "open", app: asker)
        system.beginAttempt()
        follow(router.route(url, from: .app(asker)), url: url, from: from, browser: named)
    }

    /// Carries out a route of a URL handed over from a context other than the browser (the browser follows its
    /// own routes: it keeps web pages and asks before opening an app). A web page opens in the default browser, or
    /// in `browser` when the app opens it there by name.
    func follow(_ route: Route, url: String, from: Surface, browser named: SystemBrowser? = nil) {
        switch route {
        case .app(let app, let target, let via):
            launch(app, url: target, via: via, from: from)
        case .prompt(let app, let target):
            showPrompt(app, url: target)
        case .namedBrowser(let named, let target):
            openNamedBrowser(named, opens: target, url: url, from: from)
        case .browser(let target), .fallback(let target):
            showBrowser(.system, app: named)
            switchTo(.browser)
            // An app handing the browser a URL (an incoming intent) starts a chain that may launch an app.
            browserChain = BrowserChain(startedAt: clock, userStarted: true, origin: browser.page)
            browserNavigate(
                target, frame: .main, frameIndex: nil, trigger: .initialLoad, gesture: false, method: "GET", redirects: 0)
        case .nowhere(let refusal):
            refuse(refusal, context: from, url: url)
        }
    }

    /// Records why nothing opened.
    func refuse(_ refusal: Refusal, context: Surface, url: String) {
        switch refusal {
        case .problem(let text): problem(text, context: context, url: url)
        case .note(let text): emit(.note, context: context.name, url: url, reason: text)
        case .silent: break
        }
    }

    /// The OS launches `app` with `url`: the host app receives it in its web view; another app comes to the front.
    func launch(_ app: String, url: String, via: AppOpenVia, from: Surface) {
        guard outcome == nil else { return }
        emit(.launch, context: "os", url: url, via: via.rawValue, app: app)
        if !appsOpened.contains(app) { appsOpened.append(app) }
        if app == flow.hostApp {
            hostReceive(url)
            return
        }
        let g = apps.launch(app, url: url, from: from)
        switchTo(.app(app))
        schedule(.app(app), generation: g, frame: nil, delay: Self.appTime, .appAct)
    }
}
