import NavigationPolicy
import Testing
import TestSupport
@testable import FlowSimulator

/// The host app's own loads of the payment page (`app-load`): the policy lets them through, and the simulated app
/// carries out what the documented delegate does, so a delegate that re-decides its own load fails the flow.
@Suite struct AppLoadTests {
    /// The documented delegate's mistake before `app-load`: every navigation it is asked about, its own loads
    /// included, is re-decided as a page's (WKWebView's `.other` after the first load reads as a script).
    struct DelegateWithoutOwnLoads: NavigationDeciding {
        let engine: NavigationPolicyEngine
        func decide(_ navigation: Navigation) -> Decision {
            var n = navigation
            if n.trigger == .appLoad { n.trigger = .script }
            return engine.decide(n)
        }
    }

    static let flowText = """
        policy:
          platform: ios
          paymentUrl: https://shop.example.com/pay?order=1
          completeUrl: https://shop.example.com/complete
          cancelUrl: https://shop.example.com/cancel
        pages:
          - url: https://shop.example.com/pay?order=1
            body: "<a href='https://shop.example.com/complete'>Pay</a>"
        steps:
          - tap: Pay
        expect: {outcome: complete}

        """

    @Test func theAppsOwnLoadOfThePaymentPageLoadsAndTheFlowCompletes() throws {
        let flow = try FlowLoader.parse(Self.flowText, file: "flow.yaml", folder: ".")
        let result = Simulator.run(flow)
        #expect(result.passed, "\(result.failures)")
        let first = try #require(result.branches[0].events.first { $0.event == .decide })
        #expect(first.rule == "intercept.payment-load")
        #expect(first.action == "allow")
    }

    @Test func aDelegateThatReDecidesItsOwnLoadFailsTheFlowAsALoop() throws {
        let flow = try FlowLoader.parse(Self.flowText, file: "flow.yaml", folder: ".")
        let (report, _) = Simulator.runBranchWithPoints(
            flow, script: [:], exploring: false,
            decider: { system in DelegateWithoutOwnLoads(engine: NavigationPolicyEngine(policy: flow.policy, system: system)) })
        #expect(report.outcome.kind == .loop, "\(report.outcome)")
        #expect(report.outcome.reason.contains("reload forever"), "\(report.outcome.reason)")
    }
}
