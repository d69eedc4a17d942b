import NavigationPolicy

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
