import Foundation
import NavigationPolicy

/// The result of one run (one branch) of a flow.
public struct SimulationReport: Sendable {
    public var flow: String
    /// `default`, or the non-default choices taken, in the canonical order of what they answer
    /// (`prompt-declined:Shop, universal-link-fails:shop.example.com`).
    public var branch: String
    public var choices: [String]
    public var outcome: Outcome
    /// Navigations asked (web view, browser and OS) — the run's hops.
    public var navigationCount: Int
    /// Apps launched, in order of first launch.
    public var appsOpened: [String]
    public var events: [TraceEvent]
    /// Virtual milliseconds from start to outcome.
    public var virtualTime: Int
    /// How long the run took on this machine (wall-clock time; for reports only: it never steers the world).
    public var wallTime: Duration = .zero
    /// Expectations this branch did not meet (empty = passed).
    public var failures: [String]
    public var passed: Bool { failures.isEmpty }
    public var hops: Int { navigationCount }
}
