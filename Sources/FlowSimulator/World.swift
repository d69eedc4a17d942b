// The simulated device: the host app's web view, the system browser, the OS's URL routing, other apps,
// and the network. Deterministic, in memory, virtual time (milliseconds); one run = one `World`.
//
// Order of automatic navigations on a loaded page (what a browser does): script navigations that run on
// load fire first (scripts run while the page is parsed), then auto-submitted forms (submitted from the
// load event), then the refresh (it fires after load, after its delay). The first one that replaces the
// page cancels the others; one that is blocked or hands off to an app leaves the page, and the rest, in place.
// Timers only run while their context is in front (iOS and Android suspend background web views).
import NavigationPolicy
import PageScan
import PlainviewURL

/// Something that decides web-view navigations. `NavigationPolicyEngine` is the only one the simulator
/// uses for flows; tests may pass a fixed table for world-only checks.
public protocol NavigationDeciding: Sendable {
    func decide(_ navigation: Navigation) -> Decision
}

extension NavigationPolicyEngine: NavigationDeciding {}

/// The front context: the host app (its web view), the browser, or another app.
enum Surface: Hashable {
    case host
    case browser
    case app(String)

    var name: String {
        switch self {
        case .host: "webview"
        case .browser: "browser"
        case .app(let n): "app \(n)"
        }
    }
}

struct LoadedPage {
    var url: String
    var status: Int
    var scan: PageScanResult
    var missingCookie: String?
}

/// A browsing context: the web view or the browser's tab.
struct Tab {
    var page: LoadedPage?
    var frames: [Int: LoadedPage] = [:]
    var generation = 0
    var jar = CookieJar()
    var history: [String] = []
}

enum TimerKind {
    case script(PageScanResult.ScriptNavigation)
    case form(PageScanResult.Form)
    case refresh(String)
    case hook(String, Outcome.Kind)
    case appAct
}

struct WorldTimer {
    var time: Int
    var seq: Int
    var surface: Surface
    var generation: Int
    var frame: Int?
    var kind: TimerKind
}

/// One run of a flow on the simulated device.
final class World {
    let flow: Flow
    let oracle: ChoiceOracle
    let system: DeviceSystem
    let decider: any NavigationDeciding
    private var network: Network
    private var web = Tab()
    private var browser = Tab()
    private var front: Surface = .host
    private var clock = 0
    private var seq = 0
    private var timers: [WorldTimer] = []
    private var stepIndex = 0
    private var prompt: (app: String, url: String)?
    private var launchURL: [String: String] = [:]
    private var launcher: [String: Surface] = [:]
    private var launchGeneration: [String: Int] = [:]
    private var waitingApp: String?
    private var autoLoads: [String: Int] = [:]
    private var lastProblem: String?
    private(set) var events: [TraceEvent] = []
    private(set) var outcome: Outcome?
    private(set) var navigationCount = 0
    private(set) var appsOpened: [String] = []
    /// The branch name is decided by the choices taken; it is filled in when the run ends.
    private var branchName: String { oracle.labels.isEmpty ? "default" : oracle.labels.joined(separator: ", ") }

    static let redirectLimit = 20
    static let frameLimit = 8
    /// Time a user spends in another app before it returns.
    static let appTime = 2000
    /// Time one request takes on the simulated network.
    static let networkTime = 50

    init(flow: Flow, oracle: ChoiceOracle, decider: ((any SystemServices) -> any NavigationDeciding)? = nil) {
        self.flow = flow
        self.oracle = oracle
        let system = DeviceSystem(base: flow.system, oracle: oracle, assumptions: oracle.exploring ? Assumptions() : flow.assumptions,
                                  hostApp: flow.hostApp)
        self.system = system
        self.decider = decider?(system) ?? NavigationPolicyEngine(policy: flow.policy, system: system)
        self.network = Network(pages: flow.pages, responder: flow.responder)
        oracle.onChoice = { [weak self] label in self?.emit(.choice, context: "os", action: label) }
    }

    // MARK: running

    func run() {
        emit(.start, context: "webview", url: flow.start, app: flow.hostApp)
        webViewNavigate(flow.start, frame: .main, frameIndex: nil, trigger: .initialLoad, gesture: false, method: "GET", redirects: 0)
        while outcome == nil {
            if events.count > flow.limits.steps {
                finish(.loop, reason: "step bound hit: more than \(flow.limits.steps) events without an outcome")
                break
            }
            if let t = nextTimer() { fire(t); continue }
            if prompt != nil, front == .browser { answerPrompt(); continue }
            if stepIndex < flow.steps.count { performStep(); continue }
            finishIdle()
        }
    }

    // MARK: trace

    func emit(_ kind: TraceEventKind, context: String, url: String? = nil, frame: NavigationFrame? = nil,
              trigger: NavigationTrigger? = nil, gesture: Bool? = nil, method: String? = nil, action: String? = nil,
              target: String? = nil, via: String? = nil, rule: String? = nil, reason: String? = nil,
              status: Int? = nil, app: String? = nil) {
        events.append(TraceEvent(flow: flow.name, branch: "", step: events.count + 1, time: clock, event: kind,
                                 context: context, url: url, frame: frame?.rawValue, trigger: trigger?.rawValue,
                                 gesture: gesture, method: method, action: action, target: target, via: via,
                                 rule: rule, reason: reason, status: status, app: app))
    }

    /// The events with the branch name filled in.
    func finalEvents() -> [TraceEvent] {
        let name = branchName
        return events.map { var e = $0; e.branch = name; return e }
    }

    var branchLabels: [String] { oracle.labels }

    private func finish(_ kind: Outcome.Kind, place: Surface? = nil, reason: String) {
        guard outcome == nil else { return }
        let o = Outcome(kind, place: (place ?? front).name, reason: reason)
        outcome = o
        emit(.outcome, context: o.place, action: kind.rawValue, reason: reason)
    }

    private func problem(_ text: String, context: Surface, url: String? = nil) {
        lastProblem = text
        emit(.note, context: context.name, url: url, reason: text)
    }

    // MARK: front

    private func switchTo(_ s: Surface) {
        guard front != s else { return }
        front = s
        emit(.switch, context: s.name)
    }

    // MARK: timers

    private func schedule(_ surface: Surface, generation: Int, frame: Int?, delay: Int, _ kind: TimerKind) {
        seq += 1
        timers.append(WorldTimer(time: clock + max(0, delay), seq: seq, surface: surface, generation: generation, frame: frame, kind: kind))
    }

    private func nextTimer() -> WorldTimer? {
        var best: Int?
        for (i, t) in timers.enumerated() where t.surface == front {
            if let b = best, (timers[b].time, timers[b].seq) <= (t.time, t.seq) { continue }
            best = i
        }
        guard let b = best else { return nil }
        return timers.remove(at: b)
    }

    private func fire(_ t: WorldTimer) {
        clock = max(clock, t.time)
        switch t.surface {
        case .host, .browser:
            let tab = t.surface == .host ? web : browser
            guard tab.generation == t.generation else { return }
            let frame: NavigationFrame = t.frame == nil ? .main : .sub
            switch t.kind {
            case .script(let s):
                navigate(t.surface, s.url, frame: s.kind == .windowOpen ? .newWindow : frame, frameIndex: t.frame,
                         trigger: .script, gesture: false, method: "GET")
            case .form(let f):
                submit(t.surface, f, frameIndex: t.frame, gesture: false)
            case .refresh(let u):
                navigate(t.surface, u, frame: frame, frameIndex: t.frame, trigger: .metaRefresh, gesture: false, method: "GET")
            case .hook(let name, let kind):
                finish(kind, place: .host, reason: "the page called the app's JavaScript hook '\(name)'")
            case .appAct:
                break
            }
        case .app(let name):
            guard launchGeneration[name] == t.generation else { return }
            var outcome = flow.apps[name]?.then ?? .complete
            if stepIndex < flow.steps.count, case .app(let n, let o) = flow.steps[stepIndex], n == name {
                stepIndex += 1
                emit(.user, context: t.surface.name, reason: flow.steps[stepIndex - 1].description, app: name)
                autoLoads.removeAll()
                outcome = o
            }
            appAct(name, outcome)
        }
    }

    private func scheduleAutomatic(_ surface: Surface, _ page: LoadedPage, generation: Int, frame: Int?) {
        // Only the host app's web view has the app's JavaScript hooks; the browser has none.
        if surface == .host {
            for h in page.scan.hooks where h.onLoad {
                if let kind = flow.hooks[h.name] { schedule(surface, generation: generation, frame: frame, delay: 0, .hook(h.name, kind)) }
            }
        }
        for s in page.scan.scriptNavigations where s.onLoad {
            schedule(surface, generation: generation, frame: frame, delay: 0, .script(s))
        }
        for f in page.scan.forms where f.autoSubmit {
            schedule(surface, generation: generation, frame: frame, delay: 0, .form(f))
        }
        if let r = page.scan.refresh {
            schedule(surface, generation: generation, frame: frame, delay: r.delay * 1000, .refresh(r.url))
        }
    }

    // MARK: navigation

    private func navigate(_ surface: Surface, _ url: String, frame: NavigationFrame, frameIndex: Int?,
                          trigger: NavigationTrigger, gesture: Bool, method: String, redirects: Int = 0) {
        switch surface {
        case .host: webViewNavigate(url, frame: frame, frameIndex: frameIndex, trigger: trigger, gesture: gesture, method: method, redirects: redirects)
        case .browser: browserNavigate(url, frame: frame, frameIndex: frameIndex, trigger: trigger, gesture: gesture, method: method, redirects: redirects)
        case .app: break
        }
    }

    private func submit(_ surface: Surface, _ form: PageScanResult.Form, frameIndex: Int?, gesture: Bool) {
        let method = form.method.uppercased() == "POST" ? "POST" : "GET"
        let url = method == "GET" ? URLTools.formGetURL(action: form.action, fields: form.fields.map { ($0.name, $0.value) }) : form.action
        let frame: NavigationFrame = form.target == "_blank" ? .newWindow : (frameIndex == nil || form.target == "_top" ? .main : .sub)
        navigate(surface, url, frame: frame, frameIndex: frame == .sub ? frameIndex : nil, trigger: .form, gesture: gesture, method: method)
    }

    /// Counts automatic loads of the same URL in one context; too many is a loop.
    private func countAutomatic(_ surface: Surface, _ url: String, trigger: NavigationTrigger, gesture: Bool) -> Bool {
        guard !gesture, trigger != .initialLoad, trigger != .link else { return true }
        let key = surface.name + " " + URLTools.pageKey(url)
        let n = autoLoads[key, default: 0] + 1
        autoLoads[key] = n
        if n > flow.limits.repeats {
            finish(.loop, place: surface, reason: "\(url) loaded \(n) times by itself (a redirect/refresh/reload cycle)")
            return false
        }
        return true
    }

    /// A navigation in the host app's web view: the policy decides it, the world carries the decision out.
    private func webViewNavigate(_ url: String, frame: NavigationFrame, frameIndex: Int?, trigger: NavigationTrigger,
                                 gesture: Bool, method: String, redirects: Int) {
        guard outcome == nil else { return }
        guard countAutomatic(.host, url, trigger: trigger, gesture: gesture) else { return }
        navigationCount += 1
        emit(.navigate, context: "webview", url: url, frame: frame, trigger: trigger, gesture: gesture, method: method)
        system.beginAttempt()
        let nav = Navigation(url: url, currentURL: web.page?.url, frame: frame, trigger: trigger, userGesture: gesture, method: method)
        let d = decider.decide(nav)
        let a = d.action
        emit(.decide, context: "webview", url: url, action: a.name, target: a.target, via: a.via?.rawValue,
             rule: d.rule.rawValue, reason: d.reason)
        switch a {
        case .allow:
            fetchAndShow(.host, url, frame: frame, frameIndex: frameIndex, trigger: trigger, gesture: gesture, method: method, redirects: redirects)
        case .complete:
            finish(.complete, place: .host, reason: "completeUrl reached (\(d.rule))")
        case .canceled:
            finish(.canceled, place: .host, reason: "cancelUrl reached (\(d.rule))")
        case .reload(let target):
            if (trigger == .initialLoad || trigger == .reload) && frame == .main {
                // The host app's own load of its payment page (an SDK loads the payment menu itself; its
                // delegate lets that load through): load it.
                fetchAndShow(.host, url, frame: frame, frameIndex: nil, trigger: trigger, gesture: gesture, method: method, redirects: redirects)
            } else {
                hostReload(target)
            }
        case .terms:
            emit(.note, context: "webview", url: url, reason: "the host app shows the terms of service; the payment page stays")
        case .openApp(let target, let via):
            launchFromWebView(target, via: via)
        case .openBrowser(let target):
            osOpen(target, from: .host)
        case .load(let target):
            guard redirects < Self.redirectLimit else {
                finish(.loop, place: .host, reason: "more than \(Self.redirectLimit) load/redirect hops from \(url)")
                return
            }
            webViewNavigate(target, frame: frame, frameIndex: frameIndex, trigger: trigger, gesture: false, method: "GET", redirects: redirects + 1)
        case .block:
            lastProblem = "the web view blocked \(url) (\(d.rule): \(d.reason))"
        }
    }

    /// The web view hands an app URL to the OS (the policy decided open-app).
    private func launchFromWebView(_ target: String, via: AppOpenVia) {
        let app: String?
        var data = target
        switch via {
        case .universalLink: app = system.universalLinkApp(for: target)
        case .appLink: app = system.appLinkApp(for: target)
        case .customScheme: app = URLTools.scheme(target).flatMap { system.customSchemeApp(for: $0) }
        case .intent:
            if let intent = IntentURL.parse(target) {
                app = system.intentApp(for: intent)
                data = intent.data ?? target
            } else {
                app = nil
            }
        }
        guard let app else {
            problem("the OS found no app for \(target) (\(via.rawValue))", context: .host, url: target)
            return
        }
        launch(app, url: data, via: via, from: .host)
    }

    /// A navigation in the system browser: no policy, the browser's and the OS's own rules.
    private func browserNavigate(_ url: String, frame: NavigationFrame, frameIndex: Int?, trigger: NavigationTrigger,
                                 gesture: Bool, method: String, redirects: Int) {
        guard outcome == nil else { return }
        guard countAutomatic(.browser, url, trigger: trigger, gesture: gesture) else { return }
        navigationCount += 1
        emit(.navigate, context: "browser", url: url, frame: frame, trigger: trigger, gesture: gesture, method: method)
        system.beginAttempt()
        let scheme = URLTools.scheme(url) ?? ""
        let ios = flow.policy.platform == .ios
        let topLevel = frame != .sub
        switch scheme.isEmpty ? .neverExternal : SchemeKind(scheme: scheme) {
        case .web:
            if topLevel && gesture {
                if ios {
                    // Safari opens a universal link only on a user tap to a different domain than the current page.
                    let here = browser.page.flatMap { URLTools.host($0.url) }
                    if URLTools.host(url) != here, let app = system.universalLinkApp(for: url) {
                        launch(app, url: url, via: .universalLink, from: .browser)
                        return
                    }
                } else if let app = system.appLinkApp(for: url) {
                    launch(app, url: url, via: .appLink, from: .browser)
                    return
                }
            }
            fetchAndShow(.browser, url, frame: frame, frameIndex: frameIndex, trigger: trigger, gesture: gesture, method: method, redirects: redirects)
        case .intent:
            guard !ios else {
                problem("Safari cannot open \(scheme): URLs (the address is invalid)", context: .browser, url: url)
                return
            }
            guard topLevel, gestureOrAllowed(url) else { return }
            guard let intent = IntentURL.parse(url) else {
                problem("Chrome cannot parse the intent URL", context: .browser, url: url)
                return
            }
            if let app = system.intentApp(for: intent) {
                launch(app, url: intent.data ?? url, via: .intent, from: .browser)
            } else if let fallback = intent.browserFallbackURL, URLTools.isWeb(fallback) {
                emit(.note, context: "browser", url: url, reason: "no app for the intent: Chrome loads S.browser_fallback_url")
                guard redirects < Self.redirectLimit else {
                    finish(.loop, place: .browser, reason: "more than \(Self.redirectLimit) redirects from \(url)")
                    return
                }
                browserNavigate(fallback, frame: .main, frameIndex: nil, trigger: .serverRedirect, gesture: false, method: "GET", redirects: redirects + 1)
            } else {
                problem("no app takes the intent (package \(intent.package ?? "none")) and it has no http(s) fallback: Chrome offers the Play Store",
                        context: .browser, url: url)
            }
        case .neverExternal:
            emit(.note, context: "browser", url: url, reason: "nothing to navigate to")
        case .custom:
            guard topLevel else {
                emit(.note, context: "browser", url: url, reason: "a frame cannot open an app")
                return
            }
            guard let app = system.customSchemeApp(for: scheme) else {
                problem(ios ? "Safari cannot open the page: no app handles \(scheme):" : "Chrome cannot open \(scheme): no app handles it",
                        context: .browser, url: url)
                return
            }
            if ios {
                // Safari asks before it opens another app by a custom scheme.
                prompt = (app, url)
                emit(.prompt, context: "browser", url: url, reason: "Open this page in “\(app)”?", app: app)
            } else {
                guard gestureOrAllowed(url) || gesture else { return }
                launch(app, url: url, via: .customScheme, from: .browser)
            }
        }

        func gestureOrAllowed(_ url: String) -> Bool {
            if gesture { return true }
            let fixed = flow.assumptions.blockAutomaticAppRedirects ? 1 : nil
            if oracle.choose(["redirect-allowed", "redirect-blocked"], fixed: fixed) == 1 {
                problem("Chrome blocked the automatic redirect to an app; it needs a user tap", context: .browser, url: url)
                return false
            }
            return true
        }
    }

    /// Fetches a URL in a context and shows it: follows redirects, stores cookies, schedules what the page does.
    private func fetchAndShow(_ surface: Surface, _ url: String, frame: NavigationFrame, frameIndex: Int?,
                              trigger: NavigationTrigger, gesture: Bool, method: String, redirects: Int) {
        let context: PageContext = surface == .host ? .webview : .browser
        let jar = surface == .host ? web.jar : browser.jar
        clock += Self.networkTime
        switch network.fetch(url, method: method, context: context, jar: jar) {
        case .unrecorded:
            if surface == .browser {
                // The browser knows nothing of completeUrl/cancelUrl: reaching them there leaves the app uninformed.
                let d = decider.decide(Navigation(url: url, currentURL: nil, frame: .main, trigger: .link, userGesture: false))
                if d.action == .complete || d.action == .canceled {
                    finish(.stuck, place: .browser, reason: "\(d.action == .complete ? "completeUrl" : "cancelUrl") \(url) was reached in the browser, not in the app: the app never learns the outcome")
                    return
                }
            }
            finish(.error, place: surface, reason: "no recorded response for \(method) \(url) (in the \(context == .webview ? "web view" : "browser"))")
        case .response(let r, let missingCookie):
            var newJar = jar
            for c in r.headers("Set-Cookie") { newJar.set(c, from: url) }
            if surface == .host { web.jar = newJar } else { browser.jar = newJar }
            let location = r.header("Location").flatMap { URLTools.resolve($0, against: url) }
            emit(.response, context: surface.name, url: url, target: (300..<400).contains(r.status) ? location : nil, status: r.status)
            if let missingCookie {
                let other = surface == .host ? browser.jar : web.jar
                let here = surface == .host ? "web view" : "browser", there = surface == .host ? "browser" : "web view"
                var text = "the \(here) has no cookie '\(CookieJar.split(missingCookie).0)' for \(url), which requires it"
                if other.satisfies(missingCookie, for: url) {
                    text = "cookie '\(CookieJar.split(missingCookie).0)' was set in the \(there), but \(url) opened in the \(here) without it (cookies do not move with the page)"
                }
                problem(text, context: surface, url: url)
            }
            if (300..<400).contains(r.status), let location {
                guard redirects < Self.redirectLimit else {
                    finish(.loop, place: surface, reason: "more than \(Self.redirectLimit) redirects from \(url)")
                    return
                }
                let keep = r.status == 307 || r.status == 308
                navigate(surface, location, frame: frame, frameIndex: frameIndex, trigger: .serverRedirect, gesture: false,
                         method: keep ? method : "GET", redirects: redirects + 1)
                return
            }
            show(surface, url, response: r, frame: frame, frameIndex: frameIndex, missingCookie: missingCookie)
        }
    }

    private func show(_ surface: Surface, _ url: String, response r: RecordedResponse, frame: NavigationFrame, frameIndex: Int?,
                      missingCookie: String?) {
        let contentType = r.header("Content-Type")
        var scan = PageScanResult()
        if contentType.map({ $0.lowercased().contains("html") }) ?? true {
            do {
                scan = try PageScanner.scan(r.body, contentType: contentType, documentURL: url)
            } catch {
                finish(.error, place: surface, reason: "bad page \(url): \(error)")
                return
            }
        }
        if scan.refresh == nil, let header = r.header("Refresh") {
            scan.refresh = RefreshHeader.parse(header, documentURL: url)
        }
        let page = LoadedPage(url: url, status: r.status, scan: scan, missingCookie: missingCookie)
        var tab = surface == .host ? web : browser
        let isFrame = frame == .sub && frameIndex != nil
        if isFrame, let i = frameIndex {
            tab.frames[i] = page
        } else {
            tab.generation += 1
            tab.page = page
            tab.frames = [:]
            tab.history.append(url)
        }
        if surface == .host { web = tab } else { browser = tab }
        emit(.load, context: surface.name, url: url, frame: isFrame ? .sub : .main, status: r.status)
        scheduleAutomatic(surface, page, generation: tab.generation, frame: isFrame ? frameIndex : nil)
        if !isFrame {
            for (i, f) in scan.frames.prefix(Self.frameLimit).enumerated() {
                navigate(surface, f.url, frame: .sub, frameIndex: i, trigger: .initialLoad, gesture: false, method: "GET")
                if outcome != nil { return }
            }
        }
    }

    // MARK: the OS and apps

    /// An app (not the browser) asks the OS to open `url`: universal/app links, custom schemes, intents; web pages
    /// go to the browser.
    private func osOpen(_ url: String, from: Surface) {
        guard outcome == nil else { return }
        navigationCount += 1
        let asker: String? = switch from {
        case .host: flow.hostApp
        case .browser: "browser"
        case .app(let n): n
        }
        emit(.navigate, context: "os", url: url, action: "open", app: asker)
        system.beginAttempt()
        let ios = flow.policy.platform == .ios
        let scheme = URLTools.scheme(url) ?? ""
        switch scheme.isEmpty ? .neverExternal : SchemeKind(scheme: scheme) {
        case .web:
            if ios, let app = system.universalLinkApp(for: url) {
                launch(app, url: url, via: .universalLink, from: from)
            } else if !ios, let app = system.appLinkApp(for: url) {
                launch(app, url: url, via: .appLink, from: from)
            } else {
                switchTo(.browser)
                browserNavigate(url, frame: .main, frameIndex: nil, trigger: .initialLoad, gesture: false, method: "GET", redirects: 0)
            }
        case .intent:
            guard !ios, let intent = IntentURL.parse(url) else {
                problem("the OS cannot open \(url)", context: from, url: url)
                return
            }
            if let app = system.intentApp(for: intent) {
                launch(app, url: intent.data ?? url, via: .intent, from: from)
            } else if let fallback = intent.browserFallbackURL, URLTools.isWeb(fallback) {
                switchTo(.browser)
                browserNavigate(fallback, frame: .main, frameIndex: nil, trigger: .initialLoad, gesture: false, method: "GET", redirects: 0)
            } else {
                problem("no app takes the intent (package \(intent.package ?? "none"))", context: from, url: url)
            }
        case .neverExternal:
            problem("the OS refuses to open \(scheme.isEmpty ? "a malformed URL" : scheme + ": URLs")", context: from, url: url)
        case .custom:
            if let app = system.customSchemeApp(for: scheme) {
                launch(app, url: url, via: .customScheme, from: from)
            } else {
                problem("no app handles \(scheme): URLs", context: from, url: url)
            }
        }
    }

    private func launch(_ app: String, url: String, via: AppOpenVia, from: Surface) {
        guard outcome == nil else { return }
        emit(.launch, context: "os", url: url, via: via.rawValue, app: app)
        if !appsOpened.contains(app) { appsOpened.append(app) }
        if app == flow.hostApp {
            hostReceive(url)
            return
        }
        launchURL[app] = url
        launcher[app] = from
        let g = (launchGeneration[app] ?? 0) + 1
        launchGeneration[app] = g
        waitingApp = nil
        switchTo(.app(app))
        schedule(.app(app), generation: g, frame: nil, delay: Self.appTime, .appAct)
    }

    /// The host app got a URL from the OS (universal link, callback scheme, VIEW_PAYMENTORDER intent): the policy
    /// recognises its paymentUrl (reload), completeUrl or cancelUrl; anything else is ignored.
    private func hostReceive(_ url: String) {
        switchTo(.host)
        emit(.receive, context: "webview", url: url, app: flow.hostApp)
        system.beginAttempt()
        let d = decider.decide(Navigation(url: url, currentURL: web.page?.url, frame: .main, trigger: .link, userGesture: false))
        emit(.decide, context: "webview", url: url, action: d.action.name, target: d.action.target,
             via: d.action.via?.rawValue, rule: d.rule.rawValue, reason: d.reason)
        switch d.action {
        case .reload(let target): hostReload(target)
        case .complete: finish(.complete, place: .host, reason: "completeUrl delivered to the app (\(d.rule))")
        case .canceled: finish(.canceled, place: .host, reason: "cancelUrl delivered to the app (\(d.rule))")
        default: problem("the host app ignores \(url): the policy does not recognise it as its paymentUrl", context: .host, url: url)
        }
    }

    private func hostReload(_ target: String) {
        switchTo(.host)
        emit(.note, context: "webview", url: target, reason: "the host app reloads the payment page")
        webViewNavigate(target, frame: .main, frameIndex: nil, trigger: .reload, gesture: false, method: "GET", redirects: 0)
    }

    private func appAct(_ name: String, _ outcome: AppBehaviour.Outcome) {
        let behaviour = flow.apps[name] ?? AppBehaviour()
        let url = launchURL[name] ?? ""
        switch behaviour.resolve(outcome, launchURL: url) {
        case .previousApp:
            emit(.return, context: Surface.app(name).name, action: "previous", reason: outcome.rawValue, app: name)
            switchTo(launcher[name] ?? .host)
        case .open(let target):
            emit(.return, context: Surface.app(name).name, url: target, action: "open", reason: outcome.rawValue, app: name)
            osOpen(target, from: .app(name))
        case .stuck(let reason):
            finish(.stuck, place: .app(name), reason: "\(name): \(reason)")
        case .stays(let reason):
            if outcome == .fail {
                finish(.stuck, place: .app(name), reason: "\(name) failed")
            } else {
                waitingApp = name
                emit(.note, context: Surface.app(name).name, reason: reason, app: name)
            }
        }
    }

    // MARK: the user

    private func answerPrompt() {
        guard let p = prompt else { return }
        prompt = nil
        var accept = true
        var answered = false
        if stepIndex < flow.steps.count, flow.steps[stepIndex] == .accept || flow.steps[stepIndex] == .decline {
            accept = flow.steps[stepIndex] == .accept
            emit(.user, context: "browser", reason: flow.steps[stepIndex].description)
            stepIndex += 1
            answered = true
        }
        // Explore tries both answers whatever the steps say; a normal run takes the step's answer, else accepts.
        if oracle.exploring || !answered {
            accept = oracle.choose(["prompt-accepted:\(p.app)", "prompt-declined:\(p.app)"]) == 0
        }
        emit(.answer, context: "browser", url: p.url, action: accept ? "accept" : "decline", app: p.app)
        if accept {
            launch(p.app, url: p.url, via: .customScheme, from: .browser)
        } else {
            lastProblem = "the user declined to open \(p.app) from the browser"
        }
    }

    /// True when `step` can act on what is in front now.
    private func applies(_ step: FlowStep) -> Bool {
        switch step {
        case .tap(let text, let url):
            guard front == .host || front == .browser else { return false }
            return findTap(front == .host ? web : browser, text: text, url: url) != nil
        case .accept, .decline: return prompt != nil
        case .app(let name, _): return front == .app(name)
        case .switchToApp: return front != .host
        }
    }

    private func performStep() {
        // Explore: a branch may skip screens the default path shows; a step that does not apply is skipped
        // when a later one does.
        if oracle.exploring, !applies(flow.steps[stepIndex]) {
            guard let later = flow.steps[stepIndex...].firstIndex(where: { applies($0) }) else {
                // This branch is a dead end for the steps: say where it stands, not which step is missing.
                stepIndex = flow.steps.count
                finishIdle()
                return
            }
            stepIndex = later
        }
        let step = flow.steps[stepIndex]
        stepIndex += 1
        autoLoads.removeAll()
        emit(.user, context: front.name, reason: step.description)
        let n = stepIndex
        switch step {
        case .tap(let text, let url):
            guard front == .host || front == .browser else {
                finish(.stuck, reason: "step \(n) (\(step)) needs a web page in front, but \(front.name) is in front")
                return
            }
            let tab = front == .host ? web : browser
            guard let page = tab.page else {
                finish(.stuck, reason: "step \(n) (\(step)): no page is shown")
                return
            }
            guard let hit = findTap(tab, text: text, url: url) else {
                finish(.stuck, reason: "step \(n) (\(step)): nothing on \(page.url) matches")
                return
            }
            switch hit {
            case .link(let link, let frameIndex):
                let frame: NavigationFrame = link.target == "_blank" ? .newWindow
                    : (frameIndex != nil && link.target != "_top" && link.target != "_parent" ? .sub : .main)
                navigate(front, link.url, frame: frame, frameIndex: frame == .sub ? frameIndex : nil, trigger: .link, gesture: true, method: "GET")
            case .form(let form, let frameIndex):
                submit(front, form, frameIndex: frameIndex, gesture: true)
            case .script(let s, let frameIndex):
                let frame: NavigationFrame = s.kind == .windowOpen ? .newWindow : (frameIndex == nil ? .main : .sub)
                navigate(front, s.url, frame: frame, frameIndex: frameIndex, trigger: .script, gesture: true, method: "GET")
            }
        case .accept, .decline:
            finish(.stuck, reason: "step \(n) (\(step)): no prompt is shown")
        case .app(let name, let o):
            guard front == .app(name) else {
                finish(.stuck, reason: "step \(n) (\(step)): \(name) is not in front (\(front.name) is)")
                return
            }
            appAct(name, o)
        case .switchToApp:
            switchTo(.host)
        }
    }

    private enum TapHit {
        case link(PageScanResult.Link, Int?)
        case form(PageScanResult.Form, Int?)
        case script(PageScanResult.ScriptNavigation, Int?)
    }

    private func findTap(_ tab: Tab, text: String?, url: String?) -> TapHit? {
        var pages: [(LoadedPage, Int?)] = []
        if let p = tab.page { pages.append((p, nil)) }
        for i in tab.frames.keys.sorted() { if let p = tab.frames[i] { pages.append((p, i)) } }
        let wantURL = url.map { URLTools.pageKey($0) }
        let wantText = text.map { URLTools.looseText($0) }
        for (page, fi) in pages {
            for l in page.scan.links {
                if let wantURL, URLTools.pageKey(l.url) == wantURL { return .link(l, fi) }
                if let wantText, !wantText.isEmpty, URLTools.looseText(l.text).contains(wantText) { return .link(l, fi) }
            }
            for f in page.scan.forms where !f.autoSubmit || wantURL != nil {
                if let wantURL, URLTools.pageKey(f.action) == wantURL { return .form(f, fi) }
                if let wantText, !wantText.isEmpty,
                   f.fields.contains(where: { URLTools.looseText($0.value) == wantText }) { return .form(f, fi) }
            }
            for s in page.scan.scriptNavigations where !s.onLoad {
                if let wantURL, URLTools.pageKey(s.url) == wantURL { return .script(s, fi) }
            }
        }
        // A page whose only user action is a script handler (a "tap anywhere" trampoline): a text tap takes it.
        if text != nil, let page = tab.page, page.scan.links.allSatisfy({ $0.url.isEmpty }) {
            if let s = page.scan.scriptNavigations.first(where: { !$0.onLoad }) { return .script(s, nil) }
        }
        return nil
    }

    private func finishIdle() {
        var reason: String
        switch front {
        case .host:
            reason = "the web view shows \(web.page?.url ?? "nothing"); nothing happens by itself and no user step applies"
        case .browser:
            reason = "the browser shows \(browser.page?.url ?? "nothing"); nothing leads back to the app and no user step applies"
        case .app(let n):
            reason = "\(n) waits for the user and no step says what they do"
        }
        if let lastProblem { reason = lastProblem }
        finish(.stuck, reason: reason)
    }
}
