// The flow's `policy:` and `environment:` (a path relative to the flow file, or an inline mapping).
// TEMPORARY bodies: PlainviewConfig's policy/environment loaders replace them when they land on main.
import Foundation
import NavigationPolicy
import PlainviewConfig

enum ConfigBridge {
    struct LoadedEnvironment {
        var system: any SystemServices
        var apps: [String: AppBehaviour]
        var appNames: [String]
    }

    /// A node that is a path to a file, or the inline mapping itself; returns the mapping node.
    private static func mappingNode(_ node: YNode, folder: String) throws(ConfigError) -> (YNode, String) {
        if node.isScalar {
            let rel = try node.string()
            let path = rel.hasPrefix("/") ? rel : (folder as NSString).appendingPathComponent(rel)
            guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
                throw node.error("cannot read '\(rel)' (looked at \(path))")
            }
            return (try YNode.parse(text, file: path), (path as NSString).deletingLastPathComponent)
        }
        return (node, folder)
    }

    static func policy(_ node: YNode, folder: String) throws(ConfigError) -> Policy {
        let (n, base) = try mappingNode(node, folder: folder)
        let f = try n.fields(["platform", "paymentUrl", "completeUrl", "cancelUrl", "termsOfServiceUrl", "callbackScheme",
                              "redirectPolicy", "goodlist", "allowedHosts"])
        let pNode = try f.required("platform")
        guard let platform = Platform(rawValue: try pNode.string()) else { throw pNode.error("expected ios or android") }
        func url(_ k: String) throws(ConfigError) -> String {
            let node = try f.required(k)
            let v = try node.string()
            guard URLTools.scheme(v) != nil, v.contains("://") else { throw node.error("expected an absolute URL, got '\(v)'") }
            return v
        }
        var terms: String?
        if f["termsOfServiceUrl"] != nil { terms = try url("termsOfServiceUrl") }
        var redirect: RedirectPolicy?
        if let r = f["redirectPolicy"] {
            guard let v = RedirectPolicy(rawValue: try r.string()) else { throw r.error("expected goodlist, webview or browser") }
            redirect = v
        }
        var entries: [GoodlistEntry] = []
        if let g = f["goodlist"] {
            for item in try g.list() {
                let s = try item.string()
                if s.contains("/") || s.hasSuffix(".goodlist") || s.hasSuffix(".txt") {
                    let path = s.hasPrefix("/") ? s : (base as NSString).appendingPathComponent(s)
                    guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { throw item.error("cannot read goodlist '\(s)'") }
                    for (i, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                        let t = line.trimmingCharacters(in: .whitespaces)
                        if t.isEmpty || t.hasPrefix("#") { continue }
                        entries.append(GoodlistEntry(pattern: t, file: s, line: i + 1))
                    }
                } else {
                    entries.append(GoodlistEntry(pattern: s, file: n.file, line: item.line))
                }
            }
        }
        let allowed = try f["allowedHosts"]?.strings()
        return Policy(platform: platform, paymentURL: try url("paymentUrl"), completeURL: try url("completeUrl"),
                      cancelURL: try url("cancelUrl"), termsOfServiceURL: terms, callbackScheme: try f["callbackScheme"]?.string(),
                      redirectPolicy: redirect, allowedHosts: allowed, goodlist: Goodlist(entries: entries))
    }

    static func environment(_ node: YNode, folder: String) throws(ConfigError) -> LoadedEnvironment {
        let (n, _) = try mappingNode(node, folder: folder)
        let f = try n.fields(["apps"])
        var apps: [EnvApp] = []
        var behaviours: [String: AppBehaviour] = [:]
        if let list = f["apps"] {
            for item in try list.sequence() {
                let af = try item.fields(["name", "schemes", "universalLinks", "package", "appLinks", "behaviour"])
                let name = try af.required("name").string()
                guard !apps.contains(where: { $0.name == name }) else { throw item.error("duplicate app name '\(name)'") }
                func links(_ k: String) throws(ConfigError) -> [(String, [String])] {
                    guard let l = af[k] else { return [] }
                    var out: [(String, [String])] = []
                    for e in try l.sequence() {
                        let ef = try e.fields(["host", "paths"])
                        out.append((try ef.required("host").string().lowercased(), try ef["paths"]?.strings() ?? ["*"]))
                    }
                    return out
                }
                apps.append(EnvApp(name: name, schemes: (try af["schemes"]?.strings() ?? []).map { $0.lowercased() },
                                   universalLinks: try links("universalLinks"), package: try af["package"]?.string(),
                                   appLinks: try links("appLinks")))
                if let b = af["behaviour"] { behaviours[name] = try behaviour(b) }
            }
        }
        return LoadedEnvironment(system: EnvSystem(apps: apps), apps: behaviours, appNames: apps.map(\.name))
    }

    /// The `behaviour` mapping, decoded strictly into `AppBehaviour`.
    static func behaviour(_ node: YNode) throws(ConfigError) -> AppBehaviour {
        let f = try node.fields(["host", "then", "returnTo", "cancelReturnTo"])
        var b = AppBehaviour(host: try f["host"]?.bool() ?? false)
        b.then = b.host ? .wait : .complete
        if let t = f["then"] {
            guard let o = AppBehaviour.Outcome(rawValue: try t.string()) else { throw t.error("expected complete, cancel, fail or wait") }
            b.then = o
        }
        func ret(_ n: YNode) throws(ConfigError) -> AppBehaviour.Return {
            if n.isScalar {
                switch try n.string() {
                case "previous": return .previousApp
                case "protocol": return .appSwitchProtocol
                default: throw n.error("expected previous, protocol, {url: URL} or {queryParameter: NAME}")
                }
            }
            let rf = try n.fields(["url", "queryParameter", "nullMeansPrevious"])
            if let u = rf["url"] { return .url(try u.string()) }
            if let q = rf["queryParameter"] {
                return .queryParameter(try q.string(), nullMeansPrevious: try rf["nullMeansPrevious"]?.bool() ?? false)
            }
            throw n.error("expected previous, {url: URL} or {queryParameter: NAME}")
        }
        if let r = f["returnTo"] { b.returnTo = try ret(r) }
        if let r = f["cancelReturnTo"] { b.cancelReturnTo = try ret(r) }
        return b
    }

    struct EnvApp: Sendable {
        var name: String
        var schemes: [String]
        var universalLinks: [(String, [String])]
        var package: String?
        var appLinks: [(String, [String])]
    }

    /// TEMPORARY: the environment's answers (replaced by PlainviewConfig's EnvironmentSystem).
    struct EnvSystem: SystemServices {
        let apps: [EnvApp]

        private func claim(_ links: [(String, [String])], _ url: String) -> Bool {
            guard let host = URLTools.host(url), let c = URLComponents(string: url) else { return false }
            let path = c.percentEncodedPath.isEmpty ? "/" : c.percentEncodedPath
            for (h, paths) in links where h == host {
                var ok = false
                for p in paths {
                    if p.hasPrefix("NOT ") { if glob(String(p.dropFirst(4)), path) { ok = false; break } } else if glob(p, path) { ok = true }
                }
                if ok { return true }
            }
            return false
        }

        private func glob(_ pattern: String, _ s: String) -> Bool {
            let p = Array(pattern), t = Array(s)
            var pi = 0, ti = 0, star = -1, mark = 0
            while ti < t.count {
                if pi < p.count, p[pi] == "?" || p[pi] == t[ti] { pi += 1; ti += 1 }
                else if pi < p.count, p[pi] == "*" { star = pi; mark = ti; pi += 1 }
                else if star >= 0 { pi = star + 1; mark += 1; ti = mark }
                else { return false }
            }
            while pi < p.count, p[pi] == "*" { pi += 1 }
            return pi == p.count
        }

        func universalLinkApp(for url: String) -> String? { apps.first { claim($0.universalLinks, url) }?.name }
        func appLinkApp(for url: String) -> String? { apps.first { claim($0.appLinks, url) }?.name }
        func customSchemeApp(for scheme: String) -> String? { apps.first { $0.schemes.contains(scheme.lowercased()) }?.name }
        func intentApp(for intent: AndroidIntent) -> String? {
            if let p = intent.package { return apps.first { $0.package == p }?.name }
            if let d = intent.data, let s = URLTools.scheme(d), s != "http", s != "https" { return customSchemeApp(for: s) }
            return nil
        }
    }
}
