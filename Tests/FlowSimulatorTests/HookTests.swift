@testable import PlainviewConfig
import Testing
import TestSupport
@testable import FlowSimulator

/// JavaScript hooks (Swedbank Pay's plain web view guide "Adding JavaScript Hooks"): a page calling the app's handler ends the run.
@Suite struct HookTests {
    static func flow(_ hooks: String, body: String) throws(ConfigError) -> Flow {
        try FlowLoader.parse(
            """
            policy:
              platform: ios
              paymentUrl: https://shop.example.com/pay
              completeUrl: https://shop.example.com/complete
              cancelUrl: https://shop.example.com/cancel
            \(hooks)
            pages:
              - url: https://shop.example.com/pay
                body: '\(body)'
            """, file: "flow.yaml", folder: Project.root.path)
    }

    @Test func aRegisteredHookCalledOnLoadCompletes() throws {
        let f = try Self.flow(
            "hooks: {completed: complete}",
            body: "<html><body><script>window.webkit.messageHandlers.completed.postMessage(\"success\");</script></body></html>")
        let r = Simulator.run(f).branches[0]
        #expect(r.outcome.kind == .complete, "\(r.outcome)")
        #expect(r.outcome.reason.contains("hook 'completed'"))
    }

    @Test func anUnregisteredHookDoesNothing() throws {
        let f = try Self.flow(
            "hooks: {canceled: canceled}",
            body: "<html><body><script>window.webkit.messageHandlers.completed.postMessage(\"success\");</script></body></html>")
        #expect(Simulator.run(f).branches[0].outcome.kind == .stuck)
    }

    @Test(arguments: ["loop", "stuck"])
    func aHookMustMeanCompleteOrCanceled(_ outcome: String) {
        do {
            _ = try Self.flow("hooks: {completed: \(outcome)}", body: "<html></html>")
            Issue.record("accepted hooks: {completed: \(outcome)}")
        } catch {
            // `flow` throws ConfigError only (typed throws).
            #expect(error.file == "flow.yaml", "\(error)")
            #expect(error.line == 6, "\(error)")
            #expect(error.key == "hooks.completed", "\(error)")
            #expect(error.message.contains("complete"), "\(error)")
        }
    }
}
