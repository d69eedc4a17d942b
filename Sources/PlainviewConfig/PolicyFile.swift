// The policy file (DESIGN.md "Policy file"): YAML or JSON, the same keys.
import PlainviewURL
import Foundation
import NavigationPolicy
import Yams

/// Loads policy files. Every problem is a `ConfigError` naming the file, line and key.
public enum PolicyFile {
    /// The keys a policy file may have.
    public static let keys = ["platform", "paymentUrl", "completeUrl", "cancelUrl", "termsOfServiceUrl",
                              "callbackScheme", "redirectPolicy", "goodlist", "allowedHosts"]

    /// Loads a policy file. `goodlist` entries are files relative to the policy file or inline host patterns;
    /// without the key, the files of `defaultGoodlistDirectory` (the repository's `Goodlist/`) are used.
    /// `platform` overrides the file's platform (and with it the default redirect policy).
    public static func load(path: String, platform: Platform? = nil, defaultGoodlistDirectory: String? = nil) throws -> Policy {
        let doc = try ConfigDocument.load(path: path)
        let baseDir = (path as NSString).deletingLastPathComponent
        return try decode(doc, baseDirectory: baseDir, platform: platform, defaultGoodlistDirectory: defaultGoodlistDirectory)
    }

    /// Parses policy text (YAML or JSON); `file` names it in errors; relative goodlist files resolve against `baseDirectory`.
    public static func parse(_ text: String, file: String = "<policy>", baseDirectory: String = ".",
                             platform: Platform? = nil, defaultGoodlistDirectory: String? = nil) throws -> Policy {
        try decode(ConfigDocument.parse(text, file: file), baseDirectory: baseDirectory, platform: platform,
                   defaultGoodlistDirectory: defaultGoodlistDirectory)
    }

    /// Decodes a policy from an already-parsed YAML node (e.g. a flow file's inline `policy:` mapping);
    /// `file` names it in errors, relative goodlist files resolve against `baseDirectory`.
    public static func decode(_ node: Node, file: String, baseDirectory: String, platform: Platform? = nil,
                              defaultGoodlistDirectory: String? = nil) throws -> Policy {
        try decode(ConfigDocument(file: file, root: node), baseDirectory: baseDirectory, platform: platform,
                   defaultGoodlistDirectory: defaultGoodlistDirectory)
    }

    static func decode(_ doc: ConfigDocument, baseDirectory: String, platform override: Platform?,
                       defaultGoodlistDirectory: String?) throws -> Policy {
        let root = doc.root
        let m = try doc.mapping(root, at: nil, allowed: keys)

        var platform = Platform.ios
        if let p = try doc.string(m["platform"], "platform", required: false, parent: root) {
            guard let v = Platform(rawValue: p) else { throw doc.error(m["platform"], "platform", "expected ios or android, found '\(p)'") }
            platform = v
        }
        if let override { platform = override }

        func url(_ key: String, required: Bool) throws -> String? {
            guard let s = try doc.string(m[key], key, required: required, parent: root) else { return nil }
            guard let u = WebURL(s) else {
                throw doc.error(m[key], key, "expected an absolute URL (like https://shop.example.com/path), found '\(s)'")
            }
            if SchemeKind(scheme: u.scheme) == .neverExternal || SchemeKind(scheme: u.scheme) == .intent {
                throw doc.error(m[key], key, "expected an http(s) or app URL, found a \(u.scheme): URL")
            }
            if (SchemeKind(scheme: u.scheme) == .web), u.comparableHost?.isEmpty != false {
                throw doc.error(m[key], key, "expected a URL with a host, found '\(s)'")
            }
            return s
        }
        let paymentURL = try url("paymentUrl", required: true) ?? ""
        let completeURL = try url("completeUrl", required: true) ?? ""
        let cancelURL = try url("cancelUrl", required: true) ?? ""
        let termsURL = try url("termsOfServiceUrl", required: false)

        var callbackScheme: String?
        if let cs = try doc.string(m["callbackScheme"], "callbackScheme", required: false, parent: root) {
            let bytes = Array(cs.utf8)
            let valid = !bytes.isEmpty && bytes.allSatisfy { $0 < 0x80 && (isalnum(Int32($0)) != 0 || $0 == 0x2B || $0 == 0x2D || $0 == 0x2E) }
                && isalpha(Int32(bytes[0])) != 0
            guard valid else {
                throw doc.error(m["callbackScheme"], "callbackScheme", "expected a URL scheme without ':' (like shopapp), found '\(cs)'")
            }
            let kind = SchemeKind(scheme: cs)
            guard kind == .custom else {
                throw doc.error(m["callbackScheme"], "callbackScheme", "expected the app's own custom scheme, found the reserved scheme '\(cs)'")
            }
            callbackScheme = cs.lowercased()
        }

        var redirectPolicy: RedirectPolicy?
        if let rp = try doc.string(m["redirectPolicy"], "redirectPolicy", required: false, parent: root) {
            guard let v = RedirectPolicy(rawValue: rp) else {
                throw doc.error(m["redirectPolicy"], "redirectPolicy", "expected goodlist, webview or browser, found '\(rp)'")
            }
            redirectPolicy = v
        }

        var allowedHosts: [String]?
        if let hosts = try doc.stringList(m["allowedHosts"], "allowedHosts") {
            var normalized: [String] = []
            for (i, h) in hosts.enumerated() {
                guard let n = Policy.normalizeAllowedHost(h) else {
                    throw doc.error(m["allowedHosts"], "allowedHosts[\(i)]", "expected a host name (optionally host:port), found '\(h)'")
                }
                normalized.append(n)
            }
            allowedHosts = normalized
        }

        var entries: [GoodlistEntry] = []
        if let items = try doc.stringList(m["goodlist"], "goodlist") {
            for (i, item) in items.enumerated() {
                let path = item.hasPrefix("/") ? item : (baseDirectory as NSString).appendingPathComponent(item)
                var isDir: ObjCBool = false
                if FileManager.default.fileExists(atPath: path, isDirectory: &isDir) {
                    entries += try GoodlistFiles.load(path: path, displayName: item, isDirectory: isDir.boolValue)
                } else if item.contains("/") || item.hasSuffix(".goodlist") || item.hasSuffix(".txt") {
                    throw doc.error(m["goodlist"], "goodlist[\(i)]", "no such goodlist file '\(item)' (relative to the policy file)")
                } else if GoodlistFiles.isPattern(item) {
                    entries.append(GoodlistEntry(pattern: item.lowercased(), file: doc.file, line: m["goodlist"]?.mark?.line))
                } else {
                    throw doc.error(m["goodlist"], "goodlist[\(i)]", "expected a goodlist file or a host pattern (host, *.host, **.host), found '\(item)'")
                }
            }
        } else if let dir = defaultGoodlistDirectory {
            var isDir: ObjCBool = false
            if FileManager.default.fileExists(atPath: dir, isDirectory: &isDir), isDir.boolValue {
                entries = try GoodlistFiles.load(path: dir, displayName: dir, isDirectory: true)
            }
        }

        return Policy(platform: platform, paymentURL: paymentURL, completeURL: completeURL, cancelURL: cancelURL,
                      termsOfServiceURL: termsURL, callbackScheme: callbackScheme, redirectPolicy: redirectPolicy,
                      allowedHosts: allowedHosts, goodlist: Goodlist(entries: entries))
    }
}
