import Foundation
import NavigationPolicy

/// A flow's result: its default branch, and with explore every branch.
public struct FlowResult: Sendable {
    public var flow: Flow
    public var explored: Bool
    /// The branches run; the first is the default branch.
    public var branches: [SimulationReport]
    /// True when the explore bound (branch count) cut the exploration short.
    public var truncated: Bool
    public var failures: [String] {
        branches.flatMap { b in b.failures.map { b.branch == "default" ? $0 : "[\(b.branch)] \($0)" } }
    }
    public var passed: Bool { failures.isEmpty }
}
