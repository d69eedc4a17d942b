import Testing
import TestSupport

@testable import FlowSimulator

/// The host app ended while the user is away (`host-killed`): a return URL relaunches it into the payment; no
/// URL leaves it on its start screen; only persistent cookies survive.
@Suite struct LifecycleTests {
    /// The shop's payment page sends the user to the bank app (a universal link), which returns as `returnTo`
    /// says; the page then needs the cookie `cookie` to show the paid page.
    static func flow(returnTo: String, cookie: String, assumeKilled: Bool = true, steps: String = "") throws -> Flow {
        try ShopFlow.load(
            """
            environment:
              apps:
                - name: Shop
                  universalLinks: [{host: shop.example.com, paths: ["/pay"]}]
                  behaviour: {host: true}
                - name: Bank
                  universalLinks: [{host: app.bank.example, paths: ["/*"]}]
                  behaviour: {then: complete, returnTo: \(returnTo)}
            \(assumeKilled ? "assume: {hostKilled: true}" : "")
            pages:
              - url: https://shop.example.com/pay
                responses:
                  - setCookie: "\(cookie)"
                    body: "<a href='https://app.bank.example/ok?return=https%3A%2F%2Fshop.example.com%2Fpay'>Bank</a>"
                  - {status: 302, location: "https://shop.example.com/paid"}
              - url: https://shop.example.com/paid
                requireCookie: sid
                status: 302
                location: https://shop.example.com/complete
            steps:
              - tap: Bank
            \(steps)
            """)
    }

    @Test func aReturnURLRelaunchesTheAppIntoThePayment() throws {
        let r = Simulator.run(try Self.flow(returnTo: "{queryParameter: return}", cookie: "sid=1; Max-Age=600")).branches[0]
        #expect(r.outcome.kind == .complete, "\(r.outcome)")
        #expect(r.events.contains { $0.event == .note && ($0.reason ?? "").contains("ended the host app while it was away") })
    }

    @Test func aSessionCookieDiesWithTheApp() throws {
        let r = Simulator.run(try Self.flow(returnTo: "{queryParameter: return}", cookie: "sid=1")).branches[0]
        #expect(r.outcome.kind != .complete, "\(r.outcome)")
        // Kept alive, the same flow completes.
        let kept = Simulator.run(try Self.flow(returnTo: "{queryParameter: return}", cookie: "sid=1", assumeKilled: false))
        #expect(kept.branches[0].outcome.kind == .complete, "\(kept.branches[0].outcome)")
    }

    @Test func backWithoutAURLTheAppShowsItsStartScreen() throws {
        let r = Simulator.run(try Self.flow(returnTo: "previous", cookie: "sid=1; Max-Age=600")).branches[0]
        #expect(r.outcome.kind == .stuck)
        #expect(r.outcome.reason.contains("comes back without a URL: it shows its start screen"), "\(r.outcome.reason)")
    }

    @Test func exploreBranchesOnIt() throws {
        let result = Simulator.explore(try Self.flow(returnTo: "previous", cookie: "sid=1", assumeKilled: false))
        let names = result.branches.map(\.branch)
        #expect(names.contains("host-killed"), "\(names)")
    }
}
