// A branch's result as the results file (`simulate --results FILE`) holds it; docs/cli.md "The results file".
import Foundation

extension SimulationReport: Codable {
    private enum CodingKeys: String, CodingKey {
        case flow, branch, choices, outcome, hops, appsOpened, events, virtualTime, wallTimeNanoseconds, failures, passed
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        flow = try c.decode(String.self, forKey: .flow)
        branch = try c.decode(String.self, forKey: .branch)
        choices = try c.decode([String].self, forKey: .choices)
        outcome = try c.decode(Outcome.self, forKey: .outcome)
        navigationCount = try c.decodeCount(forKey: .hops)
        appsOpened = try c.decode([String].self, forKey: .appsOpened)
        events = try c.decode([TraceEvent].self, forKey: .events)
        virtualTime = try c.decodeCount(forKey: .virtualTime)
        wallTime = .nanoseconds(try c.decodeCount(forKey: .wallTimeNanoseconds))
        failures = try c.decode([String].self, forKey: .failures)
    }

    /// Every field, and `passed` (no failures) for readers; reading a file recomputes it from `failures`.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(flow, forKey: .flow)
        try c.encode(branch, forKey: .branch)
        try c.encode(choices, forKey: .choices)
        try c.encode(outcome, forKey: .outcome)
        try c.encode(navigationCount, forKey: .hops)
        try c.encode(appsOpened, forKey: .appsOpened)
        try c.encode(events, forKey: .events)
        try c.encode(virtualTime, forKey: .virtualTime)
        let (seconds, attoseconds) = wallTime.components
        let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        try c.encode(overflow ? Int64.max : whole &+ attoseconds / 1_000_000_000, forKey: .wallTimeNanoseconds)
        try c.encode(failures, forKey: .failures)
        try c.encode(passed, forKey: .passed)
    }
}

extension KeyedDecodingContainer {
    /// A whole number ≥ 0 (a count, a time); anything else is an error naming the key.
    func decodeCount(forKey key: Key) throws -> Int {
        let n = try decode(Int.self, forKey: key)
        guard n >= 0 else {
            throw DecodingError.dataCorruptedError(
                forKey: key, in: self, debugDescription: "expected a whole number ≥ 0, found \(n)")
        }
        return n
    }
}
