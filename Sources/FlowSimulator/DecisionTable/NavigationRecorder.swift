// Records what a flow's web view asks while `Simulator.explore` walks its branches, for the decision table.
import NavigationPolicy

/// Wraps the decider of every branch run and keeps each navigation it is asked, with the run it belongs to.
/// One explore uses it from one thread (as a run uses its `DeviceSystem`); it never escapes `DecisionTable.add`.
final class NavigationRecorder: @unchecked Sendable {
    /// One branch run: its choice oracle (the branch name is known when the run ends) and what it asked.
    struct Run {
        let oracle: ChoiceOracle?
        var navigations: [Navigation] = []
        var branch: String {
            guard let labels = oracle?.labels, !labels.isEmpty else { return "default" }
            return labels.joined(separator: ", ")
        }
    }

    private(set) var runs: [Run] = []

    /// The decider a branch run of `flow` would use, wrapped: a new run starts with each call.
    func decider(for flow: Flow) -> (any SystemServices) -> any NavigationDeciding {
        { system in
            self.runs.append(Run(oracle: (system as? DeviceSystem)?.oracle))
            let inner: any NavigationDeciding =
                flow.webView.handler == .plainview
                ? NavigationPolicyEngine(policy: flow.policy, system: system)
                : HostHandlerDecider(
                    handler: flow.webView.handler, policy: flow.policy, system: system,
                    originWhitelist: flow.webView.originWhitelist)
            return Recording(recorder: self, inner: inner)
        }
    }

    fileprivate func record(_ navigation: Navigation) {
        if runs.isEmpty { runs.append(Run(oracle: nil)) }
        runs[runs.count - 1].navigations.append(navigation)
    }

    /// The decider handed to a run: answers as the flow's own decider and notes the question.
    private struct Recording: NavigationDeciding, @unchecked Sendable {
        let recorder: NavigationRecorder
        let inner: any NavigationDeciding

        func decide(_ navigation: Navigation) -> Decision {
            recorder.record(navigation)
            return inner.decide(navigation)
        }
    }
}
