import Testing
import TestSupport
@testable import FlowSimulator

/// Android App Links can fail verification (`autoVerify` against assetlinks.json): an uncertain point like a
/// universal link, explored as `app-link-unverified:HOST` and fixed by `assume: universalLinks`.
@Suite struct AppLinkVerificationTests {
    static func flow(assume: String = "") throws -> Flow {
        try FlowLoader.parse(
            """
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
