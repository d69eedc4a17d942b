// The flow's `policy:` and `environment:` (a path relative to the flow file, or an inline mapping), read by
// PlainviewConfig's loaders; app behaviours are decoded strictly here (the simulator owns that model).
import Foundation
import NavigationPolicy
import PlainviewConfig

enum ConfigBridge {
    struct LoadedEnvironment {
        var system: any SystemServices
        var apps: [String: AppBehaviour]
        var appNames: [String]
        var webView = Environment.WebViewSettings()
    }

    private static func path(_ node: ConfigNode, folder: String) throws(ConfigError) -> String {
        let rel = try node.string()
        let path = rel.hasPrefix("/") ? rel : (folder as NSString).appendingPathComponent(rel)
        guard FileManager.default.isReadableFile(atPath: path) else { throw node.error("cannot read '\(rel)' (looked at \(path))") }
        return path
    }

    /// A path to a policy file (relative to the flow's folder) or an inline mapping, whose errors name the
    /// flow file and `policy.KEY`.
    static func policy(_ node: ConfigNode, folder: String) throws(ConfigError) -> Policy {
        // Without a `goodlist` key, the shipped list (compiled in) applies, wherever the flow lives.
        if node.isScalar {
            return try PolicyFile.load(path: try path(node, folder: folder))
        }
        return try PolicyFile.decode(node, baseDirectory: folder)
    }

    static func environment(_ node: ConfigNode, folder: String) throws(ConfigError) -> LoadedEnvironment {
        let loaded: PlainviewConfig.LoadedEnvironment<AppBehaviour>
        if node.isScalar {
            loaded = try EnvironmentFile.load(path: try path(node, folder: folder), behaviour: decodeBehaviour)
        } else {
            loaded = try EnvironmentFile.decode(node, baseDirectory: folder, behaviour: decodeBehaviour)
        }
        return LoadedEnvironment(system: EnvironmentSystem(loaded.environment), apps: loaded.behaviours,
                                 appNames: loaded.environment.apps.map(\.name), webView: loaded.environment.webView)
    }

    /// The decoder the environment loader calls for each app's `behaviour:`.
    static func decodeBehaviour(_ node: ConfigNode) throws(ConfigError) -> (behaviour: AppBehaviour, model: KnownApp?) {
        let b = try behaviour(node)
        return (b, b.model)
    }

    static let behaviourKeys = ["host", "then", "returnTo", "cancelReturnTo", "model", "failure"]
    static let returnKeys = ["url", "queryParameter", "nullMeansPrevious"]
    /// The keys of `behaviour:` as a tree (`returnTo`/`cancelReturnTo` may be mappings).
    static let behaviourShape = ConfigKeys(behaviourKeys, nested: ["returnTo": ConfigKeys(returnKeys), "cancelReturnTo": ConfigKeys(returnKeys)])

    /// The `behaviour` mapping, decoded strictly into `AppBehaviour`.
    static func behaviour(_ node: ConfigNode) throws(ConfigError) -> AppBehaviour {
        let f = try node.fields(behaviourKeys)
        var b = AppBehaviour(host: try f.value("host")?.bool() ?? false)
        b.then = b.host ? .wait : .complete
        if let m = f.value("model") {
            guard let app = AppBehaviour.knownApp(try m.string()) else { throw m.error("expected swish, bankid or roampay-x") }
            b.model = app
            b.returnTo = .appSwitchProtocol   // a built-in model returns through its protocol unless told otherwise
        }
        if let fl = f.value("failure") {
            guard let o = AppBehaviour.roampayFailure(try fl.string()) else {
                throw fl.error("expected \(AppBehaviour.roampayFailures.map(\.rawValue).joined(separator: ", ")) or a response code (6010, 4995, 4999, 4993)")
            }
            b.failure = o
        }
        if let t = f.value("then") {
            guard let o = AppBehaviour.Outcome(rawValue: try t.string()) else { throw t.error("expected complete, cancel, fail or wait") }
            b.then = o
        }
        func ret(_ n: ConfigNode) throws(ConfigError) -> AppBehaviour.Return {
            if n.isScalar {
                switch try n.string() {
                case "previous": return .previousApp
                case "protocol": return .appSwitchProtocol
                default: throw n.error("expected previous, protocol, {url: URL} or {queryParameter: NAME}")
                }
            }
            let rf = try n.fields(returnKeys)
            if let u = rf.value("url") { return .url(try u.string()) }
            if let q = rf.value("queryParameter") {
                return .queryParameter(try q.string(), nullMeansPrevious: try rf.value("nullMeansPrevious")?.bool() ?? false)
            }
            throw n.error("expected previous, {url: URL} or {queryParameter: NAME}")
        }
        if let r = f.value("returnTo") { b.returnTo = try ret(r) }
        if let r = f.value("cancelReturnTo") { b.cancelReturnTo = try ret(r) }
        return b
    }
}

extension FlowLoader {
    /// An environment file read exactly as a flow's `environment:` is (app behaviours decoded strictly), for
    /// `decide --env`: the same file means the same device in both commands.
    public static func environment(path: String) throws(ConfigError) -> Environment {
        try EnvironmentFile.load(path: path, behaviour: ConfigBridge.decodeBehaviour).environment
    }
}
