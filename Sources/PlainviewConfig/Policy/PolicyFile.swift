// The policy file (docs/policy.md): YAML or JSON, the same keys.
import PlainviewURL
import Foundation
import NavigationPolicy

/// Loads policy files. Every problem is a `ConfigError` naming the file, line and key.
public enum PolicyFile {
    /// The keys a policy file may have.
    public static let keys = [
        "platform", "paymentUrl", "completeUrl", "cancelUrl", "termsOfServiceUrl",
        "callbackScheme", "redirectPolicy", "goodlist", "allowedHosts", "allowPublicSuffixWildcards",
    ]

    /// The keys as a tree (a policy has no nested mappings), for checking schemas/policy.schema.json.
    public static let shape = ConfigKeys(keys)

    /// Loads a policy file. `goodlist` entries are files relative to the policy file or inline host patterns;
    /// without the key, the shipped list compiled into the binary (`DefaultGoodlist`) is used.
    /// `platform` overrides the file's platform (and with it the default redirect policy).
    public static func load(path: String, platform: Platform? = nil) throws(ConfigError) -> Policy {
        let root = try ConfigNode.load(path: path)
        let baseDir = (path as NSString).deletingLastPathComponent
        return try decode(root, baseDirectory: baseDir, platform: platform)
    }

    /// Parses policy text (YAML or JSON); `file` names it in errors; relative goodlist files resolve against `baseDirectory`.
    public static func parse(
        _ text: String, file: String = "<policy>", baseDirectory: String = ".",
        platform: Platform? = nil
    ) throws(ConfigError) -> Policy {
        try decode(ConfigNode.parse(text, file: file), baseDirectory: baseDirectory, platform: platform)
    }

    /// Decodes a policy from a node (a policy file's root, or a flow file's inline `policy:` mapping, whose
    /// errors then name the flow file and `policy.KEY`); relative goodlist files resolve against `baseDirectory`.
    public static func decode(_ root: ConfigNode, baseDirectory: String, platform override: Platform? = nil) throws(ConfigError)
        -> Policy
    {
        let m = try root.fields(keys)

        var platform = Platform.ios
        if let n = m.value("platform") {
            let p = try n.string()
            guard let v = Platform(rawValue: p) else { throw n.error("expected ios or android, found '\(p)'") }
            platform = v
        }
        if let override { platform = override }

        func url(_ key: String, required: Bool) throws(ConfigError) -> String? {
            guard let n = required ? try m.required(key, expecting: "a string") : m.value(key) else { return nil }
            let s = try n.string()
            guard let u = WebURL(s) else {
                throw n.error("expected an absolute URL (like https://shop.example.com/path), found '\(s)'")
            }
            if SchemeKind(scheme: u.scheme) == .neverExternal || SchemeKind(scheme: u.scheme) == .intent {
                throw n.error("expected an http(s) or app URL, found a \(u.scheme): URL")
            }
            if SchemeKind(scheme: u.scheme) == .web, u.comparableHost?.isEmpty != false {
                throw n.error("expected a URL with a host, found '\(s)'")
            }
            return s
        }
        let paymentURL = try url("paymentUrl", required: true) ?? ""
        let completeURL = try url("completeUrl", required: true) ?? ""
        let cancelURL = try url("cancelUrl", required: true) ?? ""
        let termsURL = try url("termsOfServiceUrl", required: false)

        var callbackScheme: String?
        if let n = m.value("callbackScheme") {
            let cs = try n.string()
            let bytes = Array(cs.utf8)
            let valid =
                !bytes.isEmpty
                && bytes.allSatisfy { $0 < 0x80 && (isalnum(Int32($0)) != 0 || $0 == 0x2B || $0 == 0x2D || $0 == 0x2E) }
                && isalpha(Int32(bytes[0])) != 0
            guard valid else {
                throw n.error("expected a URL scheme without ':' (like shopapp), found '\(cs)'")
            }
            let kind = SchemeKind(scheme: cs)
            guard kind == .custom else {
                throw n.error("expected the app's own custom scheme, found the reserved scheme '\(cs)'")
            }
            callbackScheme = cs.lowercased()
        }

        var redirectPolicy: RedirectPolicy?
        if let n = m.value("redirectPolicy") {
            let rp = try n.string()
            guard let v = RedirectPolicy(rawValue: rp) else {
                throw n.error("expected goodlist, webview or browser, found '\(rp)'")
            }
            redirectPolicy = v
        }

        var allowedHosts: [String]?
        if let hosts = try m.value("allowedHosts")?.items() {
            var normalized: [String] = []
            for node in hosts {
                let h = try node.string()
                guard let n = Policy.normalizeAllowedHost(h) else {
                    throw node.error(
                        "expected a host, *.host or **.host as in a goodlist (an exact host may add :port; http://host admits it over plain http), found '\(h)'"
                    )
                }
                normalized.append(n)
            }
            allowedHosts = normalized
        }

        // Patterns are parsed once, with their entries, and the list is built once from them.
        var entries: [(HostPattern, GoodlistEntry)] = []
        if let items = try m.value("goodlist")?.items() {
            for node in items {
                let item = try node.string()
                if DefaultGoodlist.isNamed(item) {
                    entries += DefaultGoodlist.patternEntries
                    continue
                }
                let path = item.hasPrefix("/") ? item : (baseDirectory as NSString).appendingPathComponent(item)
                var isDir: ObjCBool = false
                if FileManager.default.fileExists(atPath: path, isDirectory: &isDir) {
                    entries += try GoodlistFiles.loadPatternEntries(
                        path: path, displayName: item, isDirectory: isDir.boolValue, entriesBefore: entries.count)
                } else if item.contains("/") || item.hasSuffix(".goodlist") || item.hasSuffix(".txt") {
                    throw node.error(
                        "no such goodlist file '\(item)' (relative to the policy file; \(DefaultGoodlist.name) names the built-in list)"
                    )
                } else if let pattern = try? HostPattern(item.lowercased()) {
                    guard entries.count < Goodlist.maximumEntries else {
                        throw node.error(
                            "past the cap of \(Goodlist.maximumEntries) goodlist entries (the lists and inline patterns before it hold as many): a goodlist names the 3-D Secure and bank hosts a payment may pass through, hundreds at most"
                        )
                    }
                    entries.append((pattern, GoodlistEntry(pattern: item.lowercased(), file: node.file, line: node.line)))
                } else {
                    throw node.error(
                        "expected a goodlist file, \(DefaultGoodlist.name) (the built-in list) or a host pattern (host, *.host, **.host), found '\(item)'"
                    )
                }
            }
        } else {
            // No goodlist named: the shipped list, compiled in, so the answer never depends on the directory.
            entries = DefaultGoodlist.patternEntries
        }

        // A wildcard over a public suffix (`*.com`, `**.github.io`) admits every site registered under it:
        // such a list is refused, as `goodlist lint` reports it, unless the policy explicitly allows it.
        var allowUnsafe = false
        if let n = m.value("allowPublicSuffixWildcards") { allowUnsafe = try n.bool() }
        if !allowUnsafe, m.value("goodlist") != nil {
            try refusePublicSuffixWildcards(entries.map(\.1), goodlistNode: m.value("goodlist"))
        }

        return Policy(
            platform: platform, paymentURL: paymentURL, completeURL: completeURL, cancelURL: cancelURL,
            termsOfServiceURL: termsURL, callbackScheme: callbackScheme, redirectPolicy: redirectPolicy,
            allowedHosts: allowedHosts, goodlist: Goodlist(entries))
    }

    /// Throws for the first entry whose wildcard stands over a public suffix, naming its file and line. The
    /// Public Suffix List is read only when there is a wildcard entry to check.
    static func refusePublicSuffixWildcards(_ entries: [GoodlistEntry], goodlistNode: ConfigNode?) throws(ConfigError) {
        let wildcards = entries.compactMap { e -> (GoodlistEntry, HostPattern)? in
            guard let p = try? HostPattern(e.pattern), p.kind != .exact else { return nil }
            return (e, p)
        }
        guard !wildcards.isEmpty else { return }
        let suffixes: PublicSuffixRules
        do {
            suffixes = try PublicSuffixList.loadRemembered()
        } catch {
            throw goodlistNode?.error(
                "the goodlist has wildcard entries, and checking them needs the Public Suffix List: \(error.message)")
                ?? error
        }
        for (entry, pattern) in wildcards where suffixes.isPublicSuffix(pattern.base) {
            throw ConfigError(
                file: entry.file ?? goodlistNode?.file ?? "goodlist", line: entry.line, key: goodlistNode?.path,
                "'\(entry.pattern)' is a wildcard over the public suffix '\(pattern.base)': it admits every site registered under it (goodlist lint reports it); list the bank's own hosts, or set allowPublicSuffixWildcards: true in the policy to use it anyway"
            )
        }
    }
}
