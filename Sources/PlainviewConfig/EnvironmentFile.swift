// The environment file (DESIGN.md "Environment file"): the apps a simulated device has installed.
import Foundation
import NavigationPolicy
import Yams

/// Loads environment files (YAML or JSON). Every problem is a `ConfigError` naming the file, line and key.
public enum EnvironmentFile {
    public static let keys = ["apps"]
    public static let appKeys = ["name", "schemes", "universalLinks", "package", "appLinks", "behaviour"]
    public static let universalLinkKeys = ["host", "paths", "aasa"]
    public static let appLinkKeys = ["host", "paths"]

    /// Decodes an app's `behaviour` node; throw a `ConfigError` (or any error, which is wrapped) when it is wrong.
    public typealias BehaviourDecoder = @Sendable (_ node: Node, _ file: String, _ key: String) throws -> AppBehaviour

    /// Loads an environment file; `aasa:` files resolve against the file's folder.
    public static func load(path: String, behaviour: BehaviourDecoder? = nil) throws -> Environment {
        let doc = try ConfigDocument.load(path: path)
        return try decode(doc, baseDirectory: (path as NSString).deletingLastPathComponent, behaviour: behaviour)
    }

    public static func parse(_ text: String, file: String = "<environment>", baseDirectory: String = ".",
                             behaviour: BehaviourDecoder? = nil) throws -> Environment {
        try decode(ConfigDocument.parse(text, file: file), baseDirectory: baseDirectory, behaviour: behaviour)
    }

    /// Decodes an environment from an already-parsed YAML node (e.g. a flow file's inline `environment:`).
    public static func decode(_ node: Node, file: String, baseDirectory: String, behaviour: BehaviourDecoder? = nil) throws -> Environment {
        try decode(ConfigDocument(file: file, root: node), baseDirectory: baseDirectory, behaviour: behaviour)
    }

    static func decode(_ doc: ConfigDocument, baseDirectory: String, behaviour decodeBehaviour: BehaviourDecoder? = nil) throws -> Environment {
        let m = try doc.mapping(doc.root, at: nil, allowed: keys)
        var apps: [Environment.App] = []
        for (i, node) in (try doc.list(m["apps"], "apps") ?? []).enumerated() {
            let at = "apps[\(i)]"
            let a = try doc.mapping(node, at: at, allowed: appKeys)
            guard let name = try doc.string(a["name"], "\(at).name", required: true, parent: node), !name.isEmpty else {
                throw doc.error(a["name"], "\(at).name", "expected a non-empty app name")
            }
            var schemes: [String] = []
            for (j, s) in (try doc.stringList(a["schemes"], "\(at).schemes") ?? []).enumerated() {
                var scheme = s.lowercased()
                if scheme.hasSuffix(":") { scheme.removeLast() }
                if scheme.hasSuffix("://") { scheme.removeLast(3) }
                guard let first = scheme.utf8.first, isalpha(Int32(first)) != 0,
                      scheme.utf8.allSatisfy({ $0 < 0x80 && (isalnum(Int32($0)) != 0 || $0 == 0x2B || $0 == 0x2D || $0 == 0x2E) })
                else { throw doc.error(a["schemes"], "\(at).schemes[\(j)]", "expected a URL scheme (like bankid), found '\(s)'") }
                guard SchemeKind(scheme: scheme) == .custom else {
                    throw doc.error(a["schemes"], "\(at).schemes[\(j)]", "'\(scheme)' cannot be an app's custom scheme")
                }
                schemes.append(scheme)
            }
            var uls: [Environment.UniversalLink] = []
            for (j, ulNode) in (try doc.list(a["universalLinks"], "\(at).universalLinks") ?? []).enumerated() {
                let ulAt = "\(at).universalLinks[\(j)]"
                let u = try doc.mapping(ulNode, at: ulAt, allowed: universalLinkKeys)
                let host = try hostValue(doc, u["host"], "\(ulAt).host", parent: ulNode)
                let paths = try doc.stringList(u["paths"], "\(ulAt).paths")
                let aasa = try doc.string(u["aasa"], "\(ulAt).aasa", required: false, parent: ulNode)
                guard (paths == nil) != (aasa == nil) else {
                    throw doc.error(ulNode, ulAt, "expected exactly one of paths (AASA legacy syntax) or aasa (a file)")
                }
                var json: String?
                if let aasa {
                    let p = aasa.hasPrefix("/") ? aasa : (baseDirectory as NSString).appendingPathComponent(aasa)
                    guard let data = FileManager.default.contents(atPath: p), let text = String(data: data, encoding: .utf8) else {
                        throw doc.error(u["aasa"], "\(ulAt).aasa", "cannot read the AASA file '\(aasa)' (relative to the environment file)")
                    }
                    do {
                        _ = try AppSiteAssociation(json: Array(data), domain: host)
                    } catch {
                        throw doc.error(u["aasa"], "\(ulAt).aasa", "the AASA file '\(aasa)' is not valid: \(error.description)")
                    }
                    json = text
                }
                uls.append(Environment.UniversalLink(host: host, paths: paths, aasa: aasa, aasaJSON: json))
            }
            let package = try doc.string(a["package"], "\(at).package", required: false, parent: node)
            var appLinks: [Environment.LinkClaim] = []
            for (j, alNode) in (try doc.list(a["appLinks"], "\(at).appLinks") ?? []).enumerated() {
                let alAt = "\(at).appLinks[\(j)]"
                let l = try doc.mapping(alNode, at: alAt, allowed: appLinkKeys)
                let host = try hostValue(doc, l["host"], "\(alAt).host", parent: alNode)
                let paths = try doc.stringList(l["paths"], "\(alAt).paths") ?? ["/*"]
                appLinks.append(Environment.LinkClaim(host: host, paths: paths))
            }
            var behaviour: AppBehaviour?
            if let b = a["behaviour"], !ConfigDocument.isNull(b) {
                do {
                    if let decodeBehaviour {
                        behaviour = try decodeBehaviour(b, doc.file, "\(at).behaviour")
                    } else {
                        behaviour = try YAMLDecoder().decode(AppBehaviour.self, from: b)
                    }
                } catch let e as ConfigError {
                    throw e
                } catch {
                    throw doc.error(b, "\(at).behaviour", "not a valid app behaviour: \(describe(error))")
                }
            }
            apps.append(Environment.App(name: name, schemes: schemes, universalLinks: uls, package: package,
                                        appLinks: appLinks, behaviour: behaviour).withModelDefaults())
        }
        return Environment(apps: apps)
    }

    private static func hostValue(_ doc: ConfigDocument, _ node: Node?, _ key: String, parent: Node) throws -> String {
        let raw = try doc.string(node, key, required: true, parent: parent) ?? ""
        guard let h = HostName.normalize(raw) else {
            throw doc.error(node, key, "expected a host name (like app.bankid.com), found '\(raw)'")
        }
        return h
    }

    private static func describe(_ error: Error) -> String {
        if let d = error as? DecodingError {
            switch d {
            case .keyNotFound(let k, _): return "missing key \(k.stringValue)"
            case .typeMismatch(let t, let c): return "expected \(t) at \(c.codingPath.map(\.stringValue).joined(separator: "."))"
            case .valueNotFound(let t, let c): return "missing \(t) at \(c.codingPath.map(\.stringValue).joined(separator: "."))"
            case .dataCorrupted(let c): return c.debugDescription
            @unknown default: return "\(d)"
            }
        }
        return "\(error)"
    }
}
