// What only the OS knows. The same engine runs in an iOS/Android app (backed by the real OS),
// in the simulator (backed by the simulated device) and in `plainview decide` (backed by an environment file).
import PlainviewURL

/// Answers "would the OS hand this URL to an installed app, and which one?".
/// Every answer is the installed app's name (or package), or nil when no app takes the URL.
public protocol SystemServices: Sendable {
    /// iOS: the app whose apple-app-site-association claims this https URL as a universal link.
    func universalLinkApp(for url: String) -> String?
    /// Android: the app with a verified app link (assetlinks) for this http(s) URL.
    func appLinkApp(for url: String) -> String?
    /// The app registered for this custom scheme (lower case, without `:`).
    func customSchemeApp(for scheme: String) -> String?
    /// Android: the non-browser app an explicit or implicit intent resolves to.
    func intentApp(for intent: AndroidIntent) -> String?

    /// The same questions for a parsed URL. The defaults ask with its `href`; a device that knows no app can
    /// claim a web URL answers without serialising it (the engine asks for every http(s) navigation).
    func universalLinkApp(for url: WebURL) -> String?
    func appLinkApp(for url: WebURL) -> String?

    /// The platform's own app for a custom scheme (`tel:` → Phone), when the device still has it.
    /// The default answers with every platform handler (`PlatformDefaultApps`).
    func defaultApp(for scheme: String, on platform: Platform) -> String?

    /// True for the app that embeds the web view (on a phone: the app running the engine). An intent a page
    /// addresses to it is not launched (`intent.host`). The default knows no host app.
    func isHostApp(_ app: String) -> Bool
}

extension SystemServices {
    public func universalLinkApp(for url: WebURL) -> String? { universalLinkApp(for: url.href) }
    public func appLinkApp(for url: WebURL) -> String? { appLinkApp(for: url.href) }
    public func defaultApp(for scheme: String, on platform: Platform) -> String? {
        PlatformDefaultApps.app(for: scheme, on: platform)
    }
    public func isHostApp(_ app: String) -> Bool { false }
}

/// A device with no apps installed: the web view, the browser and the platform's own apps (Phone, Mail …).
public struct NoApps: SystemServices {
    public init() {}
    public func universalLinkApp(for url: String) -> String? { nil }
    public func appLinkApp(for url: String) -> String? { nil }
    public func customSchemeApp(for scheme: String) -> String? { nil }
    public func intentApp(for intent: AndroidIntent) -> String? { nil }
    public func universalLinkApp(for url: WebURL) -> String? { nil }
    public func appLinkApp(for url: WebURL) -> String? { nil }
}
