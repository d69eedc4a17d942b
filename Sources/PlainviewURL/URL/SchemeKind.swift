// What kind of scheme a URL has, for the decision.

/// The decision-relevant class of a URL scheme.
public enum SchemeKind: Sendable, Hashable {
    /// http, https: loads in a web view, may be a universal link / app link.
    case web
    /// `intent:` and `android-app:` (Android intent URLs).
    case intent
    /// Never handed to an app nor loaded at top level from a page: javascript, file, data, about, blob,
    /// content, and the browser-internal schemes.
    case neverExternal
    /// Any other scheme: a custom scheme an app may register (`bankid:`, `swish:`, `mailto:`, `tel:`).
    case custom

    /// The URL Standard's special schemes and their default ports (file: has none). The URL parser's
    /// authority, `\\`-as-`/` and dot-segment rules apply to exactly these.
    public static let special: [String: Int?] = ["http": 80, "https": 443, "ws": 80, "wss": 443, "ftp": 21, "file": nil]

    /// `special[scheme]` without hashing (the parser asks for every URL): nil when not special,
    /// `.some(nil)` for file.
    @inline(__always)
    public static func specialDefaultPort(_ scheme: String) -> Int?? {
        switch scheme {
        case "https": return .some(443)
        case "http": return .some(80)
        case "ws": return .some(80)
        case "wss": return .some(443)
        case "ftp": return .some(21)
        case "file": return .some(nil)
        default: return nil
        }
    }

    /// The scheme class of a URL string (nil: no scheme, a relative reference or not a URL).
    public init?(url: String) {
        guard let scheme = WebURL.scheme(of: url) else { return nil }
        self.init(scheme: scheme)
    }

    /// True for a scheme an app may register and receive from web content (not web, intent or never-external):
    /// what the helper endpoints accept as an app's scheme and app-switch return URLs may use.
    public static func isCustom(_ scheme: String) -> Bool { SchemeKind(scheme: scheme) == .custom }

    /// Custom schemes that belong to the OS or the platform's own apps (installing apps, the stores, FaceTime,
    /// Phone, Messages, Mail, Settings, Maps …), never to a merchant's app: a server that redirects to "the
    /// app's scheme" must not redirect to one of these. Includes every scheme `PlatformDefaultApps` knows.
    public static let platformOwnedSchemes: Set<String> = [
        "itms-services", "itms-apps", "itms-appss", "itms", "itmss", "apps", "macappstore", "market",
        "facetime", "facetime-audio", "facetime-group", "tel", "telprompt", "sms", "smsto", "mms", "mmsto", "mailto",
        "message", "android-app", "maps", "comgooglemaps", "music", "videos", "photos-redirect", "prefs", "app-prefs",
        "app-settings", "shortcuts", "workflow", "calshow", "x-apple-reminderkit", "x-web-search", "wallet", "shoebox",
    ]

    /// Schemes a web view can load itself (sub-frames may load these; top-level only http/https and about:blank).
    public static let webLoadable: Set<String> = ["http", "https", "about", "data", "blob"]

    /// Schemes that must never reach an app (or the OS), whatever the page says.
    public static let neverExternalSchemes: Set<String> = [
        "javascript", "vbscript", "file", "data", "about", "blob", "content", "filesystem",
        "chrome", "chrome-extension", "view-source", "webkit", "x-apple-data-detectors", "ws", "wss", "ftp",
        "resource", "moz-extension", "chrome-native", "devtools", "fido", "jar", "android-resource",
    ]

    public init(scheme: String) {
        // The common schemes as the URL parser returns them (lower case), without lower-casing again.
        if scheme == "https" || scheme == "http" {
            self = .web
            return
        }
        let s = scheme.lowercased()
        if s == "http" || s == "https" {
            self = .web
        } else if s == "intent" || s == "android-app" {
            self = .intent
        } else if SchemeKind.neverExternalSchemes.contains(s) {
            self = .neverExternal
        } else {
            self = .custom
        }
    }
}
