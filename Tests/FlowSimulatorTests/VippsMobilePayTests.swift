import Foundation
import NavigationPolicy
import PlainviewConfig
import Testing

@testable import FlowSimulator

/// The built-in Vipps MobilePay model (`model: vipps-mobilepay`): its universal links, its ~3 s window after the
/// tap, the landing page when the app does not open, and the return to the merchant's returnUrl.
@Suite struct VippsMobilePayTests {
    static let link = "https://api.vipps.no/dwo-api-application/v1/deeplink/vippsgateway?v=2&token=eyJraWQiOiJ2aXBwcyJ9"

    /// The checkout's page in the browser: its Pay button follows Vipps MobilePay's link `wait` ms after the tap.
    static func run(platform: String, wait: Int) throws -> SimulationReport {
        let flow = try DefaultBrowserTests.load(
            platform: platform, defaultBrowser: nil,
            apps: [
                "    - name: Vipps",
                "      behaviour: {model: vipps, returnTo: {url: \"https://pay.wallet.example/done\"}}",
            ],
            start:
                "<button>Pay</button><script>document.querySelector('button').addEventListener('click', () => { setTimeout(() => { location.href = '\(link)' }, \(wait)) })</script>",
            pages: [
                "  - url: \(link)", "    body: \"Enter your phone number\"",
                "  - url: https://pay.wallet.example/done",
                "    body: \"<script>location.href = 'https://shop.example.com/complete'</script>\"",
            ],
            steps: ["  - tap: Pay"])
        return Simulator.run(flow).branches[0]
    }

    @Test(
        arguments: [
            // platform, milliseconds from the tap to the link, the app opens
            ("android", 0, true),
            ("android", 2_900, true),
            // Chrome's own activation (5 s) still holds; Vipps MobilePay's ~3 s does not.
            ("android", 4_000, false),
            ("ios", 500, true),
            // WebKit's 1 s is the shorter window on iOS.
            ("ios", 1_500, false),
        ] as [(String, Int, Bool)])
    func theAppOpensOnlyWithinItsWindowAfterTheTap(platform: String, wait: Int, opens: Bool) throws {
        let r = try Self.run(platform: platform, wait: wait)
        #expect(r.appsOpened.contains("Vipps") == opens, "\(r.outcome)")
        if opens {
            // It goes back to the merchant's returnUrl, which the OS opens in the browser.
            #expect(r.events.contains { $0.event == .return && $0.url == "https://pay.wallet.example/done" }, "\(r.outcome)")
        } else {
            // The landing page loads instead, where the user would type a phone number.
            #expect(r.events.contains { $0.event == .load && $0.url == Self.link }, "\(r.outcome)")
        }
        if platform == "android" && !opens {
            #expect(r.outcome.reason.contains("Vipps MobilePay's app opens only when its link is followed within about 3 s"))
        }
    }

    @Test(
        arguments: [
            ("https://api.vipps.no/dwo-api-application/v1/deeplink/vippsgateway?v=2", KnownApp.vippsMobilePay),
            ("https://APITEST.vipps.no./x", .vippsMobilePay),
            ("vipps://?token=x", .vippsMobilePay),
            ("mobilepay://pay", .vippsMobilePay),
            ("https://api.vipps.no.evil.example/x", nil),
            ("https://api.vipps.no@evil.example/x", nil),
            ("https://vipps.no/", nil),
        ] as [(String, KnownApp?)])
    func itsLinksAreKnownByLabelBoundary(url: String, app: KnownApp?) {
        #expect(KnownApp.identify(url: url) == app)
    }

    @Test func withoutAReturnURLTheEnvironmentIsAnInputError() {
        #expect {
            _ = try EnvironmentFile.parse(
                "apps:\n  - name: Vipps\n    behaviour: {model: vipps-mobilepay}\n", file: "env.yaml")
        } throws: { error in
            let text = "\(error)"
            return text.contains("env.yaml") && text.contains("apps[0].behaviour")
                && text.contains("give returnTo: {url: URL}")
        }
    }

    @Test func theModelFillsInItsLinksAndSchemes() throws {
        let env = try EnvironmentFile.parse(
            "apps:\n  - name: MobilePay\n    behaviour: {model: mobilepay, returnTo: {url: \"https://shop.example.com/r\"}}\n",
            file: "env.yaml")
        let app = try #require(env.apps.first)
        #expect(app.schemes.contains("vipps") && app.schemes.contains("mobilepay"))
        #expect(app.universalLinks.map(\.host).contains("api.vipps.no"))
    }
}
