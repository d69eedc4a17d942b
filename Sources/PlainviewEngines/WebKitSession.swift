// One WebKitGTK web view: every navigation WebKit asks about and every request it makes comes back here, and the
// world answers it from the flow. This is the reference for how an iOS app connects Plainview's policy to
// WKNavigationDelegate: `decide-policy` is `webView(_:decidePolicyFor:decisionHandler:)` with the same facts
// (URL, method, navigation type, user gesture, redirect, new window).
//
// What WebKitGTK 2.50's UI-process API does and does not say (checked on this engine):
// - `decide-policy` does not say which frame a navigation is for. On a page without frames it can only be the main
//   frame's: an http(s) navigation is then decided at `decide-policy`, as WKWebView decides it, and let through only
//   when allowed (a refused one makes no request, and the page's own requests go on). On a page with frames it is
//   let through `decide-policy` and decided when its request reaches the recording proxy, whose `Sec-Fetch-Dest`
//   says `document` (main frame) or `iframe`/`frame` (sub-frame). A refusal is then answered `204 No Content`:
//   WebKit keeps the current page, as `decisionHandler(.cancel)` does, but it has already stopped the page's loads
//   in flight (a `fetch` fails), which a cancelled decision does not. Any other scheme (an app's custom scheme,
//   `intent:`) never reaches the network: it is decided at `decide-policy` (as the main frame's) and refused there.
// - Which sub-frame a request is for is not said either: a frame's own navigation is told by its `Referer` (the
//   frame's current URL, or its origin across origins); anything else is a new frame. A new frame that the main
//   document holds (an `<iframe>` or `<frame>` whose `src` is the URL, asked of the engine's DOM) gets that
//   element's place, as `window.frames` numbers it: WebKit loads a page's frames at once, and their requests reach
//   the proxy in either order. Any other new frame (one inside a frame) is numbered after them, in request order.
// - WebKitGTK has no virtual time. A user script injected at document start in every frame runs `setTimeout` and
//   `setInterval` 100 times faster and carries out a `<meta http-equiv=refresh>` (read from the engine's DOM) or a
//   `Refresh` header (read here, told to the page's script once the document commits) of a second or more after a
//   hundredth of its delay (`location.replace`, as the refresh would); both are reported so the run knows when
//   the page has settled.
import FlowSimulator
import Foundation
import NavigationPolicy
import PageScan
import PlainviewURL
import PlainviewSupport

final class WebKitSession: EngineSession {
    /// WKWebView's own User-Agent on an iPhone (no `Version/… Safari/…`: that is Safari's, not a web view's).
    static let iPhoneUserAgent = PlatformUserAgents.iPhoneWebView
    /// How much faster page timers run (and long refreshes fire).
    static let timeScale = 100
    /// The driver's message channel for the injected script.
    static let channel = "__plainview"
    /// Real quiet time after which the page is idle: with no timer pending and nothing loading, and otherwise
    /// (an interval, a timer nobody clears, a page that polls: the model's 120 s horizon at `timeScale`).
    static let settleQuiet: TimeInterval = 0.4, horizonQuiet = 1.2, stuckQuiet = 6.0

    private let connection: CDPConnection
    private let deadline: Date
    private let timeout: TimeInterval
    private let onBroken: () -> Void
    private var closed = false
    /// The driver's number for this view: events about another (a closed view's) are not this flow's.
    private var view: Int?

    /// Host-app loads waiting for their request (answered without asking again).
    private var hostLoads: [(url: String, response: RecordedResponse)] = []
    /// Facts `decide-policy` gave about http(s) navigations let through to the proxy, by URL.
    private var facts: [String: [Fact]] = [:]
    private struct Fact {
        var navigationType: String
        var gesture: Bool
        var redirect: Bool
        var hostLoad: Bool
        var refresh: Bool
    }
    /// Open proxy requests: navigations (answered 204 when refused) and resources (a network error).
    private var documents: [Int: (url: String, frame: Int?)] = [:]
    /// The main document's URL and the sub-frames' current URLs, by index.
    private var mainURL = ""
    private var frameURLs: [Int: String] = [:]
    /// A redirected frame request's target keeps the frame's index.
    private var redirectedFrames: [String: Int] = [:]
    /// What each proxied request carries, until it is answered.
    private var pausedDetails: [Int: EngineRequestDetails] = [:]
    /// A main document served with a `Refresh` header of a second or more: carried out early once it commits.
    private var headerRefresh: (url: String, refresh: PageScanResult.Refresh)?
    /// Refresh targets the injected script announced (the next navigation there is a refresh).
    private var refreshes: Set<String> = []
    /// Frames (by the script's token) with a timer or refresh pending.
    private var busyFrames: Set<String> = []
    private var loading = false
    /// A main document was answered and WebKit has not committed it yet: however long a large page takes to reach
    /// the web process, the page is not idle (only the engine timeout ends the wait).
    private var committing = false
    /// Extra quiet before a page counts as idle, for the size of its main document: WebKit lays out a large page
    /// for a while after it finished loading, and a navigation its last script asked for only reaches
    /// `decide-policy` after that (a 10 MB page: about a second on a loaded machine).
    private var largePageQuiet: TimeInterval = 0
    /// Sub-frame documents served whose frame has not reported its `load` event yet.
    private var frameLoads = 0
    /// The user just tapped and the page has not asked for a navigation since: give it time (a loaded machine).
    private var tapped = false
    private var lastActivity = Date()
    /// The event being handled keeps the page quiet (a poll's next tick, or a timer of a page that polls): see
    /// `next()`.
    private var routine = false
    /// Requests the page repeats (a status poll): not activity while their answer stays the same.
    private var repeated = RepeatedRequests()
    /// When the page last repeated a request: later than `lastActivity`, the page has done nothing but poll since.
    private var lastRepeat = Date.distantPast
    private var polling: Bool { lastRepeat >= lastActivity }
    /// The page's last answer to `readyState()` and when it came: routine events since then need no new question.
    private var lastAnswer: (state: String, at: Date)?
    /// Events read while waiting for something else (a tap's result, an admitted navigation's request).
    private var backlog: [CDPMessage] = []
    /// Main-frame navigations held at `decide-policy` for the world, by decision number: the URL (as `key` spells it)
    /// whose request an admitted one makes.
    private var held: [Int: String] = [:]
    private var tapCount = 0

    init(
        connection: CDPConnection, flow: Flow, deadline: Date, timeout: TimeInterval,
        onBroken: @escaping () -> Void
    ) throws(EngineFailure) {
        self.connection = connection
        self.deadline = deadline
        self.timeout = timeout
        self.onBroken = onBroken
        let iosHooks = flow.hooks.keys.filter { !$0.contains(".") }.sorted()
        let agent = flow.userAgent ?? (flow.policy.platform == .android ? ChromiumSession.userAgent : Self.iPhoneUserAgent)
        let opened = try connection.call(
            "View.open",
            [
                ("userAgent", .string(agent)),
                ("script", .string(Self.pageScript(androidHooks: flow.hooks.keys.filter { $0.contains(".") }.sorted()))),
                ("canOpenWindows", .bool(flow.webView.javaScriptCanOpenWindowsAutomatically)),
                ("confirms", .bool(flow.webView.dialogs.confirms)),
                ("handlers", .array(([Self.channel] + iosHooks).map { .string($0) })),
            ], deadline: deadline)
        view = opened["view"] as? Int
    }

    /// The script every frame runs first: fast timers and refreshes, the Android-style app hooks, and taps into frames.
    static func pageScript(androidHooks: [String]) -> String {
        var hooks = ""
        for name in androidHooks {
            let parts = name.split(separator: ".", maxSplits: 1).map { JSONEscaping.quote(String($0), htmlSafe: false) }
            hooks +=
                "window[\(parts[0])]=window[\(parts[0])]||{};window[\(parts[0])][\(parts[1])]=function(){post({t:'hook',name:\(JSONEscaping.quote(name, htmlSafe: false))});};"
        }
        return """
            (function() {
              if (window.__plainview) { return; }
              var channel = window.webkit && window.webkit.messageHandlers && window.webkit.messageHandlers.\(channel);
              var post = function(m) { try { channel.postMessage(JSON.stringify(m)); } catch (e) {} };
              var scale = \(timeScale), frame = Math.random().toString(36).slice(2), pending = 0;
              var count = function(d) {
                pending += d;
                if ((d > 0 && pending === 1) || pending === 0) { post({t: 'timers', frame: frame, busy: pending > 0}); }
              };
              var st = window.setTimeout, ct = window.clearTimeout, si = window.setInterval, live = {};
              var call = function(f, args) { if (typeof f === 'function') { f.apply(window, args); } else { (0, eval)(String(f)); } };
              var later = function(delay) { return Math.max(0, Number(delay) || 0) / scale; };
              window.setTimeout = function(f, delay) {
                var args = Array.prototype.slice.call(arguments, 2), id;
                id = st.call(window, function() { if (live[id]) { delete live[id]; count(-1); } call(f, args); }, later(delay));
                live[id] = true;
                count(1);
                return id;
              };
              window.clearTimeout = function(id) { if (live[id]) { delete live[id]; count(-1); } return ct.call(window, id); };
              window.setInterval = function(f, delay) {
                var args = Array.prototype.slice.call(arguments, 2);
                return si.call(window, function() { call(f, args); }, later(delay));
              };
              window.addEventListener('load', function() { post({t: 'loaded', top: window === window.top}); });
              window.addEventListener('pagehide', function() { if (pending > 0) { pending = 0; post({t: 'timers', frame: frame, busy: false}); } });
              // A refresh of a second or more happens after a hundredth of its delay. A shorter one is the engine's
              // own, announced so that its navigation is told a refresh (WebKit gives it no navigation type of its own).
              var soon = function(seconds, url) {
                if (seconds < 1) { post({t: 'refresh', url: url}); return; }
                count(1);
                st.call(window, function() { count(-1); post({t: 'refresh', url: url}); location.replace(url); }, seconds * 1000 / scale);
              };
              var refresh = function() {
                var metas = document.querySelectorAll('meta[http-equiv]');
                for (var i = 0; i < metas.length; i++) {
                  if ((metas[i].httpEquiv || '').toLowerCase() !== 'refresh') { continue; }
                  var m = /^\\s*(\\d+)[\\d.]*\\s*(?:[;,]\\s*(?:url\\s*=\\s*)?)?([\\s\\S]*)$/i.exec(metas[i].content || '');
                  if (!m) { return; }
                  var seconds = Number(m[1]), target = m[2].trim();
                  if (/^['"]/.test(target)) { var end = target.indexOf(target[0], 1); target = target.slice(1, end < 0 ? undefined : end); }
                  var url;
                  try { url = target ? new URL(target, document.baseURI).href : location.href; } catch (e) { return; }
                  soon(seconds, url);
                  return;
                }
              };
              if (document.readyState === 'loading') { document.addEventListener('DOMContentLoaded', refresh); } else { refresh(); }
              \(hooks)
              var find = (\(EngineScripts.tap));
              var typeInto = (\(EngineScripts.type));
              var tap = function(t, point) {
                var ok = false;
                try { ok = t.kind === 'type' ? typeInto(t.url, t.text) : find(t.kind, t.url, t.text, point); } catch (e) {}
                if (ok && typeof ok === 'object') { post({t: 'tap', token: t.token, ok: true, x: ok.x, y: ok.y}); return; }
                post({t: 'tap', token: t.token, ok: !!ok});
              };
              window.addEventListener('message', function(e) { if (e.data && typeof e.data === 'object' && e.data.__plainviewTap) { tap(e.data.__plainviewTap); } });
              window.__plainview = { refresh: soon, tap: function(t, frameIndex) {
                if (frameIndex === null) { tap(t, true); return; }
                var w = window.frames[frameIndex];
                if (!w) { post({t: 'tap', token: t.token, ok: false}); return; }
                w.postMessage({__plainviewTap: t}, '*');
              } };
            })();
            """
    }

    // MARK: EngineSession

    func load(_ url: String, response: RecordedResponse) {
        lastActivity = Date()
        hostLoads.append((url, response))
        send("View.load", [("url", .string(url))])
    }

    func fulfil(_ request: EngineRequestID, with response: RecordedResponse) {
        // A poll's tick answered as the last one was tells the page nothing new: the page is as quiet as before.
        if !repeated.answered(request.raw, with: response) { lastActivity = Date() }
        guard let id = Int(request.raw) else { return }
        pausedDetails[id] = nil
        if let document = documents.removeValue(forKey: id) {
            let isRedirect = (300..<400).contains(response.status)
            if let frame = document.frame {
                frameURLs[frame] = document.url
                if !isRedirect { frameLoads += 1 }
                if isRedirect, let location = response.header("Location"), let base = WebURL(document.url),
                    let target = WebURL(location, relativeTo: base)
                {
                    redirectedFrames[Self.key(target.href)] = frame
                }
            } else if !isRedirect {
                // A new main document: its frames are numbered afresh.
                // (204 and 205 keep the current page: nothing will commit.)
                committing = response.status != 204 && response.status != 205
                largePageQuiet = Double(response.body.count) / 4_000_000
                mainURL = document.url
                repeated.forget()
                frameURLs = [:]
                redirectedFrames = [:]
                headerRefresh = response.header("Refresh").flatMap { PageScanner.parseRefresh($0, documentURL: document.url) }
                    .map { (Self.key(document.url), $0) }
            }
        }
        var headers = response.headers
        if !headers.contains(where: { $0.name.lowercased() == "content-type" }) {
            headers.append(.init("Content-Type", "text/html; charset=utf-8"))
        }
        send(
            "Proxy.respond",
            [
                ("request", .int(id)), ("status", .int(response.status)),
                ("headers", .array(headers.map { .object([("name", .string($0.name)), ("value", .string($0.value))]) })),
                ("body", .string(Data(response.body).base64EncodedString())),
            ])
    }

    func admit(_ request: EngineRequestID) -> EngineRequestID? {
        guard let decision = Self.decision(request) else { return request }
        guard let key = held.removeValue(forKey: decision) else { return nil }
        lastActivity = Date()
        send("View.decide", [("decision", .int(decision)), ("use", .bool(true))])
        // Its request reaches the proxy as the main frame's document (plain http: with no `Sec-Fetch-Dest`); what
        // arrives before it is handled afterwards, in order.
        let until = min(deadline, Date().addingTimeInterval(Self.stuckQuiet))
        var seen: [CDPMessage] = []
        defer { backlog.append(contentsOf: seen) }
        while let m = try? connection.nextEvent(until: until) {
            if m.method == "Proxy.request", m.params["view"] as? Int == view, let id = m.params["request"] as? Int,
                let url = m.string("url"), Self.key(url) == key, ["document", ""].contains(m.string("destination") ?? "")
            {
                lastActivity = Date()
                pausedDetails[id] = Self.details(m.params)
                documents[id] = (url, nil)
                return EngineRequestID(String(id))
            }
            seen.append(m)
        }
        return nil
    }

    func details(of id: EngineRequestID) -> EngineRequestDetails? { Int(id.raw).flatMap { pausedDetails[$0] } }

    func refuse(_ request: EngineRequestID) {
        if let decision = Self.decision(request) {
            // `decisionHandler(.cancel)`: WebKit makes no request, and the page and its loads go on.
            if held.removeValue(forKey: decision) != nil {
                send("View.decide", [("decision", .int(decision)), ("use", .bool(false))])
            }
            return
        }
        guard let id = Int(request.raw) else { return }
        pausedDetails[id] = nil
        repeated.dropped(request.raw)
        if documents.removeValue(forKey: id) != nil {
            // A refused navigation: 204 keeps the current page (no error page), as a cancelled decision does.
            send("Proxy.respond", [("request", .int(id)), ("status", .int(204)), ("headers", .array([])), ("body", .string(""))])
        } else {
            send("Proxy.fail", [("request", .int(id))])
        }
    }

    func type(_ field: String, text: String, frameIndex: Int?) -> Bool {
        // The frame's script types as it taps (kind `type`: the field's name in `url`), and answers the same way.
        act(kind: "type", url: field, text: text, frameIndex: frameIndex, click: false)
    }

    func tap(_ target: EngineTap) -> Bool {
        act(kind: target.kind.rawValue, url: target.url, text: target.text ?? "", frameIndex: target.frameIndex, click: true)
    }

    /// Asks the page (or its frame `frameIndex`) to tap or type, and waits for its answer; a tap is then clicked
    /// at the element's centre with a real pointer event.
    private func act(kind: String, url: String, text: String, frameIndex: Int?, click: Bool) -> Bool {
        tapCount += 1
        let token = "tap\(tapCount)"
        let t =
            "{kind:\(JSONEscaping.quote(kind, htmlSafe: false)),url:\(JSONEscaping.quote(url, htmlSafe: false)),"
            + "text:\(JSONEscaping.quote(text, htmlSafe: false)),token:\(JSONEscaping.quote(token, htmlSafe: false))}"
        let frame = frameIndex.map(String.init) ?? "null"
        send("View.evaluate", [("script", .string("window.__plainview && window.__plainview.tap(\(t), \(frame));"))])
        // The result comes back as a message from the frame that tapped (a frame that never answers: not found).
        let until = min(deadline, Date().addingTimeInterval(3))
        var seen: [CDPMessage] = []
        defer { backlog.append(contentsOf: seen) }
        while let m = try? connection.nextEvent(until: until) {
            if Self.debug { FileHandle.standardError.write(Data("webkit (tap) \(m.method ?? "") \(m.params)\n".utf8)) }
            if m.method == "View.message", m.string("handler") == Self.channel,
                let body = message(m), body["t"] as? String == "tap", body["token"] as? String == token
            {
                lastActivity = Date()
                let ok = body["ok"] as? Bool ?? false
                guard click else { return ok }
                tapped = ok
                // The element's centre: the driver clicks there with a real pointer event, which gives the page
                // the user activation a tap has (an element's click() from a script has none in WebKit).
                if tapped, let x = (body["x"] as? NSNumber)?.doubleValue, let y = (body["y"] as? NSNumber)?.doubleValue {
                    send("View.click", [("x", .int(Int(x.rounded()))), ("y", .int(Int(y.rounded())))])
                }
                return tapped
            }
            seen.append(m)
        }
        return false
    }

    func next() -> EngineEvent {
        do {
            while true {
                if closed { return .failed("the web view is closed") }
                let m: CDPMessage?
                if !backlog.isEmpty {
                    m = backlog.removeFirst()
                } else {
                    // A load asked for and not yet requested, or a navigation let through and not yet at the proxy,
                    // is on its way (a new web process can take a second to start): not idle.
                    let underway = loading || !hostLoads.isEmpty || facts.values.contains { !$0.isEmpty }
                    // A page that only polls waits the horizon too: the 120 s Chromium waits in virtual time, so a
                    // status that a recorded sequence says is done after many polls is done in both engines.
                    let settled =
                        (!busyFrames.isEmpty || !documents.isEmpty || frameLoads > 0 || tapped || polling
                            ? Self.horizonQuiet : Self.settleQuiet) + largePageQuiet
                    let quietEnd =
                        committing ? deadline : lastActivity.addingTimeInterval(underway ? Self.stuckQuiet : settled)
                    m = try connection.nextEvent(until: min(deadline, quietEnd))
                    if m == nil {
                        if Date() >= deadline {
                            onBroken()
                            return .failed("no outcome within \(Int(timeout)) s (the engine hung or the page never settled)")
                        }
                        // Quiet is not idle until the page answers: a web process busy in a script that never
                        // returns (or hung) is an error, and a page still laying out a large document may yet ask
                        // for the navigation its last script made (WebKit sends that before the answer). Only routine
                        // events since its last answer (a poll goes on while it answers): that answer stands.
                        let state: String?
                        var late = false
                        if let last = lastAnswer, last.at >= lastActivity {
                            state = last.state
                        } else {
                            let asked = Date()
                            state = readyState()
                            lastAnswer = state.map { ($0, Date()) }
                            late = Date().timeIntervalSince(asked) > Self.settleQuiet
                        }
                        if Date() >= deadline {
                            onBroken()
                            return .failed("no outcome within \(Int(timeout)) s (the engine hung or the page never settled)")
                        }
                        guard let state else {
                            onBroken()
                            return .failed(
                                "the page did not answer within \(Int(answerWait)) s: its web process is hung (a script that never returns?)"
                            )
                        }
                        if connection.hasQueuedEvents { continue }
                        lastActivity = Date()
                        // The parser has not reached the end of the document (a large page on a busy machine):
                        // a script still to come may navigate. The run's own bound still applies.
                        if state == "loading" { continue }
                        // A late answer was waiting behind the page's own work (the parser of a 10 MB page): a
                        // navigation its last script asked for is scheduled (WebKit's NavigationScheduler runs it
                        // from a timer) and may come right after the answer. Quiet is idle only once the page answers
                        // promptly.
                        if late {
                            lastAnswer = nil
                            continue
                        }
                        lastAnswer = nil
                        busyFrames = []
                        frameLoads = 0
                        tapped = false
                        return .idle
                    }
                }
                guard let m else { continue }
                if Self.debug { FileHandle.standardError.write(Data("webkit \(m.method ?? "") \(m.params)\n".utf8)) }
                // Every event is activity except the routine ones of a page that only polls (see RepeatedRequests):
                // a repeated request answered as before, and, once the page polls, its timers set or fired (a
                // `setTimeout` loop reschedules the next poll on each answer). As in Chromium, where neither a
                // repeated answer (the same rule) nor a timer firing is activity, the page is then idle after the
                // horizon with nothing else happening: a periodic poll is waiting, not loading.
                let now = Date()
                routine = false
                let event = try handle(m)
                if !routine { lastActivity = max(lastActivity, now) }
                if let event { return event }
            }
        } catch {
            onBroken()
            return .failed(error.message)
        }
    }

    /// How long the page has to answer before its web process counts as hung.
    static let answerWait: TimeInterval = 8

    /// `answerWait`, longer after a large main document: parsing and laying out megabytes on a busy machine keeps
    /// the web process from answering for a while (10 MB: 48 s; under a full test run on two cores 28 s was once
    /// not enough) without it being hung.
    private var answerWait: TimeInterval { Self.answerWait + 16 * largePageQuiet }

    /// The main document's `readyState` when the page's main world runs a script within `answerWait` (bounded by
    /// the run's deadline; past it the caller reports the run's own bound), nil when it does not answer.
    /// "loading" means the HTML parser is still at work (HTML Standard, "current document readiness").
    private func readyState() -> String? {
        let until = min(deadline, Date().addingTimeInterval(answerWait))
        guard let result = try? connection.call("View.value", [("script", .string("document.readyState"))], deadline: until)
        else { return nil }
        return result["value"] as? String ?? ""
    }

    func close() {
        guard !closed else { return }
        closed = true
        if connection.broken == nil {
            _ = try? connection.call("View.close", deadline: Date().addingTimeInterval(5))
        }
    }

    // MARK: events

    private static let debug = ProcessInfo.processInfo.environment["PLAINVIEW_ENGINE_DEBUG"] != nil

    private func send(_ method: String, _ params: [(String, JSONValue?)]) {
        _ = try? connection.send(method, params)
    }

    private func message(_ m: CDPMessage) -> [String: Any]? {
        guard let body = m.string("body"), let data = body.data(using: .utf8) else { return nil }
        return (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
    }

    private func handle(_ m: CDPMessage) throws(EngineFailure) -> EngineEvent? {
        if let view, let about = m.params["view"] as? Int, about != view {
            // Left over from an earlier flow's view (its requests were failed when this view opened).
            if m.method == "Proxy.request", let id = m.params["request"] as? Int { send("Proxy.fail", [("request", .int(id))]) }
            return nil
        }
        switch m.method {
        case "View.decide":
            tapped = false
            return decide(m.params)
        case "Proxy.request":
            return request(m.params)
        case "View.load":
            switch m.string("event") {
            case "started":
                loading = true
                frameLoads = 0
            case "committed":
                committing = false
                // WebKit honours a `Refresh` header on real time; the injected script carries it out early instead.
                if let pending = headerRefresh, pending.url == Self.key(m.string("url") ?? "") {
                    headerRefresh = nil
                    send(
                        "View.evaluate",
                        [
                            (
                                "script",
                                .string(
                                    "window.__plainview && window.__plainview.refresh("
                                        + "\(pending.refresh.delay), \(JSONEscaping.quote(pending.refresh.url, htmlSafe: false)));"
                                )
                            )
                        ])
                }
            case "finished":
                loading = false
                committing = false
            default: break
            }
            return nil
        case "View.loadFailed":
            loading = false
            committing = false
            return nil
        case "View.message":
            let handler = m.string("handler") ?? ""
            guard handler == Self.channel else { return .hook(handler) }
            guard let body = message(m) else { return nil }
            switch body["t"] as? String {
            case "hook": return .hook(body["name"] as? String ?? "")
            case "timers":
                routine = polling
                let frame = body["frame"] as? String ?? ""
                if body["busy"] as? Bool == true { busyFrames.insert(frame) } else { busyFrames.remove(frame) }
            case "refresh":
                if let url = body["url"] as? String { refreshes.insert(Self.key(url)) }
            case "loaded":
                if body["top"] as? Bool == false { frameLoads = max(0, frameLoads - 1) }
            default: break
            }
            return nil
        case "View.crashed":
            throw EngineFailure(.crashed, m.string("reason") ?? "the WebKit web process ended")
        default:
            return nil
        }
    }

    /// `decide-policy`: http(s) goes on to the proxy (decided there, where the frame is known); a new window and
    /// any other scheme are the world's now.
    private func decide(_ p: [String: Any]) -> EngineEvent? {
        guard let decision = p["decision"] as? Int, let url = p["url"] as? String else { return nil }
        let type = p["navigationType"] as? String ?? "other"
        let gesture = p["gesture"] as? Bool ?? false
        let redirect = p["redirect"] as? Bool ?? false
        let kind = SchemeKind(url: url)
        // WebKitGTK asks about a `target=_top` (or `_parent`) link or form of a cross-origin frame as a new window. It
        // is the main frame's navigation (WKWebView asks it with the main frame as target): the world decides it
        // and, when allowed, loads it in the main frame.
        let target = (p["target"] as? String ?? "").lowercased()
        let newWindow = p["newWindow"] as? Bool ?? false && target != "_top" && target != "_parent"
        let retargeted = p["newWindow"] as? Bool ?? false && !newWindow
        if !newWindow, !retargeted, kind == .web {
            let hostLoad = !redirect && hostLoads.first.map { Self.key($0.url) } == Self.key(url)
            let refresh = refreshes.remove(Self.key(url)) != nil
            if !hostLoad, framesNamed(url)?.count == 0 {
                // A page without frames: the navigation can only be the main frame's, so it is decided here, before
                // WebKit makes its request, as WKWebView's `decidePolicyFor` decides it. Letting it through to be
                // refused at the proxy is not the same: once a navigation is let through, WebKit stops every load
                // of the current document (WebCore's FrameLoader::continueLoadAfterNavigationPolicy calls
                // stopAllLoaders before the provisional load starts), so the page's `fetch` in flight fails and a
                // status poll that reschedules itself on its answer (a Swish or BankID page launching the app)
                // stops for good, where on iOS a cancelled decision leaves the page and its requests running.
                held[decision] = Self.key(url)
                let method = (p["method"] as? String).flatMap { $0.isEmpty ? nil : $0 } ?? "GET"
                return .navigation(
                    EngineNavigation(
                        url: url, frame: .main, frameIndex: nil,
                        trigger: redirect ? .serverRedirect : Self.trigger(type, refresh: refresh),
                        gesture: redirect ? false : gesture, method: method, request: Self.heldRequest(decision)))
            }
            facts[Self.key(url), default: []].append(
                Fact(navigationType: type, gesture: gesture, redirect: redirect, hostLoad: hostLoad, refresh: refresh))
            send("View.decide", [("decision", .int(decision)), ("use", .bool(true))])
            return nil
        }
        if !newWindow, kind == .neverExternal || kind == nil || Self.frameDocument(url) || url.lowercased().hasPrefix("about:") {
            // about:blank and about:srcdoc load as the engine loads them. A data: or blob: document loads only in a
            // frame that names it as its `src`: at the top it is refused, as the policy refuses it
            // (`scheme.never-external`) and Chromium does by itself. javascript:, file: and malformed URLs never load.
            let lower = url.lowercased()
            let use = lower == "about:blank" || lower == "about:srcdoc" || Self.frameDocument(url) && frameNaming(url) != nil
            send("View.decide", [("decision", .int(decision)), ("use", .bool(use))])
            return nil
        }
        // The world carries out a new window or an app URL itself: the engine does not. An app URL that a frame of
        // the page names as its `src` is that sub-frame's (a BankID `<iframe src="bankid:///…">`); any other is taken
        // as the main frame's (WebKitGTK does not say).
        send("View.decide", [("decision", .int(decision)), ("use", .bool(false))])
        let frameIndex = newWindow || retargeted || gesture ? nil : frameNaming(url)
        // WebKit gives no method for a URL it cannot request; the page asked for it as a GET.
        let method = (p["method"] as? String).flatMap { $0.isEmpty ? nil : $0 } ?? "GET"
        return .navigation(
            EngineNavigation(
                url: url, frame: newWindow ? .newWindow : frameIndex != nil ? .sub : .main,
                frameIndex: frameIndex,
                trigger: frameIndex != nil ? .initialLoad : Self.trigger(type, refresh: false),
                gesture: gesture, method: method, request: nil))
    }

    /// The index (in `window.frames` order) of the main document's frame whose `src` is `url`, if any.
    private func frameNaming(_ url: String) -> Int? { framesNamed(url)?.matches.first }

    /// The main document's frames, asked of the engine's DOM: how many it holds, and the indices (in
    /// `window.frames` order) of those whose `src` is `url` (fragment aside: a request never carries one). Nil when
    /// the engine does not answer within `answerWait`: a web process creating 1,000 frames on a busy two-core
    /// machine once took longer than 8 s, so a late answer is not a hung engine here (the quiet page's `readyState`
    /// question decides that), and the caller goes on without it (the navigation goes to the proxy, as a frame's).
    private func framesNamed(_ url: String) -> (count: Int, matches: [Int], blank: [Int])? {
        let script =
            "(function(u){var f=document.querySelectorAll('iframe,frame'),m=[],b=[];for(var i=0;i<f.length;i++){"
            + "var s=(f[i].getAttribute('src')||'').trim();if(!s||s==='about:blank'){b.push(i);continue;}"
            + "try{var h=new URL(s,document.baseURI);h.hash='';"
            + "if(h.href===u){m.push(i);}}catch(e){}}return f.length+':'+m.join(',')+':'+b.join(',');})("
            + JSONEscaping.quote(Self.key(url), htmlSafe: false) + ")"
        guard
            let reply = try? connection.call(
                "View.value", [("script", .string(script))], deadline: min(deadline, Date().addingTimeInterval(answerWait)),
                breaksOnTimeout: false),
            let value = reply["value"] as? String
        else { return nil }
        let parts = value.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 3, let count = Int(parts[0]) else { return nil }
        return (
            count, parts[1].split(separator: ",").compactMap { Int($0) }, parts[2].split(separator: ",").compactMap { Int($0) }
        )
    }

    /// A document a frame may hold that no network serves: data: and blob:.
    static func frameDocument(_ url: String) -> Bool {
        let lower = url.lowercased()
        return lower.hasPrefix("data:") || lower.hasPrefix("blob:")
    }

    /// A request at the proxy: a document is a navigation to decide (main frame or sub-frame), anything else a resource.
    private func request(_ p: [String: Any]) -> EngineEvent? {
        guard let id = p["request"] as? Int, let url = p["url"] as? String else { return nil }
        pausedDetails[id] = Self.details(p)
        let method = (p["method"] as? String ?? "GET").uppercased()
        let requestID = EngineRequestID(String(id))
        let destination = p["destination"] as? String ?? ""
        let key = Self.key(url)
        // Plain-http requests carry no `Sec-Fetch-Dest` (fetch metadata is for secure origins only): one that a
        // navigation let through `decide-policy` is that navigation (taken as the main frame's).
        let undeclared = destination.isEmpty && facts[key]?.isEmpty == false
        guard ["document", "iframe", "frame"].contains(destination) || undeclared else {
            if repeated.asked(requestID.raw, method: method, url: url, body: pausedDetails[id]?.body ?? []) {
                routine = true
                lastRepeat = Date()
            }
            return .resource(requestID, method: method, url: url)
        }
        let fact = facts[key]?.isEmpty == false ? facts[key]!.removeFirst() : nil
        let isMain = destination == "document" || undeclared
        if isMain, fact?.hostLoad == true, let load = hostLoads.first, Self.key(load.url) == key {
            hostLoads.removeFirst()
            documents[id] = (url, nil)
            fulfil(requestID, with: load.response)
            return nil
        }
        var frameIndex: Int?
        var newFrame = false
        if !isMain {
            let known = frameURLs.count
            frameIndex = subFrame(url, referer: p["referer"] as? String ?? "", redirect: fact?.redirect == true)
            newFrame = frameURLs.count > known
        }
        documents[id] = (url, frameIndex)
        let redirect = fact?.redirect == true
        // A frame's first document, which no one clicked or submitted, is the frame's initial load (WebKit says "other").
        let initial =
            newFrame && (fact == nil || fact?.navigationType == "other" && fact?.gesture == false && fact?.refresh == false)
        let trigger: NavigationTrigger =
            redirect
            ? .serverRedirect
            : initial
                ? .initialLoad
                : fact.map { Self.trigger($0.navigationType, refresh: $0.refresh) } ?? (isMain ? .link : .initialLoad)
        return .navigation(
            EngineNavigation(
                url: url, frame: isMain ? .main : .sub, frameIndex: frameIndex, trigger: trigger,
                gesture: redirect ? false : fact?.gesture ?? false, method: method, request: requestID))
    }

    /// The headers and body a proxied request carries.
    private static func details(_ p: [String: Any]) -> EngineRequestDetails {
        EngineRequestDetails(
            headers: (p["headers"] as? [[String: Any]] ?? []).compactMap { h in
                guard let name = h["name"] as? String, let value = h["value"] as? String else { return nil }
                return RecordedResponse.Header(name, value)
            },
            body: (p["body"] as? String).flatMap { Data(base64Encoded: $0) }.map { Array($0) } ?? [])
    }

    /// The request id of a navigation held at `decide-policy`, and back (proxied requests are plain numbers).
    private static func heldRequest(_ decision: Int) -> EngineRequestID { EngineRequestID("decision \(decision)") }

    private static func decision(_ request: EngineRequestID) -> Int? {
        request.raw.hasPrefix("decision ") ? Int(request.raw.dropFirst("decision ".count)) : nil
    }

    /// Which sub-frame a document request is for (see the top of this file).
    private func subFrame(_ url: String, referer: String, redirect: Bool) -> Int {
        if redirect, let frame = redirectedFrames.removeValue(forKey: Self.key(url)) { return frame }
        if !referer.isEmpty {
            if let own = frameURLs.sorted(by: { $0.key < $1.key }).first(where: { $0.value == referer }) { return own.key }
            let origin = Self.origin(referer)
            if origin != Self.origin(mainURL),
                let own = frameURLs.sorted(by: { $0.key < $1.key }).first(where: { Self.origin($0.value) == origin })
            {
                return own.key
            }
        }
        let held = framesNamed(url)
        if let own = held?.matches.first(where: { frameURLs[$0] == nil }) {
            frameURLs[own] = url
            return own
        }
        // A document no frame names as its src, from no frame's page: a form or link aimed at a frame by name.
        // WebKitGTK does not say which, so it is the first frame still at about:blank that nothing has loaded into
        // (a 3-D Secure method or challenge form posted into its hidden iframe: the forms are submitted in the
        // order of their frames).
        if let blank = held?.blank.first(where: { frameURLs[$0] == nil }) {
            frameURLs[blank] = url
            return blank
        }
        let next = max(frameURLs.keys.max() ?? -1, (held?.count ?? 0) - 1) + 1
        frameURLs[next] = url
        return next
    }

    private static func origin(_ url: String) -> String { WebURL(url)?.origin ?? url }

    /// A URL as both WebKit and the proxy spell it: parsed, serialised, without its fragment (never sent).
    static func key(_ url: String) -> String {
        guard let u = WebURL(url) else { return url }
        let href = u.href
        return href.firstIndex(of: "#").map { String(href[..<$0]) } ?? href
    }

    /// WebKit's navigation type as the policy's trigger.
    static func trigger(_ type: String, refresh: Bool) -> NavigationTrigger {
        if refresh { return .metaRefresh }
        switch type {
        case "link": return .link
        case "form", "formResubmit": return .form
        case "backForward": return .backForward
        case "reload": return .reload
        default: return .script
        }
    }
}
