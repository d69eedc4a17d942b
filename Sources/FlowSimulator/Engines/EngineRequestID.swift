import NavigationPolicy

/// A paused request of the engine.
public struct EngineRequestID: Sendable, Hashable {
    public var raw: String
    public init(_ raw: String) { self.raw = raw }
}
