import Testing
@testable import NavigationPolicy

/// One row: a navigation's decision → the iOS and Android commands an app carries out.
struct CommandRow: Sendable, CustomTestStringConvertible {
    var url: String
    var action: NavigationAction
    var ios: IOSWebViewCommand
    var android: AndroidWebViewCommand
    var testDescription: String { "\(action.name)\(action.via.map { " via \($0.rawValue)" } ?? ""): \(url)" }
}

@Suite("Decision → web-view command")
struct WebViewCommandTests {
    static let pay = "https://shop.example.com/pay?order=42"

    static let rows: [CommandRow] = [
        CommandRow(
            url: "https://acs.bank.example/challenge", action: .allow,
            ios: .init(policy: .allow, then: .nothing), android: .init(overrideUrlLoading: false, then: .nothing)),
        CommandRow(
            url: "https://shop.example.com/complete", action: .complete,
            ios: .init(policy: .cancel, then: .finish(.complete)),
            android: .init(overrideUrlLoading: true, then: .finish(.complete))),
        CommandRow(
            url: "https://shop.example.com/cancel", action: .canceled,
            ios: .init(policy: .cancel, then: .finish(.canceled)),
            android: .init(overrideUrlLoading: true, then: .finish(.canceled))),
        CommandRow(
            url: "https://shop.example.com/terms", action: .terms,
            ios: .init(policy: .cancel, then: .showTerms(url: "https://shop.example.com/terms")),
            android: .init(overrideUrlLoading: true, then: .showTerms(url: "https://shop.example.com/terms"))),
        CommandRow(
            url: "shopapp://shop.example.com/pay?order=42", action: .reload(target: pay),
            ios: .init(policy: .cancel, then: .loadPaymentPage(url: pay)),
            android: .init(overrideUrlLoading: true, then: .loadPaymentPage(url: pay))),
        CommandRow(
            url: "https://app.bankid.com/?autostarttoken=7",
            action: .openApp(target: "https://app.bankid.com/?autostarttoken=7", via: .universalLink),
            ios: .init(
                policy: .cancel, then: .openApp(url: "https://app.bankid.com/?autostarttoken=7", universalLinksOnly: true)),
            android: .init(
                overrideUrlLoading: true,
                then: .startActivity(url: "https://app.bankid.com/?autostarttoken=7", launch: .viewNonBrowser))),
        CommandRow(
            url: "https://app.bankid.com/?autostarttoken=7",
            action: .openApp(target: "https://app.bankid.com/?autostarttoken=7", via: .appLink),
            ios: .init(
                policy: .cancel, then: .openApp(url: "https://app.bankid.com/?autostarttoken=7", universalLinksOnly: false)),
            android: .init(
                overrideUrlLoading: true,
                then: .startActivity(url: "https://app.bankid.com/?autostarttoken=7", launch: .viewNonBrowser))),
        CommandRow(
            url: "swish://paymentrequest?token=1", action: .openApp(target: "swish://paymentrequest?token=1", via: .customScheme),
            ios: .init(policy: .cancel, then: .openApp(url: "swish://paymentrequest?token=1", universalLinksOnly: false)),
            android: .init(overrideUrlLoading: true, then: .startActivity(url: "swish://paymentrequest?token=1", launch: .view))),
        CommandRow(
            url: "intent://pay#Intent;scheme=bank;package=com.bank;end",
            action: .openApp(target: "intent://pay#Intent;scheme=bank;package=com.bank;end", via: .intent),
            ios: .init(
                policy: .cancel,
                then: .openApp(url: "intent://pay#Intent;scheme=bank;package=com.bank;end", universalLinksOnly: false)),
            android: .init(
                overrideUrlLoading: true,
                then: .startActivity(url: "intent://pay#Intent;scheme=bank;package=com.bank;end", launch: .intentURI))),
        CommandRow(
            url: "https://evil.example/", action: .openBrowser(target: "https://acs.bank.example/challenge"),
            ios: .init(policy: .cancel, then: .openInBrowser(url: "https://acs.bank.example/challenge")),
            android: .init(overrideUrlLoading: true, then: .openInBrowser(url: "https://acs.bank.example/challenge"))),
        CommandRow(
            url: "intent://x#Intent;S.browser_fallback_url=https%3A%2F%2Fbank.example%2F;end",
            action: .load(target: "https://bank.example/"),
            ios: .init(policy: .cancel, then: .load(url: "https://bank.example/")),
            android: .init(overrideUrlLoading: true, then: .load(url: "https://bank.example/"))),
        CommandRow(
            url: "javascript:alert(1)", action: .block,
            ios: .init(policy: .cancel, then: .nothing), android: .init(overrideUrlLoading: true, then: .nothing)),
    ]

    @Test("every action maps to its web-view command", arguments: rows)
    func commandForAction(_ row: CommandRow) {
        let decision = Decision(row.action, rule: RuleID("test"), reason: "test")
        #expect(IOSWebViewCommand(decision, url: row.url) == row.ios)
        #expect(AndroidWebViewCommand(decision, url: row.url) == row.android)
    }

    @Test("the JSON contract gives the Android command a Decision gives", arguments: rows)
    func jsonContractAgrees(_ row: CommandRow) {
        let fromJSON = AndroidWebViewCommand(
            action: row.action.name, target: row.action.target, via: row.action.via?.rawValue, url: row.url)
        #expect(fromJSON == row.android)
    }

    @Test("the table covers every action")
    func tableCoversEveryAction() {
        let names = Set(Self.rows.map(\.action.name))
        #expect(names == ["allow", "complete", "canceled", "terms", "reload", "open-app", "open-browser", "load", "block"])
    }

    @Test(
        "a JSON decision the app cannot carry out is refused, not guessed",
        arguments: [
            ("open-app", nil, "universal-link"), ("open-app", "bankid://x", nil), ("open-app", "bankid://x", "teleport"),
            ("reload", nil, nil), ("load", nil, nil), ("open-browser", nil, nil), ("teleport", "https://x.example/", nil),
        ]
            as [(String, String?, String?)])
    func refusesIncompleteJSON(_ action: String, _ target: String?, _ via: String?) {
        #expect(AndroidWebViewCommand(action: action, target: target, via: via, url: "https://x.example/") == nil)
    }

    @Test("decisions of the real engine map as the table says")
    func realEngineDecisions() {
        let engine = Fixture.engine(.ios)
        let ul = engine.decide(Navigation(url: "https://app.bankid.com/?autostarttoken=7", currentURL: Fixture.acs))
        #expect(
            IOSWebViewCommand(ul, url: "https://app.bankid.com/?autostarttoken=7")
                == .init(
                    policy: .cancel, then: .openApp(url: "https://app.bankid.com/?autostarttoken=7", universalLinksOnly: true)))
        let back = engine.decide(Navigation(url: Self.pay + "&fallback=true", currentURL: Fixture.acs))
        #expect(
            IOSWebViewCommand(back, url: Self.pay + "&fallback=true")
                == .init(policy: .cancel, then: .loadPaymentPage(url: Self.pay)))
        let android = Fixture.engine(.android)
        let intent = "intent://pay#Intent;scheme=bankid;package=com.bankid.bus;end"
        let d = android.decide(Navigation(url: intent, currentURL: Fixture.acs))
        // The app starts the intent as Chrome would launch it (BROWSABLE added), not the page's URL.
        let launched = "intent://pay#Intent;scheme=bankid;category=android.intent.category.BROWSABLE;package=com.bankid.bus;end"
        #expect(
            AndroidWebViewCommand(d, url: intent)
                == .init(overrideUrlLoading: true, then: .startActivity(url: launched, launch: .intentURI)))
    }
}

/// docs/embedding.md's iOS delegate, without UIKit/WebKit: the same switch over the same cases (the compiler
/// checks it is exhaustive), so a change to the commands breaks this test until the docs follow.
@Suite("The embedding guide's delegate")
struct EmbeddingGuideTests {
    /// What the guide's `apply` does, as text.
    static func apply(_ then: IOSWebViewCommand.Then) -> String {
        switch then {
        case .nothing: "nothing"
        case .openApp(let target, let universalLinksOnly): "UIApplication.open \(target) universalLinksOnly=\(universalLinksOnly)"
        case .openInBrowser(let target): "UIApplication.open \(target)"
        case .finish(let end): "finish \(end.rawValue)"
        case .showTerms(let target): "showTerms \(target)"
        case .loadPaymentPage(let target), .load(let target): "webView.load \(target)"
        }
    }

    @Test("a universal link that no app opens is decided again as if no app claimed it")
    func failedUniversalLinkFallsBackToThePolicyWithoutApps() {
        let url = "https://app.bankid.com/?autostarttoken=7"
        let navigation = Navigation(url: url, currentURL: Fixture.acs)
        let first = IOSWebViewCommand(Fixture.engine(.ios).decide(navigation), url: url)
        #expect(Self.apply(first.then) == "UIApplication.open \(url) universalLinksOnly=true")
        let retry = IOSWebViewCommand(Fixture.engine(.ios, apps: false).decide(navigation), url: url)
        // app.bankid.com is neither the shop's nor goodlisted: the current page continues in Safari.
        #expect(retry.policy == .cancel)
        #expect(Self.apply(retry.then) == "UIApplication.open \(Fixture.acs)")
    }
}
