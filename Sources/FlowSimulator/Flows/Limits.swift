import AppSwitch
import Foundation
import NavigationPolicy

/// Bounds that stop a run or an exploration.
public struct Limits: Sendable, Hashable {
    /// World events per run before the run is stopped as `loop`.
    public var steps: Int
    /// Same URL loaded automatically (redirect/refresh/script) in one context without a user step in between.
    public var repeats: Int
    /// Branches explored per flow.
    public var branches: Int
    /// Choice points per branch.
    public var depth: Int

    public init(steps: Int = 400, repeats: Int = 8, branches: Int = 256, depth: Int = 16) {
        self.steps = steps
        self.repeats = repeats
        self.branches = branches
        self.depth = depth
    }
}
