// How the host app shows a page it sends out of its web view (the policy's `open-browser`): docs/environment.md
// ("In-app browsers") names the sources.

/// Where the host app opens a page it does not keep in its web view.
public enum InAppBrowser: String, Sendable, Hashable, Codable, CaseIterable {
    /// `UIApplication.open` / `startActivity(ACTION_VIEW)`: the OS routes it (universal links and app links
    /// first), else the system browser (Safari, Chrome) opens it with its own cookies.
    case system
    /// iOS `SFSafariViewController`: a Safari view inside the app, loaded by the app (a programmatic load hands
    /// no universal link to an app), with its own cookie jar (not Safari's, since iOS 11).
    case safariViewController = "safari-view-controller"
    /// Android Custom Tabs: Chrome inside the app, with Chrome's cookies and Chrome's rules for leaving it; coming
    /// back to it from another app, a redirect without input may open an app again (Chromium's
    /// components/external_intents README).
    case customTabs = "custom-tabs"
    /// iOS `ASWebAuthenticationSession`: Safari's cookies; the session ends, and hands the URL to the app without
    /// asking, when a page navigates to the app's callback scheme (the policy's `callbackScheme`).
    case authSession = "auth-session"

    /// The platform the kind exists on (nil: both).
    public var platform: Platform? {
        switch self {
        case .system: nil
        case .safariViewController, .authSession: .ios
        case .customTabs: .android
        }
    }

    /// Its name in a trace.
    public var displayName: String {
        switch self {
        case .system: "the system browser"
        case .safariViewController: "SFSafariViewController"
        case .customTabs: "a Custom Tab"
        case .authSession: "ASWebAuthenticationSession"
        }
    }
}
