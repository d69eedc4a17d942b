// The User-Agent strings a phone's browser and in-app web view send: the engine drivers give them to the engines
// they run, and the backend checker fetches a backend's phone-facing pages with them (a backend may answer a
// phone differently from a desktop client).

/// The User-Agents of the platforms' browsers and web views.
public enum PlatformUserAgents {
    /// WKWebView's own User-Agent on an iPhone (no `Version/… Safari/…`: that is Safari's, not a web view's).
    public static let iPhoneWebView =
        "Mozilla/5.0 (iPhone; CPU iPhone OS 18_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148"
    /// Mobile Safari on the same iPhone.
    public static let iPhoneSafari =
        "Mozilla/5.0 (iPhone; CPU iPhone OS 18_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.5 "
        + "Mobile/15E148 Safari/604.1"
    /// Android WebView's User-Agent (the `wv` token): pages take their mobile, in-app branch.
    public static let androidWebView =
        "Mozilla/5.0 (Linux; Android 14; Pixel 8 Build/AP2A.240805.005; wv) AppleWebKit/537.36 "
        + "(KHTML, like Gecko) Version/4.0 Chrome/156.0.0.0 Mobile Safari/537.36"
    /// Chrome on Android (its reduced User-Agent: Android version 10 and model `K` whatever the phone).
    public static let androidChrome =
        "Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Mobile Safari/537.36"

    /// The platform's in-app web view.
    public static func webView(on platform: Platform) -> String { platform == .ios ? iPhoneWebView : androidWebView }

    /// The platform's default browser.
    public static func browser(on platform: Platform) -> String { platform == .ios ? iPhoneSafari : androidChrome }
}
