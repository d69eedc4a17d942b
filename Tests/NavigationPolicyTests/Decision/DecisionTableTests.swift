@testable import AppSwitch
import Testing
@testable import NavigationPolicy

/// Fixtures shared by the decision tables.
enum Fixture {
    static let payment = "https://shop.example.com/pay?order=42"
    static let acs = "https://acs.bank.example/challenge"

    static func policy(_ platform: Platform, redirect: RedirectPolicy? = nil, goodlist: [String] = []) -> Policy {
        Policy(
            platform: platform, paymentURL: payment,
            completeURL: "https://shop.example.com/complete", cancelURL: "https://shop.example.com/cancel",
            termsOfServiceURL: "https://shop.example.com/terms", callbackScheme: "shopapp", redirectPolicy: redirect,
            goodlist: Goodlist(entries: goodlist.map { GoodlistEntry(pattern: $0) }))
    }

    static let environment = Environment(
        apps: [
            .init(
                name: "BankID", schemes: ["bankid"], universalLinks: [.init(host: "app.bankid.com", paths: ["/*"])],
                package: "com.bankid.bus", appLinks: [.init(host: "app.bankid.com", paths: ["/*"])]),
            .init(name: "Swish", schemes: ["swish"], package: "se.bankgirot.swish"),
            .init(name: "Shop", schemes: ["shopapp"], package: "com.example.app"),
            .init(name: "Vipps", universalLinks: [.init(host: "vipps.no", paths: ["NOT /web/*", "/app/*"])]),
        ], hostApp: "Shop")

    static func engine(_ platform: Platform, redirect: RedirectPolicy? = nil, apps: Bool = true) -> NavigationPolicyEngine {
        NavigationPolicyEngine(
            policy: policy(platform, redirect: redirect),
            system: apps ? EnvironmentSystem(environment) : NoApps())
    }
}

/// One row of a decision table.
struct Row: Sendable, CustomTestStringConvertible {
    var url: String
    var frame: NavigationFrame = .main
    var current: String? = Fixture.acs
    var action: NavigationAction
    var rule: String
    var note: String
    var testDescription: String { "\(note): \(url.prefix(90)) [\(frame.rawValue)]" }

    init(
        _ url: String, _ frame: NavigationFrame = .main, current: String? = Fixture.acs,
        _ action: NavigationAction, _ rule: String, _ note: String
    ) {
        self.url = url; self.frame = frame; self.current = current; self.action = action; self.rule = rule; self.note = note
    }
}

@Suite struct IOSDecisionTableTests {
    static let rows: [Row] = [
        // Interception in every frame, after normalisation.
        Row("https://shop.example.com/complete", .main, .complete, "intercept.complete", "completeUrl"),
        Row("https://shop.example.com/complete", .sub, .complete, "intercept.complete", "completeUrl in a sub-frame"),
        Row("https://shop.example.com/complete", .newWindow, .complete, "intercept.complete", "completeUrl in a new window"),
        Row("HTTPS://Shop.Example.COM:443/complete#done", .main, .complete, "intercept.complete", "case, default port, fragment"),
        Row("https://shop.example.com./complete", .main, .complete, "intercept.complete", "trailing dot"),
        Row(" https://shop.exa\tmple.com/complete\n", .main, .complete, "intercept.complete", "whitespace a browser strips"),
        Row("https://shop.example.com/complete/", .main, .allow, "web.own-host", "another path is not completeUrl"),
        Row("https://shop.example.com/cancel", .sub, .canceled, "intercept.cancel", "cancelUrl"),
        Row("https://shop.example.com/terms", .main, .terms, "intercept.terms", "termsOfServiceUrl"),
        Row("https://shop.example.com/pay?order=42", .main, .reload(target: Fixture.payment), "intercept.payment", "paymentUrl"),
        Row(
            "https://shop.example.com/pay?order=42&fallback=true", .main, .reload(target: Fixture.payment), "intercept.payment",
            "fallback=true added"),
        Row(
            "https://shop.example.com/pay?fallback=true&id=7&order=42", .main, .reload(target: Fixture.payment),
            "intercept.payment", "extra items, any order"),
        Row(
            "https://shop.example.com/pay?order=42", .sub, .reload(target: Fixture.payment), "intercept.payment",
            "paymentUrl in a sub-frame"),
        Row(
            "shopapp://shop.example.com/pay?order=42&fallback=true", .main, .reload(target: Fixture.payment), "intercept.payment",
            "callbackScheme instead of https"),
        Row(
            "SHOPAPP://shop.example.com/pay?order=42", .main, .reload(target: Fixture.payment), "intercept.payment",
            "callbackScheme, upper case"),
        Row(
            "evilapp://shop.example.com/pay?order=42", .main, .block, "custom-scheme.no-app",
            "no other scheme stands in for https"),
        Row(
            "http://shop.example.com/pay?order=42", .main, .openBrowser(target: "http://shop.example.com/pay?order=42"),
            "web.insecure", "http is not the paymentUrl's scheme, and plain http leaves the web view"),
        Row(
            "http://acs.bank.example/challenge", .main, .openBrowser(target: "http://acs.bank.example/challenge"), "web.insecure",
            "a goodlisted host over plain http is not goodlisted"),
        Row("https://shop.example.com/pay?order=43", .main, .allow, "web.own-host", "another order is not paymentUrl"),
        Row("https://shop.example.com/pay", .main, .allow, "web.own-host", "paymentUrl's query items are required"),
        Row(
            "https://shop.example.com/pay?order=42", .main, current: nil, .reload(target: Fixture.payment), "intercept.payment",
            "no current page"),
        // Universal links first (main frame and new windows).
        Row(
            "https://app.bankid.com/?autostarttoken=abc", .main,
            .openApp(target: "https://app.bankid.com/?autostarttoken=abc", via: .universalLink), "ios.universal-link",
            "BankID universal link"),
        Row(
            "https://app.bankid.com/?autostarttoken=abc", .newWindow,
            .openApp(target: "https://app.bankid.com/?autostarttoken=abc", via: .universalLink), "ios.universal-link",
            "universal link in a new window"),
        Row("https://app.bankid.com/?autostarttoken=abc", .sub, .allow, "subframe.web", "sub-frames never open apps"),
        Row(
            "http://app.bankid.com/", .main, .openBrowser(target: "http://app.bankid.com/"), "web.insecure",
            "universal links are https only"),
        Row(
            "https://vipps.no/app/pay", .main, .openApp(target: "https://vipps.no/app/pay", via: .universalLink),
            "ios.universal-link", "AASA paths"),
        Row("https://vipps.no/web/pay", .main, .openBrowser(target: Fixture.acs), "web.picky-page", "AASA NOT excludes"),
        // Custom schemes.
        Row(
            "bankid:///?autostarttoken=abc&redirect=null", .main,
            .openApp(target: "bankid:///?autostarttoken=abc&redirect=null", via: .customScheme), "custom-scheme.app",
            "BankID custom scheme"),
        Row(
            "swish://paymentrequest?token=abc&callbackurl=shopapp%3A%2F%2F", .main,
            .openApp(target: "swish://paymentrequest?token=abc&callbackurl=shopapp%3A%2F%2F", via: .customScheme),
            "custom-scheme.app", "Swish"),
        Row("vipps://pay", .main, .block, "custom-scheme.no-app", "no app for the scheme"),
        Row(
            "swish://paymentrequest?token=abc", .sub, .openApp(target: "swish://paymentrequest?token=abc", via: .customScheme),
            "custom-scheme.app", "an installed app launches from a sub-frame (the iOS SDK since 2023)"),
        Row("vipps://pay", .sub, .block, "custom-scheme.no-app", "a sub-frame's custom scheme without an app"),
        Row(
            "tel:+4681234567", .main, .openApp(target: "tel:+4681234567", via: .customScheme), "custom-scheme.system-app",
            "the phone dials (the platform's Phone app)"),
        Row(
            "mailto:support@shop.example.com", .main, .openApp(target: "mailto:support@shop.example.com", via: .customScheme),
            "custom-scheme.system-app", "Mail"),
        Row(
            "sms:+4681234567", .sub, .openApp(target: "sms:+4681234567", via: .customScheme), "custom-scheme.system-app",
            "Messages, from a sub-frame"),
        Row("tel:*%2306%23", .main, .block, "custom-scheme.unsafe", "MMI codes never reach the dialer"),
        Row("smsto:+4681234567", .main, .block, "custom-scheme.no-app", "smsto: is Android's, not iOS's"),
        // Never-external schemes.
        Row("javascript:alert(document.cookie)", .main, .block, "scheme.never-external", "javascript: at top level"),
        Row("JaVaScRiPt:alert(1)", .newWindow, .block, "scheme.never-external", "javascript: in any case"),
        Row("javascript:alert(1)", .sub, .block, "subframe.not-web", "javascript: in a sub-frame"),
        Row("file:///etc/passwd", .main, .block, "scheme.never-external", "file:"),
        Row("data:text/html,<script>alert(1)</script>", .main, .block, "scheme.never-external", "data: at top level"),
        Row("data:text/html,<p>hi</p>", .sub, .allow, "subframe.loadable", "data: in a sub-frame"),
        Row("about:blank", .main, .allow, "scheme.about-blank", "about:blank"),
        Row("about:config", .main, .block, "scheme.never-external", "other about: pages"),
        Row("content://com.android.providers/x", .main, .block, "scheme.never-external", "content:"),
        Row(
            "intent://scan/#Intent;scheme=zxing;package=com.google.zxing.client.android;end", .main, .block, "intent.ios",
            "intent: on iOS"),
        // Malformed.
        Row("https://", .main, .block, "url.malformed", "no host"),
        Row("http://[::1", .main, .block, "url.malformed", "broken IPv6"),
        Row("https://exa mple.com/", .main, .block, "url.malformed", "space in host"),
        Row("https://shop.example.com:99999/", .main, .block, "url.malformed", "port out of range"),
        Row("/relative/path", .main, .block, "url.malformed", "relative reference"),
        Row("", .main, .block, "url.malformed", "empty"),
        Row("https://xn--a.ß/", .main, .block, "url.malformed", "invalid punycode with IDN"),
        // Merchant's own hosts.
        Row("https://shop.example.com/checkout", .main, .allow, "web.own-host", "own host"),
        Row("HTTPS://SHOP.EXAMPLE.COM/checkout", .main, .allow, "web.own-host", "own host, upper case"),
        Row("https://shop%2Eexample.com/x", .main, .allow, "web.own-host", "percent-encoded host decodes like a browser"),
        Row("https:\\\\shop.example.com\\x", .main, .allow, "web.own-host", "backslashes are slashes for https"),
        // The picky-page rule and bypass attempts: none may widen what is allowed.
        Row(
            "https://unknown-acs.example/challenge", .main, .openBrowser(target: Fixture.acs), "web.picky-page",
            "unknown host: current page to the browser"),
        Row(
            "https://unknown-acs.example/challenge", .newWindow, .openBrowser(target: "https://unknown-acs.example/challenge"),
            "web.picky-page-new-window", "new window to an unknown host: the popup's URL, not the opener"),
        Row(
            "https://unknown-acs.example/challenge", .main, current: Fixture.payment,
            .openBrowser(target: "https://unknown-acs.example/challenge"), "web.picky-page-from-payment",
            "from the payment page: the target opens (SDK: isAtRoot ? url : webView.url)"),
        Row(
            "https://unknown-acs.example/challenge", .main, current: "https://shop.example.com/pay?order=42&fallback=true",
            .openBrowser(target: "https://unknown-acs.example/challenge"), "web.picky-page-from-payment",
            "from a paymentUrl variant"),
        Row(
            "https://unknown-acs.example/challenge", .main, current: nil,
            .openBrowser(target: "https://unknown-acs.example/challenge"), "web.picky-page-from-payment",
            "no current page: the target opens"),
        Row("https://unknown-acs.example/challenge", .sub, .allow, "subframe.web", "sub-frames load http(s) freely"),
        Row(
            "https://shop.example.com@evil.example/", .main, .openBrowser(target: Fixture.acs), "web.picky-page",
            "userinfo does not make the host"),
        Row(
            "https://shop.example.com:pw@evil.example/complete", .main, .openBrowser(target: Fixture.acs), "web.picky-page",
            "userinfo with password"),
        Row(
            "https://evil.example\\@shop.example.com/", .main, .openBrowser(target: Fixture.acs), "web.picky-page",
            "backslash before @ ends the host"),
        Row(
            "https://evil.example\\.shop.example.com/", .main, .openBrowser(target: Fixture.acs), "web.picky-page",
            "backslash is a path separator"),
        Row(
            "https://shop.example.com.evil.example/", .main, .openBrowser(target: Fixture.acs), "web.picky-page",
            "own host as a prefix"),
        Row("https://evilshop.example.com/", .main, .openBrowser(target: Fixture.acs), "web.picky-page", "look-alike suffix"),
        Row("https://shop.example.com../x", .main, .openBrowser(target: Fixture.acs), "web.picky-page", "two trailing dots"),
        Row(
            "https://shop.example.com:8443/", .main, .openBrowser(target: Fixture.acs), "web.picky-page",
            "another port is another origin"),
        Row(
            "https://sh\u{043E}p.example.com/", .main, .openBrowser(target: Fixture.acs), "web.picky-page",
            "Cyrillic o look-alike (punycode)"),
        Row("https://0x7f.1/", .main, .openBrowser(target: Fixture.acs), "web.picky-page", "IPv4 in hex"),
        Row("https://evil%2Eexample/", .main, .openBrowser(target: Fixture.acs), "web.picky-page", "percent-encoded dot"),
        Row("https://shop\u{3002}example\u{FF0E}com/x", .main, .allow, "web.own-host", "ideographic full stops are dots"),
    ]

    @Test(arguments: rows)
    func decides(_ row: Row) {
        let d = Fixture.engine(.ios).decide(Navigation(url: row.url, currentURL: row.current, frame: row.frame))
        #expect(d.action == row.action, "\(d.reason)")
        #expect(d.rule.rawValue == row.rule)
        #expect(!d.reason.isEmpty)
    }

    @Test func customSchemeWithoutAppNamesTheKnownApp() {
        let d = Fixture.engine(.ios, apps: false).decide(Navigation(url: "swish://paymentrequest?token=abc"))
        #expect(d.action == .block)
        #expect(d.rule == .customSchemeNoApp)
        #expect(d.reason == "Swish is not installed (no app handles swish:)")
    }

    @Test(arguments: [
        ("swish://paymentrequest?token=abc", "Swish is not installed (no app handles swish:)"),
        ("BANKID:///?autostarttoken=x&redirect=null", "BankID is not installed (no app handles bankid:)"),
        ("unknownapp://pay?x=1", "no app handles unknownapp:"),
    ])
    func customSchemeNoAppReason(_ url: String, _ reason: String) {
        let d = Fixture.engine(.ios, apps: false).decide(Navigation(url: url))
        #expect(d.rule == .customSchemeNoApp)
        #expect(d.reason == reason)
    }

    /// The picky-page reason says why the target (not the current page) goes to the browser.
    @Test(arguments: [
        (
            Fixture.payment as String?,
            "unknown-acs.example is not on the goodlist and the current page is the payment page: the new URL opens in the browser"
        ),
        (nil, "unknown-acs.example is not on the goodlist and there is no current web page: the new URL opens in the browser"),
        (
            "about:blank",
            "unknown-acs.example is not on the goodlist and there is no current web page: the new URL opens in the browser"
        ),
        (Fixture.acs, "unknown-acs.example is not on the goodlist: the current page continues in the browser"),
    ])
    func pickyPageReason(_ current: String?, _ reason: String) {
        let d = Fixture.engine(.ios).decide(Navigation(url: "https://unknown-acs.example/challenge", currentURL: current))
        #expect(d.reason == reason)
    }

    @Test func redirectPolicyWebViewAllowsUnknownHosts() {
        let d = Fixture.engine(.ios, redirect: .webview).decide(
            Navigation(url: "https://unknown.example/", currentURL: Fixture.acs))
        #expect(d.action == .allow)
        #expect(d.rule == .webRedirectWebView)
    }

    @Test func redirectPolicyBrowserOpensTheTarget() {
        let e = Fixture.engine(.ios, redirect: .browser)
        let d = e.decide(Navigation(url: "https://unknown.example/a", currentURL: Fixture.acs))
        #expect(d.action == .openBrowser(target: "https://unknown.example/a"))
        #expect(d.rule == .webRedirectBrowser)
        #expect(e.decide(Navigation(url: "https://shop.example.com/x")).action == .allow)
    }

    @Test func universalLinkIsTriedBeforeOwnHosts() {
        let env = Environment(apps: [.init(name: "Shop", universalLinks: [.init(host: "shop.example.com", paths: ["/app/*"])])])
        let e = NavigationPolicyEngine(policy: Fixture.policy(.ios), system: EnvironmentSystem(env))
        #expect(
            e.decide(Navigation(url: "https://shop.example.com/app/x")).action
                == .openApp(target: "https://shop.example.com/app/x", via: .universalLink))
        #expect(e.decide(Navigation(url: "https://shop.example.com/web/x")).action == .allow)
        // paymentUrl interception comes before universal links.
        #expect(e.decide(Navigation(url: Fixture.payment)).rule == .interceptPayment)
    }

    @Test func allowedHostsReplaceTheDefault() {
        var p = Fixture.policy(.ios)
        p.allowedHosts = ["cdn.example.net", "pay.example.org:8443", "http://[::1]:8080", "B\u{FC}cher.example:443"]
        let e = NavigationPolicyEngine(policy: p)
        #expect(e.decide(Navigation(url: "https://CDN.example.net./x")).rule == .webOwnHost)
        #expect(e.decide(Navigation(url: "https://pay.example.org:8443/x")).rule == .webOwnHost)
        #expect(e.decide(Navigation(url: "http://[0::1]:8080/x")).rule == .webOwnHost)
        #expect(e.decide(Navigation(url: "http://cdn.example.net/x")).rule == .webInsecure)
        #expect(e.decide(Navigation(url: "https://xn--bcher-kva.example/x")).rule == .webOwnHost)
        #expect(e.decide(Navigation(url: "https://[::1]/x", currentURL: Fixture.acs)).rule == .webPickyPage)
        #expect(e.decide(Navigation(url: "https://pay.example.org/x", currentURL: Fixture.acs)).rule == .webPickyPage)
        #expect(e.decide(Navigation(url: "https://sub.cdn.example.net/x", currentURL: Fixture.acs)).rule == .webPickyPage)
        // Interception still works on hosts outside allowedHosts.
        #expect(e.decide(Navigation(url: "https://shop.example.com/complete")).rule == .interceptComplete)
    }

    @Test func defaultAllowedHostsAreTheHostsOfTheFourURLs() {
        let p = Policy(
            platform: .ios, paymentURL: "https://pay.example.com/p", completeURL: "https://SHOP.example.com/c",
            cancelURL: "https://shop.example.com:8443/x", termsOfServiceURL: "https://terms.example.com/t")
        #expect(p.allowedHosts == ["pay.example.com", "shop.example.com", "shop.example.com:8443", "terms.example.com"])
    }


    @Test
    func goodlistedHostsLoadAndLookAlikesDoNot() {
        let e = NavigationPolicyEngine(policy: Fixture.policy(.ios, goodlist: ["**.payex.com", "acs1.luottokunta.fi"]))
        #expect(e.decide(Navigation(url: "https://ecom.payex.com/x", currentURL: Fixture.acs)).rule == .webGoodlist)
        #expect(e.decide(Navigation(url: "https://ECOM.PAYEX.COM./x", currentURL: Fixture.acs)).rule == .webGoodlist)
        #expect(e.decide(Navigation(url: "https://evilpayex.com/", currentURL: Fixture.acs)).rule == .webPickyPage)
        #expect(e.decide(Navigation(url: "https://ecom.payex.com.evil.example/", currentURL: Fixture.acs)).rule == .webPickyPage)
        #expect(e.decide(Navigation(url: "https://ecom.payex.com:8443/", currentURL: Fixture.acs)).rule == .webPickyPage)
        #expect(e.decide(Navigation(url: "https://ecom.payex.com@evil.example/", currentURL: Fixture.acs)).rule == .webPickyPage)
    }
}

@Suite struct AndroidDecisionTableTests {
    static let browsable = ";category=android.intent.category.BROWSABLE"
    static let swedbankIntent =
        "intent://shop.example.com/pay?order=42#Intent;scheme=https;action=com.swedbankpay.mobilesdk.VIEW_PAYMENTORDER;package=com.example.app;end;"

    static let rows: [Row] = [
        Row("https://shop.example.com/complete", .sub, .complete, "intercept.complete", "completeUrl"),
        Row(
            "shopapp://shop.example.com/pay?order=42", .main, .reload(target: Fixture.payment), "intercept.payment",
            "callbackScheme"),
        Row(
            swedbankIntent, .main, .reload(target: Fixture.payment), "intercept.payment",
            "SDK helper intent into the host app itself: never launched, its URL (paymentUrl) decided instead"),
        Row(
            "intent://app.bankid.com/?autostarttoken=x#Intent;scheme=https;package=com.bankid.bus;end", .main,
            .openApp(
                target:
                    "intent://app.bankid.com/?autostarttoken=x#Intent;scheme=https\(Self.browsable);package=com.bankid.bus;end",
                via: .intent),
            "intent.app", "explicit package installed: launched with BROWSABLE, as Chrome launches it"),
        // Chrome's launch rules (ExternalNavigationHandler): components, selectors and unsafe launch flags never
        // reach the app; the intent the app receives is the one it may start.
        Row(
            "intent://x#Intent;scheme=bankid;component=com.bankid.bus/.internal.DebugActivity;end", .main,
            .openApp(target: "intent://x#Intent;scheme=bankid\(Self.browsable);end", via: .intent), "intent.app",
            "a component into another app is dropped: the scheme resolves the app"),
        Row(
            "intent:#Intent;component=com.bankid.bus/.internal.DebugActivity;end", .main, .block, "intent.no-app",
            "a bare component into another app resolves to nothing once the component is gone"),
        Row(
            "intent:#Intent;component=com.example.app/.AdminActivity;end", .main, .block, "intent.no-app",
            "a bare component into the host app: nothing to start"),
        Row(
            "intent:#Intent;package=com.example.app;component=com.example.app/.AdminActivity;end", .main, .block,
            "intent.host", "the host app's own package with a component: never launched, no URL to decide"),
        Row(
            "intent://shop.example.com/pay?order=42#Intent;scheme=shopapp;package=com.example.app;component=com.example.app/.Pay;end",
            .main, .reload(target: Fixture.payment), "intercept.payment",
            "the host app's callback scheme in an intent to itself: the payment page reloads"),
        Row(
            "intent://shop.example.com/x#Intent;scheme=https;package=com.example.app;end", .main,
            .load(target: "https://shop.example.com/x"), "intent.host",
            "an own page wrapped in an intent to the host app loads in the web view"),
        Row(
            "intent://x#Intent;scheme=bankid;package=com.bankid.bus;launchFlags=0x10008000;end", .main,
            .openApp(
                target: "intent://x#Intent;scheme=bankid\(Self.browsable);launchFlags=0x10000000;package=com.bankid.bus;end",
                via: .intent),
            "intent.app", "FLAG_ACTIVITY_CLEAR_TASK is masked; NEW_TASK stays"),
        Row(
            "intent://x#Intent;scheme=bankid;package=com.bankid.bus;SEL;component=com.example.app/.AdminActivity;end", .main,
            .openApp(target: "intent://x#Intent;scheme=bankid\(Self.browsable);package=com.bankid.bus;end", via: .intent),
            "intent.app",
            "a selector is dropped"),
        Row(
            "intent://pay#Intent;scheme=vipps;package=no.dnb.vipps;S.browser_fallback_url=https%3A%2F%2Fvipps.no%2Fweb;end",
            .main, .load(target: "https://vipps.no/web"), "intent.fallback", "missing app: http(s) fallback loads"),
        Row(
            "intent://pay#Intent;scheme=vipps;package=no.dnb.vipps;S.browser_fallback_url=javascript%3Aalert(1);end", .main,
            .block, "intent.no-app", "fallback must be http(s)"),
        Row(
            "intent://pay#Intent;scheme=vipps;package=no.dnb.vipps;S.browser_fallback_url=market%3A%2F%2Fdetails%3Fid%3Dx;end",
            .main, .block, "intent.no-app", "market: fallback is not http(s)"),
        Row(
            "intent://pay#Intent;scheme=vipps;package=no.dnb.vipps;end", .main, .block, "intent.no-app",
            "missing app, no fallback"),
        Row(
            "intent:file:///storage/emulated/0/Download#Intent;end", .main, .block, "intent.unsafe",
            "intent wrapping file: (GeckoView)"),
        Row(
            "intent:javascript:alert(1)#Intent;package=com.bankid.bus;end", .main, .block, "intent.unsafe",
            "intent wrapping javascript:"),
        Row(
            "intent://x/y#Intent;scheme=content;package=com.bankid.bus;end", .main, .block, "intent.unsafe",
            "intent with scheme=content"),
        Row(
            "intent://x/y#Intent;scheme=file;S.browser_fallback_url=https%3A%2F%2Fok.example%2F;end", .main, .block,
            "intent.unsafe", "unsafe data wins over a fallback"),
        Row(
            "intent://scan/#Intent;scheme=zxing;package=com.bankid.bus;end", .sub,
            .openApp(target: "intent://scan/#Intent;scheme=zxing\(Self.browsable);package=com.bankid.bus;end", via: .intent),
            "intent.app", "a tapped intent in a sub-frame launches (Chromium: gesture)"),
        Row(
            "tel:+4681234567", .main, .openApp(target: "tel:+4681234567", via: .customScheme), "custom-scheme.system-app",
            "the dialer"),
        Row(
            "smsto:+4681234567", .main, .openApp(target: "smsto:+4681234567", via: .customScheme), "custom-scheme.system-app",
            "Android's messaging app takes smsto:"),
        Row(
            "intent://pay#Intent;scheme=vipps;package=no.dnb.vipps;S.browser_fallback_url=http%3A%2F%2Fvipps.no%2Fweb;end", .main,
            .openBrowser(target: "http://vipps.no/web"), "web.insecure",
            "an http fallback is a plain-http page: the browser, not the web view"),
        Row("intent://x#Intent;package=com.bankid.bus;S.a=b", .main, .block, "intent.malformed", "no end"),
        Row(
            "intent://x#Intent;package=com.bankid.bus;i.n=notanumber;end", .main, .block, "intent.malformed",
            "typed extra of the wrong type"),
        Row("intent://broken", .main, .block, "intent.no-app", "no #Intent: a VIEW intent of the URL itself, nothing takes it"),
        Row(
            "intent://x#Intent;scheme=tel;package=com.bankid.bus;end", .main,
            .openApp(target: "intent://x#Intent;scheme=tel\(Self.browsable);package=com.bankid.bus;end", via: .intent),
            "intent.app",
            "tel: data without MMI codes"),
        Row(
            "intent:*%2306%23#Intent;scheme=tel;package=com.bankid.bus;end", .main, .block, "intent.unsafe",
            "tel: MMI code inside an intent"),
        Row(
            "android-app://com.bankid.bus/https/app.bankid.com/x", .main,
            .openApp(
                target: "intent://app.bankid.com/x#Intent;scheme=https\(Self.browsable);package=com.bankid.bus;end", via: .intent),
            "intent.app",
            "android-app: to an installed package"),
        Row("android-app://com.missing.app", .main, .block, "intent.no-app", "android-app: missing"),
        Row(
            "https://app.bankid.com/?autostarttoken=x", .main,
            .openApp(target: "https://app.bankid.com/?autostarttoken=x", via: .appLink), "android.app-link", "verified app link"),
        Row("https://app.bankid.com/?autostarttoken=x", .sub, .allow, "subframe.web", "no app links from sub-frames"),
        Row(
            "bankid:///?autostarttoken=x", .main, .openApp(target: "bankid:///?autostarttoken=x", via: .customScheme),
            "custom-scheme.app", "custom scheme"),
        Row("vipps://pay", .main, .block, "custom-scheme.no-app", "custom scheme without app"),
        Row("javascript:alert(1)", .main, .block, "scheme.never-external", "javascript:"),
        Row("https://unknown-acs.example/", .main, .allow, "web.redirect-webview", "Android default redirect policy is webview"),
        Row("https://shop.example.com/x", .main, .allow, "web.own-host", "own host"),
    ]

    @Test(arguments: rows)
    func decides(_ row: Row) {
        let d = Fixture.engine(.android).decide(Navigation(url: row.url, currentURL: row.current, frame: row.frame))
        #expect(d.action == row.action, "\(d.reason)")
        #expect(d.rule.rawValue == row.rule)
    }

    @Test func aSubFrameOpensAnAppOnlyWithAGesture() {
        let url = "intent://scan/#Intent;scheme=zxing;package=com.bankid.bus;end"
        let e = Fixture.engine(.android)
        let scripted = e.decide(Navigation(url: url, currentURL: Fixture.acs, frame: .sub, trigger: .script))
        #expect(scripted.action == .block)
        #expect(scripted.rule == .subframeNoGesture)
        let custom = e.decide(
            Navigation(url: "bankid:///?autostarttoken=x", currentURL: Fixture.acs, frame: .sub, trigger: .script))
        #expect(custom.rule == .subframeNoGesture)
        let tapped = e.decide(
            Navigation(
                url: "bankid:///?autostarttoken=x", currentURL: Fixture.acs, frame: .sub, trigger: .script, userGesture: true))
        #expect(tapped.rule == .customSchemeApp)
        // Never the unsafe schemes, gesture or not.
        let js = e.decide(
            Navigation(url: "javascript:alert(1)", currentURL: Fixture.acs, frame: .sub, trigger: .link, userGesture: true))
        #expect(js.action == .block)
        // iOS launches from sub-frames without asking for a gesture, as the SDK does.
        let ios = Fixture.engine(.ios).decide(
            Navigation(url: "bankid:///?autostarttoken=x", currentURL: Fixture.acs, frame: .sub, trigger: .script))
        #expect(ios.rule == .customSchemeApp)
    }

    @Test func theFallbackIsDecidedLikeTheSameURLNavigatedDirectly() {
        // Android with redirectPolicy goodlist: a fallback to a host that is not goodlisted gets the picky-page
        // rule, exactly as the same URL would; a goodlisted or own fallback loads.
        let e = Fixture.engine(.android, redirect: .goodlist, apps: false)
        let unknown = "https://unknown-acs.example/pay"
        let viaIntent = e.decide(
            Navigation(
                url:
                    "intent://pay#Intent;scheme=vipps;package=no.dnb.vipps;S.browser_fallback_url=https%3A%2F%2Funknown-acs.example%2Fpay;end",
                currentURL: Fixture.acs))
        let direct = e.decide(Navigation(url: unknown, currentURL: Fixture.acs))
        #expect(direct.rule == .webPickyPage)
        #expect(viaIntent.action == direct.action)
        #expect(viaIntent.rule == direct.rule)
        #expect(viaIntent.reason.contains("browser_fallback_url"))
        let own = e.decide(
            Navigation(
                url:
                    "intent://pay#Intent;scheme=vipps;package=no.dnb.vipps;S.browser_fallback_url=https%3A%2F%2Fshop.example.com%2Fretry;end",
                currentURL: Fixture.acs))
        #expect(own.action == .load(target: "https://shop.example.com/retry"))
        #expect(own.rule == .intentFallback)
        let complete = e.decide(
            Navigation(
                url:
                    "intent://pay#Intent;scheme=vipps;package=no.dnb.vipps;S.browser_fallback_url=https%3A%2F%2Fshop.example.com%2Fcomplete;end",
                currentURL: Fixture.acs))
        #expect(complete.action == .complete)
    }

    @Test func defaultAppsCanBeRemovedInTheEnvironment() {
        let tablet = EnvironmentSystem(Environment(apps: [], defaultApps: ["mailto"]))
        let e = NavigationPolicyEngine(policy: Fixture.policy(.android), system: tablet)
        #expect(e.decide(Navigation(url: "tel:+4681234567")).rule == .customSchemeNoApp)
        #expect(e.decide(Navigation(url: "mailto:a@shop.example.com")).rule == .customSchemeSystemApp)
        let none = NavigationPolicyEngine(policy: Fixture.policy(.ios), system: EnvironmentSystem(Environment(defaultApps: [])))
        #expect(none.decide(Navigation(url: "mailto:a@shop.example.com")).action == .block)
    }

    @Test func intentWithoutAppNamesTheKnownApp() {
        let d = Fixture.engine(.android, apps: false).decide(
            Navigation(url: "intent://paymentrequest?token=x#Intent;scheme=swish;package=se.bankgirot.swish;end"))
        #expect(d.rule == .intentNoApp)
        #expect(
            d.reason == "Swish is not installed (no app installed for package se.bankgirot.swish and no browser_fallback_url)")
        let vipps = Fixture.engine(.android, apps: false).decide(
            Navigation(url: "intent://pay#Intent;scheme=vipps;package=no.dnb.vipps;end"))
        #expect(
            vipps.reason
                == "Vipps MobilePay is not installed (no app installed for package no.dnb.vipps and no browser_fallback_url)")
        let other = Fixture.engine(.android, apps: false).decide(
            Navigation(url: "intent://pay#Intent;scheme=walletapp;package=com.example.wallet;end"))
        #expect(other.reason == "no app installed for package com.example.wallet and no browser_fallback_url")
    }

    @Test func androidWithGoodlistPolicyUsesThePickyPageRule() {
        let d = Fixture.engine(.android, redirect: .goodlist).decide(
            Navigation(url: "https://unknown.example/", currentURL: Fixture.acs))
        #expect(d.action == .openBrowser(target: Fixture.acs))
    }
}

@Suite struct RobustnessTests {
    @Test func everyRuleIDIsUnique() {
        #expect(Set(RuleID.all).count == RuleID.all.count)
    }

    @Test(arguments: [
        "https://shop.example.com/" + String(repeating: "a", count: 100_000),
        "https://" + String(repeating: "a", count: 100_000) + ".example/",
        "https://" + String(repeating: "\u{E4}", count: 50_000) + "/",
        "https://" + String(repeating: "a.", count: 50_000) + "/",
        "https://shop.example.com/pay?" + String(repeating: "order=42&", count: 11_000),
        "https://shop.example.com/" + String(repeating: "../", count: 33_000),
        String(repeating: " ", count: 100_000) + "https://shop.example.com/complete",
        "intent://x#Intent;" + String(repeating: "S.a=b;", count: 16_000) + "end",
        "https://[" + String(repeating: "1:", count: 50_000) + "]/",
        "https://" + String(repeating: "%", count: 100_000),
    ])
    func hugeURLsAreDecided(_ url: String) {
        let d = Fixture.engine(.android).decide(Navigation(url: url, currentURL: Fixture.acs))
        #expect(!d.rule.rawValue.isEmpty)
        #expect(d.action != .complete || url.hasSuffix("/complete"))
    }

    @Test func hugeOwnHostPathIsAllowedAndHugeUnicodeHostIsBlocked() {
        let e = Fixture.engine(.ios)
        #expect(
            e.decide(Navigation(url: "https://shop.example.com/" + String(repeating: "a", count: 100_000))).rule == .webOwnHost)
        #expect(e.decide(Navigation(url: "https://" + String(repeating: "\u{E4}", count: 50_000) + "/")).rule == .urlMalformed)
        #expect(
            e.decide(Navigation(url: String(repeating: " ", count: 100_000) + "https://shop.example.com/complete")).rule
                == .interceptComplete)
    }
}

/// The host app's own load of paymentUrl (`app-load`) loads; the same URL from a page, a sub-frame, a reload or
/// by the callback scheme is answered `reload`, on both platforms.
@Suite struct AppLoadDecisionTests {
    @Test(arguments: [Platform.ios, .android])
    func onlyTheAppsOwnMainFrameLoadOfPaymentUrlLoads(platform: Platform) {
        let e = Fixture.engine(platform)
        let own = e.decide(Navigation(url: Fixture.payment, currentURL: nil, frame: .main, trigger: .appLoad))
        #expect(own.action == .allow)
        #expect(own.rule == .interceptPaymentLoad)
        let afterReturn = e.decide(
            Navigation(url: Fixture.payment, currentURL: "https://shop.example.com/pay?order=42", trigger: .appLoad))
        #expect(afterReturn.action == .allow)
        for (url, frame, trigger) in [
            (Fixture.payment, NavigationFrame.main, NavigationTrigger.script), (Fixture.payment, .main, .reload),
            (Fixture.payment, .main, .initialLoad), (Fixture.payment, .sub, .appLoad),
            ("shopapp://shop.example.com/pay?order=42", .main, .appLoad),
        ] {
            let d = e.decide(Navigation(url: url, currentURL: Fixture.acs, frame: frame, trigger: trigger))
            #expect(d.action == .reload(target: Fixture.payment), "\(url) \(frame) \(trigger)")
        }
        // Any other URL the app loads itself is decided by the usual rules.
        let other = e.decide(Navigation(url: "https://unknown-acs.example/x", currentURL: nil, trigger: .appLoad))
        #expect(other.rule != .interceptPaymentLoad)
    }
}
