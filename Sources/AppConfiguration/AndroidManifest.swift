/// The parts of an `AndroidManifest.xml` that decide which URLs reach the app: its package and the activities
/// (and activity aliases) with their intent filters. Read from the file as written or as merged by the build;
/// a value still holding a build placeholder (`${applicationId}`) is kept as written and reported by the check.
public struct AndroidManifest: Sendable, Hashable {
    public static let androidNamespace = "http://schemas.android.com/apk/res/android"

    public var file: String
    /// `<manifest package="…">` (absent when the build gives the package as `namespace`).
    public var package: String?
    public var components: [AndroidComponent]
    /// `<queries><package android:name=…>`: the apps this one may see (Android 11+ package visibility).
    public var queriedPackages: [String]
    /// `<queries><intent>` data schemes: the apps handling these this one may see.
    public var queriedSchemes: [String]

    /// Reads a manifest. Not XML, or a root other than `<manifest>`, is an error naming the file and line.
    public static func read(_ bytes: [UInt8], file: String) throws(AppConfigurationError) -> AndroidManifest {
        let root = try XMLElementNode.parse(bytes, file: file)
        guard root.name == "manifest" else {
            throw AppConfigurationError(
                file: file, line: root.line, message: "expected a <manifest> root element, found <\(root.name)>")
        }
        let ns = androidNamespace
        var out = AndroidManifest(
            file: file, package: root.attribute("package"), components: [], queriedPackages: [], queriedSchemes: [])
        for queries in root.children(named: "queries") {
            out.queriedPackages += queries.children(named: "package").compactMap { $0.attribute("name", namespace: ns) }
            for intent in queries.children(named: "intent") {
                out.queriedSchemes += intent.children(named: "data").compactMap { $0.attribute("scheme", namespace: ns) }
            }
        }
        for application in root.children(named: "application") {
            for element in application.children where element.name == "activity" || element.name == "activity-alias" {
                out.components.append(try AndroidComponent(element, file: file))
            }
        }
        return out
    }
}
