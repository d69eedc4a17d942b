// The Public Suffix List from Debian's `publicsuffix` package (or a file named by the user).
import Foundation
import NavigationPolicy

/// Finds and reads the Public Suffix List's text form (`public_suffix_list.dat`).
///
/// Debian's `publicsuffix` package installs `/usr/share/publicsuffix/public_suffix_list.dat` (and the older
/// name `effective_tld_names.dat`); its `.dafsa` file is a binary automaton and is never read.
public enum PublicSuffixList {
    /// The environment variable that names the list file, overriding the search.
    public static let environmentVariable = "PLAINVIEW_PUBLIC_SUFFIX_LIST"

    /// Where the list is looked for, in order (Debian/Ubuntu, then other common prefixes).
    public static let searchPaths: [String] = [
        "/usr/share/publicsuffix/public_suffix_list.dat",
        "/usr/share/publicsuffix/effective_tld_names.dat",
        "/usr/local/share/publicsuffix/public_suffix_list.dat",
        "/opt/homebrew/share/publicsuffix/public_suffix_list.dat",
        "/usr/share/public_suffix_list.dat",
    ]

    /// The path of the list: `explicit`, else the environment variable, else the first search path that exists.
    public static func locate(
        explicit: String? = nil,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> String? {
        if let explicit { return explicit }
        if let env = environment[environmentVariable], !env.isEmpty { return env }
        return searchPaths.first { FileManager.default.isReadableFile(atPath: $0) }
    }

    /// The list `load()` finds, read once per process while the file stays the same (same path, size and
    /// modification time): a suite of flows whose policies have goodlist wildcards reads it once, not per flow.
    public static func loadRemembered() throws(ConfigError) -> PublicSuffixRules {
        let path = locate()
        let attributes = path.flatMap { try? FileManager.default.attributesOfItem(atPath: $0) }
        let stamp =
            "\(path ?? "")|\((attributes?[.size] as? NSNumber)?.intValue ?? -1)|\((attributes?[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0)"
        if let hit = Remembered.shared.rules(for: stamp) { return hit }
        let rules = try load()
        Remembered.shared.keep(rules, for: stamp)
        return rules
    }

    /// The last list read and the file stamp it was read at (an NSLock, on every OS version the package supports).
    private final class Remembered: @unchecked Sendable {
        static let shared = Remembered()
        private let lock = NSLock()
        private var last: (stamp: String, rules: PublicSuffixRules)?

        func rules(for stamp: String) -> PublicSuffixRules? {
            lock.lock()
            defer { lock.unlock() }
            return last?.stamp == stamp ? last?.rules : nil
        }

        func keep(_ rules: PublicSuffixRules, for stamp: String) {
            lock.lock()
            defer { lock.unlock() }
            last = (stamp, rules)
        }
    }

    /// Reads and parses the list. Throws a `ConfigError` that says how to install it when it is absent.
    public static func load(
        path explicit: String? = nil,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(ConfigError) -> PublicSuffixRules {
        guard let path = locate(explicit: explicit, environment: environment) else {
            throw ConfigError(
                file: searchPaths[0],
                "the Public Suffix List was not found (looked in \(searchPaths.joined(separator: ", "))); "
                    + "install Debian's publicsuffix package (apt-get install publicsuffix), or name the .dat file "
                    + "with --public-suffix-list or \(environmentVariable)")
        }
        if path.hasSuffix(".dafsa") {
            throw ConfigError(
                file: path, "this is the binary DAFSA form of the Public Suffix List; name the text form (public_suffix_list.dat)"
            )
        }
        let bytes = try GoodlistIO.readBytes(path, what: "the Public Suffix List")
        if bytes.contains(0) {
            throw ConfigError(file: path, "binary data: expected the text Public Suffix List (public_suffix_list.dat)")
        }
        let rules = PublicSuffixRules(text: String(decoding: bytes, as: UTF8.self))
        if rules.count == 0 {
            throw ConfigError(file: path, "no Public Suffix List rules in this file (expected one suffix a line, // comments)")
        }
        return rules
    }
}
