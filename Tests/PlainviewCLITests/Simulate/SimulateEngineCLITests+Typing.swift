import Foundation
import Testing
import TestSupport

/// `type:` in engine mode: the engine types into its own DOM (a frame's field too), and the form posts it, as in
/// the model.
extension SimulateEngineCLITests {
    @Test func whatTheUserTypesReachesTheServerInEveryEngine() async throws {
        guard Self.present("chromium"), Self.present("webkit") else { return }
        let flow = try Self.flow(
            "typing",
            """
            pages:
              - url: https://shop.example.com/pay
                body: "<iframe src='https://acs.bank.example/otp'></iframe>"
              - url: https://acs.bank.example/otp
                body: "<form method='get' action='https://acs.bank.example/check'><input name='otp'><button>Confirm</button></form>"
              - url: https://acs.bank.example/check?otp=49+28%2F17
                body: "<a href='https://shop.example.com/done' target='_top'>Back to the shop</a>"
            steps:
              - type: {field: otp, text: "49 28/17"}
              - tap: Confirm
              - tap: Back to the shop
            expect: {outcome: complete}
            """)
        let r = try await Self.cli(["simulate", "--engine", "compare", flow.path], timeout: 300)
        #expect(r.status == 0, "\(r)")
        #expect(r.stdoutLines.filter { $0.hasPrefix("PASS  typing  complete in web view") }.count == 3, "\(r)")
        #expect(r.stdoutLines.contains("compare: 1 flow, 0 differ (0 differences)"), "\(r)")
    }
}
