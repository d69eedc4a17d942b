import Testing
import TestSupport
@testable import FlowSimulator

/// Popup blocking and multiple windows, with the platforms' web view defaults (both settings false) and
/// with the environment's `webView:` overrides. A blocked popup leaves the page where it was, so its
/// refresh then completes the payment; a popup that opens reaches /cancel.
@Suite struct PopupTests {
    static func run(platform: String, webView: String?, body: String) throws -> (outcome: String, notes: [String]) {
        let env = webView.map { "environment:\n  webView: \($0)\n" } ?? ""
        let flow = try ShopFlow.load(
            platform: platform,
            """
            \(env)pages:
              - url: https://shop.example.com/pay
                body: "\(body)<meta http-equiv=refresh content='1;url=/complete'>"
            """)
        let r = Simulator.run(flow).branches[0]
        return (r.outcome.kind.rawValue, r.events.compactMap { $0.event == .note ? $0.reason : nil })
    }

    static let windowOpen = "<script>window.open('/cancel')</script>"
    static let blankForm = "<form action=/cancel target=_blank></form><script>document.forms[0].submit()</script>"

    @Test(arguments: ["ios", "android"])
    func windowOpenWithoutAGestureIsBlockedByDefault(platform: String) throws {
        let r = try Self.run(platform: platform, webView: nil, body: Self.windowOpen)
        #expect(r.outcome == "complete")
        #expect(
            r.notes.contains { $0.contains("popup blocked") && $0.contains("javaScriptCanOpenWindowsAutomatically is false") })
    }

    @Test(arguments: ["ios", "android"])
    func aBlankFormThePageSubmitsItselfIsBlockedToo(platform: String) throws {
        #expect(try Self.run(platform: platform, webView: nil, body: Self.blankForm).outcome == "complete")
    }

    @Test(arguments: ["ios", "android"])
    func allowingAutomaticWindowsLetsThePopupOpen(platform: String) throws {
        let r = try Self.run(platform: platform, webView: "{javaScriptCanOpenWindowsAutomatically: true}", body: Self.windowOpen)
        #expect(r.outcome == "canceled")
    }

    @Test func androidWithoutMultipleWindowsLoadsTheNewWindowInTheWebView() throws {
        let r = try Self.run(platform: "android", webView: "{javaScriptCanOpenWindowsAutomatically: true}", body: Self.blankForm)
        #expect(r.outcome == "canceled")
        #expect(r.notes.contains { $0.contains("supportMultipleWindows false") })
    }

    @Test func androidWithMultipleWindowsAsksThePolicyAboutANewWindow() throws {
        let r = try Self.run(
            platform: "android",
            webView: "{javaScriptCanOpenWindowsAutomatically: true, supportMultipleWindows: true}",
            body: Self.blankForm)
        #expect(r.outcome == "canceled")
        #expect(!r.notes.contains { $0.contains("supportMultipleWindows false") })
    }

    @Test func anUnknownWebViewKeyIsAnErrorNamingIt() throws {
        #expect(throws: (any Error).self) {
            _ = try Self.run(platform: "ios", webView: "{popups: true}", body: "")
        }
        do { _ = try Self.run(platform: "ios", webView: "{popups: true}", body: "") } catch {
            #expect("\(error)".contains("popups"))
            #expect("\(error)".contains("flow.yaml"))
        }
    }

    /// `<button onclick="window.open(…)">` tapped: a new window with the tap's gesture (iOS: a new-window
    /// navigation the policy sees; Android without multiple windows: the web view itself), not the button's page.
    @Test(arguments: [("ios", "new-window"), ("android", "main")])
    func aTappedButtonThatOpensAWindowOpensANewWindow(platform: String, frame: String) throws {
        let flow = try ShopFlow.load(
            platform: platform,
            """
            pages:
              - url: https://shop.example.com/pay
                body: "<button onclick=\\"window.open('https://shop.example.com/complete')\\">Pay</button>"
            steps:
              - tap: Pay
            """)
        let r = Simulator.run(flow).branches[0]
        #expect(r.outcome.kind == .complete, "\(r.outcome)")
        let opened = r.events.first { $0.event == .navigate && $0.url == "https://shop.example.com/complete" }
        #expect(opened?.frame == frame, "\(String(describing: opened))")
        #expect(opened?.gesture == true)
    }
}
