// The WebKitGTK driver: one GTK main loop, one web view at a time, and the recording proxy the view loads through.
// It decides nothing: every navigation WebKit asks about (`decide-policy`, the counterpart of WKNavigationDelegate's
// `decidePolicyFor navigationAction`) is held and reported to `plainview`, which answers it; every request the
// view makes reaches the proxy and is answered by `plainview` from the flow's recordings.
//
// Wire format (the same framing as Chromium's `--remote-debugging-pipe`): JSON objects ended by NUL, commands on fd 3
// (`{"id","method","params"}`, answered `{"id","result"}` or `{"id","error":{"message"}}`), events on fd 4
// (`{"method","params"}`). Commands:
//   Driver.hello                       → {webkit: "2.50.6"}; or {missing: package, message} when WebKit cannot run
//   View.open {userAgent, script, canOpenWindows, confirms, handlers: [name]}  → {view}: a fresh view (no cookies, cache or
//                                      history) with a recording proxy of its own (the last view's is shut down)
//   View.load {url}        View.evaluate {script}        View.decide {decision, use}        View.close
//   View.value {script}    → {value: the script's result as text} (answered when the page has run it)
//   Proxy.respond {request, status, headers: [{name, value}], body (base64)}        Proxy.fail {request}
// Events:
//   View.decide {decision, url, method, navigationType, gesture, redirect, newWindow, target (the link's or form's target name)}
//   View.load {event: started|redirected|committed|finished, url}      View.loadFailed {url, message}
//   View.message {handler, body}      View.crashed {reason}
//   Proxy.request {request, method, url, destination, referer, headers: [{name, value}], body (base64)}
// Every event carries `view`: the number of the view it is about (a proxy request: the view whose proxy got it).
import Foundation
import PlainviewRecordingProxy
import PlainviewSupport
#if canImport(Glibc)
import Glibc
#endif

/// Events to fd 4, from the main loop and from the proxy's threads.
final class Output: @unchecked Sendable {
    private let lock = NSLock()
    private let fd: Int32
    init(fd: Int32) { self.fd = fd }

    func send(_ value: JSONValue) {
        var bytes = Array(JSONWriter.line(value).utf8)
        if bytes.last == 10 { bytes.removeLast() }
        bytes.append(0)
        lock.lock()
        defer { lock.unlock() }
        var written = 0
        while written < bytes.count {
            let n = bytes[written...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                // plainview is gone: nothing to drive any more.
                exit(0)
            }
            written += n
        }
    }

    /// The view events are about: every event carries it, so that plainview can drop what a closed view said.
    private var currentView = 0

    var view: Int {
        get { lock.withLock { currentView } }
        set { lock.withLock { currentView = newValue } }
    }

    /// An event of the current view, or of `view` (a proxy request: the view whose proxy got it).
    func event(_ method: String, _ params: [(String, JSONValue?)], view: Int? = nil) {
        let about = view ?? self.view
        send(.object([("method", .string(method)), ("params", .object(params + [("view", .int(about))]))]))
    }
}

final class Driver {
    let api: WebKitAPI
    let output: Output
    /// Makes the recording proxy of view `n`: a listener of its own, so that nothing a closed view still sends
    /// (its network process may open connections after the view is gone) can reach the next view's flow.
    let makeProxy: (_ view: Int) throws -> RecordingProxy
    private var proxy: RecordingProxy?
    private var viewNumber = 0
    private var window: Ptr?
    private var view: Ptr?
    private var decisions: [Int: Ptr] = [:]
    private var nextDecision = 0
    /// Handler names kept alive for the signal connections of the current view (their C strings are its user data).
    private var handlerNames: [UnsafeMutablePointer<CChar>] = []

    init(api: WebKitAPI, output: Output, makeProxy: @escaping (_ view: Int) throws -> RecordingProxy) {
        self.api = api
        self.output = output
        self.makeProxy = makeProxy
    }

    /// Closes the view and its proxy (at exit).
    func shutdown() { closeView() }

    // MARK: commands

    func handle(_ message: [String: Any]) {
        let id = message["id"] as? Int ?? 0
        let params = message["params"] as? [String: Any] ?? [:]
        let method = message["method"] as? String ?? ""
        if method == "View.value", let view, let script = params["script"] as? String {
            // Answered from the script's completion, on a later turn of the loop.
            api.webkit_web_view_evaluate_javascript(
                view, script, -1, nil, nil, nil, onValue, UnsafeMutableRawPointer(bitPattern: id + 1))
            return
        }
        do {
            let result = try run(method, params)
            output.send(.object([("id", .int(id)), ("result", .object(result))]))
        } catch {
            output.send(.object([("id", .int(id)), ("error", .object([("message", .string(error.message))]))]))
        }
    }

    struct CommandError: Error { var message: String }

    private func run(_ method: String, _ p: [String: Any]) throws(CommandError) -> [(String, JSONValue?)] {
        switch method {
        case "Driver.hello":
            return [
                (
                    "webkit",
                    .string(
                        "\(api.webkit_get_major_version()).\(api.webkit_get_minor_version()).\(api.webkit_get_micro_version())")
                )
            ]
        case "View.open":
            confirms = p["confirms"] as? Bool ?? false
            try open(
                userAgent: p["userAgent"] as? String ?? "", script: p["script"] as? String ?? "",
                canOpenWindows: p["canOpenWindows"] as? Bool ?? false, handlers: p["handlers"] as? [String] ?? [])
            return [("view", .int(output.view))]
        case "View.load":
            guard let view, let url = p["url"] as? String else {
                throw CommandError(message: "View.load needs an open view and a url")
            }
            api.webkit_web_view_load_uri(view, url)
            return []
        case "View.evaluate":
            guard let view, let script = p["script"] as? String else {
                throw CommandError(message: "View.evaluate needs an open view and a script")
            }
            api.webkit_web_view_evaluate_javascript(view, script, -1, nil, nil, nil, nil, nil)
            return []
        case "View.click":
            // A real pointer click (move, press and release of the first button) at the point of the view, through
            // the X server's XTEST extension: WebKit handles it as the user's, with the user activation a tap gives
            // (an element's click() from a script carries none). Without XTEST, the element there is clicked by
            // script, as before.
            guard let view, let x = p["x"] as? Int, let y = p["y"] as? Int else {
                throw CommandError(message: "View.click needs an open view and a point")
            }
            if !pointerClick(view, x: Int32(x), y: Int32(y)) {
                let script = "(function(){var e=document.elementFromPoint(\(x),\(y));if(e){e.click();}})()"
                api.webkit_web_view_evaluate_javascript(view, script, -1, nil, nil, nil, nil, nil)
            }
            return []
        case "View.decide":
            guard let n = p["decision"] as? Int, let decision = decisions.removeValue(forKey: n) else { return [] }
            if p["use"] as? Bool == true {
                api.webkit_policy_decision_use(decision)
            } else {
                api.webkit_policy_decision_ignore(decision)
            }
            api.g_object_unref(decision)
            return []
        case "View.close":
            closeView()
            return []
        case "Proxy.respond":
            guard let request = p["request"] as? Int else { throw CommandError(message: "Proxy.respond needs a request") }
            let headers = (p["headers"] as? [[String: Any]] ?? []).map {
                (name: $0["name"] as? String ?? "", value: $0["value"] as? String ?? "")
            }
            let body = (p["body"] as? String).flatMap { Data(base64Encoded: $0) }.map { [UInt8]($0) } ?? []
            proxy?.respond(request, status: p["status"] as? Int ?? 200, headers: headers, body: body)
            return []
        case "Proxy.fail":
            if let request = p["request"] as? Int { proxy?.fail(request) }
            return []
        default:
            throw CommandError(message: "unknown command \(method)")
        }
    }

    /// Clicks at (x, y) of the view with the X server's pointer. False when it cannot.
    private func pointerClick(_ view: Ptr, x: Int32, y: Int32) -> Bool {
        guard let xtest = XTest.shared, let window = api.gtk_widget_get_window(view),
            let display = api.gdk_x11_display_get_xdisplay(api.gdk_display_get_default())
        else { return false }
        var ox: Int32 = 0, oy: Int32 = 0
        _ = api.gdk_window_get_origin(window, &ox, &oy)
        guard xtest.motion(display, -1, ox + x, oy + y, 0) != 0 else { return false }
        _ = xtest.button(display, 1, 1, 0)
        _ = xtest.button(display, 1, 0, 0)
        _ = xtest.flush(display)
        return true
    }

    private func open(userAgent: String, script: String, canOpenWindows: Bool, handlers: [String]) throws(CommandError) {
        closeView()
        // A new view, a new number and a proxy of its own: what the last view left loading never reaches this one.
        viewNumber += 1
        output.view = viewNumber
        let proxy: RecordingProxy
        do {
            proxy = try makeProxy(viewNumber)
        } catch {
            throw CommandError(message: "the recording proxy cannot listen on 127.0.0.1: \(error)")
        }
        self.proxy = proxy
        let data = api.webkit_website_data_manager_new_ephemeral()
        let proxySettings = api.webkit_network_proxy_settings_new("http://127.0.0.1:\(proxy.port)", nil)
        api.webkit_website_data_manager_set_network_proxy_settings(data, WK.proxyModeCustom, proxySettings)
        api.webkit_network_proxy_settings_free(proxySettings)
        // The proxy answers https with its own certificate; the recordings are what is being checked, not TLS.
        api.webkit_website_data_manager_set_tls_errors_policy(data, WK.tlsErrorsIgnore)
        let context = api.webkit_web_context_new_with_website_data_manager(data)
        let view = api.webkit_web_view_new_with_context(context)
        api.g_object_unref(context)
        api.g_object_unref(data)
        let settings = api.webkit_web_view_get_settings(view)
        if !userAgent.isEmpty { api.webkit_settings_set_user_agent(settings, userAgent) }
        api.webkit_settings_set_javascript_can_open_windows_automatically(settings, canOpenWindows ? 1 : 0)
        let content = api.webkit_web_view_get_user_content_manager(view)
        for name in handlers {
            let cName = strdup(name)!
            handlerNames.append(cName)
            api.connect(content, "script-message-received::\(name)", onScriptMessage, UnsafeMutableRawPointer(cName))
            _ = api.webkit_user_content_manager_register_script_message_handler(content, name)
        }
        if !script.isEmpty, let user = api.webkit_user_script_new(script, WK.injectAllFrames, WK.injectAtDocumentStart, nil, nil)
        {
            api.webkit_user_content_manager_add_script(content, user)
            api.webkit_user_script_unref(user)
        }
        api.connect(view, "decide-policy", onDecidePolicy)
        api.connect(view, "load-changed", onLoadChanged)
        api.connect(view, "load-failed", onLoadFailed)
        api.connect(view, "web-process-terminated", onWebProcessTerminated)
        api.connect(view, "script-dialog", onScriptDialog)
        api.connect(view, "create", onCreate)
        // An iPhone-sized window (the page's layout, and so what is on screen, depends on it).
        let window = api.gtk_window_new(WK.gtkWindowToplevel)
        api.gtk_window_set_default_size(window, 390, 844)
        api.gtk_container_add(window, view)
        api.gtk_widget_show_all(window)
        self.window = window
        self.view = view
    }

    private func closeView() {
        for (_, decision) in decisions {
            api.webkit_policy_decision_ignore(decision)
            api.g_object_unref(decision)
        }
        decisions = [:]
        if let window { api.gtk_widget_destroy(window) }
        window = nil
        view = nil
        // The closed view's proxy goes with it: what it left waiting fails, and later connections are refused. Its
        // event loop winds down on a thread of its own (a graceful shutdown can take seconds; the next view need
        // not wait for it).
        if let old = proxy { Thread.detachNewThread { old.shutdown() } }
        proxy = nil
    }

    // MARK: signals (main loop)

    func decide(_ decision: Ptr?, type: UInt32) -> Bool {
        guard type == WK.policyNavigationAction || type == WK.policyNewWindowAction, let decision else { return false }
        let action = api.webkit_navigation_policy_decision_get_navigation_action(decision)
        nextDecision += 1
        decisions[nextDecision] = api.g_object_ref(decision)
        report(action, decision: nextDecision, newWindow: type == WK.policyNewWindowAction)
        return true
    }

    /// `create`: a page opens a window (`window.open` that WebKit let through: a user's tap, or the setting). No
    /// window is made; the navigation is reported as a new window's, under a decision number nothing holds, and
    /// the world carries it out (as it does a `target=_blank` link's).
    func create(_ action: Ptr?) {
        nextDecision += 1
        report(action, decision: nextDecision, newWindow: true)
    }

    private func report(_ action: Ptr?, decision: Int, newWindow: Bool) {
        let request = api.webkit_navigation_action_get_request(action)
        let navigationType = Int(api.webkit_navigation_action_get_navigation_type(action))
        output.event(
            "View.decide",
            [
                ("decision", .int(decision)),
                ("url", .string(WebKitAPI.text(api.webkit_uri_request_get_uri(request)))),
                ("method", .string(WebKitAPI.text(api.webkit_uri_request_get_http_method(request)).uppercased())),
                (
                    "navigationType",
                    .string(WK.navigationTypes.indices.contains(navigationType) ? WK.navigationTypes[navigationType] : "other")
                ),
                ("gesture", .bool(api.webkit_navigation_action_is_user_gesture(action) != 0)),
                ("redirect", .bool(api.webkit_navigation_action_is_redirect(action) != 0)),
                ("newWindow", .bool(newWindow)),
                ("target", .string(WebKitAPI.text(api.webkit_navigation_action_get_frame_name(action)))),
            ])
    }

    func loadChanged(_ event: Int32) {
        let names = ["started", "redirected", "committed", "finished"]
        output.event(
            "View.load",
            [
                ("event", .string(names.indices.contains(Int(event)) ? names[Int(event)] : "other")),
                ("url", .string(WebKitAPI.text(view.flatMap { api.webkit_web_view_get_uri($0) }))),
            ])
    }

    func loadFailed(_ url: UnsafePointer<CChar>?, _ error: UnsafeRawPointer?) {
        // GError: { GQuark domain; gint code; gchar *message; }
        let message =
            error.flatMap { $0.load(fromByteOffset: 8, as: UnsafePointer<CChar>?.self) }.map { String(cString: $0) } ?? ""
        output.event("View.loadFailed", [("url", .string(WebKitAPI.text(url))), ("message", .string(message))])
    }

    func scriptMessage(handler: String, _ result: Ptr?) {
        var body = ""
        if let value = api.webkit_javascript_result_get_js_value(result), let s = api.jsc_value_to_string(value) {
            body = String(cString: s)
            api.g_free(s)
        }
        output.event("View.message", [("handler", .string(handler)), ("body", .string(body))])
    }

    /// What the open view's `confirm()` answers (the flow's `webView.dialogs`: true only for `accept`).
    private var confirms = false

    /// alert/confirm/prompt, answered as the app would: with no dialog support (a WKWebView without the
    /// UIDelegate's panel methods), Cancel; when the user answers OK, OK (a prompt with its default text).
    /// Leaving the page (beforeunload) is always allowed.
    func dialog(_ dialog: Ptr?) {
        switch api.webkit_script_dialog_get_dialog_type(dialog) {
        case WK.dialogConfirm: api.webkit_script_dialog_confirm_set_confirmed(dialog, confirms ? 1 : 0)
        case WK.dialogBeforeUnload: api.webkit_script_dialog_confirm_set_confirmed(dialog, 1)
        case WK.dialogPrompt:
            if confirms {
                api.webkit_script_dialog_prompt_set_text(dialog, api.webkit_script_dialog_prompt_get_default_text(dialog))
            }
        default: break
        }
    }

    /// A `View.value` script finished: its result as text ("" when it threw or the page went away).
    func value(_ result: Ptr?, id: Int) {
        var text = ""
        if let view, let value = api.webkit_web_view_evaluate_javascript_finish(view, result, nil) {
            if let s = api.jsc_value_to_string(value) {
                text = String(cString: s)
                api.g_free(s)
            }
            api.g_object_unref(value)
        }
        output.send(.object([("id", .int(id)), ("result", .object([("value", .string(text))]))]))
    }

    func crashed(_ reason: Int32) {
        let names = ["crashed", "exceeded its memory limit", "was terminated"]
        output.event(
            "View.crashed",
            [
                (
                    "reason",
                    .string("the WebKit web process " + (names.indices.contains(Int(reason)) ? names[Int(reason)] : "ended"))
                )
            ])
    }
}

nonisolated(unsafe) var driver: Driver!

let commandFD: Int32 = 3, eventFD: Int32 = 4

/// Reads NUL-ended JSON commands from fd 3 and hands each to `deliver`; returns at end-of-file.
func readCommands(_ deliver: ([String: Any]) -> Void) {
    var buffer: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    // Only the bytes read since the last look are searched for the NUL: a 10 MB page's answer arrives in 160 reads,
    // and searching the whole buffer each time made its delivery quadratic (half a minute before WebKit saw it).
    var searched = 0
    while true {
        let n = chunk.withUnsafeMutableBytes { read(commandFD, $0.baseAddress, $0.count) }
        if n < 0, errno == EINTR { continue }
        if n <= 0 { return }
        buffer.append(contentsOf: chunk[..<n])
        while let end = buffer[searched...].firstIndex(of: 0) {
            let data = Data(buffer[..<end])
            buffer.removeSubrange(...end)
            searched = 0
            if let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] { deliver(object) }
        }
        searched = buffer.count
    }
}

/// One command, carried from the reader thread to the main loop.
final class Delivery {
    let message: [String: Any]?
    init(_ message: [String: Any]?) { self.message = message }
}

let onDelivery: GSourceFunc = { data in
    let delivery = Unmanaged<Delivery>.fromOpaque(data!).takeRetainedValue()
    if let message = delivery.message {
        driver.handle(message)
    } else {
        driver.api.gtk_main_quit()
    }
    return 0
}

/// The reader thread: each command goes to the main loop; at end-of-file the loop (and the driver) ends.
func readIntoMainLoop() {
    readCommands { message in
        _ = driver.api.g_idle_add(onDelivery, Unmanaged.passRetained(Delivery(message)).toOpaque())
    }
    _ = driver.api.g_idle_add(onDelivery, Unmanaged.passRetained(Delivery(nil)).toOpaque())
}


// C callbacks: they capture nothing and reach the driver through the global.
let onDecidePolicy: @convention(c) (Ptr?, Ptr?, UInt32, UnsafeMutableRawPointer?) -> Int32 = { _, decision, type, _ in
    driver.decide(decision, type: type) ? 1 : 0
}
let onCreate: @convention(c) (Ptr?, Ptr?, UnsafeMutableRawPointer?) -> Ptr? = { _, action, _ in
    driver.create(action)
    return nil
}
let onLoadChanged: @convention(c) (Ptr?, Int32, UnsafeMutableRawPointer?) -> Void = { _, event, _ in driver.loadChanged(event) }
let onLoadFailed: @convention(c) (Ptr?, Int32, UnsafePointer<CChar>?, UnsafeRawPointer?, UnsafeMutableRawPointer?) -> Int32 = {
    _, _, url, error, _ in
    driver.loadFailed(url, error)
    return 1 // handled: no error page replaces the current one
}
let onValue: GAsyncReadyCallback = { _, result, data in driver.value(result, id: Int(bitPattern: data) - 1) }
let onWebProcessTerminated: @convention(c) (Ptr?, Int32, UnsafeMutableRawPointer?) -> Void = { _, reason, _ in
    driver.crashed(reason)
}
let onScriptDialog: @convention(c) (Ptr?, Ptr?, UnsafeMutableRawPointer?) -> Int32 = { _, dialog, _ in
    driver.dialog(dialog)
    return 1
}
let onScriptMessage: @convention(c) (Ptr?, Ptr?, UnsafeMutableRawPointer?) -> Void = { _, result, name in
    driver.scriptMessage(handler: name.map { String(cString: $0.assumingMemoryBound(to: CChar.self)) } ?? "", result)
}
