// What an app's web view does with a decision: the answer to its navigation callback (load or not) and the one
// thing the app does next. Pure values, so an iOS `WKNavigationDelegate` and an Android `WebViewClient` apply
// the same mapping, and docs/embedding.md shows code that is compiled and tested here.

/// How a payment ended, as the host app learns it from the web view.
public enum PaymentEnd: String, Sendable, Hashable, CaseIterable {
    case complete
    case canceled
}

/// iOS: what `webView(_:decidePolicyFor:decisionHandler:)` answers and what the app does next.
public struct IOSWebViewCommand: Sendable, Hashable {
    /// `WKNavigationActionPolicy`: the web view loads the URL (`allow`) or does not (`cancel`).
    public enum Policy: String, Sendable, Hashable {
        case allow
        case cancel
    }

    /// What the app does after answering.
    public enum Then: Sendable, Hashable {
        /// Nothing more: the web view loads the URL, or nothing opens (a blocked navigation).
        case nothing
        /// `UIApplication.shared.open(url, options: [.universalLinksOnly: universalLinksOnly])`: with
        /// `universalLinksOnly` the OS opens the app that claims the universal link, never Safari.
        case openApp(url: String, universalLinksOnly: Bool)
        /// `UIApplication.shared.open(url)`: the page continues in the system browser (Safari).
        case openInBrowser(url: String)
        /// The payment is over: close the web view and report the end.
        case finish(PaymentEnd)
        /// The app shows its terms of service (the URL the page asked for).
        case showTerms(url: String)
        /// Load the payment page again in the web view (`webView.load(URLRequest(url: paymentURL))`).
        case loadPaymentPage(url: String)
        /// Load another URL in the web view instead (an intent's browser fallback).
        case load(url: String)
    }

    public var policy: Policy
    public var then: Then

    public init(policy: Policy, then: Then) {
        self.policy = policy
        self.then = then
    }

    /// The command for `decision`, made for the navigation to `url`.
    public init(_ decision: Decision, url: String) {
        switch decision.action {
        case .allow: self.init(policy: .allow, then: .nothing)
        case .complete: self.init(policy: .cancel, then: .finish(.complete))
        case .canceled: self.init(policy: .cancel, then: .finish(.canceled))
        case .terms: self.init(policy: .cancel, then: .showTerms(url: url))
        case .reload(let target): self.init(policy: .cancel, then: .loadPaymentPage(url: target))
        case .openApp(let target, let via):
            self.init(policy: .cancel, then: .openApp(url: target, universalLinksOnly: via == .universalLink))
        case .openBrowser(let target): self.init(policy: .cancel, then: .openInBrowser(url: target))
        case .load(let target): self.init(policy: .cancel, then: .load(url: target))
        case .block: self.init(policy: .cancel, then: .nothing)
        }
    }
}

/// Android: what `shouldOverrideUrlLoading` returns and what the app does next. Built from a `Decision`, or from
/// the JSON decision contract (`plainview decide` output) an Android app reads, with the same result.
public struct AndroidWebViewCommand: Sendable, Hashable {
    /// How an app is started.
    public enum Launch: String, Sendable, Hashable {
        /// `Intent.parseUri(url, Intent.URI_INTENT_SCHEME)`, then `startActivity`.
        case intentURI = "intent-uri"
        /// `Intent(ACTION_VIEW, uri)` with `FLAG_ACTIVITY_REQUIRE_NON_BROWSER` (a verified app link: never a browser).
        case viewNonBrowser = "view-non-browser"
        /// `Intent(ACTION_VIEW, uri)` (a custom scheme).
        case view
    }

    public enum Then: Sendable, Hashable {
        case nothing
        case startActivity(url: String, launch: Launch)
        /// `Intent(ACTION_VIEW, uri)` with `CATEGORY_BROWSABLE` to the default browser.
        case openInBrowser(url: String)
        case finish(PaymentEnd)
        case showTerms(url: String)
        case loadPaymentPage(url: String)
        /// `view.loadUrl(url)` instead of the URL asked for.
        case load(url: String)
    }

    /// What `shouldOverrideUrlLoading` returns: `true` when the web view must not load the URL itself.
    public var overrideUrlLoading: Bool
    public var then: Then

    public init(overrideUrlLoading: Bool, then: Then) {
        self.overrideUrlLoading = overrideUrlLoading
        self.then = then
    }

    /// The command for `decision`, made for the navigation to `url`.
    public init(_ decision: Decision, url: String) {
        // The decision's own contract names are the one mapping; a Decision always fits it.
        self.init(action: decision.action.name, target: decision.action.target, via: decision.action.via?.rawValue, url: url)!
    }

    /// The command for one JSON decision (`action`, `target`, `via` as `plainview decide` prints them) for the
    /// navigation to `url`; nil when the action is unknown or a target it needs is missing.
    public init?(action: String, target: String?, via: String?, url: String) {
        switch action {
        case "allow": self.init(overrideUrlLoading: false, then: .nothing)
        case "complete": self.init(overrideUrlLoading: true, then: .finish(.complete))
        case "canceled": self.init(overrideUrlLoading: true, then: .finish(.canceled))
        case "terms": self.init(overrideUrlLoading: true, then: .showTerms(url: url))
        case "block": self.init(overrideUrlLoading: true, then: .nothing)
        case "reload":
            guard let target else { return nil }
            self.init(overrideUrlLoading: true, then: .loadPaymentPage(url: target))
        case "open-browser":
            guard let target else { return nil }
            self.init(overrideUrlLoading: true, then: .openInBrowser(url: target))
        case "load":
            guard let target else { return nil }
            self.init(overrideUrlLoading: true, then: .load(url: target))
        case "open-app":
            guard let target, let via = via.flatMap(AppOpenVia.init(rawValue:)) else { return nil }
            let launch: Launch =
                switch via {
                case .intent: .intentURI
                case .appLink, .universalLink: .viewNonBrowser
                case .customScheme: .view
                }
            self.init(overrideUrlLoading: true, then: .startActivity(url: target, launch: launch))
        default:
            return nil
        }
    }
}
