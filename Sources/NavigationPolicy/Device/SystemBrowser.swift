// The phone's browser apps: the default browser, which the OS opens web URLs in, and the schemes by which another
// app sends the user back to one of them. docs/environment.md ("The default browser") names the sources.
import PlainviewURL

/// A browser app on the phone.
public enum SystemBrowser: String, Sendable, Hashable, Codable, CaseIterable {
    case safari
    case chrome
    case firefox
    case edge

    /// The browsers that may be the default on `platform`. iOS lets the user pick another default browser since
    /// iOS 14 (Apple's "Preparing your app to be the default web browser"); on Android the model knows Chrome's
    /// rules only.
    public static func choices(on platform: Platform) -> [SystemBrowser] {
        platform == .ios ? [.safari, .chrome, .firefox, .edge] : [.chrome]
    }

    /// The default browser of a phone whose owner never changed it.
    public static func platformDefault(_ platform: Platform) -> SystemBrowser { platform == .ios ? .safari : .chrome }

    /// Its name in a trace.
    public var displayName: String {
        switch self {
        case .safari: "Safari"
        case .chrome: "Chrome"
        case .firefox: "Firefox"
        case .edge: "Edge"
        }
    }

    /// iOS: whether a tap on a universal link to another domain opens the link's app. Only Safari hands universal
    /// links over; Chrome, Firefox and Edge on iOS load the page (Apple Developer Forums thread 665025, as
    /// manfredsteyer/angular-oauth2-oidc #1473 reports for a non-Safari default browser).
    public var handsOffUniversalLinks: Bool { self == .safari }

    /// What a URL in one of the iOS browsers' own schemes asks: which browser, and the web URL it should open (nil:
    /// none, so the browser comes back with the tab it showed). Chrome: `googlechrome://` and `googlechromes://`
    /// (Chrome's "Opening links in Chrome for iOS"; bare, it goes back to its previous tab, swedenconnect/
    /// bankid-saml-idp #166); Firefox: `firefox://open-url?url=…` (mozilla-mobile/firefox-ios-open-in-client);
    /// Edge: `microsoft-edge-http://` and `microsoft-edge-https://`. nil for any other URL. The page is parsed as
    /// a browser parses what it is given (WHATWG URL): one that is not http(s) with a host, or does not parse,
    /// opens nothing, and a backslash or userinfo in it reads as the browser reads it.
    public static func ownURL(_ url: String) -> (browser: SystemBrowser, opens: String?)? {
        guard let scheme = URLTools.scheme(url)?.lowercased() else { return nil }
        let rest = url.dropFirst(scheme.count + 1)
        // `scheme://host/path` → `web://host/path`; a bare `scheme:` or `scheme://` opens nothing.
        func carried(_ web: String) -> String? {
            let path = rest.hasPrefix("//") ? rest.dropFirst(2) : rest
            return path.isEmpty ? nil : page(web + "://" + path)
        }
        switch scheme {
        case "googlechrome": return (.chrome, carried("http"))
        case "googlechromes": return (.chrome, carried("https"))
        case "microsoft-edge-http": return (.edge, carried("http"))
        case "microsoft-edge-https": return (.edge, carried("https"))
        case "firefox": return (.firefox, URLTools.queryValue("url", in: url).flatMap(page))
        default: return nil
        }
    }

    /// `candidate` as the browser would load it (serialised), when it is an http(s) URL with a host.
    private static func page(_ candidate: String) -> String? {
        guard let parsed = WebURL(candidate), SchemeKind(scheme: parsed.scheme) == .web,
            parsed.comparableHost?.isEmpty == false
        else { return nil }
        return parsed.href
    }
}
