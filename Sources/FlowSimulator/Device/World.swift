// The simulated device: the host app's web view, the system browser, the OS's URL routing, other apps,
// and the network. Deterministic, in memory, virtual time (milliseconds); one run = one `World`.
//
// One file per actor: World+WebView (the policy's decisions carried out), World+Browser, World+Loading (a tab
// loading pages from the Network), World+OS (every hand-off through the one routing table, OSRouter),
// World+Apps, World+User. This file holds the run loop, the trace, the front context and the timers.
//
// Order of automatic navigations on a loaded page (what a browser does): script navigations that run on
// load fire first (scripts run while the page is parsed), then auto-submitted forms (submitted from the
// load event), then the refresh (it fires after load, after its delay). The first one that replaces the
// page cancels the others; one that is blocked or hands off to an app leaves the page, and the rest, in place.
// Timers only run while their context is in front (iOS and Android suspend background web views).
import NavigationPolicy
import PageScan

/// Something that decides web-view navigations. `NavigationPolicyEngine` is the only one the simulator
/// uses for flows; tests may pass a fixed table for world-only checks.
public protocol NavigationDeciding: Sendable {
    func decide(_ navigation: Navigation) -> Decision
    /// What the host app does with a URL the OS hands it (its paymentUrl, completeUrl or cancelUrl); nil: the
    /// policy's reading, whatever decides the web view's navigations (the default).
    func decideReceived(_ navigation: Navigation) -> Decision?
}

extension NavigationDeciding {
    public func decideReceived(_ navigation: Navigation) -> Decision? { nil }
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
    /// A tapped handler's navigation that runs later (after its `setTimeout`, or once its request is answered):
    /// it is the user's only while the tap's activation lasts (`UserActivation`).
    case tapped(PageScanResult.ScriptNavigation, tappedAt: Int, afterNetworkWait: Bool)
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
    /// The policy's reading of a URL the OS hands the host app, unless the decider answers it
    /// (`NavigationDeciding.decideReceived`): whatever handles the web view's own navigations (`webView.handler`).
    let receiver: NavigationPolicyEngine

    /// What the host app does with a URL it receives from the OS (or meets in the browser).
    func received(_ navigation: Navigation) -> Decision {
        decider.decideReceived(navigation) ?? receiver.decide(navigation)
    }
    /// The OS routing table every URL hand-off goes through.
    let router: OSRouter
    var network: Network
    var web = Tab()
    var browser = Tab()
    var front: Surface = .host
    var clock = 0
    var seq = 0
    var timers: [WorldTimer] = []
    var stepIndex = 0
    var prompt: (app: String, url: String)?
    var apps = OtherApps()
    var autoLoads: [String: Int] = [:]
    var lastProblem: String?
    /// While a top-window navigation started by a third-party frame runs (its redirects included): the top
    /// document's site, which WebKit lets it stay within (World+FrameBusting).
    var frameNavigationGuard: String?
    /// The host web view's sub-frames the user has tapped in since the main frame last loaded a page: Chromium's
    /// sticky user activation, kept by the frame across its own navigations.
    var framesWithActivation: Set<Int> = []
    /// The URL the OS is handing the host app while it comes to the front (`hostReceive`), if any.
    var arrivingURL: String?
    /// The host app was ended once while away in this run (`assume: {hostKilled: true}` ends it once).
    var killedOnce = false
    /// Android: Chrome's navigation chain in the browser's tab (`BrowserChain`).
    var browserChain = BrowserChain.none
    /// What the browser surface shows now: the system browser or the host app's in-app browser.
    var browserKind: InAppBrowser = .system
    /// Which browser app the system browser surface is: nil for the default browser, else one opened by name
    /// (BankID opens its return in Safari on iOS; a browser's own scheme).
    var browserApp: SystemBrowser?
    /// The browser surface has shown something in this run.
    var browserShown = false
    /// The default browser, once something asked which it is (`defaultBrowser()`).
    var resolvedDefaultBrowser: SystemBrowser?
    /// The trace said which browser is the default (`noteDefaultBrowser`).
    var defaultBrowserNoted = false
    /// The jar `browser.jar` belongs to (`jarKey`), and the jars of the browsers not shown now.
    var browserJarKey = World.unresolvedDefaultJar
    var browserJars: [String: CookieJar] = [:]
    /// iOS, an app that asks for cross-website tracking: whether its user allowed it (asked once per run, the first
    /// time a frame on another site meets the rule).
    var crossWebsiteTrackingAllowed: Bool?
    /// Providers whose embedding rule the trace already named in this run.
    var warnedProviders: Set<String> = []
    /// The last page whose scripts would navigate only after a network answer the model cannot know (named in a
    /// `stuck` verdict there).
    var waitsOnNetwork: String?
    var events: [TraceEvent] = []
    var outcome: Outcome?
    var navigationCount = 0
    var appsOpened: [String] = []
    /// Engine mode: the real engine rendering the host app's web view (nil: the model reads the pages).
    let engine: (any EngineSession)?
    let engineName: String
    /// Engine mode: the engine's paused request the navigation being decided came from (answered once).
    var engineRequest: EngineRequestID?
    /// The form the model just submitted by POST, and its encoded fields (for a live network's request body).
    var postedForm: (url: String, body: [UInt8])?
    /// Engine mode: the engine said nothing more happens by itself (until the world gives it something).
    var engineIdle = false
    /// Events of sub-frame navigations (a page's iframes loading): not steps towards the step bound, which is
    /// about the page going round in circles, so a page with a hundred frames still completes.
    var frameEvents = 0
    /// The branch name is decided by the choices taken; it is filled in when the run ends.
    var branchName: String { oracle.labels.isEmpty ? "default" : oracle.labels.joined(separator: ", ") }

    static let redirectLimit = 20
    /// Sub-frame events per run, at most: a page whose frames never stop loading still ends.
    static let frameEventLimit = 40_000
    static let frameLimit = 8
    /// Time a user spends in another app before it returns.
    static let appTime = 2000
    /// Time one request takes on the simulated network.
    static let networkTime = 50

    init(
        flow: Flow, oracle: ChoiceOracle, decider: ((any SystemServices) -> any NavigationDeciding)? = nil,
        engine: (any EngineSession)? = nil, engineName: String = "engine"
    ) {
        self.flow = flow
        self.engine = engine
        self.engineName = engineName
        self.oracle = oracle
        let system = DeviceSystem(
            base: flow.system, oracle: oracle, assumptions: oracle.exploring ? Assumptions() : flow.assumptions,
            hostApp: flow.hostApp)
        self.system = system
        self.router = OSRouter(platform: flow.policy.platform, system: system)
        let engine = NavigationPolicyEngine(policy: flow.policy, system: system)
        self.receiver = engine
        if let decider {
            self.decider = decider(system)
        } else if flow.webView.handler != .plainview {
            self.decider = HostHandlerDecider(
                handler: flow.webView.handler, policy: flow.policy, system: system,
                originWhitelist: flow.webView.originWhitelist)
        } else {
            self.decider = engine
        }
        self.network = Network(pages: flow.pages, responder: flow.responder, live: flow.liveNetwork)
        oracle.onChoice = { [weak self] label in self?.emit(.choice, context: "os", action: label) }
    }

    // MARK: running

    func run() {
        emit(.start, context: "webview", url: flow.start, app: flow.hostApp)
        webViewNavigate(
            flow.start, frame: .main, frameIndex: nil, trigger: .appLoad, gesture: false, method: "GET", redirects: 0)
        while outcome == nil {
            if events.count - frameEvents > flow.limits.steps {
                finish(.loop, reason: "step bound hit: more than \(flow.limits.steps) events without an outcome")
                break
            }
            if frameEvents > Self.frameEventLimit {
                finish(.loop, reason: "frame bound hit: more than \(Self.frameEventLimit) sub-frame events without an outcome")
                break
            }
            if let t = nextTimer() { fire(t); continue }
            if let engine, front == .host, !engineIdle { pumpEngine(engine); continue }
            if prompt != nil, front == .browser { answerPrompt(); continue }
            if stepIndex < flow.steps.count { performStep(); continue }
            finishIdle()
        }
    }

    // MARK: trace

    func emit(
        _ kind: TraceEventKind, context: String, url: String? = nil, frame: NavigationFrame? = nil,
        trigger: NavigationTrigger? = nil, gesture: Bool? = nil, method: String? = nil, action: String? = nil,
        target: String? = nil, via: String? = nil, rule: String? = nil, reason: String? = nil,
        status: Int? = nil, app: String? = nil
    ) {
        events.append(
            TraceEvent(
                flow: flow.name, branch: "", step: events.count + 1, time: clock, event: kind,
                context: context, url: url, frame: frame?.rawValue, trigger: trigger?.rawValue,
                gesture: gesture, method: method, action: action, target: target, via: via,
                rule: rule, reason: reason, status: status, app: app))
    }

    /// The events with the branch name filled in.
    func finalEvents() -> [TraceEvent] {
        let name = branchName
        return events.map {
            var e = $0; e.branch = name; return e
        }
    }

    var branchLabels: [String] { oracle.labels }

    func finish(_ kind: Outcome.Kind, place: Surface? = nil, reason: String) {
        guard outcome == nil else { return }
        let o = Outcome(kind, place: (place ?? front).name, reason: reason)
        outcome = o
        emit(.outcome, context: o.place, action: kind.rawValue, reason: reason)
    }

    func problem(_ text: String, context: Surface, url: String? = nil) {
        lastProblem = text
        emit(.note, context: context.name, url: url, reason: text)
    }

    // MARK: front

    func switchTo(_ s: Surface) {
        guard front != s else { return }
        let wasAway = front != .host
        front = s
        if s == .host, wasAway, killedWhileAway() { return }
        // A web view in front again runs its timers again.
        if s == .host { engineIdle = false }
        // Back in a Custom Tab from another app, a redirect without input may open an app again (Chromium's
        // components/external_intents README: the supported "return to the CCT" payment flow).
        if s == .browser, wasAway, browserKind == .customTabs {
            browserChain = BrowserChain(startedAt: clock, userStarted: true, origin: browser.page)
        }
        emit(.switch, context: s.name)
    }

    // MARK: timers

    func schedule(_ surface: Surface, generation: Int, frame: Int?, delay: Int, _ kind: TimerKind) {
        seq += 1
        timers.append(
            WorldTimer(time: clock + max(0, delay), seq: seq, surface: surface, generation: generation, frame: frame, kind: kind))
    }

    func nextTimer() -> WorldTimer? {
        var best: Int?
        for (i, t) in timers.enumerated() where t.surface == front {
            if let b = best, (timers[b].time, timers[b].seq) <= (t.time, t.seq) { continue }
            best = i
        }
        guard let b = best else { return nil }
        return timers.remove(at: b)
    }

    func fire(_ t: WorldTimer) {
        clock = max(clock, t.time)
        switch t.surface {
        case .host, .browser:
            let tab = t.surface == .host ? web : browser
            guard tab.generation == t.generation else { return }
            let frame: NavigationFrame = t.frame == nil ? .main : .sub
            switch t.kind {
            case .script(let s):
                // A framed page's `top.location = …` navigates the main frame, as the engines do.
                let (to, index) = s.kind == .windowOpen ? (.newWindow, nil) : targetFrame(s.target, from: t.frame, in: t.surface)
                // A link a script clicks is followed as a link, without the user's gesture.
                let trigger: NavigationTrigger = s.kind == .click ? .link : .script
                let guardSite = thirdPartyFrameGuard(t.surface, from: t.frame, to: to, gesture: false)
                guard passesThirdPartyFrameGuard(guardSite, s.url, redirect: false) else { break }
                frameNavigationGuard = guardSite
                navigate(t.surface, s.url, frame: to, frameIndex: index, trigger: trigger, gesture: false, method: "GET")
                frameNavigationGuard = nil
            case .tapped(let s, let tappedAt, let afterNetworkWait):
                let (to, index) = s.kind == .windowOpen ? (.newWindow, nil) : targetFrame(s.target, from: t.frame, in: t.surface)
                let gesture = activationHolds(
                    t.surface, s.url, tappedAt: tappedAt, afterNetworkWait: afterNetworkWait, newWindow: to == .newWindow)
                navigate(
                    t.surface, s.url, frame: to, frameIndex: index, trigger: s.kind == .click ? .link : .script, gesture: gesture,
                    method: "GET")
            case .form(let f):
                submit(t.surface, f, frameIndex: t.frame, gesture: false)
            case .refresh(let u):
                navigate(t.surface, u, frame: frame, frameIndex: t.frame, trigger: .metaRefresh, gesture: false, method: "GET")
            case .hook(let name, let kind):
                callHook(name, kind)
            case .appAct:
                break
            }
        case .app(let name):
            appTimerFired(name, generation: t.generation)
        }
    }
}
