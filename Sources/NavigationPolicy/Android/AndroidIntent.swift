// Android `intent:` / `android-app:` URLs as Android's `Intent.parseUri` reads them.
// Parsing: AndroidIntent+Parse.swift; serialising (`toUri`): AndroidIntent+Serialize.swift.
import PlainviewURL

/// An Android intent as parsed from an `intent:` or `android-app:` URL.
public struct AndroidIntent: Sendable, Hashable {
    /// The intent's data URI (for `intent://host/path#Intent;scheme=https;…`: `https://host/path`).
    public var data: String?
    /// The action; `parse` defaults it to `android.intent.action.VIEW` like Android (a selector keeps nil).
    public var action: String?
    /// Categories in the order first seen (duplicates dropped, like Android's set).
    public var categories: [String] = []
    /// MIME type (`type=`).
    public var type: String?
    public var package: String?
    /// The explicit component as `package/fully.qualified.Class` (the `.Class` short form is expanded).
    public var component: String?
    /// `launchFlags` (the URI-permission grant bits are cleared on parse, as Android does for untrusted URIs).
    public var flags: Int = 0
    /// Typed extras, by key. Values keep their Android type.
    public var extras: [String: IntentExtra] = [:]
    public var selector: Box?
    /// `identifier=` (Android 10+).
    public var identifier: String?
    /// `sourceBounds=` as written (`left top right bottom`).
    public var sourceBounds: String?

    /// `S.browser_fallback_url`, if any (any scheme: use `safeBrowserFallbackURL` before loading it).
    public var browserFallbackURL: String? {
        if case .string(let s)? = extras["browser_fallback_url"] { return s }
        return nil
    }

    /// Indirection so a selector intent can nest.
    public final class Box: Sendable, Hashable {
        public let intent: AndroidIntent
        public init(_ intent: AndroidIntent) { self.intent = intent }
        public static func == (a: Box, b: Box) -> Bool { a.intent == b.intent }
        public func hash(into h: inout Hasher) { h.combine(intent) }
    }

    public init() {}

    /// Why an intent URI could not be parsed (Android throws `URISyntaxException` for the same inputs).
    public struct ParseError: Error, Sendable, Hashable, CustomStringConvertible {
        /// What is wrong and what was expected.
        public var message: String
        /// UTF-8 offset into the URI where the problem is, when known.
        public var offset: Int?

        public init(_ message: String, offset: Int? = nil) {
            self.message = message
            self.offset = offset
        }

        public var description: String {
            offset.map { "intent URI, at offset \($0): \(message)" } ?? "intent URI: \(message)"
        }
    }
}

/// A typed intent extra (`S.`, `B.`, `b.`, `c.`, `d.`, `f.`, `i.`, `l.`, `s.`).
public enum IntentExtra: Sendable, Hashable {
    case string(String)
    case bool(Bool)
    case byte(Int8)
    case char(String)
    case double(Double)
    case float(Float)
    case int(Int32)
    case long(Int64)
    case short(Int16)
}

/// An explicit component: an app package and a class in it.
public struct AndroidComponentName: Sendable, Hashable, CustomStringConvertible {
    public var package: String
    public var className: String

    public init(package: String, className: String) {
        self.package = package
        self.className = className
    }

    /// `pkg/cls` or `pkg/.Cls` (short form, expanded to `pkg.Cls`); nil without `/` or with nothing after it
    /// (Android's `ComponentName.unflattenFromString`).
    public init?(flattened: String) {
        guard let slash = flattened.unicodeScalars.firstIndex(of: "/") else { return nil }
        let cls = flattened[flattened.unicodeScalars.index(after: slash)...]
        guard !cls.isEmpty else { return nil }
        package = String(flattened[..<slash])
        className = cls.hasPrefix(".") ? package + cls : String(cls)
    }

    /// Reads `description` back (`pkg/cls` in full): split at the first `/`, no short-form expansion. A class
    /// that itself starts with `.` (package `.a`, class `.a.B`) must not be expanded a second time.
    public init?(description: String) {
        guard let slash = description.unicodeScalars.firstIndex(of: "/") else { return nil }
        let cls = description[description.unicodeScalars.index(after: slash)...]
        guard !cls.isEmpty else { return nil }
        package = String(description[..<slash])
        className = String(cls)
    }

    /// `pkg/cls` in full.
    public var description: String { "\(package)/\(className)" }

    /// `pkg/.Cls` when the class lives under the package (Android's `flattenToShortString`).
    public var shortForm: String {
        if className.hasPrefix(package), className.dropFirst(package.count).hasPrefix(".") {
            return "\(package)/\(className.dropFirst(package.count))"
        }
        return description
    }
}

extension AndroidIntent {
    public static let actionView = "android.intent.action.VIEW"
    public static let actionMain = "android.intent.action.MAIN"
    public static let categoryBrowsable = "android.intent.category.BROWSABLE"

    /// `component` split into package and class.
    public var componentName: AndroidComponentName? {
        get { component.flatMap(AndroidComponentName.init(description:)) }
        set { component = newValue?.description }
    }

    /// The data URI's scheme, lower-cased (text before the first `:` when it is a valid scheme), or nil.
    public var dataScheme: String? { data.flatMap(Self.scheme(of:)) }

    /// True when the data (or the selector's data) must never reach an app: `file:`, `javascript:`,
    /// `content:`, `data:`, `about:` and similar local or script schemes (`SchemeKind.neverExternalSchemes`),
    /// and `tel:`/`sms:` carrying USSD/MMI codes (`#`, `*`, GeckoView's rule). Control characters and
    /// blanks around the scheme do not hide it.
    public var isUnsafeData: Bool {
        if let data, Self.isUnsafeDataURI(data) { return true }
        if let selector = selector?.intent, selector.isUnsafeData { return true }
        return false
    }

    /// `S.browser_fallback_url` only when it is an absolute http(s) URL with a host (Chrome loads no other).
    public var safeBrowserFallbackURL: String? {
        guard let url = browserFallbackURL, let parts = AASAURLParts(url),
            SchemeKind(scheme: parts.scheme) == .web
        else { return nil }
        return url
    }

    /// What Chrome launches (ExternalNavigationHandler): `BROWSABLE` added, explicit component and selector
    /// removed (crbug.com/1254422), launch flags masked to `allowedLaunchFlags`, so a web page can only
    /// reach activities that opted in to being opened from a browser.
    public func sanitizedForLaunch() -> AndroidIntent {
        var out = self
        if !out.categories.contains(Self.categoryBrowsable) { out.categories.append(Self.categoryBrowsable) }
        out.component = nil
        out.selector = nil
        out.flags &= Self.allowedLaunchFlags
        return out
    }

    /// Chrome's ALLOWED_INTENT_FLAGS: EXCLUDE_STOPPED_PACKAGES, ACTIVITY_MATCH_EXTERNAL, LAUNCH_ADJACENT,
    /// RETAIN_IN_RECENTS, NEW_DOCUMENT, CLEAR_TOP, MULTIPLE_TASK, NEW_TASK, SINGLE_TOP.
    public static let allowedLaunchFlags =
        0x10 | 0x800 | 0x1000 | 0x2000 | 0x8_0000 | 0x0400_0000 | 0x0800_0000
        | 0x1000_0000 | 0x2000_0000

    /// GeckoView's check before handing a URI from web content to another app: false for the unsafe
    /// schemes above, `tel:`/`sms:` with `#` or `*` (also percent-encoded), and `intent:`/`android-app:`
    /// URIs that do not parse or whose data is unsafe.
    public static func isSafeForExternalApp(_ uri: String) -> Bool {
        guard let scheme = lenientScheme(of: uri) else { return true }
        if scheme == "intent" || scheme == "android-app" {
            guard let intent = try? parse(uri) else { return false }
            return !intent.isUnsafeData
        }
        return !isUnsafeDataURI(uri)
    }

    static func isUnsafeDataURI(_ uri: String) -> Bool {
        guard let scheme = lenientScheme(of: uri) else { return false }
        if SchemeKind(scheme: scheme) == .neverExternal { return true }
        if scheme == "tel" || scheme == "sms" || scheme == "smsto" || scheme == "mms" {
            let rest = uri.drop { $0 != ":" }.dropFirst()
            let decoded = PercentEncoding.decode(rest)
            return decoded.contains("#") || decoded.contains("*")
        }
        return false
    }

    /// RFC 3986 scheme (`ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )`) before the first `:`, lower-cased.
    static func scheme(of uri: String) -> String? {
        guard let colon = uri.unicodeScalars.firstIndex(of: ":") else { return nil }
        let s = uri[..<colon]
        guard let first = s.unicodeScalars.first, first.isASCII, first.properties.isAlphabetic,
            s.unicodeScalars.allSatisfy({
                $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "+-.".unicodeScalars.contains($0))
            })
        else { return nil }
        return s.lowercased()
    }

    /// The scheme as a lenient consumer might see it: blanks and controls removed, lower-cased.
    static func lenientScheme(of uri: String) -> String? {
        guard let colon = uri.unicodeScalars.firstIndex(of: ":") else { return nil }
        let cleaned = String(
            String.UnicodeScalarView(uri[..<colon].unicodeScalars.filter { $0.value > 0x20 && $0.value != 0x7F }))
        guard !cleaned.isEmpty, !cleaned.contains(where: { $0 == "/" || $0 == "?" || $0 == "#" }) else { return nil }
        return cleaned.lowercased()
    }
}
