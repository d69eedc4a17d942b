// The decision procedure. STUB: blocks everything until the engine lands.

/// Decides, for each navigation, what the web view must do. Pure: same input, same decision.
public struct NavigationPolicyEngine: Sendable {
    public let policy: Policy
    public let system: any SystemServices

    public init(policy: Policy, system: any SystemServices = NoApps()) {
        self.policy = policy
        self.system = system
    }

    public func decide(_ navigation: Navigation) -> Decision {
        Decision(.block, rule: RuleID("stub"), reason: "the engine is not written yet")
    }
}
