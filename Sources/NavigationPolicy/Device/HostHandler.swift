// How the host app answers its web view's navigations: with Plainview's policy, or as an app that does not use
// it does today. The environment file's `webView.handler` (docs/environment.md).

/// The host app's navigation handling. Every handler lets the app's own loads through (the first load, a reload);
/// they differ on what the page itself navigates to.
public enum HostHandler: String, Sendable, Hashable, Codable, CaseIterable {
    /// Plainview's policy, through the documented delegates (docs/embedding.md). The default.
    case plainview
    /// No navigation delegate (iOS) or no `WebViewClient` (Android): the platforms' defaults. WKWebView loads
    /// what it can load and fails on other schemes; Android hands every navigation after the first to the system.
    case none
    /// The delegates of Swedbank Pay's plain web view guide as written: completeUrl and cancelUrl compared as
    /// strings, then any URL an installed app claims opened in it, other schemes handed to the OS.
    case guide
    /// An in-app browser (or a `WebViewClient` whose `shouldOverrideUrlLoading` returns false): every URL loads in
    /// the web view, and one it cannot load fails (Android: `net::ERR_UNKNOWN_URL_SCHEME`).
    case inAppBrowser = "in-app-browser"
    /// Cordova's web view on Android: http(s) stays, other schemes go to `startActivity` (an `intent:` URL
    /// parsed with `Intent.parseUri`), and when no app takes the intent its `S.browser_fallback_url` is ignored.
    case cordova
    /// react-native-webview: an origin matching `originWhitelist` loads in the web view; any other URL goes to
    /// `Linking.openURL`, which opens it the ordinary way (ACTION_VIEW on Android, `UIApplication.open` on iOS).
    case allowList = "allow-list"
}
