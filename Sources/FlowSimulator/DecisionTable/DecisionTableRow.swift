// One row of a decision table (DecisionTable.swift): a navigation, the policy's decision and the Android command.
import NavigationPolicy

/// A navigation the web view asks about, what the policy decides, and what an Android app must do with it.
public struct DecisionTableRow: Sendable, Hashable {
    /// What `shouldOverrideUrlLoading` is asked (the trigger and method as the flow asked them).
    public var navigation: Navigation
    public var decision: Decision
    /// The answer to `shouldOverrideUrlLoading` and what the app does next (`AndroidWebViewCommand(decision, url:)`).
    public var command: AndroidWebViewCommand
    /// Where the navigation was first asked: `FLOW (BRANCH)`, or `url` for a URL given on its own.
    public var source: String

    public init(navigation: Navigation, decision: Decision, source: String) {
        self.navigation = navigation
        self.decision = decision
        self.command = AndroidWebViewCommand(decision, url: navigation.url)
        self.source = source
    }
}
