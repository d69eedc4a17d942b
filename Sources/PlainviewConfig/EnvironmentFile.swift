// The environment file (DESIGN.md "Environment file"): the apps a simulated device has installed.
import PlainviewURL
import Foundation
import NavigationPolicy
import Yams

/// Loads environment files (YAML or JSON). Every problem is a `ConfigError` naming the file, line and key.
public enum EnvironmentFile {
    public static let keys = ["apps", "defaultApps"]
    public static let appKeys = ["name", "schemes", "universalLinks", "package", "appLinks", "behaviour"]
    public static let universalLinkKeys = ["host", "paths", "aasa"]
    public static let appLinkKeys = ["host", "paths"]

    /// Decodes an app's `behaviour` node into the caller's model (the simulator owns it) and says which
    /// built-in app it names, if any. Throw a `ConfigError` (or any error, which is wrapped) when it is wrong.
    public typealias BehaviourDecoder<Behaviour> = (_ node: Node, _ file: String, _ key: String) throws -> (behaviour: Behaviour, model: KnownApp?)

    /// Loads an environment file; `aasa:` files resolve against the file's folder. Without a behaviour
    /// decoder, an app's `behaviour:` key is an error: only the simulator gives behaviours a meaning.
    public static func load<B>(path: String, behaviour: BehaviourDecoder<B>?) throws -> LoadedEnvironment<B> {
        let doc = try ConfigDocument.load(path: path)
        return try decode(doc, baseDirectory: (path as NSString).deletingLastPathComponent, behaviour: behaviour)
    }

    public static func parse<B>(_ text: String, file: String = "<environment>", baseDirectory: String = ".",
                                behaviour: BehaviourDecoder<B>?) throws -> LoadedEnvironment<B> {
        try decode(ConfigDocument.parse(text, file: file), baseDirectory: baseDirectory, behaviour: behaviour)
    }

    /// Loads an environment file that gives no app a `behaviour:` (what an app or `decide` needs).
    public static func load(path: String) throws -> Environment {
        try load(path: path, behaviour: nil as BehaviourDecoder<Never>?).environment
    }

    public static func parse(_ text: String, file: String = "<environment>", baseDirectory: String = ".") throws -> Environment {
        try parse(text, file: file, baseDirectory: baseDirectory, behaviour: nil as BehaviourDecoder<Never>?).environment
    }

    /// Decodes an environment from an already-parsed YAML node (e.g. a flow file's inline `environment:`).
    public static func decode<B>(_ node: Node, file: String, baseDirectory: String,
                                 behaviour: BehaviourDecoder<B>?) throws -> LoadedEnvironment<B> {
        try decode(ConfigDocument(file: file, root: node), baseDirectory: baseDirectory, behaviour: behaviour)
    }

    static func decode<B>(_ doc: ConfigDocument, baseDirectory: String, behaviour decodeBehaviour: BehaviourDecoder<B>?) throws -> LoadedEnvironment<B> {
        let m = try doc.mapping(doc.root, at: nil, allowed: keys)
        var apps: [Environment.App] = []
        var behaviours: [String: B] = [:]
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
            var model: KnownApp?
            if let b = a["behaviour"], !ConfigDocument.isNull(b) {
                guard let decodeBehaviour else {
                    throw doc.error(b, "\(at).behaviour", "app behaviours belong to simulated devices; load this file with the simulator's environment loader")
                }
                do {
                    let decoded = try decodeBehaviour(b, doc.file, "\(at).behaviour")
                    behaviours[name] = decoded.behaviour
                    model = decoded.model
                } catch let e as ConfigError {
                    throw e
                } catch {
                    throw doc.error(b, "\(at).behaviour", "not a valid app behaviour: \(error)")
                }
            }
            apps.append(Environment.App(name: name, schemes: schemes, universalLinks: uls, package: package,
                                        appLinks: appLinks, model: model).withModelDefaults())
        }
        // Which of the platform's own apps (tel: Phone, mailto: Mail …) the device has; absent: all of them.
        var defaultApps: [String]?
        if let list = try doc.stringList(m["defaultApps"], "defaultApps") {
            let known = Set(Platform.allCases.flatMap { PlatformDefaultApps.handlers(on: $0).map(\.scheme) })
            for (i, scheme) in list.enumerated() where !known.contains(scheme.lowercased()) {
                throw doc.error(m["defaultApps"], "defaultApps[\(i)]",
                                "expected a scheme the platform's own apps handle (\(known.sorted().joined(separator: ", "))), found '\(scheme)'")
            }
            defaultApps = list
        }
        return LoadedEnvironment(environment: Environment(apps: apps, defaultApps: defaultApps), behaviours: behaviours)
    }

    private static func hostValue(_ doc: ConfigDocument, _ node: Node?, _ key: String, parent: Node) throws -> String {
        let raw = try doc.string(node, key, required: true, parent: parent) ?? ""
        guard let h = HostName.normalize(raw) else {
            throw doc.error(node, key, "expected a host name (like app.bankid.com), found '\(raw)'")
        }
        return h
    }
}

/// An environment file as loaded: the device's apps, and each app's behaviour as the caller decoded it.
public struct LoadedEnvironment<Behaviour> {
    public var environment: Environment
    /// By app name; apps without a `behaviour:` key have none.
    public var behaviours: [String: Behaviour]
    public init(environment: Environment, behaviours: [String: Behaviour] = [:]) {
        self.environment = environment
        self.behaviours = behaviours
    }
}

extension LoadedEnvironment: Sendable where Behaviour: Sendable {}
