import NavigationPolicy

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
