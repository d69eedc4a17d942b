// The OS routing table of the simulated device: the one place that says where a URL goes when someone hands
// it over — an installed app (universal link, app link, custom scheme, intent), the system browser, or
// nowhere. The web view's open-app, the browser's navigations to other schemes, the apps' returns and the
// host app's "open in browser" all come here; the world only carries the route out.
import NavigationPolicy
import PlainviewURL

/// Who hands a URL to the OS.
enum Opener: Hashable {
    /// The host app's web view carrying out the policy's `open-app`: only the mechanism the policy named
    /// (`UIApplication.open(_:options: [.universalLinksOnly: true])`, an explicit intent …).
    case webView(via: AppOpenVia)
    /// The system browser navigating itself (Safari / Chrome).
    case browser(BrowserNavigation)
    /// An app opening a URL the ordinary way (the host app's "open in the browser", another app returning).
    case app(String)
}

/// What the browser knows about one of its own navigations.
struct BrowserNavigation: Hashable {
    /// A top-level navigation (a sub-frame cannot open an app).
    var topLevel: Bool
    /// The user tapped.
    var gesture: Bool
    /// The host of the page the browser shows, if any (Safari opens a universal link only to another domain).
    var currentHost: String?
    /// Android: why Chrome's navigation-chain rules refuse an app launch without a gesture now (`BrowserChain`);
    /// nil: they allow it (Chrome may still block it: the `redirect-blocked` choice).
    var chainRefusal: String?
    /// Android: a navigation without a gesture inside a chain Chrome still lets launch an app (a user's tap or
    /// another app began it less than 15 s ago, and it launched none yet): an app link may open its app.
    var chainAllowsLaunch: Bool
    /// iOS: the browser's name in what it says (Safari, or the default browser the user chose).
    var name: String

    init(
        topLevel: Bool = true, gesture: Bool = false, currentHost: String? = nil, chainRefusal: String? = nil,
        chainAllowsLaunch: Bool = false, name: String = "Safari"
    ) {
        self.name = name
        self.topLevel = topLevel
        self.gesture = gesture
        self.currentHost = currentHost
        self.chainRefusal = chainRefusal
        self.chainAllowsLaunch = chainAllowsLaunch
    }
}

/// Where a handed-over URL goes.
enum Route: Equatable {
    /// The OS launches `app` with `url` (for an intent: its data URL).
    case app(String, url: String, via: AppOpenVia)
    /// Safari asks the user first (“Open this page in …?”), then launches `app` by its custom scheme.
    case prompt(String, url: String)
    /// The system browser loads `url` (for the browser itself: it keeps loading it).
    case browser(String)
    /// No app takes an intent: the browser loads its `S.browser_fallback_url`.
    case fallback(String)
    /// iOS: a browser app's own scheme (`googlechromes://…`, `firefox://open-url?url=…`): that browser, with the web
    /// URL it should load (nil: none, it comes back as it was).
    case namedBrowser(SystemBrowser, opens: String?)
    /// Nothing opens.
    case nowhere(Refusal)
}

/// Why nothing opens, and how loudly.
enum Refusal: Equatable {
    /// A problem the flow may end on (it becomes the stuck reason when nothing else happens).
    case problem(String)
    /// A note in the trace; nothing went wrong (a `javascript:` URL in the browser, a frame's app link).
    case note(String)
    /// Nothing to say (a frame's intent: Chrome ignores it).
    case silent
}

/// The routing table. Pure over its `system`, whose answers may be choice points.
struct OSRouter {
    let platform: Platform
    let system: any RoutingSystem

    /// Where `url`, handed over by `opener`, goes.
    func route(_ url: String, from opener: Opener) -> Route {
        if case .webView(let via) = opener { return routeOpenApp(url, via: via) }
        let ios = platform == .ios
        let browser: BrowserNavigation? = if case .browser(let b) = opener { b } else { nil }
        let scheme = URLTools.scheme(url) ?? ""
        switch scheme.isEmpty ? SchemeKind.neverExternal : SchemeKind(scheme: scheme) {
        case .web:
            // The browser opens an app by a link only on a top-level user tap (Safari: to another domain; Chrome: also
            // from a navigation chain a tap or another app began, ExternalNavigationHandler).
            if let b = browser {
                guard b.topLevel, b.gesture || (!ios && b.chainAllowsLaunch), !ios || URLTools.host(url) != b.currentHost
                else { return .browser(url) }
            }
            if ios, let app = system.universalLinkApp(for: url) { return .app(app, url: url, via: .universalLink) }
            if !ios, let app = system.appLinkApp(for: url) { return .app(app, url: url, via: .appLink) }
            return .browser(url)
        case .intent:
            guard !ios else {
                return .nowhere(
                    .problem(
                        browser.map { "\($0.name) cannot open \(scheme): URLs (the address is invalid)" }
                            ?? "the OS cannot open \(url)"))
            }
            if let b = browser {
                guard b.topLevel else { return .nowhere(.silent) }
                // Chrome does not launch here: an intent with an http(s) fallback loads the fallback instead
                // (ExternalNavigationHandler), else nothing happens.
                if !b.gesture, let rule = b.chainRefusal {
                    if let fallback = IntentURL.parse(url)?.browserFallbackURL, URLTools.isWeb(fallback) {
                        return .fallback(fallback)
                    }
                    return .nowhere(.problem(rule))
                }
                if !b.gesture, let refusal = blockedRedirect(url, b) { return .nowhere(refusal) }
            }
            guard let intent = IntentURL.parse(url) else {
                return .nowhere(.problem(browser != nil ? "Chrome cannot parse the intent URL" : "the OS cannot open \(url)"))
            }
            // Chrome resolves the intent it would launch: BROWSABLE added, component and selector removed.
            if let app = system.intentApp(for: intent.sanitizedForLaunch()) {
                return .app(app, url: intent.data ?? url, via: .intent)
            }
            if let fallback = intent.browserFallbackURL, URLTools.isWeb(fallback) { return .fallback(fallback) }
            let none = "no app takes the intent (package \(intent.package ?? "none"))"
            return .nowhere(
                .problem(browser != nil ? none + " and it has no http(s) fallback: Chrome offers the Play Store" : none))
        case .neverExternal:
            if browser != nil { return .nowhere(.note("nothing to navigate to")) }
            return .nowhere(.problem("the OS refuses to open \(scheme.isEmpty ? "a malformed URL" : scheme + ": URLs")"))
        case .custom:
            if let b = browser, !b.topLevel { return .nowhere(.note("a frame cannot open an app")) }
            let app = system.customSchemeApp(for: scheme) ?? system.defaultApp(for: scheme, on: platform)
            if app == nil, ios, let own = SystemBrowser.ownURL(url) { return .namedBrowser(own.browser, opens: own.opens) }
            guard let app else {
                guard let b = browser else { return .nowhere(.problem("no app handles \(scheme): URLs")) }
                return .nowhere(
                    .problem(
                        ios
                            ? "\(b.name) cannot open the page: no app handles \(scheme):"
                            : "Chrome cannot open \(scheme): no app handles it"))
            }
            if let b = browser {
                // Safari asks before it opens another app by a custom scheme; Chrome may block it without a tap.
                if ios { return .prompt(app, url: url) }
                if !b.gesture, let refusal = blockedRedirect(url, b) { return .nowhere(refusal) }
            }
            return .app(app, url: url, via: .customScheme)
        }
    }

    /// The policy decided `open-app` by `via`: the OS tries that mechanism only.
    private func routeOpenApp(_ target: String, via: AppOpenVia) -> Route {
        var url = target
        let app: String?
        switch via {
        case .universalLink: app = system.universalLinkApp(for: target)
        case .appLink: app = system.appLinkApp(for: target)
        case .customScheme:
            app = URLTools.scheme(target).flatMap { system.customSchemeApp(for: $0) ?? system.defaultApp(for: $0, on: platform) }
        case .intent:
            let intent = IntentURL.parse(target)
            app = intent.flatMap { system.intentApp(for: $0) }
            url = intent?.data ?? target
        }
        guard let app else { return .nowhere(.problem("the OS found no app for \(target) (\(via.rawValue))")) }
        return .app(app, url: url, via: via)
    }

    private func blockedRedirect(_ url: String, _ b: BrowserNavigation) -> Refusal? {
        if let rule = b.chainRefusal { return .problem(rule) }
        return system.automaticAppRedirectAllowed(url)
            ? nil : .problem("Chrome blocked the automatic redirect to an app; it needs a user tap")
    }
}
