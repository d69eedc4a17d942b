import NavigationPolicy

/// One web view of a real engine, for one run. Calls block (the world is synchronous); every wait is bounded by
/// the session's deadline, after which `next()` reports `.failed`.
public protocol EngineSession: AnyObject {
    /// The host app loads `url` in the main frame (initial load, reload, a policy `load`): the engine requests it,
    /// and the driver answers that request with `response` without asking again.
    func load(_ url: String, response: RecordedResponse)
    /// Runs the engine until it does something the world must answer, or until nothing more happens by itself.
    func next() -> EngineEvent
    /// The world allows navigation `request`, which the engine asked about before making its request (WebKit's
    /// `decide-policy`, WKNavigationDelegate's `decidePolicyFor`): the engine goes on and makes it, and the request
    /// it makes is returned, to be answered with `fulfil` (nil: the engine made none). An engine whose navigations
    /// reach the world as requests already returns `request` itself.
    func admit(_ request: EngineRequestID) -> EngineRequestID?
    /// Answers a paused request with a recorded response (the navigation, or the resource, is allowed).
    func fulfil(_ request: EngineRequestID, with response: RecordedResponse)
    /// Refuses a paused request (`decisionHandler(.cancel)`; for a resource: a network error).
    func refuse(_ request: EngineRequestID)
    /// The user taps what `target` names; false when the engine's page has no such element.
    func tap(_ target: EngineTap) -> Bool
    /// The user types `text` into the form field named `field` in sub-frame `frameIndex` (nil: the main frame); false
    /// when the engine's page has no such field.
    func type(_ field: String, text: String, frameIndex: Int?) -> Bool
    /// Ends the web view. Always called, also after a failure.
    func close()
    /// The headers and body of paused request `id` as the engine would send them (nil: not reported).
    func details(of id: EngineRequestID) -> EngineRequestDetails?
}

/// What a paused request carries (for `plainview record`, which sends it to the real server).
public struct EngineRequestDetails: Sendable, Hashable {
    public var headers: [RecordedResponse.Header]
    public var body: [UInt8]
    public init(headers: [RecordedResponse.Header], body: [UInt8]) {
        self.headers = headers
        self.body = body
    }
}

extension EngineSession {
    /// `request` itself: the engine reported the navigation with its request.
    public func admit(_ request: EngineRequestID) -> EngineRequestID? { request }

    /// The headers and body of paused request `id`, when the engine reported them; nil otherwise.
    public func details(of id: EngineRequestID) -> EngineRequestDetails? { nil }
}
