import Foundation
import NavigationPolicy
import Testing

@testable import FlowSimulator

/// In-app browsers (`webView.openBrowser`): where the host app opens a page the policy sends out of its web view.
@Suite struct InAppBrowserTests {
    /// `apps` and `pages` are YAML list items (each line as written, indented by the caller: apps by 4, pages by 2);
    /// `steps` are step lines after the first tap.
    static func load(platform: String, openBrowser: String, apps: [String] = [], pages: [String], steps: [String] = [])
        throws -> Flow
    {
        let yaml =
            [
                "environment:", "  apps:", "    - name: Shop", "      schemes: [shopapp]", "      package: com.example.shop",
                "      behaviour: {host: true}",
            ]
            + apps + [
                "  webView: {openBrowser: \(openBrowser)}", "pages:", "  - url: https://shop.example.com/pay", "    in: webview",
                "    body: \"<a href='https://pay.wallet.example/start'>Wallet</a>\"",
            ]
            + pages + ["steps:", "  - tap: Wallet"] + steps
        var flow = try ShopFlow.load(platform: platform, yaml.joined(separator: "\n"))
        flow.policy.redirectPolicy = .browser
        flow.policy.callbackScheme = "shopapp"
        return flow
    }

    /// SFSafariViewController keeps its own cookies: the bank's app returns by an https URL, which the OS opens in
    /// Safari, whose jar lacks the session the in-app browser started. A Custom-Tab-like shared jar (the system
    /// browser itself) has it.
    @Test(arguments: [("safari-view-controller", false), ("system", true)])
    func safariViewControllerKeepsItsOwnCookies(openBrowser: String, hasCookie: Bool) throws {
        let flow = try Self.load(
            platform: "ios", openBrowser: openBrowser,
            apps: [
                "    - name: Bank", "      schemes: [bankapp]",
                "      behaviour: {then: complete, returnTo: {queryParameter: return}}",
            ],
            pages: [
                "  - url: https://pay.wallet.example/start", "    setCookie: \"sid=1; Path=/\"",
                "    body: \"<a href='bankapp://approve?return=https%3A%2F%2Fpay.wallet.example%2Fdone'>Approve</a>\"",
                "  - url: https://pay.wallet.example/done", "    requireCookie: sid",
                "    withoutCookie: {body: \"session expired\"}",
                "    body: \"<script>location.href = 'https://shop.example.com/complete'</script>\"",
            ],
            steps: ["  - tap: Approve", "  - accept"])
        let r = Simulator.run(flow).branches[0]
        #expect(r.appsOpened.contains("Bank"), "\(r.outcome)")
        let missing = r.events.contains { ($0.reason ?? "").contains("no cookie 'sid'") }
        #expect(missing == !hasCookie, "\(r.outcome)")
    }

    /// A Custom Tab is Chrome: the bank app's https return, which the OS opens in Chrome itself, finds the session
    /// the Custom Tab started.
    @Test func aCustomTabSharesChromesCookies() throws {
        let flow = try Self.load(
            platform: "android", openBrowser: "custom-tabs",
            apps: [
                "    - name: Bank", "      schemes: [bankapp]", "      package: com.example.bank",
                "      behaviour: {then: complete, returnTo: {queryParameter: return}}",
            ],
            pages: [
                "  - url: https://pay.wallet.example/start", "    setCookie: \"sid=1; Path=/\"",
                "    body: \"<a href='bankapp://approve?return=https%3A%2F%2Fpay.wallet.example%2Fdone'>Approve</a>\"",
                "  - url: https://pay.wallet.example/done", "    requireCookie: sid",
                "    withoutCookie: {body: \"session expired\"}", "    body: \"Paid\"",
            ],
            steps: ["  - tap: Approve"])
        let r = Simulator.run(flow).branches[0]
        #expect(r.appsOpened.contains("Bank"), "\(r.outcome)")
        #expect(r.events.contains { $0.event == .load && $0.url == "https://pay.wallet.example/done" }, "\(r.outcome)")
        #expect(!r.events.contains { ($0.reason ?? "").contains("no cookie 'sid'") }, "\(r.outcome)")
    }

    /// A page that sends the user to the app's callback scheme: ASWebAuthenticationSession hands it to the app
    /// without asking; Safari and SFSafariViewController ask first.
    @Test(arguments: [("auth-session", false), ("safari-view-controller", true), ("system", true)])
    func anAuthSessionEndsOnTheCallbackSchemeWithoutAPrompt(openBrowser: String, prompts: Bool) throws {
        let flow = try Self.load(
            platform: "ios", openBrowser: openBrowser,
            pages: ["  - url: https://pay.wallet.example/start", "    body: \"<a href='shopapp://done'>Back</a>\""],
            steps: ["  - tap: Back"])
        let r = Simulator.run(flow).branches[0]
        #expect(r.events.contains { $0.event == .prompt } == prompts, "\(r.outcome)")
        #expect(r.appsOpened.contains("Shop") || r.events.contains { $0.event == .receive }, "\(r.outcome)")
    }

    /// Back in a Custom Tab from another app, a redirect without input may open an app again: the return begins a
    /// new chain (Chromium's components/external_intents README); the system browser's chain stays spent.
    @Test(arguments: [(InAppBrowser.customTabs, true), (.system, false)])
    func comingBackToACustomTabBeginsANewChain(kind: InAppBrowser, renewed: Bool) throws {
        let flow = try Self.load(platform: "android", openBrowser: kind.rawValue, pages: [])
        let world = World(flow: flow, oracle: ChoiceOracle(exploring: false, depth: 8))
        world.browserKind = kind
        world.browserChain = BrowserChain(startedAt: 0, userStarted: true, launched: true)
        world.front = .app("Bank")
        world.clock = 4_000
        world.switchTo(.browser)
        #expect((world.browserChain.refusal(now: 4_000) == nil) == renewed)
    }

    @Test func anInAppBrowserOfTheOtherPlatformIsAnError() throws {
        do {
            _ = try Self.load(platform: "android", openBrowser: "safari-view-controller", pages: [])
            Issue.record("expected an error")
        } catch {
            #expect("\(error)".contains("webView.openBrowser: safari-view-controller exists only on ios"), "\(error)")
        }
        do {
            _ = try Self.load(platform: "ios", openBrowser: "chrome-tab", pages: [])
            Issue.record("expected an error")
        } catch {
            #expect("\(error)".contains("expected one of system, safari-view-controller, custom-tabs, auth-session"), "\(error)")
        }
    }
}
