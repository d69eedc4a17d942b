import Foundation
import NavigationPolicy
import PlainviewConfig
import Testing

@testable import FlowSimulator

/// The phone's default browser (`defaultBrowser`), the browsers' own schemes, and BankID's returns on iOS.
@Suite struct DefaultBrowserTests {
    /// A shop whose payment page is sent to the browser (redirectPolicy browser); the wallet's page is `start`.
    /// `apps` are YAML list items indented by 4; `pages` by 2; `steps` follow the first tap.
    static func load(
        platform: String = "ios", defaultBrowser: String?, apps: [String] = [], start: String, pages: [String] = [],
        steps: [String] = []
    ) throws -> Flow {
        let yaml =
            ["environment:"] + (defaultBrowser.map { ["  defaultBrowser: \($0)"] } ?? []) + [
                "  apps:", "    - name: Shop", "      schemes: [shopapp]", "      package: com.example.shop",
                "      behaviour: {host: true}",
            ]
            + apps + [
                "pages:", "  - url: https://shop.example.com/pay", "    in: webview",
                "    body: \"<a href='https://pay.wallet.example/start'>Wallet</a>\"",
                "  - url: https://pay.wallet.example/start", "    setCookie: \"sid=1; Path=/\"", "    body: \"\(start)\"",
            ]
            + pages + ["steps:", "  - tap: Wallet"] + steps
        var flow = try ShopFlow.load(platform: platform, yaml.joined(separator: "\n"))
        flow.policy.redirectPolicy = .browser
        flow.policy.callbackScheme = "shopapp"
        return flow
    }

    static let bankID = ["    - name: BankID", "      behaviour: {model: bankid}"]

    @Test(
        arguments: [
            ("googlechromes://pay.wallet.example/done?x=1", SystemBrowser.chrome, "https://pay.wallet.example/done?x=1"),
            ("googlechrome://pay.wallet.example/", .chrome, "http://pay.wallet.example/"),
            ("googlechromes://", .chrome, nil),
            ("GoogleChromes:", .chrome, nil),
            ("firefox://open-url?url=https%3A%2F%2Fpay.wallet.example%2Fdone", .firefox, "https://pay.wallet.example/done"),
            ("firefox://", .firefox, nil),
            ("firefox://open-url?url=javascript%3Aalert(1)", .firefox, nil),
            ("microsoft-edge-https://pay.wallet.example/done", .edge, "https://pay.wallet.example/done"),
            // The page as a browser parses it: malformed or host-less opens nothing; a backslash ends the host.
            ("googlechromes://exa mple.com/", .chrome, nil),
            ("microsoft-edge-https://[::1", .edge, nil),
            ("firefox://open-url?url=https%3A%2F%2F", .firefox, nil),
            ("firefox://open-url?url=file%3A%2F%2F%2Fetc%2Fpasswd", .firefox, nil),
            ("googlechromes://evil.example\\@pay.wallet.example/", .chrome, "https://evil.example/@pay.wallet.example/"),
            ("googlechrome://PAY.Wallet.example:80/a/../b", .chrome, "http://pay.wallet.example/b"),
        ] as [(String, SystemBrowser, String?)])
    func aBrowsersOwnSchemeNamesItAndThePageItOpens(url: String, browser: SystemBrowser, opens: String?) {
        let own = SystemBrowser.ownURL(url)
        #expect(own?.browser == browser)
        #expect(own?.opens == opens)
    }

    @Test(arguments: ["bankid:///?redirect=null", "https://googlechromes.example/", "intent://x#Intent;end", "notaurl"])
    func otherURLsNameNoBrowser(url: String) {
        #expect(SystemBrowser.ownURL(url) == nil)
    }

    /// BankID with `redirect=null`: on iOS it stays, and the user must switch back by hand (#165); on Android it
    /// goes back to the app that opened it (BankID's guidelines, as ActiveLogin #86 quotes them).
    @Test(arguments: [("ios", false), ("android", true)])
    func bankIDWithRedirectNullGoesBackOnlyOnAndroid(platform: String, goesBack: Bool) throws {
        let flow = try Self.load(
            platform: platform, defaultBrowser: nil, apps: Self.bankID,
            start: "<a href='bankid:///?autostarttoken=5c2a8e4f-0b7d-4c7e-9d1a-2f6b3e8c9a01&amp;redirect=null'>Sign</a>",
            // Safari asks before it opens an app by its scheme; Chrome on Android does not.
            steps: platform == "ios" ? ["  - tap: Sign", "  - accept"] : ["  - tap: Sign"])
        let r = Simulator.run(flow).branches[0]
        #expect(r.appsOpened.contains("BankID"), "\(r.outcome)")
        #expect(r.events.contains { $0.event == .return && $0.action == "previous" } == goesBack, "\(r.outcome)")
        let stays =
            r.outcome.place == "app BankID" && r.outcome.reason.contains("does not switch back by itself when redirect=null")
        #expect(stays == !goesBack, "\(r.outcome)")
        if !goesBack { #expect(r.outcome.reason.contains("go back to Safari by hand"), "\(r.outcome)") }
    }

    /// BankID on iOS opens a web page it returns to in Safari: with Chrome the default browser, the session the
    /// wallet's page started in Chrome is not there (ActiveLogin #83); with Safari the default, it is.
    @Test(arguments: [("chrome", true), ("safari", false), (nil, false)] as [(String?, Bool)])
    func bankIDsWebReturnOpensInSafari(defaultBrowser: String?, lost: Bool) throws {
        let flow = try Self.load(
            defaultBrowser: defaultBrowser, apps: Self.bankID,
            start:
                "<a href='bankid:///?autostarttoken=5c2a8e4f-0b7d-4c7e-9d1a-2f6b3e8c9a01&amp;redirect=https%3A%2F%2Fpay.wallet.example%2Fdone'>Sign</a>",
            pages: [
                "  - url: https://pay.wallet.example/done", "    requireCookie: sid",
                "    withoutCookie: {body: \"session expired\"}",
                "    body: \"<script>location.href = 'shopapp://done'</script>\"",
            ],
            steps: ["  - tap: Sign", "  - accept"])
        let r = Simulator.run(flow).branches[0]
        #expect(r.appsOpened.contains("BankID"), "\(r.outcome)")
        #expect(r.events.contains { ($0.reason ?? "").contains("no cookie 'sid'") } == lost, "\(r.outcome)")
        #expect(r.events.contains { ($0.reason ?? "").contains("the default browser is Chrome") } == (defaultBrowser == "chrome"))
    }

    /// A tapped universal link in the browser: Safari hands it to its app; Chrome, Firefox and Edge on iOS load the
    /// page.
    @Test(arguments: [("safari", true), ("chrome", false), ("firefox", false), ("edge", false)])
    func onlySafariHandsATappedUniversalLinkToItsApp(defaultBrowser: String, handsOff: Bool) throws {
        let flow = try Self.load(
            defaultBrowser: defaultBrowser,
            apps: [
                "    - name: Bank", "      universalLinks: [{host: app.bank.example, paths: [\"/*\"]}]",
                "      behaviour: {then: complete, returnTo: previous}",
            ],
            start: "<a href='https://app.bank.example/approve'>Approve</a>",
            pages: ["  - url: https://app.bank.example/approve", "    body: \"Install the bank's app\""],
            steps: ["  - tap: Approve"])
        let r = Simulator.run(flow).branches[0]
        #expect(r.appsOpened.contains("Bank") == handsOff, "\(r.outcome)")
        let note = r.events.contains { ($0.reason ?? "").contains("on iOS does not open universal links") }
        #expect(note == !handsOff, "\(r.outcome)")
    }

    /// `--explore` asks which browser is the default only where it changes what happens, and not when the
    /// environment says.
    @Test(
        arguments: [
            ("<a href='https://app.bank.example/approve'>Approve</a>", nil, true),
            ("<a href='https://app.bank.example/approve'>Approve</a>", "safari", false),
            ("<a href='bankapp://approve'>Approve</a>", nil, false),
        ] as [(String, String?, Bool)])
    func exploreBranchesOnTheDefaultBrowserWhereItMatters(start: String, defaultBrowser: String?, branches: Bool) throws {
        let flow = try Self.load(
            defaultBrowser: defaultBrowser,
            apps: [
                "    - name: Bank", "      schemes: [bankapp]",
                "      universalLinks: [{host: app.bank.example, paths: [\"/*\"]}]",
                "      behaviour: {then: complete, returnTo: previous}",
            ],
            start: start, pages: ["  - url: https://app.bank.example/approve", "    body: \"Install the bank's app\""],
            steps: ["  - tap: Approve", "  - accept"])
        let names = Simulator.explore(flow).branches.map(\.branch)
        #expect(names.contains { $0.contains("default-browser:chrome") } == branches, "\(names)")
    }

    /// A return by a browser's own scheme: the default browser comes back with its tab, or loads the URL; a browser
    /// the phone does not have opens nothing.
    @Test(arguments: [
        ("chrome", "googlechromes://", "Chrome comes to the front with the tab it showed"),
        ("chrome", "googlechromes://pay.wallet.example/done", "pay.wallet.example/done"),
        ("safari", "googlechromes://", "Chrome is not installed (the default browser is Safari)"),
        ("edge", "microsoft-edge-https://pay.wallet.example/done", "pay.wallet.example/done"),
    ])
    func aReturnByABrowsersSchemeComesBackToThatBrowser(defaultBrowser: String, redirect: String, trace: String) throws {
        let encoded = redirect.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? redirect
        let flow = try Self.load(
            defaultBrowser: defaultBrowser, apps: Self.bankID,
            start: "<a href='bankid:///?autostarttoken=5c2a8e4f-0b7d-4c7e-9d1a-2f6b3e8c9a01&amp;redirect=\(encoded)'>Sign</a>",
            pages: ["  - url: https://pay.wallet.example/done", "    body: \"Signed\""],
            steps: ["  - tap: Sign", "  - accept"])
        let r = Simulator.run(flow).branches[0]
        #expect(r.appsOpened.contains("BankID"), "\(r.outcome)")
        let seen = r.events.contains {
            ($0.reason ?? "").contains(trace) || ($0.event == .load && ($0.url ?? "").contains(trace))
        }
        #expect(seen, "\(r.events.map { "\($0.event) \($0.url ?? "") \($0.reason ?? "")" })")
    }

    @Test(arguments: [
        ("android", "firefox", "defaultBrowser: expected chrome on android"),
        ("ios", "opera", "expected one of safari, chrome, firefox, edge, found 'opera'"),
    ])
    func aDefaultBrowserThePlatformHasNotIsAnInputError(platform: String, browser: String, message: String) {
        #expect {
            _ = try Self.load(platform: platform, defaultBrowser: browser, start: "x")
        } throws: { error in
            "\(error)".contains(message) && "\(error)".contains("flow.yaml")
        }
    }
}
