import Foundation
import Testing
import TestSupport

@testable import FlowSimulator

/// iOS App-Bound Domains: `webView.appBoundDomains` (or the host app's Info.plist `WKAppBoundDomains`) and
/// `limitsNavigationsToAppBoundDomains`.
@Suite struct AppBoundDomainsTests {
    static func run(_ webView: String, body: String, platform: String = "ios") throws -> SimulationReport {
        let flow = try ShopFlow.load(
            platform: platform,
            """
            environment:
              webView: \(webView)
            hooks: {done: complete}
            pages:
              - url: https://shop.example.com/pay
                body: "\(body)"
              - url: https://acs4.sparebank1.no/challenge
                body: "<script>webkit.messageHandlers.done.postMessage(1)</script>"
            """)
        return Simulator.run(flow).branches[0]
    }

    static let toACS = "<script>location.href='https://acs4.sparebank1.no/challenge'</script>"

    @Test func aLimitedWebViewDoesNotLoadAnotherDomain() throws {
        let r = try Self.run("{appBoundDomains: [shop.example.com], limitsNavigationsToAppBoundDomains: true}", body: Self.toACS)
        #expect(r.outcome.kind == .stuck, "\(r.outcome)")
        #expect(r.outcome.reason.contains("acs4.sparebank1.no is not an app-bound domain"), "\(r.outcome.reason)")
        #expect(r.outcome.reason.contains("WKError.navigationAppBoundDomain"))
    }

    @Test func aBoundParentDomainCoversItsSubdomains() throws {
        let r = try Self.run(
            "{appBoundDomains: [shop.example.com, sparebank1.no], limitsNavigationsToAppBoundDomains: true}", body: Self.toACS)
        #expect(r.outcome.kind == .complete, "\(r.outcome)")
    }

    @Test func declaredDomainsTakeTheHooksAwayFromOtherDomains() throws {
        // Not limited: the ACS page loads, but its call to the app's hook reaches nothing.
        let r = try Self.run("{appBoundDomains: [shop.example.com]}", body: Self.toACS)
        #expect(r.outcome.kind == .stuck, "\(r.outcome)")
        #expect(
            r.outcome.reason.contains(
                "called the app's JavaScript hook 'done', but acs4.sparebank1.no is not an app-bound domain"),
            "\(r.outcome.reason)")
        // Without the key, the hook works.
        #expect(try Self.run("{}", body: Self.toACS).outcome.kind == .complete)
    }

    @Test func androidHasNoAppBoundDomains() throws {
        let r = try Self.run(
            "{appBoundDomains: [shop.example.com], limitsNavigationsToAppBoundDomains: true}", body: Self.toACS,
            platform: "android")
        #expect(r.outcome.kind == .complete, "\(r.outcome)")
    }

    @Test func theHostAppsInfoPlistGivesTheDomains() throws {
        let dir = try Project.temporaryDirectory()
        let plist = dir.appendingPathComponent("Info.plist")
        try """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0"><dict><key>WKAppBoundDomains</key><array><string>shop.example.com</string></array></dict></plist>
        """.write(to: plist, atomically: true, encoding: .utf8)
        let flow = try ShopFlow.load(
            """
            environment:
              apps:
                - name: Shop
                  infoPlist: \(plist.path)
                  behaviour: {host: true}
              webView: {limitsNavigationsToAppBoundDomains: true}
            pages:
              - url: https://shop.example.com/pay
                body: "\(Self.toACS)"
            """)
        #expect(flow.webView.appBoundDomains == ["shop.example.com"])
        #expect(Simulator.run(flow).branches[0].outcome.reason.contains("not an app-bound domain"))
    }
}
