import Testing
import TestSupport
@testable import FlowSimulator

/// A `setTimeout(…, N)` navigation waits N ms on the simulated clock, so a sooner refresh wins (as in a browser).
@Suite struct TimerOrderTests {
    static func run(_ body: String) throws -> String {
        let flow = try FlowLoader.parse("""
        policy:
          platform: ios
          paymentUrl: https://shop.example.com/pay
          completeUrl: https://shop.example.com/complete
          cancelUrl: https://shop.example.com/cancel
        pages:
          - url: https://shop.example.com/pay
            body: "\(body)"
        """, file: "flow.yaml", folder: Project.root.path)
        let r = Simulator.run(flow).branches[0]
        return r.outcome.kind.rawValue
    }

    @Test func aRefreshSoonerThanTheTimerWins() throws {
        #expect(try Self.run("<meta http-equiv=refresh content='2;url=/complete'><script>setTimeout(function(){ location = '/cancel' }, 8000)</script>") == "complete")
    }

    @Test func aTimerSoonerThanTheRefreshWins() throws {
        #expect(try Self.run("<meta http-equiv=refresh content='9;url=/complete'><script>setTimeout(function(){ location = '/cancel' }, 500)</script>") == "canceled")
    }
}
