// What the simulated device has installed (docs/environment.md), as a value.

/// The apps installed on a simulated device. Browsers are not listed: they are never targets of intents.
public struct Environment: Sendable, Hashable, Codable {
    public var apps: [App]
    /// The schemes whose platform app (Phone for `tel:`, Mail for `mailto:` …) the device has; nil means
    /// every one the platform ships (`PlatformDefaultApps`), `[]` none (a tablet without telephony, say).
    public var defaultApps: [String]?
    /// The host app's web view settings.
    public var webView: WebViewSettings
    /// The name of the app that embeds the web view (`behaviour: {host: true}` in an environment file), if the
    /// device has it.
    public var hostApp: String?
    /// The browser the OS opens web URLs in (nil: not said, so the platform's, Safari or Chrome; on iOS `--explore`
    /// then branches on another one where it matters).
    public var defaultBrowser: SystemBrowser?

    public init(
        apps: [App] = [], defaultApps: [String]? = nil, webView: WebViewSettings = WebViewSettings(), hostApp: String? = nil,
        defaultBrowser: SystemBrowser? = nil
    ) {
        self.defaultBrowser = defaultBrowser
        self.apps = apps
        self.defaultApps = defaultApps.map { $0.map { $0.lowercased() } }
        self.webView = webView
        self.hostApp = hostApp
    }

    /// The settings of the host app's web view that change what a page can do. Each defaults to the platforms'
    /// default (WKWebView's `WKPreferences` and `WKUIDelegate`, Android's `WebSettings` and `WebChromeClient`).
    public struct WebViewSettings: Sendable, Hashable, Codable {
        /// `javaScriptCanOpenWindowsAutomatically` (iOS and Android). False: a new window that no user gesture
        /// opened (`window.open` from a script, a `target=_blank` form the page submits itself) is blocked by
        /// the engine's popup blocker and never reaches the app's navigation delegate.
        public var javaScriptCanOpenWindowsAutomatically: Bool
        /// Android's `setSupportMultipleWindows`. False: a new window (a `target=_blank` link, a `window.open`
        /// the popup blocker lets through) loads in the web view itself, as a main-frame navigation that
        /// `shouldOverrideUrlLoading` sees. iOS has no such setting: the new window reaches the policy as a
        /// new-window navigation.
        public var supportMultipleWindows: Bool
        /// What the app does with a page's JavaScript dialogs (`alert`, `confirm`, `prompt`).
        public var dialogs: Dialogs
        /// How the app answers the web view's navigations (`HostHandler`): Plainview's policy, or what an app
        /// that does not use it does.
        public var handler: HostHandler
        /// For `allow-list`: react-native-webview's `originWhitelist`, origin patterns with `*` (its default:
        /// `http://*` and `https://*`).
        public var originWhitelist: [String]
        public static let defaultOriginWhitelist = ["http://*", "https://*"]
        /// iOS: the Info.plist's `WKAppBoundDomains` (nil: the key is absent). WebKit reads at most 10; a domain
        /// stands for itself and its subdomains. Declaring the key at all keeps script message handlers (the
        /// app's JavaScript hooks) from pages on other domains.
        public var appBoundDomains: [String]?
        /// iOS: `WKWebViewConfiguration.limitsNavigationsToAppBoundDomains`: a main-frame navigation to a domain
        /// that is not app-bound fails (`WKError.navigationAppBoundDomain`).
        public var limitsNavigationsToAppBoundDomains: Bool
        /// Whether the web view keeps and sends cookies of a sub-frame whose site is not the page's (an ACS or a
        /// 3DS Method frame on the bank's domain inside the merchant's page). False on both platforms by default:
        /// Android's `CookieManager.setAcceptThirdPartyCookies(webView, true)` turns it on (apps targeting
        /// Lollipop or later start with it off); WebKit blocks every cross-site cookie in WKWebView since iOS 13.4
        /// ("Full Third-Party Cookie Blocking"), unless the user allows the app cross-website tracking in Settings,
        /// which an app may ask for with `NSCrossWebsiteTrackingUsageDescription`.
        public var acceptThirdPartyCookies: Bool
        /// iOS: the host app's Info.plist declares `NSCrossWebsiteTrackingUsageDescription`, so its user may have
        /// allowed it cross-website tracking in Settings (off until they do). Read from the Info.plist, not a key
        /// of the environment file: with it, whether third-party cookies are kept is an uncertain point that
        /// `--explore` branches on (`third-party-cookies-allowed`).
        public var mayAllowCrossWebsiteTracking: Bool = false
        /// Where the host app opens a page the policy sends to the browser (`open-browser`).
        public var openBrowser: InAppBrowser = .system
        /// The engine's user-activation rule (nil: the platform's, `UserActivation.platformDefault`).
        public var userActivation: UserActivation?

        /// A web view shows no JavaScript dialog by itself. WKWebView asks its `WKUIDelegate`
        /// (`runJavaScriptConfirmPanelWithMessage…`); without that method, `confirm()` answers false and `alert()`
        /// shows nothing. Android's WebView asks its `WebChromeClient` (`onJsConfirm`); without one, likewise.
        /// (Swedbank Pay's plain web view guide: "Web Views do not display these on their own".)
        public enum Dialogs: String, Sendable, Hashable, Codable, CaseIterable {
            /// The app implements neither (the platforms' default): `confirm()` is Cancel, `prompt()` null.
            case none
            /// The app shows them and the user answers OK (`prompt()`: its default text).
            case accept
            /// The app shows them and the user answers Cancel.
            case dismiss

            /// What `confirm()` returns in the web view.
            public var confirms: Bool { self == .accept }
        }

        public init(
            javaScriptCanOpenWindowsAutomatically: Bool = false, supportMultipleWindows: Bool = false,
            dialogs: Dialogs = .none, handler: HostHandler = .plainview,
            originWhitelist: [String] = WebViewSettings.defaultOriginWhitelist
        ) {
            self.javaScriptCanOpenWindowsAutomatically = javaScriptCanOpenWindowsAutomatically
            self.supportMultipleWindows = supportMultipleWindows
            self.dialogs = dialogs
            self.handler = handler
            self.originWhitelist = originWhitelist
            self.appBoundDomains = nil
            self.limitsNavigationsToAppBoundDomains = false
            self.acceptThirdPartyCookies = false
        }

        /// Whether `host` (normalised) is app-bound: one of the first 10 domains or a subdomain of one.
        public func isAppBound(host: String) -> Bool {
            guard let domains = appBoundDomains else { return true }
            return domains.prefix(10).contains { d in
                let d = d.lowercased()
                return host == d || host.hasSuffix("." + d)
            }
        }

        private enum CodingKeys: String, CodingKey {
            case javaScriptCanOpenWindowsAutomatically, supportMultipleWindows, dialogs, handler, originWhitelist
            case appBoundDomains, limitsNavigationsToAppBoundDomains, acceptThirdPartyCookies, userActivation, openBrowser
        }

        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            javaScriptCanOpenWindowsAutomatically =
                try c.decodeIfPresent(Bool.self, forKey: .javaScriptCanOpenWindowsAutomatically) ?? false
            supportMultipleWindows = try c.decodeIfPresent(Bool.self, forKey: .supportMultipleWindows) ?? false
            dialogs = try c.decodeIfPresent(Dialogs.self, forKey: .dialogs) ?? .none
            handler = try c.decodeIfPresent(HostHandler.self, forKey: .handler) ?? .plainview
            originWhitelist = try c.decodeIfPresent([String].self, forKey: .originWhitelist) ?? Self.defaultOriginWhitelist
            appBoundDomains = try c.decodeIfPresent([String].self, forKey: .appBoundDomains)
            limitsNavigationsToAppBoundDomains =
                try c.decodeIfPresent(Bool.self, forKey: .limitsNavigationsToAppBoundDomains) ?? false
            acceptThirdPartyCookies = try c.decodeIfPresent(Bool.self, forKey: .acceptThirdPartyCookies) ?? false
            userActivation = try c.decodeIfPresent(UserActivation.self, forKey: .userActivation)
            openBrowser = try c.decodeIfPresent(InAppBrowser.self, forKey: .openBrowser) ?? .system
        }
    }

    /// One installed app.
    public struct App: Sendable, Hashable, Codable {
        public var name: String
        /// Custom schemes it handles, lower case, without `:`.
        public var schemes: [String]
        /// iOS: domains whose apple-app-site-association names this app.
        public var universalLinks: [UniversalLink]
        /// Android package name.
        public var package: String?
        /// Android verified app links.
        public var appLinks: [LinkClaim]
        /// The built-in app this is (`behaviour: {model: swish}` in an environment file), which fills in
        /// the schemes, universal links and package the file does not give.
        public var model: KnownApp?
        /// The app's own files (absolute paths), which the simulator reads instead of `schemes`, `appLinks` and
        /// the universal links its entitlements do not claim.
        public var files: Files?

        /// The app's real configuration: AndroidManifest.xml, Info.plist, entitlements.
        public struct Files: Sendable, Hashable, Codable {
            public var manifest: String?
            public var infoPlist: String?
            public var entitlements: String?
            public init(manifest: String? = nil, infoPlist: String? = nil, entitlements: String? = nil) {
                self.manifest = manifest
                self.infoPlist = infoPlist
                self.entitlements = entitlements
            }
        }

        public init(
            name: String, schemes: [String] = [], universalLinks: [UniversalLink] = [], package: String? = nil,
            appLinks: [LinkClaim] = [], model: KnownApp? = nil, files: Files? = nil
        ) {
            self.name = name
            self.schemes = schemes.map { $0.lowercased() }
            self.universalLinks = universalLinks
            self.package = package
            self.appLinks = appLinks
            self.model = model
            self.files = files
        }
    }

    /// A universal-link claim: a host and either legacy AASA `paths` or a whole AASA document.
    public struct UniversalLink: Sendable, Hashable, Codable {
        public var host: String
        /// AASA legacy `paths` syntax (`*`, `?`, `NOT ` prefix), tried in order.
        public var paths: [String]?
        /// The `aasa:` file as named in the environment file.
        public var aasa: String?
        /// The AASA document's JSON text (read by the loader from `aasa`).
        public var aasaJSON: String?

        public init(host: String, paths: [String]? = nil, aasa: String? = nil, aasaJSON: String? = nil) {
            self.host = host
            self.paths = paths
            self.aasa = aasa
            self.aasaJSON = aasaJSON
        }
    }

    /// An Android app-link claim (host + path patterns, `*` wildcards).
    public struct LinkClaim: Sendable, Hashable, Codable {
        public var host: String
        public var paths: [String]
        public init(host: String, paths: [String] = ["/*"]) {
            self.host = host
            self.paths = paths
        }
    }
}
