// An app's `behaviour:` in an environment file, read strictly into AppBehaviour: one reader for `simulate` (a flow's
// environment) and `decide --env`, so the same file means the same device in both commands.
import NavigationPolicy

extension AppBehaviour {
    /// The decoder the environment loader calls for each app's `behaviour:`.
    public static func decode(_ node: ConfigNode) throws(ConfigError) -> (behaviour: AppBehaviour, model: KnownApp?) {
        let b = try read(node)
        return (b, b.model)
    }

    public static let keys = ["host", "then", "returnTo", "cancelReturnTo", "model", "failure"]
    public static let returnKeys = ["url", "queryParameter", "nullMeansPrevious"]
    /// The keys of `behaviour:` as a tree (`returnTo`/`cancelReturnTo` may be mappings).
    public static let shape = ConfigKeys(
        keys, nested: ["returnTo": ConfigKeys(returnKeys), "cancelReturnTo": ConfigKeys(returnKeys)])

    /// The `behaviour` mapping, decoded strictly into `AppBehaviour`.
    public static func read(_ node: ConfigNode) throws(ConfigError) -> AppBehaviour {
        let f = try node.fields(keys)
        var b = AppBehaviour(host: try f.value("host")?.bool() ?? false)
        b.then = b.host ? .wait : .complete
        if let m = f.value("model") {
            guard let app = AppBehaviour.knownApp(try m.string()) else {
                throw m.error("expected swish, bankid, roampay-x or vipps-mobilepay")
            }
            b.model = app
            b.returnTo = .appSwitchProtocol // a built-in model returns through its protocol unless told otherwise
        }
        if let fl = f.value("failure") {
            guard let o = AppBehaviour.roampayFailure(try fl.string()) else {
                throw fl.error(
                    "expected \(AppBehaviour.roampayFailures.map(\.rawValue).joined(separator: ", ")) or a response code (6010, 4995, 4999, 4993)"
                )
            }
            b.failure = o
        }
        if let t = f.value("then") {
            guard let o = AppBehaviour.Outcome(rawValue: try t.string()) else {
                throw t.error("expected complete, cancel, fail or wait")
            }
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
        // Vipps MobilePay's launch URL does not say where to go back: the app opens the `returnUrl` the merchant
        // gave when it created the payment (its "Return URLs and redirects" guide), so the environment says it.
        if b.model == .vippsMobilePay, b.returnTo == .appSwitchProtocol {
            throw node.error(
                "model vipps-mobilepay goes back to the returnUrl the merchant gave when it created the payment: give returnTo: {url: URL}"
            )
        }
        return b
    }
}

extension EnvironmentFile {
    /// An environment file read exactly as a flow's `environment:` is (app behaviours decoded strictly), for
    /// `decide --env`: the same file means the same device in both commands.
    public static func device(path: String) throws(ConfigError) -> Environment {
        try load(path: path)
    }
}

extension LoadedEnvironment where Behaviour == AppBehaviour {
    /// The device, knowing its host app: the first app marked `behaviour: {host: true}`.
    public var device: Environment {
        var device = environment
        device.hostApp = environment.apps.first { behaviours[$0.name]?.host == true }?.name
        return device
    }
}
