// The decision procedure (docs/decisions.md). Rule ids and their meaning: Rules.swift.
//
// Order, for every navigation:
//  1. parse the target like a browser (WebURL); not a URL → block (url.malformed)
//  2. complete / cancel / terms / payment interception, in every frame, after normalisation
//  3. by scheme: never-external (javascript:, file:, data: …) → block at top level; sub-frames load only
//     web-loadable schemes; intent: (Android only) → parsed, non-browser app, http(s) fallback, else block;
//     custom schemes → the registered app, else block
//  4. http(s) main frame / new window: universal link (iOS) or app link (Android) → open the app;
//     the merchant's own hosts → allow; then the redirect policy (goodlist: goodlisted → allow, else the
//     picky-page rule; webview → allow; browser → open the target in the browser).
/// Decides, for each navigation, what the web view must do. Pure: same input, same decision.
import PlainviewURL
public struct NavigationPolicyEngine: Sendable {
    public let policy: Policy
    public let system: any SystemServices

    private let payment: WebURL?
    private let complete: WebURL?
    private let cancel: WebURL?
    private let terms: WebURL?
    /// The four URLs' comparable hosts and queries, computed once (not on every decision).
    private let paymentKey: ResourceKey?
    private let completeKey: ResourceKey?
    private let cancelKey: ResourceKey?
    private let termsKey: ResourceKey?
    private let paymentQueryItems: [WebURL.QueryItem]

    /// What `sameResource`/`sameURL` compare, precomputed for a policy URL.
    private struct ResourceKey: Sendable {
        var url: WebURL
        var host: String?
        var query: String
        init?(_ url: WebURL?) {
            guard let url else { return nil }
            self.url = url
            host = url.comparableHost
            query = url.query ?? ""
        }
    }
    private let callbackScheme: String?
    /// Normalised `host` or `host:port` entries always allowed.
    private let ownOrigins: Set<String>
    /// `ownOrigins` as a list when it has at most 8 members (nil otherwise).
    private let ownOriginList: [String]?
    /// Wildcard `allowedHosts` entries (`*.shop.example`, `**.shop.example`); `http`: also over plain http.
    private let ownPatterns: [(pattern: HostPattern, http: Bool)]

    public init(policy: Policy, system: any SystemServices = NoApps()) {
        self.policy = policy
        self.system = system
        payment = WebURL(policy.paymentURL)?.withoutFragment
        complete = WebURL(policy.completeURL)?.withoutFragment
        cancel = WebURL(policy.cancelURL)?.withoutFragment
        terms = policy.termsOfServiceURL.flatMap { WebURL($0)?.withoutFragment }
        paymentKey = ResourceKey(payment)
        completeKey = ResourceKey(complete)
        cancelKey = ResourceKey(cancel)
        termsKey = ResourceKey(terms)
        paymentQueryItems = payment?.queryItems ?? []
        callbackScheme = policy.callbackScheme.map { $0.lowercased() }.flatMap { $0.isEmpty ? nil : $0 }
        var origins = Set<String>()
        var patterns: [(pattern: HostPattern, http: Bool)] = []
        for entry in policy.allowedHosts {
            guard let o = Policy.normalizeAllowedHost(entry) else { continue }
            let http = o.hasPrefix("http://")
            let host = http ? String(o.dropFirst(7)) : o
            if host.hasPrefix("*"), let p = try? HostPattern(host) {
                patterns.append((p, http))
            } else {
                origins.insert(o)
            }
        }
        ownPatterns = patterns
        ownOrigins = origins
        ownOriginList = origins.count <= 8 ? Array(origins) : nil
    }

    public func decide(_ navigation: Navigation) -> Decision {
        guard let url = WebURL(navigation.url) else {
            return Decision(
                .block, rule: .urlMalformed,
                reason: "not an absolute URL a browser would load; blocked")
        }
        let comparableHost = url.comparableHost
        if let d = intercept(url, host: comparableHost, navigation) { return d }

        let kind = SchemeKind(scheme: url.scheme)
        let frame = navigation.frame
        switch kind {
        case .neverExternal:
            if frame == .sub {
                if SchemeKind.webLoadable.contains(url.scheme) {
                    return Decision(.allow, rule: .subframeLoadable, reason: "\(url.scheme): loads in a sub-frame")
                }
                return Decision(
                    .block, rule: .subframeNotWeb,
                    reason: "\(url.scheme): URLs never load from a page and never reach an app")
            }
            if url.scheme == "about", url.path == "blank" || url.path == "srcdoc" {
                return Decision(.allow, rule: .schemeAboutBlank, reason: "about:\(url.path) is an empty page")
            }
            return Decision(
                .block, rule: .schemeNeverExternal,
                reason: "\(url.scheme): URLs never load at top level and never reach an app")
        case .intent:
            if let refused = subframeLaunchRefused(url, navigation) { return refused }
            return decideIntent(navigation)
        case .custom:
            if let refused = subframeLaunchRefused(url, navigation) { return refused }
            if url.scheme == "tel" || url.scheme == "sms", NavigationPolicyEngine.hasMMICode(url) {
                return Decision(
                    .block, rule: .customSchemeUnsafe,
                    reason: "\(url.scheme): with # (an MMI/USSD code) never reaches the dialer")
            }
            let fromFrame = frame == .sub ? " (from a sub-frame)" : ""
            if let app = system.customSchemeApp(for: url.scheme) {
                return Decision(
                    .openApp(target: url.href, via: .customScheme), rule: .customSchemeApp,
                    reason: "\(app) handles \(url.scheme):\(fromFrame)")
            }
            if let app = system.defaultApp(for: url.scheme, on: policy.platform) {
                return Decision(
                    .openApp(target: url.href, via: .customScheme), rule: .customSchemeSystemApp,
                    reason: "the platform's \(app) app handles \(url.scheme):\(fromFrame)")
            }
            return Decision(.block, rule: .customSchemeNoApp, reason: KnownApp.noAppReason(scheme: url.scheme))
        case .web:
            if frame == .sub {
                return Decision(.allow, rule: .subframeWeb, reason: "sub-frames load http(s) freely")
            }
            return decideWeb(url, host: comparableHost, navigation)
        }
    }

    /// Whether a sub-frame may hand this custom-scheme or intent URL to the OS. iOS: yes, as Swedbank Pay's
    /// iOS SDK does since 2023 (3-D Secure challenges run in iframes and some banks start BankID from them).
    /// Android: only with a user gesture, as Chromium allows a sub-frame's external-app launch. nil: it may.
    private func subframeLaunchRefused(_ url: WebURL, _ navigation: Navigation) -> Decision? {
        guard navigation.frame == .sub, policy.platform == .android, !navigation.userGesture else { return nil }
        return Decision(
            .block, rule: .subframeNoGesture,
            reason: "a sub-frame may open an app (\(url.scheme):) only on a user gesture")
    }

    // MARK: - Interception

    /// Same scheme, comparable host, port, credentials and path (`host` is `a.comparableHost`). The cheap,
    /// most discriminating comparisons come first; the result is the conjunction of all.
    private func sameResource(_ a: WebURL, host: String?, _ b: ResourceKey) -> Bool {
        a.port == b.url.port && a.path == b.url.path && a.scheme == b.url.scheme && host == b.host
            && a.username == b.url.username && a.password == b.url.password
    }

    private func sameURL(_ url: WebURL, host: String?, _ target: ResourceKey?) -> Bool {
        guard let target else { return false }
        return sameResource(url, host: host, target) && (url.query ?? "") == target.query
    }

    /// paymentUrl, or a variant: extra query items in any order; `callbackScheme` instead of http(s).
    public func isPaymentURL(_ candidate: String) -> Bool {
        guard let url = WebURL(candidate) else { return false }
        return isPayment(url)
    }

    private func isPayment(_ url: WebURL, host: String? = nil, hostKnown: Bool = false) -> Bool {
        guard let payment, let paymentKey else { return false }
        // Same path is required below (a scheme swap never changes it): the cheap early exit for most URLs.
        guard url.path == payment.path else { return false }
        var candidate = url
        if candidate.scheme != payment.scheme {
            // Only the app's own callback scheme may stand in for paymentUrl's scheme; no other scheme.
            guard let callbackScheme, candidate.scheme == callbackScheme else { return false }
            candidate = candidate.replacingScheme(payment.scheme)
        }
        // The fragment plays no part: sameResource and queryItems never look at it.
        guard sameResource(candidate, host: hostKnown ? host : candidate.comparableHost, paymentKey) else { return false }
        // Every query item of paymentUrl must be there (as a multiset); extra items are allowed. The same query
        // string (paymentUrl itself came back) or a paymentUrl without query items needs no decoding.
        if paymentQueryItems.isEmpty || (candidate.query ?? "") == paymentKey.query { return true }
        var remaining = candidate.queryItems.sorted()
        for item in paymentQueryItems {
            guard let idx = remaining.firstIndex(of: item) else { return false }
            remaining.remove(at: idx)
        }
        return true
    }

    private func intercept(_ url: WebURL, host: String?, _ navigation: Navigation) -> Decision? {
        // The fragment plays no part in sameURL (it compares scheme, host, port, credentials, path, query).
        if sameURL(url, host: host, completeKey) {
            return Decision(.complete, rule: .interceptComplete, reason: "completeUrl reached: the payment is finished")
        }
        if sameURL(url, host: host, cancelKey) {
            return Decision(.canceled, rule: .interceptCancel, reason: "cancelUrl reached: the payment was canceled")
        }
        if sameURL(url, host: host, termsKey) {
            return Decision(.terms, rule: .interceptTerms, reason: "termsOfServiceUrl reached: the app shows the terms")
        }
        if isPayment(url, host: host, hostKnown: true) {
            if navigation.trigger == .appLoad, navigation.frame == .main, SchemeKind(scheme: url.scheme) == .web {
                return Decision(
                    .allow, rule: .interceptPaymentLoad, reason: "the host app's own load of the payment page: it loads")
            }
            let how = url.scheme == payment?.scheme ? "paymentUrl" : "paymentUrl via callback scheme \(url.scheme):"
            return Decision(
                .reload(target: policy.paymentURL), rule: .interceptPayment,
                reason: "\(how) came back: reload the payment page")
        }
        return nil
    }

    // MARK: - http(s)

    private func isOwn(_ url: WebURL, host: String?) -> Bool {
        guard let host else { return false }
        var key = url.port.map { "\(host):\($0)" } ?? host
        // Plain http is the merchant's own only where the policy names the http origin itself.
        if url.scheme == "http" { key = "http://" + key }
        // A handful of origins (the usual case): comparing is cheaper than hashing the key.
        if let few = ownOriginList { if few.contains(key) { return true } } else if ownOrigins.contains(key) { return true }
        // Wildcard entries admit their hosts on the scheme's default port only, like goodlist entries.
        guard !ownPatterns.isEmpty, url.port == nil else { return false }
        let http = url.scheme == "http"
        return ownPatterns.contains { (!http || $0.http) && $0.pattern.matches(normalizedHost: host) }
    }

    private func decideWeb(_ url: WebURL, host comparableHost: String?, _ navigation: Navigation) -> Decision {
        switch policy.platform {
        case .ios:
            if let app = system.universalLinkApp(for: url) {
                return Decision(
                    .openApp(target: url.href, via: .universalLink), rule: .iosUniversalLink,
                    reason: "\(app) claims this URL as a universal link")
            }
        case .android:
            if let app = system.appLinkApp(for: url) {
                return Decision(
                    .openApp(target: url.href, via: .appLink), rule: .androidAppLink,
                    reason: "\(app) has a verified app link for this URL")
            }
        }
        let host = comparableHost ?? ""
        if isOwn(url, host: comparableHost) {
            return Decision(.allow, rule: .webOwnHost, reason: "\(host) is the merchant's own host")
        }
        if url.scheme == "http" {
            // No TLS: card data and session cookies in the clear. Whatever the redirect policy, such a page
            // leaves the web view for the browser, which shows the user that it is not secure.
            return Decision(
                .openBrowser(target: url.href), rule: .webInsecure,
                reason:
                    "\(host) is served over plain http: it never stays in the web view unless allowedHosts names http://\(host)")
        }
        switch policy.redirectPolicy {
        case .webview:
            return Decision(.allow, rule: .webRedirectWebView, reason: "redirectPolicy webview: \(host) loads in the web view")
        case .browser:
            return Decision(
                .openBrowser(target: url.href), rule: .webRedirectBrowser,
                reason: "redirectPolicy browser: \(host) is not the merchant's own; it opens in the browser")
        case .goodlist:
            // The goodlist admits hosts on their scheme's default port only: a port must not widen it.
            if let entry = policy.goodlist.entry(admitting: url) {
                var at = ""
                if let file = entry.file { at = " (\(file)\(entry.line.map { ":\($0)" } ?? ""))" }
                return Decision(.allow, rule: .webGoodlist, reason: "\(host) is on the goodlist as \(entry.pattern)\(at)")
            }
            // Picky-page rule (Swedbank Pay's plain web view guide, SwedbankPay iOS SDK): re-open the CURRENT page in the browser; when the
            // current page is the payment page itself (or there is none), the SDK opens the new URL instead.
            if navigation.frame == .newWindow {
                // A popup is its own page: it opens in the browser and the opener stays in the web view.
                return Decision(
                    .openBrowser(target: url.href), rule: .webPickyPageNewWindow,
                    reason: "\(host) is not on the goodlist: the new window opens in the browser; the current page stays")
            }
            let current = navigation.currentURL.flatMap { WebURL($0) }.flatMap {
                SchemeKind(scheme: $0.scheme) == .web ? $0 : nil
            }
            if let current, !isPayment(current) {
                return Decision(
                    .openBrowser(target: current.href), rule: .webPickyPage,
                    reason: "\(host) is not on the goodlist: the current page continues in the browser")
            }
            let why = current == nil ? "there is no current web page" : "the current page is the payment page"
            return Decision(
                .openBrowser(target: url.href), rule: .webPickyPageFromPayment,
                reason: "\(host) is not on the goodlist and \(why): the new URL opens in the browser")
        }
    }

    // MARK: - intent:

    /// `tel:#…`, `tel:*%2306%23`: a `#` (raw or percent-encoded) dials a code, not a number (GeckoView's rule).
    static func hasMMICode(_ url: WebURL) -> Bool {
        if url.fragment != nil { return true }
        let decoded = WebURL.percentDecode(Array((url.path + "?" + (url.query ?? "")).utf8))
        return decoded.contains(UInt8(ascii: "#"))
    }

    private func decideIntent(_ navigation: Navigation) -> Decision {
        guard policy.platform == .android else {
            return Decision(.block, rule: .intentIOS, reason: "intent: URLs exist only on Android")
        }
        let raw = NavigationPolicyEngine.trimmed(navigation.url)
        let intent: AndroidIntent
        do {
            intent = try AndroidIntent.parse(raw)
        } catch {
            return Decision(.block, rule: .intentMalformed, reason: "the intent: URL does not parse: \(error.message)")
        }
        var chain: [AndroidIntent] = [intent]
        if let sel = intent.selector?.intent { chain.append(sel) }
        if intent.isUnsafeData {
            let scheme = intent.dataScheme ?? intent.selector?.intent.dataScheme ?? "an unsafe"
            return Decision(.block, rule: .intentUnsafe, reason: "the intent wraps a \(scheme): URL, which never reaches an app")
        }
        for i in chain {
            if let data = i.data, let scheme = NavigationPolicyEngine.schemeOf(data), SchemeKind(scheme: scheme) == .neverExternal
            {
                return Decision(
                    .block, rule: .intentUnsafe, reason: "the intent wraps a \(scheme): URL, which never reaches an app")
            }
        }
        // What a page may launch is what Chrome launches (ExternalNavigationHandler): BROWSABLE added, explicit
        // component and selector removed, launch flags masked. The app resolves and starts that intent, never
        // the page's: `target` is the sanitized intent's URI.
        let launched = intent.sanitizedForLaunch()
        if let app = system.intentApp(for: launched) {
            if system.isHostApp(app) { return decideIntentIntoHost(launched, app: app, navigation) }
            return Decision(
                .openApp(target: launched.toURI(), via: .intent), rule: .intentApp,
                reason: "\(app) takes the intent\(Self.stripped(from: intent))")
        }
        if intent.browserFallbackURL != nil {
            if let fallback = intent.safeBrowserFallbackURL, let f = WebURL(fallback), SchemeKind(scheme: f.scheme) == .web {
                // The fallback is a web navigation like any other: the same interception, app links, own
                // hosts, goodlist and picky-page rule decide it. Only a page the web view may show is loaded.
                var web = navigation
                web.url = f.href
                let decision = decide(web)
                if case .allow = decision.action {
                    return Decision(
                        .load(target: f.href), rule: .intentFallback,
                        reason: "no app takes the intent: loading its browser_fallback_url (\(decision.reason))")
                }
                return Decision(
                    decision.action, rule: decision.rule,
                    reason: "no app takes the intent; its browser_fallback_url: \(decision.reason)")
            }
            return Decision(
                .block, rule: .intentNoApp,
                reason: "no app takes the intent and its browser_fallback_url is not http(s)")
        }
        let what = intent.package.map { "package \($0)" } ?? "the intent"
        return Decision(
            .block, rule: .intentNoApp,
            reason: KnownApp.notInstalledMessage(url: raw).map {
                "\($0) (no app installed for \(what) and no browser_fallback_url)"
            } ?? "no app installed for \(what) and no browser_fallback_url")
    }

    /// An intent a page addresses to the app that embeds the web view. The app is already in front, and a page
    /// must never start its activities (Chromium never launches an intent into the embedder itself: one that
    /// resolves to the browser loads its URL in the tab). Its data URL is decided as the navigation instead, so
    /// an intent wrapping paymentUrl reloads the payment page and one wrapping a page the web view may show loads
    /// that page; an intent without a URL to decide is blocked.
    private func decideIntentIntoHost(_ intent: AndroidIntent, app: String, _ navigation: Navigation) -> Decision {
        let what = "the intent names the host app \(app) itself, which a page never launches"
        guard let data = intent.data, let scheme = NavigationPolicyEngine.schemeOf(data),
            scheme != "intent", scheme != "android-app"
        else {
            return Decision(.block, rule: .intentHost, reason: "\(what), and it carries no URL to open instead")
        }
        var inner = navigation
        inner.url = data
        let decision = decide(inner)
        if case .allow = decision.action, let url = WebURL(data) {
            // The web view cannot load the intent: URL itself; it loads the page the intent carries.
            return Decision(.load(target: url.href), rule: .intentHost, reason: "\(what): loading its URL (\(decision.reason))")
        }
        return Decision(decision.action, rule: decision.rule, reason: "\(what): its URL is decided instead: \(decision.reason)")
    }

    /// What sanitizing removed from a page's intent, for the reason (empty when nothing was).
    static func stripped(from intent: AndroidIntent) -> String {
        var parts: [String] = []
        if let component = intent.component { parts.append("component \(component)") }
        if intent.selector != nil { parts.append("its selector") }
        let flags = intent.flags & ~AndroidIntent.allowedLaunchFlags
        if flags != 0 { parts.append("launch flags 0x\(String(flags, radix: 16))") }
        guard !parts.isEmpty else { return "" }
        return " (launched as Chrome would: without \(parts.joined(separator: ", ")))"
    }

    /// Without leading/trailing C0 controls and spaces, and without tab/newline (what a browser ignores).
    static func trimmed(_ s: String) -> String { WebURL.stripped(s) }

    static func schemeOf(_ s: String) -> String? {
        guard let url = WebURL(s) else {
            // Not parseable: look at what precedes the first ':' anyway, so garbage never passes as safe.
            guard let c = s.firstIndex(of: ":") else { return nil }
            return trimmed(String(s[..<c])).lowercased()
        }
        return url.scheme
    }
}
