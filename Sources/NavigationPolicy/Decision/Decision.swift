// The decision contract: what a web view must do with one navigation.
// Stable public API (docs/decisions.md); other targets and apps code against it.

/// The platform whose web view and OS rules apply.
public enum Platform: String, Sendable, Hashable, Codable, CaseIterable {
    case ios
    case android
}

/// Which frame the navigation happens in.
public enum NavigationFrame: String, Sendable, Hashable, Codable, CaseIterable {
    case main
    case sub
    case newWindow = "new-window"
}

/// What started the navigation.
public enum NavigationTrigger: String, Sendable, Hashable, Codable, CaseIterable {
    /// The user tapped a link or button (a user gesture).
    case link
    /// An HTTP 3xx redirect from the server.
    case serverRedirect = "redirect"
    /// A declarative refresh (`<meta http-equiv=refresh>` or the `Refresh` header).
    case metaRefresh = "refresh"
    /// Script (`location.href = …`, `window.open`) without a user gesture.
    case script
    /// A form submission (auto-submitted or by the user).
    case form
    /// A frame's first load (an `<iframe>`'s `src`; a browser tab opened with a URL).
    case initialLoad = "initial"
    /// The host app's own `webView.load(…)` in the main frame: its first load of the payment page and every
    /// reload after a return. WKWebView asks the delegate about these too (Android's `shouldOverrideUrlLoading` is
    /// not called for `loadUrl`); the app says it is its own load, and paymentUrl then loads instead of being
    /// answered `reload` again (which would reload forever).
    case appLoad = "app-load"
    case reload
    case backForward = "back-forward"
}

/// One navigation the web view is about to perform.
public struct Navigation: Sendable, Hashable {
    /// The target URL exactly as the page (or server) gave it.
    public var url: String
    /// The URL of the page currently shown in the main frame, if any.
    public var currentURL: String?
    public var frame: NavigationFrame
    public var trigger: NavigationTrigger
    /// True when the navigation carries a user gesture (a tap), whatever the trigger.
    public var userGesture: Bool
    /// HTTP method, upper case.
    public var method: String

    public init(
        url: String,
        currentURL: String? = nil,
        frame: NavigationFrame = .main,
        trigger: NavigationTrigger = .link,
        userGesture: Bool? = nil,
        method: String = "GET"
    ) {
        self.url = url
        self.currentURL = currentURL
        self.frame = frame
        self.trigger = trigger
        self.userGesture = userGesture ?? (trigger == .link)
        self.method = method.uppercased()
    }
}

/// How an app is opened.
public enum AppOpenVia: String, Sendable, Hashable, Codable, CaseIterable {
    /// iOS universal link (AASA).
    case universalLink = "universal-link"
    /// Android verified app link.
    case appLink = "app-link"
    /// A custom URL scheme (`bankid://…`, `swish://…`).
    case customScheme = "custom-scheme"
    /// An Android `intent:` (or `android-app:`) URL.
    case intent
}

/// What the web view must do. A closed set: every navigation ends in exactly one of these.
public enum NavigationAction: Sendable, Hashable {
    /// Load it in the web view.
    case allow
    /// completeUrl reached: cancel; the payment is finished.
    case complete
    /// cancelUrl reached: cancel; the payment was canceled.
    case canceled
    /// paymentUrl (or an accepted variant) came back: cancel and (re)load the payment page `target`.
    case reload(target: String)
    /// termsOfServiceUrl reached: cancel; the host app shows the terms.
    case terms
    /// Cancel and hand `target` to the OS to open an app.
    case openApp(target: String, via: AppOpenVia)
    /// Cancel and open `target` in the system browser.
    case openBrowser(target: String)
    /// Cancel and load `target` in the web view instead (e.g. an intent's browser fallback URL).
    case load(target: String)
    /// Cancel; nothing opens.
    case block

    /// The contract's name of the action (`allow`, `open-app`, …).
    public var name: String {
        switch self {
        case .allow: "allow"
        case .complete: "complete"
        case .canceled: "canceled"
        case .reload: "reload"
        case .terms: "terms"
        case .openApp: "open-app"
        case .openBrowser: "open-browser"
        case .load: "load"
        case .block: "block"
        }
    }

    /// The URL the action hands on, if any.
    public var target: String? {
        switch self {
        case .reload(let t), .openApp(let t, _), .openBrowser(let t), .load(let t): t
        case .allow, .complete, .canceled, .terms, .block: nil
        }
    }

    /// How an app is opened, for `open-app`.
    public var via: AppOpenVia? {
        if case .openApp(_, let via) = self { return via }
        return nil
    }
}

/// Identifies the rule that fired. An open set: rules are added over time.
public struct RuleID: RawRepresentable, Sendable, Hashable, Codable, CustomStringConvertible {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }
}

/// The engine's answer: the action, the rule that fired, and a sentence a person can act on.
public struct Decision: Sendable, Hashable {
    public var action: NavigationAction
    public var rule: RuleID
    public var reason: String

    public init(_ action: NavigationAction, rule: RuleID, reason: String) {
        self.action = action
        self.rule = rule
        self.reason = reason
    }
}
