// Configuration of the payment-url helper endpoints (Swedbank Pay's Merchant Backend documentation, "Payment Url Helper Endpoints"), validated once.
import NavigationPolicy
import PlainviewURL

/// The public origin generated URLs use (`scheme://host[:port]`). The server never trusts the Host header:
/// every URL it generates is built from this value.
public struct PublicOrigin: Sendable, Hashable, CustomStringConvertible {
    /// `http` or `https`, lower case.
    public let scheme: String
    /// Lower-case ASCII host (an IDN must be given as punycode), or a bracketed IPv6 literal.
    public let host: String
    /// nil when it is the scheme's default port.
    public let port: Int?

    /// `host[:port]`, as it appears after `//`.
    public var authority: String { port.map { "\(host):\($0)" } ?? host }
    public var description: String { "\(scheme)://\(authority)" }

    /// Parses `http(s)://host[:port][/]`. Anything else (userinfo, a path, query, fragment, a bad host or port)
    /// → nil. Trailing dot removed, case folded, default port dropped.
    public init?(_ text: String) {
        // The written form: `http(s)://` then the authority, ASCII (an IDN as punycode), at most one `/` after it.
        let lower = text.lowercased()
        guard lower.hasPrefix("https://") || lower.hasPrefix("http://"), text.utf8.count <= 310,
            text.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }), !lower.hasSuffix(":"), !lower.hasSuffix(":/"),
            let url = WebURL(text), SchemeKind(scheme: url.scheme) == .web, !url.hasCredentials,
            url.path == "/", url.query == nil, url.fragment == nil, url.port != 0,
            lower.hasSuffix("/") ? !lower.dropLast().hasSuffix("/") : true
        else { return nil }
        let host: String
        switch url.host {
        case .ipv6?:
            guard let h = url.hostname else { return nil }
            host = h
        case .domain?, .ipv4?:
            // A host name of LDH labels (what a certificate and an AASA file can name).
            guard let h = url.comparableHost, !h.isEmpty, h.utf8.count <= 253 else { return nil }
            for label in h.split(separator: ".", omittingEmptySubsequences: false) {
                guard !label.isEmpty, label.utf8.count <= 63,
                    label.utf8.allSatisfy({ ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == UInt8(ascii: "-") }
                    ),
                    !label.hasPrefix("-"), !label.hasSuffix("-")
                else { return nil }
            }
            host = h
        default:
            return nil
        }
        self.scheme = url.scheme
        self.host = host
        self.port = url.port
    }
}

/// A configuration value the helper endpoints cannot work with.
public struct HelperConfigurationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The option or key at fault (`public-url`, `root`, `app-id`, …).
    public var key: String
    public var message: String
    public var description: String { "\(key): \(message)" }
    public init(key: String, message: String) {
        self.key = key
        self.message = message
    }
}

public struct HelperEndpointsConfiguration: Sendable {
    /// Origin of every URL generated for the helpers (Location headers, intent data, trampoline targets).
    public var publicOrigin: PublicOrigin
    /// Origin where the back-link (trampoline) page is reached. The seed requires it to be a *different* host
    /// from the payment url's for case 2a (a universal link tapped on a page of the same domain opens in
    /// Safari); it defaults to `publicOrigin`, which works for the fallback ladder but not for case 2a.
    public var trampolineOrigin: PublicOrigin
    /// Mount path of the helpers, always starting and ending with `/` (e.g. `/swedbank-pay-mobile/`).
    public var root: String
    /// `TEAMID.bundle.id` values for the apple-app-site-association.
    public var appIDs: [String]
    /// Android package for assetlinks.json (nil: an empty statement list is served).
    public var androidPackage: String?
    /// SHA-256 certificate fingerprints, normalised to upper-case colon-separated hex.
    public var sha256CertFingerprints: [String]
    /// The app's own custom schemes (lower case), the only ones the iOS ladder redirects to; every other scheme
    /// is refused, so the merchant's domain never sends a browser to `itms-services:`, `facetime:` or another
    /// app. nil: any custom scheme (the simulator's stand-in backend, where the caller is the flow file).
    public var appSchemes: [String]?

    public init(
        publicURL: String, root: String = "/", appIDs: [String] = [], androidPackage: String? = nil,
        sha256CertFingerprints: [String] = [], trampolineURL: String? = nil, appSchemes: [String]? = nil
    ) throws(HelperConfigurationError) {
        guard let origin = PublicOrigin(publicURL) else {
            throw HelperConfigurationError(
                key: "public-url",
                message: "expected http(s)://host[:port] with an ASCII host and no path, query or userinfo, got '\(publicURL)'")
        }
        publicOrigin = origin
        if let trampolineURL {
            guard let t = PublicOrigin(trampolineURL) else {
                throw HelperConfigurationError(
                    key: "trampoline-url", message: "expected http(s)://host[:port], got '\(trampolineURL)'")
            }
            trampolineOrigin = t
        } else {
            trampolineOrigin = origin
        }
        guard let r = Self.normalizeRoot(root) else {
            throw HelperConfigurationError(
                key: "root",
                message:
                    "expected an absolute path like /swedbank-pay-mobile/ (letters, digits, -._~ and / only, no empty, '.' or '..' segments), got '\(root)'"
            )
        }
        self.root = r
        for id in appIDs where !Self.isValidAppID(id) {
            throw HelperConfigurationError(
                key: "app-id", message: "expected TEAMID.bundle.identifier (10-character team id, then a bundle id), got '\(id)'")
        }
        self.appIDs = appIDs
        if let androidPackage {
            guard HelperValidation.isAndroidPackage(androidPackage) else {
                throw HelperConfigurationError(
                    key: "android-package",
                    message: "expected an Android package name like com.example.app, got '\(androidPackage)'")
            }
        }
        self.androidPackage = androidPackage
        var fps: [String] = []
        for fp in sha256CertFingerprints {
            guard let n = Self.normalizeFingerprint(fp) else {
                throw HelperConfigurationError(
                    key: "sha256-cert", message: "expected 32 bytes of hex (AB:CD:… or ABCD…), got '\(fp)'")
            }
            fps.append(n)
        }
        if !fps.isEmpty && androidPackage == nil {
            throw HelperConfigurationError(key: "sha256-cert", message: "needs --android-package as well")
        }
        if androidPackage != nil && fps.isEmpty {
            throw HelperConfigurationError(key: "android-package", message: "needs at least one --sha256-cert fingerprint")
        }
        self.sha256CertFingerprints = fps
        for scheme in appSchemes ?? [] where !HelperValidation.isAppScheme(scheme) {
            throw HelperConfigurationError(
                key: "app-scheme",
                message:
                    "expected the app's custom URL scheme (a letter, then letters, digits, '+', '-' or '.'; not http, https, intent, javascript …), got '\(scheme)'"
            )
        }
        self.appSchemes = appSchemes.map { Array(Set($0.map { $0.lowercased() })).sorted() }
    }

    /// `/a/b` → `/a/b/`; rejects relative paths, `..`, empty segments and characters needing encoding.
    static func normalizeRoot(_ raw: String) -> String? {
        guard raw.hasPrefix("/"), raw.utf8.count <= 512 else { return nil }
        let segments = raw.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        var clean: [Substring] = []
        for (i, seg) in segments.enumerated() {
            if seg.isEmpty {
                if i == segments.count - 1 { continue } // trailing slash
                return nil
            }
            guard seg != ".", seg != "..", seg.utf8.allSatisfy(PercentEncoding.isUnreserved) else { return nil }
            clean.append(seg)
        }
        return clean.isEmpty ? "/" : "/" + clean.joined(separator: "/") + "/"
    }

    static func isValidAppID(_ id: String) -> Bool {
        let parts = id.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].utf8.count == 10,
            parts[0].utf8.allSatisfy({ ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x30 && $0 <= 0x39) }),
            !parts[1].isEmpty, parts[1].utf8.count <= 155,
            parts[1].utf8.allSatisfy({ PercentEncoding.isUnreserved($0) && $0 != UInt8(ascii: "~") && $0 != UInt8(ascii: "_") }),
            !parts[1].hasPrefix("."), !parts[1].hasSuffix("."), !parts[1].contains("..")
        else { return false }
        return true
    }

    /// Upper-case colon-separated form of a SHA-256 fingerprint (with or without colons); nil if not 32 bytes.
    public static func normalizeFingerprint(_ raw: String) -> String? { AssetLinks.normalizeFingerprint(raw) }
}

/// Parameter rules shared by the endpoints and the backend checker.
public enum HelperValidation {
    /// Android's package name rule (PackageParser.validateName with a required separator): at least two
    /// dot-separated segments, each an ASCII letter followed by letters, digits or `_`; at most 255 bytes.
    public static func isAndroidPackage(_ s: String) -> Bool { AssetLinks.isPackageName(s) }

    /// RFC 3986 `scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )`, at most 64 bytes, and a custom scheme
    /// (`SchemeKind.isCustom`: not web, intent or never-external — redirecting the fallback to one of those
    /// would loop, downgrade or hand the browser something unsafe). Case-insensitive.
    public static func isAppScheme(_ s: String) -> Bool {
        guard let first = s.utf8.first, s.utf8.count <= 64,
            (first >= 0x41 && first <= 0x5A) || (first >= 0x61 && first <= 0x7A),
            s.utf8.allSatisfy({
                ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39)
                    || $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".")
            })
        else { return false }
        return SchemeKind.isCustom(s)
    }
}
