// The trace of a run: one event per line, readable as text and as JSON Lines (`--trace FILE`).
// The JSON Lines shape is a stable contract (`goodlist learn` reads it); see Pages/README.md.
import Foundation
import NavigationPolicy
import PlainviewSupport

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

    public init(
        flow: String, branch: String, step: Int, time: Int, event: TraceEventKind, context: String,
        url: String? = nil, frame: String? = nil, trigger: String? = nil, gesture: Bool? = nil,
        method: String? = nil, action: String? = nil, target: String? = nil, via: String? = nil,
        rule: String? = nil, reason: String? = nil, status: Int? = nil, app: String? = nil
    ) {
        self.flow = flow; self.branch = branch; self.step = step; self.time = time; self.event = event
        self.context = context; self.url = url; self.frame = frame; self.trigger = trigger; self.gesture = gesture
        self.method = method; self.action = action; self.target = target; self.via = via; self.rule = rule
        self.reason = reason; self.status = status; self.app = app
    }

    /// One JSON object, keys in a fixed order, absent fields left out.
    public var jsonLine: String {
        JSONWriter.line(
            .object([
                ("flow", .string(flow)), ("branch", .string(branch)), ("step", .int(step)), ("time", .int(time)),
                ("event", .string(event.rawValue)), ("context", .string(context)), ("url", url.map(JSONValue.string)),
                ("frame", frame.map(JSONValue.string)), ("trigger", trigger.map(JSONValue.string)),
                ("gesture", gesture.map(JSONValue.bool)),
                ("method", method.map(JSONValue.string)), ("action", action.map(JSONValue.string)),
                ("target", target.map(JSONValue.string)),
                ("via", via.map(JSONValue.string)), ("rule", rule.map(JSONValue.string)),
                ("reason", reason.map(JSONValue.string)),
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
