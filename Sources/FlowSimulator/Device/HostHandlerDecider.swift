// The host app's web view when the app does not use Plainview's policy (`webView.handler` of the environment):
// each handler answers as that app does today, so a team sees its current app's failures beside the policy's.
import Foundation
import NavigationPolicy
import PlainviewURL

/// Answers web-view navigations as a `HostHandler` does. The app's own loads (first load, reload after a
/// return, back and forward) always load; the rule of every other decision is `host:HANDLER`.
struct HostHandlerDecider: NavigationDeciding {
    let handler: HostHandler
    let policy: Policy
    let system: any SystemServices
    let originWhitelist: [String]

    var rule: RuleID { RuleID("host:\(handler.rawValue)") }

    func decide(_ n: Navigation) -> Decision {
        switch n.trigger {
        case .appLoad, .initialLoad, .reload, .backForward:
            return Decision(.allow, rule: rule, reason: "the app's own load")
        default: break
        }
        let scheme = WebURL.scheme(of: n.url)?.lowercased() ?? ""
        let kind = SchemeKind(scheme: scheme)
        switch handler {
        case .plainview: return NavigationPolicyEngine(policy: policy, system: system).decide(n)
        case .none: return policy.platform == .ios ? noDelegateIOS(n, kind, scheme) : noClientAndroid(n, kind, scheme)
        case .guide: return policy.platform == .ios ? guideIOS(n, kind, scheme) : guideAndroid(n, kind, scheme)
        case .inAppBrowser:
            return kind == .web || SchemeKind.webLoadable.contains(scheme)
                ? Decision(.allow, rule: rule, reason: "an in-app browser loads every page itself")
                : cannotLoad(scheme)
        case .cordova: return cordova(n, kind, scheme)
        case .allowList: return allowList(n, scheme)
        }
    }

    /// A scheme the web view cannot load: the load fails where the user sees it.
    private func cannotLoad(_ scheme: String) -> Decision {
        let error =
            policy.platform == .android
            ? "net::ERR_UNKNOWN_URL_SCHEME" : "NSURLErrorUnsupportedURL (-1002, \"unsupported URL\")"
        return Decision(
            .block, rule: rule, reason: "the web view cannot load \(scheme): URLs and shows \(error); nothing opens an app")
    }

    /// WKWebView without a navigation delegate allows every navigation; WebKit itself tries a universal link for
    /// a main-frame navigation the user started to another domain (WebKit's NavigationState: app links are tried
    /// for user-initiated cross-domain main-frame navigations when the policy is allow). Other schemes fail.
    private func noDelegateIOS(_ n: Navigation, _ kind: SchemeKind, _ scheme: String) -> Decision {
        guard kind == .web || SchemeKind.webLoadable.contains(scheme) else { return cannotLoad(scheme) }
        if n.frame != .sub, n.userGesture, kind == .web, crossDomain(n), let app = system.universalLinkApp(for: n.url),
            !system.isHostApp(app)
        {
            return Decision(
                .openApp(target: n.url, via: .universalLink), rule: rule,
                reason: "WebKit hands a tapped link to another domain to \(app), which claims it as a universal link")
        }
        return Decision(.allow, rule: rule, reason: "no navigation delegate: WKWebView loads it")
    }

    /// Android's WebView without a `WebViewClient` loads only the app's own load; every later main-frame
    /// navigation goes to the system as `ACTION_VIEW` (WebView's documentation: "If WebViewClient is not
    /// provided, WebView will ask Activity Manager to choose the proper handler for the URL").
    private func noClientAndroid(_ n: Navigation, _ kind: SchemeKind, _ scheme: String) -> Decision {
        guard n.frame != .sub else { return Decision(.allow, rule: rule, reason: "a frame loads in the web view") }
        return actionView(n.url, kind, scheme, who: "no WebViewClient: the system")
    }

    /// `startActivity(Intent(ACTION_VIEW, uri))` / `UIApplication.open(url)`: an app that claims the URL, the
    /// browser for a web page, nothing for an `intent:` URL (no app handles the scheme `intent`).
    private func actionView(_ url: String, _ kind: SchemeKind, _ scheme: String, who: String) -> Decision {
        switch kind {
        case .web:
            if policy.platform == .android, let app = system.appLinkApp(for: url), !system.isHostApp(app) {
                return Decision(
                    .openApp(target: url, via: .appLink), rule: rule, reason: "\(who) opens \(app), which claims the link")
            }
            if policy.platform == .ios, let app = system.universalLinkApp(for: url), !system.isHostApp(app) {
                return Decision(
                    .openApp(target: url, via: .universalLink), rule: rule, reason: "\(who) opens \(app), which claims the link")
            }
            return Decision(.openBrowser(target: url), rule: rule, reason: "\(who) opens the page in the browser")
        case .custom:
            if let app = system.customSchemeApp(for: scheme) {
                return Decision(.openApp(target: url, via: .customScheme), rule: rule, reason: "\(who) opens \(app)")
            }
            return Decision(.block, rule: rule, reason: "\(who) finds no app for \(scheme): URLs")
        case .intent:
            return Decision(
                .block, rule: rule,
                reason:
                    "\(who) is handed the intent: URL as data, and no app handles the scheme intent (ActivityNotFoundException); its fallback is never read"
            )
        case .neverExternal:
            return Decision(.block, rule: rule, reason: "\(who) refuses \(scheme): URLs")
        }
    }

    /// The iOS delegate of Swedbank Pay's plain web view guide: completeUrl and cancelUrl compared with the
    /// URL's absolute string; then `UIApplication.open(url, options: [.universalLinksOnly: true])` for every URL
    /// (any frame); not opened, an http(s) URL loads and any other scheme is opened with `UIApplication.open`.
    private func guideIOS(_ n: Navigation, _ kind: SchemeKind, _ scheme: String) -> Decision {
        if let d = guideEnds(n) { return d }
        if kind == .web, let app = system.universalLinkApp(for: n.url), !system.isHostApp(app) {
            return Decision(
                .openApp(target: n.url, via: .universalLink), rule: rule,
                reason: "the guide's delegate opens \(app) by its universal link")
        }
        if kind == .web || SchemeKind.webLoadable.contains(scheme) {
            return Decision(.allow, rule: rule, reason: "no app claims it: the guide's delegate lets WKWebView load it")
        }
        if kind == .custom, let app = system.customSchemeApp(for: scheme) {
            return Decision(.openApp(target: n.url, via: .customScheme), rule: rule, reason: "the guide's delegate opens \(app)")
        }
        return Decision(
            .block, rule: rule,
            reason: "the guide's delegate hands \(scheme): to UIApplication.open, which opens nothing, and cancels")
    }

    /// The Android delegate of the guide: completeUrl and cancelUrl compared as strings; then
    /// `Intent.parseUri(url, URI_INTENT_SCHEME)` with BROWSABLE and `FLAG_ACTIVITY_REQUIRE_NON_BROWSER` started
    /// (main frame only: `shouldOverrideUrlLoading`); not started, http(s) loads and anything else is dropped
    /// (an `intent:` URL's `S.browser_fallback_url` is never read).
    private func guideAndroid(_ n: Navigation, _ kind: SchemeKind, _ scheme: String) -> Decision {
        guard n.frame != .sub else { return Decision(.allow, rule: rule, reason: "a frame loads in the web view") }
        if let d = guideEnds(n) { return d }
        switch kind {
        case .web:
            if let app = system.appLinkApp(for: n.url), !system.isHostApp(app) {
                return Decision(
                    .openApp(target: n.url, via: .appLink), rule: rule,
                    reason: "the guide's delegate starts \(app), a non-browser app for it")
            }
            return Decision(
                .allow, rule: rule, reason: "no non-browser app takes it: the guide's delegate lets the WebView load it")
        case .intent:
            if let intent = IntentURL.parse(n.url), let app = system.intentApp(for: intent.sanitizedForLaunch()) {
                return Decision(.openApp(target: n.url, via: .intent), rule: rule, reason: "the guide's delegate starts \(app)")
            }
            return Decision(
                .block, rule: rule,
                reason: "the guide's delegate finds no app for the intent and drops it: its S.browser_fallback_url is never read")
        case .custom:
            if let app = system.customSchemeApp(for: scheme) {
                return Decision(
                    .openApp(target: n.url, via: .customScheme), rule: rule, reason: "the guide's delegate starts \(app)")
            }
            return Decision(.block, rule: rule, reason: "the guide's delegate finds no app for \(scheme): and drops it")
        case .neverExternal:
            return Decision(.block, rule: rule, reason: "the guide's delegate drops \(scheme): URLs")
        }
    }

    /// The guide's first check: the URL's string equal to completeUrl or cancelUrl (no normalisation: an extra
    /// query item or a trailing slash is another URL to it).
    private func guideEnds(_ n: Navigation) -> Decision? {
        if n.url == policy.completeURL {
            return Decision(.complete, rule: rule, reason: "the guide's delegate: the URL is completeUrl")
        }
        if n.url == policy.cancelURL {
            return Decision(.canceled, rule: rule, reason: "the guide's delegate: the URL is cancelUrl")
        }
        return nil
    }

    /// Cordova on Android: http(s) loads; any other scheme goes to `startActivity`, an `intent:` URL parsed with
    /// `Intent.parseUri`. No app for it: the error is logged and the fallback ignored (apache/cordova-android
    /// #1171).
    private func cordova(_ n: Navigation, _ kind: SchemeKind, _ scheme: String) -> Decision {
        switch kind {
        case .web: return Decision(.allow, rule: rule, reason: "Cordova loads http(s) pages in its web view")
        case .intent:
            if let intent = IntentURL.parse(n.url), let app = system.intentApp(for: intent.sanitizedForLaunch()) {
                return Decision(.openApp(target: n.url, via: .intent), rule: rule, reason: "Cordova starts \(app)")
            }
            return Decision(
                .block, rule: rule,
                reason:
                    "Cordova's startActivity finds no app for the intent (ActivityNotFoundException) and ignores its S.browser_fallback_url"
            )
        case .custom:
            if let app = system.customSchemeApp(for: scheme) {
                return Decision(.openApp(target: n.url, via: .customScheme), rule: rule, reason: "Cordova starts \(app)")
            }
            return Decision(.block, rule: rule, reason: "Cordova's startActivity finds no app for \(scheme): URLs")
        case .neverExternal:
            return SchemeKind.webLoadable.contains(scheme)
                ? Decision(.allow, rule: rule, reason: "the web view loads it") : cannotLoad(scheme)
        }
    }

    /// react-native-webview: the URL's origin (`scheme://host[:port]`) against `originWhitelist` (`*` any run of
    /// characters); not listed, `Linking.openURL(url)`.
    private func allowList(_ n: Navigation, _ scheme: String) -> Decision {
        let origin = Self.origin(of: n.url)
        if originWhitelist.contains(where: { Self.wildcard($0, matches: origin) }) {
            return Decision(.allow, rule: rule, reason: "\(origin) is in originWhitelist: the web view loads it")
        }
        return actionView(n.url, SchemeKind(scheme: scheme), scheme, who: "\(origin) is not in originWhitelist: Linking.openURL")
    }

    /// react-native-webview's origin of a URL: the scheme, `//` when present, and the authority.
    static func origin(of url: String) -> String {
        guard let colon = url.firstIndex(of: ":") else { return url }
        var rest = url[url.index(after: colon)...]
        var out = url[...colon].lowercased()
        if rest.hasPrefix("//") {
            out += "//"
            rest = rest.dropFirst(2)
        }
        return out + rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
    }

    /// `*` stands for any run of characters; everything else is literal; the whole string must match.
    static func wildcard(_ pattern: String, matches text: String) -> Bool {
        let parts = pattern.lowercased().split(separator: "*", omittingEmptySubsequences: false)
        var rest = Substring(text.lowercased())
        for (i, part) in parts.enumerated() {
            if i == 0 {
                guard rest.hasPrefix(part) else { return false }
                rest = rest.dropFirst(part.count)
            } else if i == parts.count - 1 {
                return rest.hasSuffix(part)
            } else if let r = rest.range(of: part) {
                rest = rest[r.upperBound...]
            } else {
                return false
            }
        }
        return rest.isEmpty
    }

    private func crossDomain(_ n: Navigation) -> Bool {
        guard let current = n.currentURL.flatMap(WebURL.init)?.comparableHost else { return true }
        return WebURL(n.url)?.comparableHost != current
    }
}
