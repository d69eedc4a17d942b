// How long a user's tap lets a page act for the user (transient user activation), as the platform's web engine
// keeps it. docs/environment.md ("User activation") names the sources.

/// The web engine's user-activation rule (WebKit on iOS, Chromium on Android), for the web view and the system
/// browser alike. A navigation a tapped handler makes later (after a `setTimeout`, after an awaited request)
/// still counts as the user's only inside it; without that, Safari renders a universal link's page instead of
/// opening its app, Chrome does not launch an app, and a popup is blocked. A value left nil is the platform's.
public struct UserActivation: Sendable, Hashable, Codable {
    /// Milliseconds after the tap within which a delayed navigation still counts as the user's.
    public var lifespanMs: Int?
    /// Whether it survives waiting on a network answer (`await fetch(…)`, `fetch(…).then(…)`).
    public var survivesNetworkWait: Bool?

    public init(lifespanMs: Int? = nil, survivesNetworkWait: Bool? = nil) {
        self.lifespanMs = lifespanMs
        self.survivesNetworkWait = survivesNetworkWait
    }

    /// The platform's engine: WebKit forwards a tap's gesture to a timer of at most 1 s (its `DOMTimer`'s
    /// limit for user-gesture forwarding) and not across a network answer (breez/glow-web #235: a universal
    /// link followed after an awaited request opened its web page); Chromium keeps transient activation for 5 s
    /// (`kActivationLifespan`), whatever the page waits on.
    public static func platformDefault(_ platform: Platform) -> UserActivation {
        platform == .ios
            ? UserActivation(lifespanMs: 1_000, survivesNetworkWait: false)
            : UserActivation(lifespanMs: 5_000, survivesNetworkWait: true)
    }

    /// These values, the platform's where none is given.
    public func resolved(for platform: Platform) -> UserActivation {
        let d = Self.platformDefault(platform)
        return UserActivation(
            lifespanMs: lifespanMs ?? d.lifespanMs, survivesNetworkWait: survivesNetworkWait ?? d.survivesNetworkWait)
    }

    /// Whether a navigation `elapsedMs` after the tap, after a network wait or not, still has the activation
    /// (on resolved values).
    public func holds(elapsedMs: Int, afterNetworkWait: Bool) -> Bool {
        elapsedMs <= (lifespanMs ?? 0) && (survivesNetworkWait == true || !afterNetworkWait)
    }
}
