/// An `<activity>` or `<activity-alias>` of a manifest: what a link opened from a browser or another app can
/// start.
public struct AndroidComponent: Sendable, Hashable {
    public var kind: String
    public var name: String
    public var line: Int
    /// `android:exported`, nil when the manifest does not say. Android 12 (API 31) refuses to install an app
    /// targeting it whose component with an intent filter leaves it out; `false` keeps every other app (the
    /// browser included) from starting the component.
    public var exported: Bool?
    /// `android:enabled` (default true).
    public var enabled: Bool
    public var filters: [AndroidIntentFilter]

    init(_ e: XMLElementNode, file: String) throws(AppConfigurationError) {
        let ns = AndroidManifest.androidNamespace
        kind = e.name
        name = e.attribute("name", namespace: ns) ?? "(unnamed)"
        line = e.line
        exported = try Self.bool(e, "exported", file: file)
        enabled = try Self.bool(e, "enabled", file: file) ?? true
        filters = []
        for f in e.children(named: "intent-filter") { filters.append(try AndroidIntentFilter(f, file: file)) }
    }

    /// An `android:` boolean attribute: `true`, `false`, or a build placeholder / resource (nil: not known here).
    static func bool(_ e: XMLElementNode, _ name: String, file: String) throws(AppConfigurationError) -> Bool? {
        guard let raw = e.attribute(name, namespace: AndroidManifest.androidNamespace) else { return nil }
        switch raw {
        case "true": return true
        case "false": return false
        default:
            if raw.hasPrefix("${") || raw.hasPrefix("@") { return nil }
            throw AppConfigurationError(
                file: file, line: e.line, message: "android:\(name)=\"\(raw)\" on <\(e.name)>: expected true or false")
        }
    }
}
