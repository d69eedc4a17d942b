// The flow's `policy:` and `environment:` (a path relative to the flow file, or an inline mapping), read by
// PlainviewConfig's loaders; app behaviours are decoded strictly here (the simulator owns that model).
import Foundation
import NavigationPolicy
import PlainviewConfig
import Yams

enum ConfigBridge {
    struct LoadedEnvironment {
        var system: any SystemServices
        var apps: [String: AppBehaviour]
        var appNames: [String]
    }

    /// Any loader error as a `ConfigError` (they throw ConfigError; anything else is wrapped with the node's place).
    private static func wrap<T>(_ node: YNode, _ body: () throws -> T) throws(ConfigError) -> T {
        do { return try body() } catch let e as ConfigError { throw e } catch { throw node.error("\(error)") }
    }

    private static func path(_ node: YNode, folder: String) throws(ConfigError) -> String {
        let rel = try node.string()
        let path = rel.hasPrefix("/") ? rel : (folder as NSString).appendingPathComponent(rel)
        guard FileManager.default.isReadableFile(atPath: path) else { throw node.error("cannot read '\(rel)' (looked at \(path))") }
        return path
    }

    static func policy(_ node: YNode, folder: String) throws(ConfigError) -> Policy {
        // Without a `goodlist` key, the repository's Goodlist/ (found from the flow's folder upwards) applies.
        let goodlists = GoodlistFiles.defaultFolder(from: folder)
        if node.isScalar {
            let p = try path(node, folder: folder)
            return try wrap(node) { try PolicyFile.load(path: p, defaultGoodlistDirectory: goodlists) }
        }
        return try wrap(node) {
            try PolicyFile.decode(node.node, file: "\(node.file) (policy)", baseDirectory: folder, defaultGoodlistDirectory: goodlists)
        }
    }

    static func environment(_ node: YNode, folder: String) throws(ConfigError) -> LoadedEnvironment {
        let loaded: PlainviewConfig.LoadedEnvironment<AppBehaviour>
        if node.isScalar {
            let p = try path(node, folder: folder)
            loaded = try wrap(node) { try EnvironmentFile.load(path: p, behaviour: decodeBehaviour) }
        } else {
            loaded = try wrap(node) {
                try EnvironmentFile.decode(node.node, file: "\(node.file) (environment)", baseDirectory: folder, behaviour: decodeBehaviour)
            }
        }
        return LoadedEnvironment(system: EnvironmentSystem(loaded.environment), apps: loaded.behaviours,
                                 appNames: loaded.environment.apps.map(\.name))
    }

    /// The decoder the environment loader calls for each app's `behaviour:`.
    static func decodeBehaviour(_ node: Node, file: String, key: String) throws -> (behaviour: AppBehaviour, model: KnownApp?) {
        let b = try behaviour(YNode(node: node, file: file, path: key))
        return (b, b.model)
    }

    /// The `behaviour` mapping, decoded strictly into `AppBehaviour`.
    static func behaviour(_ node: YNode) throws(ConfigError) -> AppBehaviour {
        let f = try node.fields(["host", "then", "returnTo", "cancelReturnTo", "model", "failure"])
        var b = AppBehaviour(host: try f["host"]?.bool() ?? false)
        b.then = b.host ? .wait : .complete
        if let m = f["model"] {
            guard let app = AppBehaviour.knownApp(try m.string()) else { throw m.error("expected swish, bankid or roampay-x") }
            b.model = app
            b.returnTo = .appSwitchProtocol   // a built-in model returns through its protocol unless told otherwise
        }
        if let fl = f["failure"] {
            guard let o = AppBehaviour.roampayFailure(try fl.string()) else {
                throw fl.error("expected \(AppBehaviour.roampayFailures.map(\.rawValue).joined(separator: ", ")) or a response code (6010, 4995, 4999, 4993)")
            }
            b.failure = o
        }
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
}

extension FlowLoader {
    /// An environment file read exactly as a flow's `environment:` is (app behaviours decoded strictly), for
    /// `decide --env`: the same file means the same device in both commands.
    public static func environment(path: String) throws(ConfigError) -> Environment {
        do {
            return try EnvironmentFile.load(path: path, behaviour: ConfigBridge.decodeBehaviour).environment
        } catch let e as ConfigError {
            throw e
        } catch {
            throw ConfigError(file: path, "\(error)")
        }
    }
}
