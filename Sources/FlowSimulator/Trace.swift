// The trace of a run: one event per line, readable as text and as JSON Lines (`--trace FILE`).
// The JSON Lines shape is a stable contract (`goodlist learn` reads it); see Pages/README.md.
import Foundation
import NavigationPolicy

/// How a run ended.
public struct Outcome: Sendable, Hashable, CustomStringConvertible {
    public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
        /// completeUrl reached in the host app's web view (or delivered to the host app).
        case complete
        /// cancelUrl reached in the host app.
        case canceled
        /// Nothing more happens by itself and no user step helps: `where` + `reason` say why.
        case stuck
        /// A redirect/refresh cycle, or the step bound was hit.
        case loop
        /// The flow itself is wrong: an unrecorded URL, a bad page.
        case error
    }

    public var kind: Kind
    /// Where the run ended: `webview`, `browser` or `app NAME`.
    public var place: String
    public var reason: String

    public init(_ kind: Kind, place: String, reason: String) {
        self.kind = kind
        self.place = place
        self.reason = reason
    }

    public var description: String {
        switch kind {
        case .complete, .canceled: return "\(kind.rawValue) in \(Self.placeName(place))"
        case .stuck, .loop, .error: return "\(kind.rawValue) in \(Self.placeName(place)): \(reason)"
        }
    }

    static func placeName(_ place: String) -> String {
        switch place {
        case "webview": return "web view"
        case "browser": return "browser"
        default: return place
        }
    }
}

/// What kind of thing happened.
public enum TraceEventKind: String, Sendable, Hashable, Codable, CaseIterable {
    /// The run started (the host app loads `url` in its web view).
    case start
    /// A navigation was asked: in the web view (to the policy) or in the browser.
    case navigate
    /// The policy's decision for the preceding web-view navigation (`action`, `target`, `via`, `rule`, `reason`).
    case decide
    /// The network answered (`status`; `target` = Location for a redirect).
    case response
    /// A page was shown (`reason` summarises what it will do by itself).
    case load
    /// The front app changed (`context` = the new front).
    case `switch`
    /// The OS launched an app with `url` (`app`, `via`).
    case launch
    /// The host app received `url` from the OS.
    case receive
    /// An app returned (`action`: `previous` or `open`, `url`).
    case `return`
    /// The browser asks "Open in APP?" (`app`).
    case prompt
    /// The prompt's answer (`action`: `accept` / `decline`).
    case answer
    /// A user step (`reason` = the step).
    case user
    /// A branch choice the world made (`action` = the choice label).
    case choice
    /// Something worth knowing that changes nothing by itself (a blocked navigation in the browser, a cookie miss).
    case note
    /// The run ended (`action` = outcome kind, `reason`).
    case outcome
}

/// One line of a trace.
public struct TraceEvent: Sendable, Hashable, Codable {
    public var flow: String
    /// The branch name (`default` for a normal run).
    public var branch: String
    /// 1-based sequence number within the run.
    public var step: Int
    /// Virtual time in milliseconds since the start.
    public var time: Int
    public var event: TraceEventKind
    /// `webview`, `browser`, `app NAME`, or `os`.
    public var context: String
    public var url: String?
    public var frame: String?
    public var trigger: String?
    public var gesture: Bool?
    public var method: String?
    public var action: String?
    public var target: String?
    public var via: String?
    public var rule: String?
    public var reason: String?
    public var status: Int?
    public var app: String?

    public init(flow: String, branch: String, step: Int, time: Int, event: TraceEventKind, context: String,
                url: String? = nil, frame: String? = nil, trigger: String? = nil, gesture: Bool? = nil,
                method: String? = nil, action: String? = nil, target: String? = nil, via: String? = nil,
                rule: String? = nil, reason: String? = nil, status: Int? = nil, app: String? = nil) {
        self.flow = flow; self.branch = branch; self.step = step; self.time = time; self.event = event
        self.context = context; self.url = url; self.frame = frame; self.trigger = trigger; self.gesture = gesture
        self.method = method; self.action = action; self.target = target; self.via = via; self.rule = rule
        self.reason = reason; self.status = status; self.app = app
    }

    /// One JSON object, keys in a fixed order, absent fields left out.
    public var jsonLine: String {
        JSONWriter.line(.object([
            ("flow", .string(flow)), ("branch", .string(branch)), ("step", .int(step)), ("time", .int(time)),
            ("event", .string(event.rawValue)), ("context", .string(context)), ("url", url.map(JSONValue.string)),
            ("frame", frame.map(JSONValue.string)), ("trigger", trigger.map(JSONValue.string)), ("gesture", gesture.map(JSONValue.bool)),
            ("method", method.map(JSONValue.string)), ("action", action.map(JSONValue.string)), ("target", target.map(JSONValue.string)),
            ("via", via.map(JSONValue.string)), ("rule", rule.map(JSONValue.string)), ("reason", reason.map(JSONValue.string)),
            ("status", status.map(JSONValue.int)), ("app", app.map(JSONValue.string)),
        ]))
    }

    /// One readable line.
    public var text: String {
        let t = String(format: "%6.1fs", Double(time) / 1000)
        var line = "\(t) \(pad(context, 12)) \(pad(event.rawValue, 8))"
        switch event {
        case .navigate where context == "os":
            line += " open \(url ?? "")"
            if let app { line += "  (asked by \(app))" }
        case .navigate:
            line += " \(method ?? "GET") \(url ?? "")  [\(frame ?? "main"), \(trigger ?? "?")\(gesture == true ? ", tap" : "")]"
        case .decide:
            line += " → \(action ?? "?")"
            if let target { line += " \(target)" }
            if let via { line += " via \(via)" }
            if let rule { line += "  (\(rule))" }
            if let reason { line += " — \(reason)" }
        case .response:
            line += " \(status.map(String.init) ?? "?") \(url ?? "")"
            if let target { line += " → \(target)" }
        case .launch:
            line += " \(app ?? "?") with \(url ?? "")"
            if let via { line += " via \(via)" }
        default:
            if let action { line += " \(action)" }
            if let app, event != .launch { line += " \(app)" }
            if let url { line += " \(url)" }
            if let reason { line += " — \(reason)" }
        }
        return line
    }

    private func pad(_ s: String, _ n: Int) -> String {
        s.count >= n ? s : s + String(repeating: " ", count: n - s.count)
    }
}
