import Foundation
import PlainviewConfig
import Testing

@testable import FlowSimulator

/// A response marked `afterApp: NAME` is the server's answer only once the user completed in that app: a Swish
/// page's status turns paid where the user approved, and stays pending where Swish is missing or the user cancels.
@Suite struct AfterAppTests {
    /// The shop launches Swish and, back in front, reloads its status page every 2 s: pending until paid, then a
    /// redirect to completeUrl. `afterApp` nil: the recorded sequence alone (paid from the second answer on).
    static func flow(afterApp: String? = "Swish", steps: String = "") throws -> Flow {
        try ShopFlow.load(
            """
            environment:
              apps:
                - {name: Shop, schemes: [shopapp], behaviour: {host: true}}
                - {name: Swish, schemes: [swish], behaviour: {then: complete, returnTo: previous}}
            pages:
              - url: https://shop.example.com/pay
                body: "<meta http-equiv=refresh content='2; url=/status'><script>location.href = 'swish://paymentrequest?token=c28a4061470f4af48973bd2a607b0d27'</script>"
              - url: https://shop.example.com/status
                responses:
                  - body: "<meta http-equiv=refresh content='2; url=/status'><p>Waiting for Swish</p>"
                  - location: https://shop.example.com/complete
                    \(afterApp.map { "afterApp: \($0)" } ?? "")
            \(steps)
            """)
    }

    @Test func theStatusTurnsPaidOnlyWhereTheUserApprovedInTheApp() throws {
        let explored = Simulator.explore(try Self.flow()).branches
        let byBranch = Dictionary(explored.map { ($0.branch, $0.outcome.kind) }, uniquingKeysWith: { a, _ in a })
        #expect(byBranch["default"] == .complete, "\(byBranch)")
        let missing = try #require(explored.first { $0.choices.contains("app-missing:Swish") })
        #expect(missing.outcome.kind != .complete, "\(missing.outcome)")
        #expect(!missing.appsOpened.contains("Swish"))
    }

    @Test func aCancelInTheAppLeavesTheStatusPending() throws {
        let canceled = Simulator.run(try Self.flow(steps: "steps:\n  - app: Swish cancel")).branches[0]
        #expect(canceled.outcome.kind != .complete, "\(canceled.outcome)")
        #expect(canceled.appsOpened == ["Swish"])
        // Without the mark the recorded sequence alone says paid: the false pass this key prevents.
        let unmarked = Simulator.run(try Self.flow(afterApp: nil, steps: "steps:\n  - app: Swish cancel")).branches[0]
        #expect(unmarked.outcome.kind == .complete, "\(unmarked.outcome)")
    }

    @Test(arguments: [
        (
            "      - body: a\n        afterApp: Swish\n      - body: b", "pages[0].responses[0].afterApp",
            "it cannot wait for an app"
        ),
        ("      - body: a\n      - body: b\n        afterApp: Wallet", "pages", "names an app that is not in the environment"),
        (
            "      - body: a\n      - body: b\n        afterApp: ''", "pages[0].responses[1].afterApp",
            "expected the name of an app"
        ),
    ])
    func aResponseWaitsOnlyForAnAppOfTheEnvironmentAndNeverFirst(responses: String, key: String, message: String) throws {
        do {
            _ = try ShopFlow.load(
                """
                environment:
                  apps:
                    - {name: Shop, schemes: [shopapp], behaviour: {host: true}}
                    - {name: Swish, schemes: [swish]}
                pages:
                  - url: https://shop.example.com/status
                    responses:
                \(responses)
                """)
            Issue.record("expected an error for \(responses)")
        } catch let error as ConfigError {
            #expect(error.key == key, "\(error)")
            #expect(error.message.contains(message), "\(error)")
        }
    }
}
