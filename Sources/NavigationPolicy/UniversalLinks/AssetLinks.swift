// Reading a Digital Asset Links file (`/.well-known/assetlinks.json`), as Android's verifier reads it for
// App Links: the statements that delegate `handle_all_urls` to an Android app, with its certificates.
import PlainviewSupport
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// An assetlinks.json document: which apps a site lets open its https links, signed with which certificates.
public struct AssetLinks: Sendable, Hashable {
    /// One `android_app` statement with the relation `delegate_permission/common.handle_all_urls`.
    public struct Delegation: Sendable, Hashable {
        public var package: String
        /// SHA-256 certificate fingerprints, normalised (`AB:CD:…`, upper case).
        public var fingerprints: [String]
    }

    /// The delegations, in document order (statements for other relations or namespaces are left out).
    public var delegations: [Delegation]

    /// The relation App Links verification looks for.
    public static let handleAllURLs = "delegate_permission/common.handle_all_urls"

    /// Every package the file delegates to, in document order, without duplicates.
    public var packages: [String] {
        var seen = Set<String>()
        return delegations.map(\.package).filter { seen.insert($0).inserted }
    }

    /// The fingerprints listed for `package` (every statement naming it).
    public func fingerprints(for package: String) -> [String] {
        delegations.filter { $0.package == package }.flatMap(\.fingerprints)
    }

    /// Reads the file's bytes. Throws naming the statement (`$[2].target.package_name`) and what was expected.
    public init(json bytes: some Collection<UInt8>) throws(AssetLinksError) {
        let value: AASAJSON
        do {
            value = try JSONDecoder().decode(AASAJSON.self, from: Data(bytes))
        } catch {
            let location = JSONSyntax.firstError(in: Array(bytes)).map { "at \($0)" } ?? "\(error)"
            throw AssetLinksError(keyPath: "$", message: "not valid JSON (expected an array of statements): \(location)")
        }
        guard case .array(let statements) = value else {
            throw AssetLinksError(keyPath: "$", message: "expected an array of statements, found \(value.kind)")
        }
        var out: [Delegation] = []
        for (i, statement) in statements.enumerated() {
            let at = "$[\(i)]"
            guard case .object(let s) = statement else {
                throw AssetLinksError(keyPath: at, message: "expected a statement object, found \(statement.kind)")
            }
            guard case .array(let relations)? = s["relation"] else {
                throw AssetLinksError(keyPath: "\(at).relation", message: "expected an array of relation strings")
            }
            guard case .object(let target)? = s["target"], case .string(let namespace)? = target["namespace"] else {
                throw AssetLinksError(keyPath: "\(at).target.namespace", message: "expected a string (android_app or web)")
            }
            guard namespace == "android_app", relations.contains(.string(Self.handleAllURLs)) else { continue }
            guard case .string(let package)? = target["package_name"], Self.isPackageName(package) else {
                throw AssetLinksError(
                    keyPath: "\(at).target.package_name", message: "expected an Android package name (com.example.app)")
            }
            guard case .array(let raw)? = target["sha256_cert_fingerprints"], !raw.isEmpty else {
                throw AssetLinksError(
                    keyPath: "\(at).target.sha256_cert_fingerprints", message: "expected a non-empty array of fingerprints")
            }
            var fingerprints: [String] = []
            for (j, item) in raw.enumerated() {
                // Android compares the listed text with its own upper-case, colon-separated form.
                guard case .string(let text) = item, Self.normalizeFingerprint(text) == text else {
                    throw AssetLinksError(
                        keyPath: "\(at).target.sha256_cert_fingerprints[\(j)]",
                        message: "expected 32 upper-case hex bytes separated by colons (AB:CD:…)")
                }
                fingerprints.append(text)
            }
            out.append(Delegation(package: package, fingerprints: fingerprints))
        }
        delegations = out
    }

    /// A SHA-256 certificate fingerprint in keytool's form (`AB:CD:…`, 32 bytes), from that form or 64 hex
    /// digits with or without colons between every byte; nil for anything else.
    public static func normalizeFingerprint(_ raw: String) -> String? {
        let hex = raw.utf8.filter { $0 != UInt8(ascii: ":") }
        guard hex.count == 64, hex.allSatisfy(Self.isHex) else { return nil }
        // Colons, when present, must separate every byte.
        if raw.contains(":") {
            let groups = raw.split(separator: ":", omittingEmptySubsequences: false)
            guard groups.count == 32, groups.allSatisfy({ $0.utf8.count == 2 }) else { return nil }
        }
        let upper = String(decoding: hex, as: UTF8.self).uppercased()
        var out = ""
        for (i, ch) in upper.enumerated() {
            if i > 0 && i % 2 == 0 { out += ":" }
            out.append(ch)
        }
        return out
    }

    /// An Android package name: at least two segments of ASCII letters, digits and `_`, each starting with a
    /// letter, 255 bytes at most.
    public static func isPackageName(_ s: String) -> Bool {
        guard s.utf8.count <= 255 else { return false }
        let segs = s.split(separator: ".", omittingEmptySubsequences: false)
        guard segs.count >= 2 else { return false }
        for seg in segs {
            guard let first = seg.utf8.first, isLetter(first),
                seg.utf8.allSatisfy({ isLetter($0) || ($0 >= 0x30 && $0 <= 0x39) || $0 == UInt8(ascii: "_") })
            else { return false }
        }
        return true
    }

    private static func isLetter(_ b: UInt8) -> Bool { (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) }
    private static func isHex(_ b: UInt8) -> Bool {
        (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x46) || (b >= 0x61 && b <= 0x66)
    }
}
