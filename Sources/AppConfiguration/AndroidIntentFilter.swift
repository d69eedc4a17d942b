import PlainviewURL

/// An `<intent-filter>`: its actions, categories and `<data>` elements, and whether Android may resolve a
/// URI through it (Android's `IntentFilter.match`: action, categories, then scheme, authority and path).
public struct AndroidIntentFilter: Sendable, Hashable {
    public struct Data: Sendable, Hashable {
        public var line: Int
        public var scheme: String?
        public var host: String?
        public var port: String?
        /// The path rules of this element, as written (`path`, `pathPrefix`, `pathPattern`, …).
        public var paths: [AndroidPathPattern]
        public var mimeType: String?
    }

    public var line: Int
    /// `android:autoVerify="true"`: Android verifies the filter's https hosts against their assetlinks.json.
    public var autoVerify: Bool
    public var actions: [String]
    public var categories: [String]
    public var data: [Data]

    public static let view = "android.intent.action.VIEW"
    public static let browsable = "android.intent.category.BROWSABLE"
    public static let defaultCategory = "android.intent.category.DEFAULT"

    init(_ e: XMLElementNode, file: String) throws(AppConfigurationError) {
        let ns = AndroidManifest.androidNamespace
        line = e.line
        autoVerify = try AndroidComponent.bool(e, "autoVerify", file: file) ?? false
        actions = e.children(named: "action").compactMap { $0.attribute("name", namespace: ns) }
        categories = e.children(named: "category").compactMap { $0.attribute("name", namespace: ns) }
        data = e.children(named: "data").map { d in
            var paths: [AndroidPathPattern] = []
            for kind in AndroidPathPattern.Kind.allCases {
                if let v = d.attribute(kind.rawValue, namespace: ns) { paths.append(AndroidPathPattern(kind: kind, pattern: v)) }
            }
            return Data(
                line: d.line, scheme: d.attribute("scheme", namespace: ns), host: d.attribute("host", namespace: ns),
                port: d.attribute("port", namespace: ns), paths: paths, mimeType: d.attribute("mimeType", namespace: ns))
        }
    }

    /// Every scheme, host and path rule of the filter: Android merges the attributes of all its `<data>`
    /// elements, so `<data scheme=https/><data host=a.example/>` is one rule, not two.
    public var schemes: [String] { data.compactMap(\.scheme) }
    public var hosts: [(host: String, port: String?)] { data.compactMap { d in d.host.map { ($0, d.port) } } }
    public var paths: [AndroidPathPattern] { data.flatMap(\.paths) }

    /// Whether an intent with `action`, `categories` and the URI `url` gets through this filter. `categories`
    /// are the intent's own: a browser's link has BROWSABLE, and `startActivity` adds DEFAULT to an implicit
    /// intent, which only a filter listing DEFAULT receives.
    public func matches(action: String, categories wanted: [String], url: String) -> Bool {
        guard actions.contains(action), wanted.allSatisfy(categories.contains) else { return false }
        return matchesData(url)
    }

    /// The data part of `IntentFilter.match`: a filter with schemes needs the URI's scheme among them (compared
    /// exactly: Android's schemes are case-sensitive); with hosts (read only when schemes are given), one that
    /// matches (a leading `*` matches any prefix; a port, only that explicit port); with paths (read only when
    /// hosts are given), one that matches the decoded path.
    public func matchesData(_ url: String) -> Bool {
        let schemes = self.schemes
        guard !schemes.isEmpty, let colon = url.firstIndex(of: ":") else { return false }
        let scheme = String(url[..<colon])
        guard schemes.contains(scheme) else { return false }
        let hosts = self.hosts
        guard !hosts.isEmpty else { return true }
        guard let parsed = WebURL(url), let host = parsed.comparableHost, !host.isEmpty else { return false }
        let port = parsed.port ?? -1
        let hostMatches = hosts.contains { entry in
            var h = entry.host.lowercased()
            if let p = entry.port, Int(p) != port { return false }
            if h.hasPrefix("*") {
                h.removeFirst()
                return host.count >= h.count && host.hasSuffix(h)
            }
            return host == h
        }
        guard hostMatches else { return false }
        let paths = self.paths
        guard !paths.isEmpty else { return true }
        let path = PercentEncoding.decode(parsed.path)
        return paths.contains { $0.matches(path) }
    }
}
