import Foundation
import PlainviewConfig
import FlowImport

/// How recordings are replayed: the merchant's policy and device, what must happen, and redaction.
public struct HARReplayOptions: Sendable {
    /// The policy file (required to replay a recording).
    public var policy: String
    /// The environment file (installed apps), if any.
    public var environment: String?
    /// The outcome the recording must reach.
    public var expect: Outcome.Kind
    /// User steps replacing the inferred taps.
    public var taps: [String]?
    /// nil: no redaction (`--no-redact`). The policy's own URLs keep their query values (they must still match).
    public var redaction: RedactionConfig?

    public init(
        policy: String, environment: String? = nil, expect: Outcome.Kind = .complete, taps: [String]? = nil,
        redaction: RedactionConfig? = .default
    ) {
        self.policy = policy
        self.environment = environment
        self.expect = expect
        self.taps = taps
        self.redaction = redaction
    }
}
