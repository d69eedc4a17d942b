import Foundation
import NavigationPolicy
import Testing
import TestSupport

@testable import FlowSimulator

/// Third-party cookies in the host app's web view (`webView.acceptThirdPartyCookies`): a frame on another site
/// than its page neither keeps nor sends cookies unless the web view accepts them.
@Suite struct ThirdPartyCookiesTests {
    /// The flow of `run` with an iOS host app whose Info.plist holds `plistKeys`.
    static func flowWithInfoPlist(_ plistKeys: String) throws -> Flow {
        let dir = try Project.temporaryDirectory()
        let plist = dir.appendingPathComponent("Info.plist")
        try """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0"><dict>\(plistKeys)</dict></plist>
        """.write(to: plist, atomically: true, encoding: .utf8)
        return try ShopFlow.load(
            """
            environment:
              apps:
                - name: Shop
                  infoPlist: \(plist.path)
                  behaviour: {host: true}
            pages:
              - url: https://shop.example.com/pay
                body: "<iframe src='https://acs.bank.example/start'></iframe>"
              - url: https://acs.bank.example/start
                setCookie: "tx=1; Path=/; Secure; SameSite=None"
                body: "<script>location.href='https://acs.bank.example/next'</script>"
              - url: https://acs.bank.example/next
                requireCookie: tx
                withoutCookie: {body: "session expired"}
                body: "<script>top.location.href='https://shop.example.com/complete'</script>"
            """)
    }

    /// An app that declares NSCrossWebsiteTrackingUsageDescription may have been allowed tracking by its user:
    /// explore branches on it (blocked by default); without the key there is nothing to branch on.
    @Test func anAppThatAsksForTrackingBranchesOnTheUsersAnswer() throws {
        let asks = try Self.flowWithInfoPlist(
            "<key>NSCrossWebsiteTrackingUsageDescription</key><string>Lets your bank remember this device.</string>")
        #expect(asks.webView.mayAllowCrossWebsiteTracking)
        let branches = Simulator.explore(asks).branches.map { "\($0.branch)=\($0.outcome.kind.rawValue)" }
        #expect(branches.sorted() == ["default=stuck", "third-party-cookies-allowed=complete"], "\(branches)")
        let silent = try Self.flowWithInfoPlist("<key>CFBundleIdentifier</key><string>com.example.shop</string>")
        #expect(!silent.webView.mayAllowCrossWebsiteTracking)
        #expect(Simulator.explore(silent).branches.map(\.branch) == ["default"])
        // A normal run takes the default: the user has not turned it on.
        #expect(Simulator.run(asks).branches[0].outcome.kind == .stuck)
    }

    /// A page of shop.example.com framing `frame`, whose answer sets a session cookie and moves on to `frame`'s
    /// `/next`, which needs the cookie and sends the top window to completeUrl (without it: a dead end).
    static func run(platform: String, frame: String, accept: Bool?, webViewYAML: String? = nil) throws -> SimulationReport {
        let webView = "webView: " + (webViewYAML ?? accept.map { "{acceptThirdPartyCookies: \($0)}" } ?? "{}")
        let flow = try ShopFlow.load(
            platform: platform,
            """
            environment:
              \(webView)
            pages:
              - url: https://shop.example.com/pay
                body: "<iframe src='\(frame)/start'></iframe>"
              - url: \(frame)/start
                setCookie: "tx=1; Path=/; Secure; SameSite=None"
                body: "<script>location.href='\(frame)/next'</script>"
              - url: \(frame)/next
                requireCookie: tx
                withoutCookie: {body: "session expired"}
                body: "<script>top.location.href='https://shop.example.com/complete'</script>"
            """)
        return Simulator.run(flow).branches[0]
    }

    @Test(
        arguments: [
            // platform, frame, acceptThirdPartyCookies (nil: the default), outcome
            ("ios", "https://acs.bank.example", nil, Outcome.Kind.stuck),
            ("android", "https://acs.bank.example", nil, .stuck),
            ("ios", "https://acs.bank.example", false, .stuck),
            ("android", "https://acs.bank.example", true, .complete),
            ("ios", "https://acs.bank.example", true, .complete),
            // Same site (other hosts under the page's registrable domain, example.com): first-party, kept.
            ("ios", "https://pay.shop.example.com", nil, .complete),
            ("android", "https://acs.example.com", nil, .complete),
            ("android", "https://secure.shop.example.com", false, .complete),
            // A look-alike on another registrable domain is another site.
            ("android", "https://shop.example.com.evil.example", nil, .stuck),
        ] as [(String, String, Bool?, Outcome.Kind)])
    func aFrameOnAnotherSiteKeepsNoCookieUnlessTheWebViewAcceptsThem(
        platform: String, frame: String, accept: Bool?, expected: Outcome.Kind
    ) throws {
        let r = try Self.run(platform: platform, frame: frame, accept: accept)
        #expect(r.outcome.kind == expected, "\(r.outcome)")
    }

    @Test func theReasonNamesTheRuleOfThePlatform() throws {
        let ios = try Self.run(platform: "ios", frame: "https://acs.bank.example", accept: nil)
        #expect(
            ios.outcome.reason.contains("the web view sent no cookie 'tx' to https://acs.bank.example/next"), "\(ios.outcome)")
        #expect(ios.outcome.reason.contains("WKWebView blocks third-party cookies"), "\(ios.outcome)")
        #expect(ios.outcome.reason.contains("a frame inside a page of example.com is on another site"), "\(ios.outcome)")
        let android = try Self.run(platform: "android", frame: "https://acs.bank.example", accept: nil)
        #expect(android.outcome.reason.contains("CookieManager.setAcceptThirdPartyCookies(webView, true)"), "\(android.outcome)")
        // The dropped Set-Cookie is in the trace where it happened.
        #expect(
            android.events.contains {
                $0.event == .note && $0.url == "https://acs.bank.example/start"
                    && ($0.reason ?? "").contains("cookie 'tx' not kept")
            })
    }

    @Test func aValueThatIsNotABooleanIsAnErrorNamingTheKey() throws {
        do {
            _ = try Self.run(
                platform: "android", frame: "https://acs.bank.example", accept: nil,
                webViewYAML: "{acceptThirdPartyCookies: sometimes}")
            Issue.record("expected an error")
        } catch {
            #expect("\(error)".contains("flow.yaml"), "\(error)")
            #expect("\(error)".contains("acceptThirdPartyCookies"), "\(error)")
            #expect("\(error)".contains("sometimes"), "\(error)")
        }
    }

    @Test(arguments: [
        ("acs.bank.example", "bank.example"),
        ("shop.example.com", "example.com"),
        ("www.bank.co.uk", "bank.co.uk"),
        ("bank.co.uk", "bank.co.uk"),
        ("co.uk", "co.uk"),
        ("localhost", "localhost"),
        ("a.b.c.example.org", "example.org"),
    ])
    func aSiteIsTheRegistrableDomain(host: String, site: String) {
        #expect(World.siteRules.site(of: host) == site)
    }
}
