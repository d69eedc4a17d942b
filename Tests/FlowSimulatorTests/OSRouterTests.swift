@testable import NavigationPolicy
import Testing
@testable import FlowSimulator

/// The device of the routing table's rows: Bank claims app.bank.example (universal link and app link), the
/// `bankapp:` scheme and the package com.bank.app; the browser lets automatic redirects to apps through or not.
struct RoutingTestSystem: RoutingSystem {
    var redirectsAllowed = true
    func universalLinkApp(for url: String) -> String? { url.hasPrefix("https://app.bank.example/") ? "Bank" : nil }
    func appLinkApp(for url: String) -> String? { url.hasPrefix("https://app.bank.example/") ? "Bank" : nil }
    func customSchemeApp(for scheme: String) -> String? { scheme == "bankapp" ? "Bank" : nil }
    func intentApp(for intent: AndroidIntent) -> String? { intent.package == "com.bank.app" ? "Bank" : nil }
    func automaticAppRedirectAllowed(_ url: String) -> Bool { redirectsAllowed }
}

struct RouteRow: Sendable, CustomStringConvertible {
    var platform: Platform
    var url: String
    var opener: Opener
    var redirectsAllowed = true
    var expected: Route
    var description: String { "\(platform) \(opener): \(url)" }
}

private let tap = Opener.browser(BrowserNavigation(gesture: true, currentHost: "shop.example.com"))
private let automatic = Opener.browser(BrowserNavigation(gesture: false, currentHost: "shop.example.com"))
private let frame = Opener.browser(BrowserNavigation(topLevel: false, gesture: true, currentHost: "shop.example.com"))
private let intentToBank = "intent://pay#Intent;scheme=bankapp;package=com.bank.app;end"
private let intentWithFallback =
    "intent://pay#Intent;scheme=other;package=com.other;S.browser_fallback_url=https%3A%2F%2Fshop.example.com%2Fpay;end"

@Suite struct OSRouterTests {
    static let rows: [RouteRow] = [
        // An app's ordinary open: universal link (iOS) / app link (Android), else the browser.
        RouteRow(
            platform: .ios, url: "https://app.bank.example/x", opener: .app("Shop"),
            expected: .app("Bank", url: "https://app.bank.example/x", via: .universalLink)),
        RouteRow(
            platform: .android, url: "https://app.bank.example/x", opener: .app("Shop"),
            expected: .app("Bank", url: "https://app.bank.example/x", via: .appLink)),
        RouteRow(
            platform: .ios, url: "https://shop.example.com/pay", opener: .app("Bank"),
            expected: .browser("https://shop.example.com/pay")),
        RouteRow(
            platform: .ios, url: "bankapp://pay", opener: .app("Shop"),
            expected: .app("Bank", url: "bankapp://pay", via: .customScheme)),
        RouteRow(
            platform: .ios, url: "nosuch://pay", opener: .app("Shop"), expected: .nowhere(.problem("no app handles nosuch: URLs"))
        ),
        RouteRow(
            platform: .ios, url: "javascript:alert(1)", opener: .app("Shop"),
            expected: .nowhere(.problem("the OS refuses to open javascript: URLs"))),
        RouteRow(
            platform: .ios, url: intentToBank, opener: .app("Shop"),
            expected: .nowhere(.problem("the OS cannot open \(intentToBank)"))),
        RouteRow(
            platform: .android, url: intentToBank, opener: .app("Shop"),
            expected: .app("Bank", url: "bankapp://pay", via: .intent)),
        RouteRow(
            platform: .android, url: intentWithFallback, opener: .app("Shop"), expected: .fallback("https://shop.example.com/pay")
        ),
        // The web view carries out the policy's open-app by the mechanism it named, and nothing else.
        RouteRow(
            platform: .ios, url: "https://app.bank.example/x", opener: .webView(via: .universalLink),
            expected: .app("Bank", url: "https://app.bank.example/x", via: .universalLink)),
        RouteRow(
            platform: .ios, url: "https://shop.example.com/x", opener: .webView(via: .universalLink),
            expected: .nowhere(.problem("the OS found no app for https://shop.example.com/x (universal-link)"))),
        RouteRow(
            platform: .android, url: intentToBank, opener: .webView(via: .intent),
            expected: .app("Bank", url: "bankapp://pay", via: .intent)),
        // The browser: links open apps only on a top-level tap, and on iOS only to another domain.
        RouteRow(
            platform: .ios, url: "https://app.bank.example/x", opener: tap,
            expected: .app("Bank", url: "https://app.bank.example/x", via: .universalLink)),
        RouteRow(
            platform: .ios, url: "https://app.bank.example/x", opener: automatic, expected: .browser("https://app.bank.example/x")
        ),
        RouteRow(
            platform: .ios, url: "https://app.bank.example/x",
            opener: .browser(BrowserNavigation(gesture: true, currentHost: "app.bank.example")),
            expected: .browser("https://app.bank.example/x")),
        RouteRow(
            platform: .android, url: "https://app.bank.example/x", opener: tap,
            expected: .app("Bank", url: "https://app.bank.example/x", via: .appLink)),
        // Safari asks before a custom scheme; Chrome may block one no user tapped; a frame opens no app.
        RouteRow(platform: .ios, url: "bankapp://pay", opener: automatic, expected: .prompt("Bank", url: "bankapp://pay")),
        RouteRow(
            platform: .android, url: "bankapp://pay", opener: automatic,
            expected: .app("Bank", url: "bankapp://pay", via: .customScheme)),
        RouteRow(
            platform: .android, url: "bankapp://pay", opener: automatic, redirectsAllowed: false,
            expected: .nowhere(.problem("Chrome blocked the automatic redirect to an app; it needs a user tap"))),
        RouteRow(
            platform: .android, url: "bankapp://pay", opener: tap, redirectsAllowed: false,
            expected: .app("Bank", url: "bankapp://pay", via: .customScheme)),
        RouteRow(platform: .ios, url: "bankapp://pay", opener: frame, expected: .nowhere(.note("a frame cannot open an app"))),
        RouteRow(
            platform: .ios, url: "nosuch://pay", opener: tap,
            expected: .nowhere(.problem("Safari cannot open the page: no app handles nosuch:"))),
        RouteRow(
            platform: .android, url: "nosuch://pay", opener: tap,
            expected: .nowhere(.problem("Chrome cannot open nosuch: no app handles it"))),
        RouteRow(platform: .ios, url: "javascript:alert(1)", opener: tap, expected: .nowhere(.note("nothing to navigate to"))),
        RouteRow(
            platform: .ios, url: intentToBank, opener: tap,
            expected: .nowhere(.problem("Safari cannot open intent: URLs (the address is invalid)"))),
        RouteRow(
            platform: .android, url: intentToBank, opener: automatic, redirectsAllowed: false,
            expected: .nowhere(.problem("Chrome blocked the automatic redirect to an app; it needs a user tap"))),
        RouteRow(platform: .android, url: intentToBank, opener: frame, expected: .nowhere(.silent)),
        RouteRow(platform: .android, url: intentWithFallback, opener: tap, expected: .fallback("https://shop.example.com/pay")),
        RouteRow(
            platform: .android, url: "intent://pay#Intent;scheme=other;package=com.other;end", opener: tap,
            expected: .nowhere(
                .problem(
                    "no app takes the intent (package com.other) and it has no http(s) fallback: Chrome offers the Play Store"))),
    ]

    @Test(arguments: rows)
    func everyHandOffGoesWhereTheTableSays(_ row: RouteRow) {
        let router = OSRouter(platform: row.platform, system: RoutingTestSystem(redirectsAllowed: row.redirectsAllowed))
        #expect(router.route(row.url, from: row.opener) == row.expected)
    }
}
