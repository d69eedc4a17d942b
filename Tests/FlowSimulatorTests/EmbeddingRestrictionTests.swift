import Foundation
import NavigationPolicy
import Testing

@testable import FlowSimulator

/// Providers that forbid embedded web views: the trace warns, once, when the host app's web view shows their page.
@Suite struct EmbeddingRestrictionTests {
    static func warnings(to url: String, openBrowser: String = "system", redirectPolicy: RedirectPolicy = .webview) throws
        -> [String]
    {
        var flow = try ShopFlow.load(
            """
            environment:
              webView: {openBrowser: \(openBrowser)}
            pages:
              - url: https://shop.example.com/pay
                body: "<a href='\(url)'>Klarna</a>"
              - url: \(url)
                body: "<a href='\(url)'>Again</a>"
            steps:
              - tap: Klarna
              - tap: Again
            """)
        flow.policy.redirectPolicy = redirectPolicy
        let r = Simulator.run(flow).branches[0]
        return r.events.compactMap { $0.event == .note ? $0.reason : nil }.filter { $0.hasPrefix("warning:") }
    }

    @Test(arguments: [
        ("https://pay.klarna.com/checkout", 1),
        ("https://klarna.com/pay", 1),
        ("https://x.eu.playground.klarna.com/pay", 1),
        ("https://klarna.com.evil.example/pay", 0),
        ("https://notklarna.com/pay", 0),
    ])
    func aKlarnaPageInTheWebViewIsWarnedAboutOnce(url: String, count: Int) throws {
        let w = try Self.warnings(to: url)
        #expect(w.count == count, "\(w)")
        if count > 0 {
            #expect(w[0].contains("Klarna forbids showing its pages in an embedded web view"))
            #expect(w[0].contains("Klarna's mobile documentation"))
        }
    }

    @Test func aKlarnaPageInAnInAppBrowserIsNotWarnedAbout() throws {
        #expect(
            try Self.warnings(
                to: "https://pay.klarna.com/checkout", openBrowser: "safari-view-controller", redirectPolicy: .browser
            ).isEmpty)
    }
}
