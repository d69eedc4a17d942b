// One web view of Chromium: a page in its own browser context, every request paused (the `Fetch` domain) and
// answered by the world from the flow's recordings, every navigation reported as Chromium reports it.
//
// What Chromium 156 reports (checked on this engine, see README "Engine mode"):
// - `Page.frameRequestedNavigation` before each renderer-initiated navigation, with its reason
//   (`anchorClick`, `formSubmissionPost`, `metaTagRefresh`, `scriptInitiated`, `initialFrameNavigation` …) and
//   disposition (`currentTab`, `newWindow` …) — also for custom schemes and `intent:`, which never reach the
//   network: those are reported to the world from this event.
// - `Fetch.requestPaused` for every http(s) request: a `Document` one is the navigation itself (its frame,
//   method, and `redirectedRequestId` when it follows a redirect we answered).
// Timers run on Chromium's virtual time (`Emulation.setVirtualTimePolicy`, policy `advance` with a budget):
// the page's clock only moves while the world lets it, and an idle page jumps ahead, so a 30 s `setTimeout` or a
// 60 s refresh fires at once. (`pauseIfNetworkFetchesPending` stalls in Chromium 156 once a page is loaded.)
import FlowSimulator
import Foundation
import NavigationPolicy
import PlainviewURL
import PlainviewSupport

final class ChromiumSession: EngineSession {
    /// Android WebView's User-Agent (the `wv` token): pages take their mobile, in-app branch (a flow's
    /// `userAgent:` replaces it).
    static let userAgent = PlatformUserAgents.androidWebView
    /// The binding the app's JavaScript hooks call (`flow.hooks`).
    static let hookBinding = "__plainviewHook"
    /// Virtual-time budgets: the first after any activity, the growth while idle, the cap, and how much quiet
    /// virtual time means "nothing more happens by itself".
    static let firstBudget = 100, budgetCap = 8000, idleHorizon = 120_000

    private let connection: CDPConnection
    private let session: String
    private let context: String
    private let mainFrame: String
    private let deadline: Date
    private let timeout: TimeInterval
    private let onBroken: () -> Void
    private var closed = false

    /// Host-app loads waiting for their request (answered with this response without asking again).
    private var hostLoads: [RecordedResponse] = []
    /// What each paused request carries, until it is answered.
    private var pausedDetails: [String: EngineRequestDetails] = [:]
    /// Renderer-initiated navigations announced and not yet requested, by frame: (url, reason, disposition).
    private var requested: [String: (url: String, reason: String)] = [:]
    /// Sub-frames of the current page, in the order they first asked for a document.
    private var frameIndices: [String: Int] = [:]
    private var frameIDs: [Int: String] = [:]
    /// The user just tapped: the next navigation the page starts carries the gesture.
    private var tapPending = false
    /// What the user last tapped (a new window names no reason: a tapped link's is a link's).
    private var lastTap: EngineTap.Kind?
    private var budgetRunning = false
    private var budget = ChromiumSession.firstBudget
    private var quiet = 0
    private var activity = false
    /// Requests the page repeats (a status poll): not activity while their answer stays the same.
    private var repeated = RepeatedRequests()
    /// The page repeated a request since the last activity: it polls.
    private var polling = false
    private var pendingLoads: [String] = []
    /// Frames that asked for an app URL (custom scheme, `intent:`) whose attempt Chromium has not started yet:
    /// it would cancel a load sent before it, so host loads wait for it to start (and be superseded).
    private var abandoned: Set<String> = []
    private var loadWaits = 0
    /// Frames between the start and the end of a load, and frames whose document we answered and that have not
    /// committed it yet: the page is not idle while either is non-empty.
    private var loadingFrames: Set<String> = []
    private var documentFrames: [String: String] = [:]
    /// Frames whose document we served and that have not committed it (`Page.frameNavigated`): a stray
    /// `frameStoppedLoading` of an abandoned navigation must not make the page look idle before it shows.
    private var uncommitted: Set<String> = []
    /// What the page's `confirm()` answers (the flow's `webView.dialogs`).
    private let confirms: Bool
    /// Dialogs answered while a command waited, whose queued events are still to come (they need no second answer).
    private var dialogsAnsweredEarly = 0

    init(
        connection: CDPConnection, flow: Flow, deadline: Date, timeout: TimeInterval,
        onBroken: @escaping () -> Void
    ) throws(EngineFailure) {
        self.connection = connection
        self.deadline = deadline
        self.timeout = timeout
        self.onBroken = onBroken
        confirms = flow.webView.dialogs.confirms
        context = try connection.call("Target.createBrowserContext", deadline: deadline)["browserContextId"] as? String ?? ""
        let target =
            try connection.call(
                "Target.createTarget", [("url", .string("about:blank")), ("browserContextId", .string(context))],
                deadline: deadline)["targetId"] as? String ?? ""
        session =
            try connection.call(
                "Target.attachToTarget", [("targetId", .string(target)), ("flatten", .bool(true))],
                deadline: deadline)["sessionId"] as? String ?? ""
        mainFrame = target
        guard !context.isEmpty, !target.isEmpty, !session.isEmpty else {
            throw EngineFailure(.protocolError, "Chromium did not create a page")
        }
        for (method, params) in [
            ("Page.enable", []),
            // Binding calls (the app hooks) are reported only with the Runtime domain on.
            ("Runtime.enable", []),
            ("Fetch.enable", [("patterns", JSONValue.array([.object([("urlPattern", .string("*"))])]))]),
            ("Emulation.setUserAgentOverride", [("userAgent", .string(flow.userAgent ?? Self.userAgent))]),
            ("Runtime.addBinding", [("name", .string(Self.hookBinding))]),
            ("Page.addScriptToEvaluateOnNewDocument", [("source", .string(Self.hookScript(Array(flow.hooks.keys).sorted())))]),
            ("Emulation.setVirtualTimePolicy", [("policy", .string("pause"))]),
        ] as [(String, [(String, JSONValue?)])] {
            _ = try connection.call(method, params, session: session, deadline: deadline)
        }
    }

    /// Defines the app's JavaScript hooks in every document: an iOS message handler (`webkit.messageHandlers.NAME`)
    /// or an Android interface method (`object.method`), each calling the binding with its name.
    static func hookScript(_ names: [String]) -> String {
        var js = "(function(){var call=function(n){return function(){window.\(hookBinding)(n);};};"
        for name in names {
            let q = JSONEscaping.quote(name, htmlSafe: false)
            let parts = name.split(separator: ".", maxSplits: 1).map(String.init)
            if parts.count == 2 {
                let o = JSONEscaping.quote(parts[0], htmlSafe: false), m = JSONEscaping.quote(parts[1], htmlSafe: false)
                js += "window[\(o)]=window[\(o)]||{};window[\(o)][\(m)]=call(\(q));"
            } else {
                js += "window.webkit=window.webkit||{};window.webkit.messageHandlers=window.webkit.messageHandlers||{};"
                js += "window.webkit.messageHandlers[\(q)]={postMessage:call(\(q))};"
            }
        }
        return js + "})();"
    }

    // MARK: EngineSession

    /// The world gave the engine something to do: the idle count starts again.
    private func wake() {
        activity = true
        quiet = 0
        budget = Self.firstBudget
    }

    func load(_ url: String, response: RecordedResponse) {
        wake()
        hostLoads.append(response)
        requested[mainFrame] = nil
        // Sent once the main frame has finished what it was doing (an app URL it just gave up on would
        // otherwise cancel this load).
        pendingLoads.append(url)
    }

    func fulfil(_ request: EngineRequestID, with response: RecordedResponse) {
        // A poll's tick answered as the last one was tells the page nothing new: the idle count goes on.
        if !repeated.answered(request.raw, with: response) { wake() }
        pausedDetails[request.raw] = nil
        if let frame = documentFrames.removeValue(forKey: request.raw), !(300..<400).contains(response.status) {
            uncommitted.insert(frame)
        }
        var headers = response.headers
        if !headers.contains(where: { $0.name.lowercased() == "content-type" }) {
            headers.append(.init("Content-Type", "text/html; charset=utf-8"))
        }
        let list = JSONValue.array(headers.map { .object([("name", .string($0.name)), ("value", .string($0.value))]) })
        send(
            "Fetch.fulfillRequest",
            [
                ("requestId", .string(request.raw)), ("responseCode", .int(response.status)),
                ("responseHeaders", list), ("body", .string(Data(response.body).base64EncodedString())),
            ])
    }

    func details(of id: EngineRequestID) -> EngineRequestDetails? { pausedDetails[id.raw] }

    /// A paused request's headers and body as CDP reports them (`postDataEntries` are base64, `postData` text).
    static func details(_ request: [String: Any]) -> EngineRequestDetails {
        let headers = (request["headers"] as? [String: Any] ?? [:]).sorted { $0.key < $1.key }.compactMap {
            pair -> RecordedResponse.Header? in
            (pair.value as? String).map { RecordedResponse.Header(pair.key, $0) }
        }
        var body: [UInt8] = []
        if let entries = request["postDataEntries"] as? [[String: Any]] {
            for entry in entries {
                if let b64 = entry["bytes"] as? String, let data = Data(base64Encoded: b64) { body += data }
            }
        } else if let text = request["postData"] as? String {
            body = Array(text.utf8)
        }
        return EngineRequestDetails(headers: headers, body: body)
    }

    func refuse(_ request: EngineRequestID) {
        pausedDetails[request.raw] = nil
        repeated.dropped(request.raw)
        documentFrames[request.raw] = nil
        // `Aborted` is what a cancelled navigation is: the page stays, no error page.
        send("Fetch.failRequest", [("requestId", .string(request.raw)), ("errorReason", .string("Aborted"))])
    }

    func type(_ field: String, text: String, frameIndex: Int?) -> Bool {
        let expression =
            "(\(EngineScripts.type))(\(JSONEscaping.quote(field, htmlSafe: false)), \(JSONEscaping.quote(text, htmlSafe: false)))"
        let typed = (try? evaluate(expression, inFrame: frameIndex)) as? Bool ?? false
        if typed { wake() }
        return typed
    }

    /// Runs `expression` in Plainview's isolated world of sub-frame `frameIndex` (nil: the main frame), as run with a
    /// user gesture, and returns its value. `meanwhile` sees the events that arrive before the answer.
    private func evaluate(
        _ expression: String, inFrame frameIndex: Int?, meanwhile: ((CDPMessage) -> Void)? = nil
    ) throws -> Any? {
        let frame = frameIndex.flatMap { frameIDs[$0] } ?? mainFrame
        let world = try connection.call(
            "Page.createIsolatedWorld",
            [("frameId", .string(frame)), ("worldName", .string("plainview")), ("grantUniveralAccess", .bool(true))],
            session: session, deadline: deadline)
        guard let contextID = world["executionContextId"] as? Int else { return nil }
        let r = try connection.call(
            "Runtime.evaluate",
            [
                ("expression", .string(expression)), ("contextId", .int(contextID)), ("userGesture", .bool(true)),
                ("returnByValue", .bool(true)),
            ], session: session, deadline: deadline, meanwhile: meanwhile)
        return (r["result"] as? [String: Any])?["value"]
    }

    func tap(_ target: EngineTap) -> Bool {
        let expression =
            "(\(EngineScripts.tap))(\(JSONEscaping.quote(target.kind.rawValue, htmlSafe: false)), "
            + "\(JSONEscaping.quote(target.url, htmlSafe: false)), \(JSONEscaping.quote(target.text ?? "", htmlSafe: false)))"
        // A tap that opens a dialog (`onclick="return confirm(…)"`) gets no reply until it is answered.
        let value = try? evaluate(expression, inFrame: target.frameIndex) { [self] m in
            if m.method == "Page.javascriptDialogOpening" {
                answerDialog(m)
                dialogsAnsweredEarly += 1
            }
        }
        let tapped = value as? Bool ?? false
        if tapped {
            tapPending = true
            lastTap = target.kind
            wake()
        }
        return tapped
    }

    func next() -> EngineEvent {
        do {
            while true {
                if !pendingLoads.isEmpty, !abandoned.contains(mainFrame) || loadWaits >= 5 {
                    loadWaits = 0
                    try connection.send("Page.navigate", [("url", .string(pendingLoads.removeFirst()))], session: session)
                }
                if !budgetRunning {
                    budgetRunning = true
                    try connection.send(
                        "Emulation.setVirtualTimePolicy", [("policy", .string("advance")), ("budget", .int(budget))],
                        session: session)
                }
                guard let m = try connection.nextEvent(until: deadline) else {
                    onBroken()
                    return .failed("no outcome within \(Int(timeout)) s (the engine hung or the page never settled)")
                }
                if let event = try handle(m) { return event }
            }
        } catch {
            onBroken()
            return .failed(error.message)
        }
    }

    func close() {
        if Self.debug { FileHandle.standardError.write(Data("cdp CLOSE\n".utf8)) }
        guard !closed else { return }
        closed = true
        // The browser context goes with its page; a broken browser is restarted by the engine.
        if connection.broken == nil {
            _ = try? connection.call(
                "Target.disposeBrowserContext", [("browserContextId", .string(context))],
                deadline: Date().addingTimeInterval(5))
        }
    }

    // MARK: events

    private func send(_ method: String, _ params: [(String, JSONValue?)]) {
        _ = try? connection.send(method, params, session: session)
    }

    private static let debug = ProcessInfo.processInfo.environment["PLAINVIEW_ENGINE_DEBUG"] != nil

    private func handle(_ m: CDPMessage) throws(EngineFailure) -> EngineEvent? {
        if Self.debug, m.method != "Emulation.virtualTimeBudgetExpired" {
            FileHandle.standardError.write(
                Data(
                    "cdp \(m.method ?? "") \(m.params.filter { $0.key != "frame" && $0.key != "request" }) \((m.params["request"] as? [String: Any])?["url"] ?? (m.params["frame"] as? [String: Any])?["url"] ?? "")\n"
                        .utf8))
        }
        if m.sessionID != session {
            if m.method == "Target.detachedFromTarget", m.string("sessionId") == session {
                throw EngineFailure(.crashed, "Chromium closed the page")
            }
            return nil
        }
        switch m.method {
        case "Fetch.requestPaused":
            // Activity, unless it repeats a request answered before (a status poll: see RepeatedRequests).
            return paused(m.params)
        case "Page.frameRequestedNavigation":
            activity = true
            return requestedNavigation(m.params)
        case "Page.windowOpen":
            // A new window (a tapped `target=_blank` link, `window.open`) that the popup blocker let through:
            // Chromium reports no `frameRequestedNavigation` for it. The app's delegate is asked about it as a
            // new-window navigation, as WKWebView asks (Android without multiple windows: the world loads it in place).
            activity = true
            guard let url = m.string("url"), let kind = SchemeKind(url: url), kind != .neverExternal else { return nil }
            let gesture = (m.params["userGesture"] as? NSNumber)?.boolValue == true && tapPending
            let trigger: NavigationTrigger =
                gesture ? (lastTap == .link ? .link : lastTap == .form ? .form : .script) : .script
            if gesture { tapPending = false }
            return .navigation(
                EngineNavigation(url: url, frame: .newWindow, frameIndex: nil, trigger: trigger, gesture: gesture, request: nil))
        case "Page.frameNavigated":
            activity = true
            if let frame = m.params["frame"] as? [String: Any], let id = frame["id"] as? String { uncommitted.remove(id) }
            if let frame = m.params["frame"] as? [String: Any], frame["parentId"] == nil {
                repeated.forget()
                frameIndices = [:]
                frameIDs = [:]
            }
            return nil
        case "Page.frameStartedLoading", "Page.frameStartedNavigating":
            activity = true
            if let frame = m.string("frameId") {
                loadingFrames.insert(frame)
                if let url = m.string("url"), SchemeKind(url: url) != .web { abandoned.remove(frame) }
            }
            return nil
        case "Page.frameStoppedLoading", "Page.frameDetached":
            activity = true
            if let frame = m.string("frameId") {
                loadingFrames.remove(frame)
                if m.method == "Page.frameDetached" { uncommitted.remove(frame) }
            }
            return nil
        case "Page.frameScheduledNavigation", "Page.loadEventFired":
            activity = true
            return nil
        case "Page.javascriptDialogOpening":
            // One answered while a tap waited is queued too: it needs no second answer.
            if dialogsAnsweredEarly > 0 { dialogsAnsweredEarly -= 1 } else { answerDialog(m) }
            return nil
        case "Runtime.bindingCalled":
            guard m.string("name") == Self.hookBinding else { return nil }
            return .hook(m.string("payload") ?? "")
        case "Inspector.targetCrashed":
            throw EngineFailure(.crashed, "the Chromium renderer crashed")
        case "Emulation.virtualTimeBudgetExpired":
            budgetRunning = false
            if !pendingLoads.isEmpty { loadWaits += 1 }
            let active = activity
            activity = false
            if active {
                budget = Self.firstBudget
                quiet = 0
                polling = false
                return nil
            }
            quiet += budget
            // A page that polls keeps the first budget: virtual time does not wait for the network, so a large budget
            // would pass at once while a `setTimeout` loop waits for its answer, and the horizon would count a few
            // polls of seconds each instead of the 120 s they take (WebKit, on real time, waits the same 120 s).
            budget = polling ? Self.firstBudget : min(budget * 2, Self.budgetCap)
            // Idle: quiet for the horizon with no frame loading (four horizons: a load that never ends is idle too).
            if quiet >= Self.idleHorizon && loadingFrames.isEmpty && uncommitted.isEmpty || quiet >= 4 * Self.idleHorizon {
                quiet = 0
                budget = Self.firstBudget
                tapPending = false
                if Self.debug {
                    FileHandle.standardError.write(
                        Data("cdp IDLE loading=\(loadingFrames) uncommitted=\(uncommitted) pending=\(pendingLoads)\n".utf8))
                }
                return .idle
            }
            return nil
        default:
            return nil
        }
    }

    private func requestedNavigation(_ p: [String: Any]) -> EngineEvent? {
        guard let url = p["url"] as? String, let frameID = p["frameId"] as? String else { return nil }
        let reason = p["reason"] as? String ?? ""
        let disposition = p["disposition"] as? String ?? "currentTab"
        let kind = SchemeKind(url: url)
        if kind == .neverExternal || kind == nil { return nil }
        let newWindow = disposition != "currentTab"
        if kind == .web && !newWindow {
            // The request follows (`Fetch.requestPaused`): it is decided there, with this reason.
            requested[frameID] = (url, reason)
            return nil
        }
        // A custom scheme or `intent:` (Chromium cannot load it), or a new window (its page would be another
        // target): the world decides and carries it out.
        if kind != .web, !newWindow { abandoned.insert(frameID) }
        let frame: NavigationFrame = newWindow ? .newWindow : (frameID == mainFrame ? .main : .sub)
        return .navigation(
            EngineNavigation(
                url: url, frame: frame, frameIndex: frameIndices[frameID],
                trigger: Self.trigger(reason), gesture: takeGesture(reason), request: nil))
    }

    private func paused(_ p: [String: Any]) -> EngineEvent? {
        guard let id = p["requestId"] as? String, let request = p["request"] as? [String: Any],
            let url = request["url"] as? String
        else { return nil }
        let method = (request["method"] as? String ?? "GET").uppercased()
        let requestID = EngineRequestID(id)
        pausedDetails[id] = Self.details(request)
        guard p["resourceType"] as? String == "Document" else {
            if repeated.asked(id, method: method, url: url, body: pausedDetails[id]?.body ?? []) {
                polling = true
            } else {
                activity = true
            }
            return .resource(requestID, method: method, url: url)
        }
        activity = true
        let frameID = p["frameId"] as? String ?? mainFrame
        documentFrames[id] = frameID
        uncommitted.remove(frameID)
        let isRedirect = p["redirectedRequestId"] != nil
        let isMain = frameID == mainFrame
        if isMain, !isRedirect, requested[frameID] == nil, !hostLoads.isEmpty {
            fulfil(requestID, with: hostLoads.removeFirst())
            return nil
        }
        var frameIndex: Int?
        if !isMain {
            if frameIndices[frameID] == nil {
                frameIndices[frameID] = frameIndices.count
                frameIDs[frameIndices.count - 1] = frameID
            }
            frameIndex = frameIndices[frameID]
        }
        let announced = requested.removeValue(forKey: frameID)
        let trigger: NavigationTrigger =
            isRedirect ? .serverRedirect : announced.map { Self.trigger($0.reason) } ?? (isMain ? .link : .initialLoad)
        let gesture = isRedirect ? false : takeGesture(announced?.reason ?? "")
        return .navigation(
            EngineNavigation(
                url: url, frame: isMain ? .main : .sub, frameIndex: frameIndex, trigger: trigger,
                gesture: gesture, method: method, request: requestID))
    }

    /// The gesture of the user's last tap goes to the first navigation the page starts after it.
    /// Answers a JavaScript dialog as the app would (`webView.dialogs`): with no WebChromeClient, Android's WebView
    /// cancels confirm() and prompt(); an app that shows them gets the user's answer. Leaving the page is allowed.
    private func answerDialog(_ m: CDPMessage) {
        let accept = m.string("type") == "beforeunload" || m.string("type") == "alert" || confirms
        send("Page.handleJavaScriptDialog", [("accept", .bool(accept))])
    }

    private func takeGesture(_ reason: String) -> Bool {
        guard tapPending, ["anchorClick", "formSubmissionGet", "formSubmissionPost", "scriptInitiated"].contains(reason) else {
            return false
        }
        tapPending = false
        return true
    }

    /// Chromium's navigation reason as the policy's trigger.
    static func trigger(_ reason: String) -> NavigationTrigger {
        switch reason {
        case "anchorClick": .link
        case "formSubmissionGet", "formSubmissionPost": .form
        case "metaTagRefresh", "httpHeaderRefresh": .metaRefresh
        case "initialFrameNavigation": .initialLoad
        case "reload": .reload
        case "historyNavigation": .backForward
        default: .script
        }
    }
}
