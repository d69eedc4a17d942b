import NavigationPolicy
import Testing
import TestSupport

@testable import FlowSimulator

/// The host-app handlers (`webView.handler`), one navigation at a time: what each answers on each platform.
@Suite struct HostHandlerTests {
    static let environment = Environment(
        apps: [
            .init(
                name: "Shop", schemes: ["shopapp"], universalLinks: [.init(host: "shop.example.com", paths: ["/*"])],
                package: "com.example.shop", appLinks: [.init(host: "shop.example.com")]),
            .init(
                name: "Bank", schemes: ["bankapp"], universalLinks: [.init(host: "app.bank.example", paths: ["/*"])],
                package: "com.bank.example", appLinks: [.init(host: "app.bank.example")]),
        ], hostApp: "Shop")

    static func decide(
        _ handler: HostHandler, _ platform: Platform, _ url: String, frame: NavigationFrame = .main,
        trigger: NavigationTrigger = .link, gesture: Bool = true,
        whitelist: [String] = Environment.WebViewSettings.defaultOriginWhitelist
    ) -> Decision {
        let policy = Policy(
            platform: platform, paymentURL: "https://shop.example.com/pay", completeURL: "https://shop.example.com/complete",
            cancelURL: "https://shop.example.com/cancel")
        let decider = HostHandlerDecider(
            handler: handler, policy: policy, system: EnvironmentSystem(environment), originWhitelist: whitelist)
        return decider.decide(
            Navigation(url: url, currentURL: "https://shop.example.com/pay", frame: frame, trigger: trigger, userGesture: gesture)
        )
    }

    static let bankIntent =
        "intent://authorize#Intent;scheme=bankapp;package=com.bank.example;S.browser_fallback_url=https%3A%2F%2Fweb.bank.example%2F;end"
    static let missingIntent =
        "intent://authorize#Intent;scheme=otherapp;package=com.other.example;S.browser_fallback_url=https%3A%2F%2Fweb.bank.example%2F;end"

    struct Row: Sendable, CustomStringConvertible {
        var handler: HostHandler
        var platform: Platform
        var url: String
        var frame: NavigationFrame = .main
        var gesture = true
        var action: String
        var reason: String
        var description: String { "\(handler.rawValue) \(platform.rawValue) \(url)" }
    }

    static let rows: [Row] = [
        // No delegate, iOS: web pages load; a tapped link to another domain an app claims opens it; other schemes fail.
        Row(
            handler: .none, platform: .ios, url: "https://acs.bank.example/challenge", action: "allow",
            reason: "WKWebView loads it"),
        Row(
            handler: .none, platform: .ios, url: "https://app.bank.example/authorize", action: "open-app",
            reason: "universal link"),
        Row(
            handler: .none, platform: .ios, url: "https://app.bank.example/authorize", gesture: false, action: "allow",
            reason: "WKWebView loads it"),
        Row(handler: .none, platform: .ios, url: "bankapp://authorize", action: "block", reason: "NSURLErrorUnsupportedURL"),
        Row(
            handler: .none, platform: .ios, url: "https://shop.example.com/complete", action: "allow",
            reason: "WKWebView loads it"),
        // No WebViewClient, Android: every later main-frame navigation goes to the system.
        Row(
            handler: .none, platform: .android, url: "https://acs.bank.example/challenge", action: "open-browser",
            reason: "no WebViewClient"),
        Row(
            handler: .none, platform: .android, url: "https://acs.bank.example/frame", frame: .sub, action: "allow",
            reason: "a frame loads"),
        Row(handler: .none, platform: .android, url: "bankapp://authorize", action: "open-app", reason: "opens Bank"),
        Row(handler: .none, platform: .android, url: bankIntent, action: "block", reason: "no app handles the scheme intent"),
        // The guide's delegates as written.
        Row(handler: .guide, platform: .ios, url: "https://shop.example.com/complete", action: "complete", reason: "completeUrl"),
        Row(
            handler: .guide, platform: .ios, url: "https://shop.example.com/complete?x=1", action: "allow",
            reason: "no app claims it"),
        Row(
            handler: .guide, platform: .ios, url: "https://app.bank.example/authorize", frame: .sub, action: "open-app",
            reason: "universal link"),
        Row(handler: .guide, platform: .ios, url: "bankapp://authorize", action: "open-app", reason: "opens Bank"),
        Row(handler: .guide, platform: .ios, url: "otherapp://x", action: "block", reason: "opens nothing"),
        Row(handler: .guide, platform: .android, url: "https://shop.example.com/cancel", action: "canceled", reason: "cancelUrl"),
        Row(handler: .guide, platform: .android, url: bankIntent, action: "open-app", reason: "starts Bank"),
        Row(
            handler: .guide, platform: .android, url: missingIntent, action: "block",
            reason: "S.browser_fallback_url is never read"),
        Row(
            handler: .guide, platform: .android, url: "https://app.bank.example/authorize", action: "open-app",
            reason: "non-browser app"),
        // In-app browser: everything in the web view.
        Row(handler: .inAppBrowser, platform: .android, url: bankIntent, action: "block", reason: "net::ERR_UNKNOWN_URL_SCHEME"),
        Row(
            handler: .inAppBrowser, platform: .android, url: "https://shop.example.com/complete", action: "allow",
            reason: "in-app browser"),
        Row(
            handler: .inAppBrowser, platform: .ios, url: "bankapp://authorize", action: "block",
            reason: "NSURLErrorUnsupportedURL"),
        // Cordova: startActivity, no fallback.
        Row(handler: .cordova, platform: .android, url: bankIntent, action: "open-app", reason: "Cordova starts Bank"),
        Row(
            handler: .cordova, platform: .android, url: missingIntent, action: "block",
            reason: "ignores its S.browser_fallback_url"),
        Row(handler: .cordova, platform: .android, url: "https://acs.bank.example/", action: "allow", reason: "Cordova loads"),
        // react-native-webview's allow-list.
        Row(
            handler: .allowList, platform: .android, url: "https://acs.bank.example/", action: "allow",
            reason: "is in originWhitelist"),
        Row(
            handler: .allowList, platform: .android, url: bankIntent, action: "block",
            reason: "not in originWhitelist: Linking.openURL"),
        Row(
            handler: .allowList, platform: .ios, url: "bankapp://authorize", action: "open-app",
            reason: "Linking.openURL opens Bank"),
    ]

    @Test(arguments: rows)
    func eachHandlerAnswersAsItsAppDoes(_ row: Row) {
        let d = Self.decide(row.handler, row.platform, row.url, frame: row.frame, gesture: row.gesture)
        #expect(d.action.name == row.action, "\(row): \(d.reason)")
        #expect(d.reason.contains(row.reason), "\(row): \(d.reason)")
        #expect(d.rule.rawValue == "host:\(row.handler.rawValue)")
    }

    @Test(arguments: HostHandler.allCases)
    func theAppsOwnLoadAlwaysLoads(_ handler: HostHandler) {
        for platform in Platform.allCases {
            let d = Self.decide(handler, platform, "https://shop.example.com/pay", trigger: .appLoad, gesture: false)
            #expect(d.action == .allow, "\(handler) \(platform)")
        }
    }

    @Test func anOriginWhitelistWithWildcardsMatchesWholeOrigins() {
        let list = ["https://*.shop.example", "intent://*"]
        #expect(Self.decide(.allowList, .android, "https://pay.shop.example/x", whitelist: list).action == .allow)
        #expect(Self.decide(.allowList, .android, "https://shop.example.evil/x", whitelist: list).action != .allow)
        #expect(Self.decide(.allowList, .android, Self.bankIntent, whitelist: list).action == .allow)
        #expect(HostHandlerDecider.origin(of: "https://a.example:8443/p?q#f") == "https://a.example:8443")
        #expect(HostHandlerDecider.origin(of: "bankapp:authorize") == "bankapp:authorize")
    }

    @Test func theEnvironmentFileNamesABadHandlerByLine() throws {
        #expect(throws: (any Error).self) {
            _ = try ShopFlow.load("environment:\n  webView: {handler: webkit}\npages: []")
        }
        do {
            _ = try ShopFlow.load("environment:\n  webView: {handler: guide, originWhitelist: [\"https://*\"]}\npages: []")
            Issue.record("expected an error")
        } catch {
            #expect("\(error)".contains("originWhitelist applies only with handler: allow-list"), "\(error)")
        }
        do {
            _ = try ShopFlow.load("environment:\n  webView: {handler: webkit}\npages: []")
        } catch {
            #expect(
                "\(error)".contains(
                    "expected one of plainview, none, guide, in-app-browser, cordova, allow-list, found 'webkit'"), "\(error)")
        }
    }
}
