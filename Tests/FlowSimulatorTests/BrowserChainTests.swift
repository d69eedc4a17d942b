import Foundation
import NavigationPolicy
import Testing

@testable import FlowSimulator

/// Chrome's navigation chain in the system browser (Android): a navigation without a gesture may launch an app
/// only in a chain a tap or another app began less than 15 s ago, at most once, and Chrome then restores the tab.
@Suite struct BrowserChainTests {
    /// The app hands the browser a landing page (an incoming intent starts a chain); its script goes to
    /// `target` after `delay` ms. With `tap`, the user first taps a link to a second page that does that instead.
    static func run(delay: Int, target: String, tap: Bool = false, explore: Bool = false) throws -> [SimulationReport] {
        let script = "<script>setTimeout(function(){ location.href = '\(target)' }, \(delay))</script>"
        let flow = try ShopFlow.load(
            platform: "android",
            """
            environment:
              apps:
                - name: Shop
                  package: com.example.shop
                  behaviour: {host: true}
                - name: Wallet
                  package: com.wallet.example
                  schemes: [wallet]
                  appLinks: [{host: app.wallet.example}]
                  behaviour: {then: complete, returnTo: previous}
            pages:
              - url: https://shop.example.com/pay
                in: webview
                body: "<a href='https://pay.wallet.example/start'>Wallet</a>"
              - url: https://pay.wallet.example/start
                body: "\(tap ? "<a href='https://pay.wallet.example/go'>Go</a>" : script)"
              - url: https://pay.wallet.example/go
                body: "\(script)"
              - url: https://app.wallet.example/open
                body: "the wallet's web page"
            steps:
              - tap: Wallet
            \(tap ? "  - tap: Go" : "")
            """)
        var f = flow
        f.policy.redirectPolicy = .browser
        return explore ? Simulator.explore(f).branches : [Simulator.run(f).branches[0]]
    }

    @Test(arguments: [
        // delay (ms), target, the app opens
        (1_000, "wallet://pay", true),
        (14_000, "wallet://pay", true),
        (16_000, "wallet://pay", false),
        (1_000, "https://app.wallet.example/open", true),
        (16_000, "https://app.wallet.example/open", false),
    ])
    func aChainOlderThan15SecondsLaunchesNoApp(delay: Int, target: String, opens: Bool) throws {
        let r = try Self.run(delay: delay, target: target)[0]
        #expect(r.appsOpened.contains("Wallet") == opens, "\(r.outcome) \(r.appsOpened)")
        if !opens, target.hasPrefix("wallet:") {
            #expect(r.events.contains { ($0.reason ?? "").contains("NAVIGATION_CHAIN_TIMEOUT_MILLIS") }, "\(r.outcome)")
        }
    }

    @Test func anExpiredChainIsNotAnExploreChoice() throws {
        // Inside the window the documented "Chrome sometimes blocks it" stays a branch; past it nothing is uncertain.
        let inside = try Self.run(delay: 1_000, target: "wallet://pay", explore: true).map(\.branch)
        #expect(inside.contains { $0.contains("redirect-blocked") }, "\(inside)")
        let expired = try Self.run(delay: 16_000, target: "wallet://pay", explore: true).map(\.branch)
        #expect(!expired.contains { $0.contains("redirect-blocked") }, "\(expired)")
    }

    @Test func anAutomaticLaunchRestoresTheTabToWhereTheChainBegan() throws {
        // The tap on "Go" began the chain on the start page; the script on the next page launched the app.
        let r = try Self.run(delay: 500, target: "https://app.wallet.example/open", tap: true)[0]
        #expect(r.appsOpened == ["Wallet"], "\(r.appsOpened)")
        #expect(
            r.events.contains {
                ($0.reason ?? "")
                    == "Chrome restores the tab to https://pay.wallet.example/start, where the navigation chain began"
            })
        // The wallet goes back to the browser, which shows the start page again.
        #expect(r.outcome.reason.contains("https://pay.wallet.example/start"), "\(r.outcome)")
    }

    /// An intent Chrome may not launch (the chain is too old) loads its http(s) fallback instead; once a fallback
    /// loaded, a later intent without a new tap is not launched either, though its app is installed.
    @Test func anIntentChromeMayNotLaunchLoadsItsFallbackAndLaterIntentsFollow() throws {
        let intent =
            "intent://pay#Intent;scheme=wallet;package=com.wallet.example;"
            + "S.browser_fallback_url=https%3A%2F%2Fapp.wallet.example%2Fopen;end"
        let late = try Self.run(delay: 16_000, target: intent)[0]
        #expect(!late.appsOpened.contains("Wallet"), "\(late.appsOpened)")
        #expect(late.events.contains { $0.event == .navigate && $0.url == "https://app.wallet.example/open" }, "\(late.outcome)")
        // In time, the same intent launches the app.
        #expect(try Self.run(delay: 1_000, target: intent)[0].appsOpened.contains("Wallet"))
        var chain = BrowserChain(startedAt: 0, userStarted: true)
        chain.usedFallback = true
        #expect(chain.refusal(now: 10)?.contains("after it loaded an intent's fallback URL") == true)
    }

    @Test func theChainRefusesASecondLaunchAndAChainNoOneBegan() {
        var chain = BrowserChain(startedAt: 0, userStarted: true)
        #expect(chain.refusal(now: 15_000) == nil)
        #expect(chain.refusal(now: 15_001)?.contains("older than 15 s") == true)
        chain.launched = true
        #expect(chain.refusal(now: 10)?.contains("at most one app per user activation") == true)
        #expect(BrowserChain.none.refusal(now: 0)?.contains("a user's tap or another app started") == true)
    }
}
