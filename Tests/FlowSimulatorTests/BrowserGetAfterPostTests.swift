import Testing
import TestSupport
@testable import FlowSimulator

/// A page the web view would have got by POST, handed to the browser instead: the browser requests it with GET
/// and without the form data. The verdict says so (a real failure), instead of blaming the recording.
@Suite struct BrowserGetAfterPostTests {
    @Test func aPostedPageSentToTheBrowserIsStuckSayingWhy() throws {
        let flow = try FlowLoader.parse(
            """
            policy:
              platform: ios
              paymentUrl: https://shop.example.com/pay
              completeUrl: https://shop.example.com/complete
              cancelUrl: https://shop.example.com/cancel
              redirectPolicy: goodlist
            pages:
              - url: https://shop.example.com/pay
                body: "<form method=post action='https://acs.unknown-bank.example/creq'><input type=hidden name=creq value=x></form><script>document.forms[0].submit()</script>"
              - url: https://acs.unknown-bank.example/creq
                method: POST
                body: "<p>challenge</p>"
            expect: {outcome: stuck}

            """, file: "flow.yaml", folder: ".")
        let result = Simulator.run(flow)
        let outcome = result.branches[0].outcome
        #expect(outcome.kind == .stuck, "\(outcome)")
        #expect(outcome.reason.contains("requested again without its form data"), "\(outcome.reason)")
        #expect(!outcome.reason.contains("no recorded response"))
    }
}
