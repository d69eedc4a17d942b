import NavigationPolicy

/// A navigation the engine wants to make, with what it reports about it.
public struct EngineNavigation: Sendable, Hashable {
    public var url: String
    public var frame: NavigationFrame
    /// The sub-frame's index in the current page (stable for the page), for taps into frames.
    public var frameIndex: Int?
    public var trigger: NavigationTrigger
    public var gesture: Bool
    public var method: String
    /// Set when the engine paused a network request for it (http/https), or holds the navigation before making its
    /// request (`EngineSession.admit` sends it); nil for a URL the engine cannot load itself (custom scheme,
    /// `intent:`) or a new window, which the world carries out on its own.
    public var request: EngineRequestID?

    public init(
        url: String, frame: NavigationFrame, frameIndex: Int? = nil, trigger: NavigationTrigger, gesture: Bool,
        method: String = "GET", request: EngineRequestID?
    ) {
        self.url = url
        self.frame = frame
        self.frameIndex = frameIndex
        self.trigger = trigger
        self.gesture = gesture
        self.method = method
        self.request = request
    }
}
