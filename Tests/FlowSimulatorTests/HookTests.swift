@testable import PlainviewConfig
import Testing
import TestSupport
@testable import FlowSimulator

/// JavaScript hooks (seed 002 "Adding JavaScript Hooks"): a page calling the app's handler ends the run.
@Suite struct HookTests {
    static func flow(_ hooks: String, body: String) throws(ConfigError) -> Flow {
        try FlowLoader.parse("""
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
        let f = try Self.flow("hooks: {completed: complete}",
                              body: "<html><body><script>window.webkit.messageHandlers.completed.postMessage(\"success\");</script></body></html>")
        let r = Simulator.run(f).branches[0]
        #expect(r.outcome.kind == .complete, "\(r.outcome)")
        #expect(r.outcome.reason.contains("hook 'completed'"))
    }

    @Test func anUnregisteredHookDoesNothing() throws {
        let f = try Self.flow("hooks: {canceled: canceled}",
                              body: "<html><body><script>window.webkit.messageHandlers.completed.postMessage(\"success\");</script></body></html>")
        #expect(Simulator.run(f).branches[0].outcome.kind == .stuck)
    }

    @Test(arguments: ["loop", "stuck"])
    func aHookMustMeanCompleteOrCanceled(_ outcome: String) {
        do {
            _ = try Self.flow("hooks: {completed: \(outcome)}", body: "<html></html>")
            Issue.record("accepted hooks: {completed: \(outcome)}")
        } catch let error as ConfigError {
            #expect(error.file == "flow.yaml", "\(error)")
            #expect(error.line == 6, "\(error)")
            #expect(error.key == "hooks.completed", "\(error)")
            #expect(error.message.contains("complete"), "\(error)")
        } catch {
            Issue.record("not a ConfigError: \(error)")
        }
    }
}

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

/// Android App Links can fail verification (`autoVerify` against assetlinks.json): an uncertain point like a
/// universal link, explored as `app-link-unverified:HOST` and fixed by `assume: universalLinks`.
@Suite struct AppLinkVerificationTests {
    static func flow(assume: String = "") throws -> Flow {
        try FlowLoader.parse("""
        policy:
          platform: android
          paymentUrl: https://shop.example.com/pay
          completeUrl: https://shop.example.com/complete
          cancelUrl: https://shop.example.com/cancel
        environment:
          apps:
            - name: Shop
              package: com.example.shop
              appLinks: [{host: shop.example.com, paths: ["/complete*"]}]
              behaviour: {host: true}
            - name: Bank
              package: com.bank.app
              appLinks: [{host: app.bank.example, paths: ["/auth*"]}]
              behaviour: {then: complete, returnTo: {url: "https://shop.example.com/complete"}}
        \(assume)
        pages:
          - url: https://shop.example.com/pay
            body: "<a href='https://app.bank.example/auth?tx=1'>Pay with Bank</a>"
          - url: https://app.bank.example/auth?tx=1
            body: "<p>Open the Bank app</p>"
        steps:
          - tap: Pay with Bank
        """, file: "flow.yaml", folder: Project.root.path)
    }

    @Test func exploreBranchesOnVerification() throws {
        let result = Simulator.explore(try Self.flow())
        let names = result.branches.map(\.branch)
        #expect(names.contains { $0.contains("app-link-unverified:app.bank.example") }, "\(names)")
        let verified = try #require(result.branches.first { $0.branch == "default" })
        #expect(verified.outcome.kind == .complete, "\(verified.outcome)")
        let unverified = try #require(result.branches.first { $0.branch.contains("app-link-unverified") })
        #expect(unverified.outcome.kind != .complete, "\(unverified.outcome)")
    }

    @Test func assumeFixesVerification() throws {
        let failed = Simulator.run(try Self.flow(assume: "assume: {universalLinks: {app.bank.example: fails}}")).branches[0]
        #expect(failed.outcome.kind != .complete, "\(failed.outcome)")
        let works = Simulator.run(try Self.flow(assume: "assume: {universalLinks: {app.bank.example: works}}")).branches[0]
        #expect(works.outcome.kind == .complete, "\(works.outcome)")
    }
}
