import AppSwitch
import Foundation
import NavigationPolicy

/// An explore allowance: branches whose choices include every label in `when` may end in `outcome`.
public struct BranchAllowance: Sendable, Hashable {
    /// Choice labels (`universal-link-fails`, `app-missing:Swish`, `prompt-declined`, `redirect-blocked`);
    /// a label without `:detail` matches any detail.
    public var when: [String]
    public var outcome: Outcome.Kind
    public init(when: [String], outcome: Outcome.Kind) { self.when = when; self.outcome = outcome }
}
