import AppSwitch
import Foundation
import NavigationPolicy

/// What a flow must end with.
public struct Expectations: Sendable, Hashable {
    public var outcome: Outcome.Kind?
    public var hops: Int?
    /// `webview`, `browser` or `app NAME`.
    public var endsIn: String?
    /// Apps launched, in order of first launch (the host app included when the OS opened it).
    public var appsOpened: [String]?
    /// Text the outcome's reason must contain.
    public var reasonContains: String?
    /// Explore: the outcome every branch must reach, unless a `branches` allowance matches it.
    public var everyBranch: Outcome.Kind?
    /// What the static model predicts where it cannot see what a real engine does (computed URLs, `document.write`,
    /// user-agent branches): in model mode this outcome, on every branch, is all that is checked; the other
    /// expectations are the engine's truth.
    public var modelOutcome: Outcome.Kind?
    public var branches: [BranchAllowance]

    public init(
        outcome: Outcome.Kind? = nil, hops: Int? = nil, endsIn: String? = nil, appsOpened: [String]? = nil,
        reasonContains: String? = nil, everyBranch: Outcome.Kind? = nil, branches: [BranchAllowance] = []
    ) {
        self.outcome = outcome
        self.hops = hops
        self.endsIn = endsIn
        self.appsOpened = appsOpened
        self.reasonContains = reasonContains
        self.everyBranch = everyBranch
        self.branches = branches
    }
}
