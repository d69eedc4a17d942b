// Engine mode: the host app's web view is a real browser engine (Chromium over the DevTools protocol, in the
// PlainviewEngines target) while the network, the OS routing, the apps, the browser and the user stay simulated.
//
// The engine drives: it parses and runs the pages, and every navigation it wants to make comes back here as an
// `EngineEvent` — asked to the policy exactly as the model's navigations are (the app's
// `shouldOverrideUrlLoading` / `decidePolicyFor`), then allowed (its request is answered from the flow's recorded
// responses) or refused. The world's side never sees a C type, a pipe or a process: a driver implements
// `WebEngine`, one `EngineSession` per run (branch).
import NavigationPolicy

/// A browser engine that can render a flow's web view. Opening a session starts (or reuses) the engine.
public protocol WebEngine: AnyObject {
    /// `chromium`, `webkit`: the name reports and `compare` use.
    var name: String { get }
    /// A fresh, empty web view for one run of `flow` (no cookies, no history). A failure is the run's `error`.
    func open(_ flow: Flow) throws(EngineFailure) -> any EngineSession
    /// Ends the engine's processes (idempotent; a later `open` starts them again).
    func shutdown()
}

/// One web view of a real engine, for one run. Calls block (the world is synchronous); every wait is bounded by
/// the session's deadline, after which `next()` reports `.failed`.
public protocol EngineSession: AnyObject {
    /// The host app loads `url` in the main frame (initial load, reload, a policy `load`): the engine requests it,
    /// and the driver answers that request with `response` without asking again.
    func load(_ url: String, response: RecordedResponse)
    /// Runs the engine until it does something the world must answer, or until nothing more happens by itself.
    func next() -> EngineEvent
    /// Answers a paused request with a recorded response (the navigation, or the resource, is allowed).
    func fulfil(_ request: EngineRequestID, with response: RecordedResponse)
    /// Refuses a paused request (`decisionHandler(.cancel)`; for a resource: a network error).
    func refuse(_ request: EngineRequestID)
    /// The user taps what `target` names; false when the engine's page has no such element.
    func tap(_ target: EngineTap) -> Bool
    /// Ends the web view. Always called, also after a failure.
    func close()
}

/// A paused request of the engine.
public struct EngineRequestID: Sendable, Hashable {
    public var raw: String
    public init(_ raw: String) { self.raw = raw }
}

/// A navigation the engine wants to make, with what it reports about it.
public struct EngineNavigation: Sendable, Hashable {
    public var url: String
    public var frame: NavigationFrame
    /// The sub-frame's index in the current page (stable for the page), for taps into frames.
    public var frameIndex: Int?
    public var trigger: NavigationTrigger
    public var gesture: Bool
    public var method: String
    /// Set when the engine paused a network request for it (http/https); nil for a URL the engine cannot load
    /// itself (custom scheme, `intent:`) or a new window, which the world carries out on its own.
    public var request: EngineRequestID?

    public init(url: String, frame: NavigationFrame, frameIndex: Int? = nil, trigger: NavigationTrigger, gesture: Bool,
                method: String = "GET", request: EngineRequestID?) {
        self.url = url
        self.frame = frame
        self.frameIndex = frameIndex
        self.trigger = trigger
        self.gesture = gesture
        self.method = method
        self.request = request
    }
}

/// What the engine did next.
public enum EngineEvent: Sendable, Hashable {
    /// A navigation to decide.
    case navigation(EngineNavigation)
    /// A subresource request (script, image, style, favicon): answered from the network, never a decision.
    case resource(EngineRequestID, method: String, url: String)
    /// A page called one of the app's JavaScript hooks (`flow.hooks`).
    case hook(String)
    /// Nothing more happens by itself (the engine's timers were fast-forwarded past the idle horizon).
    case idle
    /// The engine crashed, hung past the deadline, or broke the protocol: the run ends in `error`.
    case failed(String)
}

/// What the user taps, as the model found it on the page (the engine finds the element again in its own DOM).
public struct EngineTap: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable { case link, form, button, script }
    public var kind: Kind
    /// The link's href, the form's action (a button's form's), the script handler's target (absolute).
    public var url: String
    /// The step's text, when it names one (matched like the model: case and spacing ignored).
    public var text: String?
    /// The sub-frame holding it (the engine's index), nil for the main frame.
    public var frameIndex: Int?

    public init(kind: Kind, url: String, text: String?, frameIndex: Int?) {
        self.kind = kind
        self.url = url
        self.text = text
        self.frameIndex = frameIndex
    }
}

/// Why an engine could not be used. `missingEngine` is an input error (exit 64): the message names the Debian
/// package to install; the others end a run in `error`.
public struct EngineFailure: Error, Sendable, CustomStringConvertible {
    public enum Code: String, Sendable { case missingEngine, startFailed, protocolError, crashed, timedOut }
    public var code: Code
    public var message: String
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }
    public var description: String { message }
}
