// The environment file (docs/environment.md): the apps a simulated device has installed.
import PlainviewURL
import Foundation
import NavigationPolicy

/// Loads environment files (YAML or JSON). Every problem is a `ConfigError` naming the file, line and key.
public enum EnvironmentFile {
    public static let keys = ["apps", "defaultApps", "webView", "defaultBrowser"]
    public static let webViewKeys = [
        "javaScriptCanOpenWindowsAutomatically", "supportMultipleWindows", "dialogs", "handler", "originWhitelist",
        "appBoundDomains", "limitsNavigationsToAppBoundDomains", "acceptThirdPartyCookies", "userActivation",
        "openBrowser",
    ]
    public static let userActivationKeys = ["lifespanMs", "survivesNetworkWait"]
    public static let appKeys = [
        "name", "schemes", "universalLinks", "package", "appLinks", "behaviour", "manifest", "infoPlist", "entitlements",
    ]
    public static let universalLinkKeys = ["host", "paths", "aasa"]
    public static let appLinkKeys = ["host", "paths"]

    /// The keys as a tree. `apps[].behaviour` is left to the caller's behaviour decoder (the simulator's keys).
    public static let shape = ConfigKeys(
        keys,
        nested: [
            "apps": ConfigKeys(
                appKeys, nested: ["universalLinks": ConfigKeys(universalLinkKeys), "appLinks": ConfigKeys(appLinkKeys)]),
            "webView": ConfigKeys(webViewKeys, nested: ["userActivation": ConfigKeys(userActivationKeys)]),
        ])

    /// Decodes an app's `behaviour` node into the caller's model (the simulator owns it) and says which
    /// built-in app it names, if any. The node knows its file, line and key path (`apps[0].behaviour`);
    /// throw its `ConfigError`s.
    public typealias BehaviourDecoder<Behaviour> = (_ node: ConfigNode) throws(ConfigError) -> (
        behaviour: Behaviour, model: KnownApp?
    )

    /// Loads an environment file; `aasa:` files resolve against the file's folder. Without a behaviour
    /// decoder, an app's `behaviour:` key is an error: only the simulator gives behaviours a meaning.
    public static func load<B>(path: String, behaviour: BehaviourDecoder<B>?) throws(ConfigError) -> LoadedEnvironment<B> {
        let root = try ConfigNode.load(path: path)
        return try decode(root, baseDirectory: (path as NSString).deletingLastPathComponent, behaviour: behaviour)
    }

    public static func parse<B>(
        _ text: String, file: String = "<environment>", baseDirectory: String = ".",
        behaviour: BehaviourDecoder<B>?
    ) throws(ConfigError) -> LoadedEnvironment<B> {
        try decode(ConfigNode.parse(text, file: file), baseDirectory: baseDirectory, behaviour: behaviour)
    }

    /// Loads an environment file as the device it describes: what an app (or `decide`) needs, from the same file
    /// CI's flows use. Behaviours are read as strictly as the simulator reads them (a mistake is still an error);
    /// the device keeps what they say about it (a built-in model's schemes, links and package; the host app) and
    /// leaves what the simulated apps do to the simulator.
    public static func load(path: String) throws(ConfigError) -> Environment {
        try load(path: path, behaviour: AppBehaviour.decode).device
    }

    public static func parse(_ text: String, file: String = "<environment>", baseDirectory: String = ".") throws(ConfigError)
        -> Environment
    {
        try parse(text, file: file, baseDirectory: baseDirectory, behaviour: AppBehaviour.decode).device
    }

    /// Decodes an environment from a node (an environment file's root, or a flow file's inline `environment:`,
    /// whose errors then name the flow file and `environment.apps[…]`).
    public static func decode<B>(
        _ root: ConfigNode, baseDirectory: String,
        behaviour decodeBehaviour: BehaviourDecoder<B>?
    ) throws(ConfigError) -> LoadedEnvironment<B> {
        let m = try root.fields(keys)
        var apps: [Environment.App] = []
        var behaviours: [String: B] = [:]
        for node in try m.value("apps")?.sequence() ?? [] {
            let a = try node.fields(appKeys)
            let nameNode = try a.required("name", expecting: "a string")
            let name = try nameNode.string()
            guard !name.isEmpty else { throw nameNode.error("expected a non-empty app name") }
            var schemes: [String] = []
            for item in try a.value("schemes")?.items() ?? [] {
                let s = try item.string()
                var scheme = s.lowercased()
                if scheme.hasSuffix(":") { scheme.removeLast() }
                if scheme.hasSuffix("://") { scheme.removeLast(3) }
                guard let first = scheme.utf8.first, isalpha(Int32(first)) != 0,
                    scheme.utf8.allSatisfy({ $0 < 0x80 && (isalnum(Int32($0)) != 0 || $0 == 0x2B || $0 == 0x2D || $0 == 0x2E) })
                else { throw item.error("expected a URL scheme (like bankid), found '\(s)'") }
                guard SchemeKind(scheme: scheme) == .custom else {
                    throw item.error("'\(scheme)' cannot be an app's custom scheme")
                }
                schemes.append(scheme)
            }
            var uls: [Environment.UniversalLink] = []
            for ulNode in try a.value("universalLinks")?.sequence() ?? [] {
                let u = try ulNode.fields(universalLinkKeys)
                let host = try hostValue(try u.required("host", expecting: "a string"))
                let paths = try u.value("paths")?.strings()
                let aasaNode = u.value("aasa")
                let aasa = try aasaNode?.string()
                guard (paths == nil) != (aasa == nil) else {
                    throw ulNode.error("expected exactly one of paths (AASA legacy syntax) or aasa (a file)")
                }
                var json: String?
                if let aasa, let aasaNode {
                    let p = aasa.hasPrefix("/") ? aasa : (baseDirectory as NSString).appendingPathComponent(aasa)
                    guard let data = FileManager.default.contents(atPath: p), let text = String(data: data, encoding: .utf8)
                    else {
                        throw aasaNode.error("cannot read the AASA file '\(aasa)' (relative to the environment file)")
                    }
                    do {
                        _ = try AppSiteAssociation(json: Array(data), domain: host)
                    } catch {
                        throw aasaNode.error("the AASA file '\(aasa)' is not valid: \(error.description)")
                    }
                    json = text
                }
                uls.append(Environment.UniversalLink(host: host, paths: paths, aasa: aasa, aasaJSON: json))
            }
            let package = try a.value("package")?.string()
            var appLinks: [Environment.LinkClaim] = []
            for alNode in try a.value("appLinks")?.sequence() ?? [] {
                let l = try alNode.fields(appLinkKeys)
                let host = try hostValue(try l.required("host", expecting: "a string"))
                let paths = try l.value("paths")?.strings() ?? ["/*"]
                appLinks.append(Environment.LinkClaim(host: host, paths: paths))
            }
            // The app's own files: checked to exist here, read by the simulator (docs/environment.md).
            var files: Environment.App.Files?
            for key in ["manifest", "infoPlist", "entitlements"] {
                guard let node = a.value(key) else { continue }
                let given = try node.string()
                let path = given.hasPrefix("/") ? given : (baseDirectory as NSString).appendingPathComponent(given)
                guard FileManager.default.isReadableFile(atPath: path) else {
                    throw node.error("cannot read '\(given)' (relative to the environment file)")
                }
                var f = files ?? Environment.App.Files()
                switch key {
                case "manifest": f.manifest = path
                case "infoPlist": f.infoPlist = path
                default: f.entitlements = path
                }
                files = f
            }
            var model: KnownApp?
            if let b = a.value("behaviour") {
                guard let decodeBehaviour else {
                    throw b.error(
                        "app behaviours belong to simulated devices; load this file with the simulator's environment loader")
                }
                let decoded = try decodeBehaviour(b)
                behaviours[name] = decoded.behaviour
                model = decoded.model
            }
            apps.append(
                Environment.App(
                    name: name, schemes: schemes, universalLinks: uls, package: package,
                    appLinks: appLinks, model: model, files: files
                ).withModelDefaults())
        }
        // Which of the platform's own apps (tel: Phone, mailto: Mail …) the device has; absent: all of them.
        var defaultApps: [String]?
        if let node = m.value("defaultApps") {
            let known = Set(Platform.allCases.flatMap { PlatformDefaultApps.handlers(on: $0).map(\.scheme) })
            var list: [String] = []
            for item in try node.items() {
                let scheme = try item.string()
                guard known.contains(scheme.lowercased()) else {
                    throw item.error(
                        "expected a scheme the platform's own apps handle (\(known.sorted().joined(separator: ", "))), found '\(scheme)'"
                    )
                }
                list.append(scheme)
            }
            defaultApps = list
        }
        // The host app's web view settings; absent keys keep the platforms' defaults.
        var webView = Environment.WebViewSettings()
        if let node = m.value("webView") {
            let w = try node.fields(webViewKeys)
            if let v = w.value("javaScriptCanOpenWindowsAutomatically") {
                webView.javaScriptCanOpenWindowsAutomatically = try v.bool()
            }
            if let v = w.value("supportMultipleWindows") { webView.supportMultipleWindows = try v.bool() }
            if let v = w.value("dialogs") { webView.dialogs = try v.choice(Environment.WebViewSettings.Dialogs.self) }
            if let v = w.value("handler") { webView.handler = try v.choice(HostHandler.self) }
            if let v = w.value("originWhitelist") {
                var patterns: [String] = []
                for item in try v.items() {
                    let pattern = try item.string()
                    // react-native-webview compares the pattern with the URL's `scheme://host[:port]`.
                    guard let colon = pattern.firstIndex(of: ":"), colon != pattern.startIndex else {
                        throw item.error("expected an origin pattern such as https://*.shop.example, found '\(pattern)'")
                    }
                    patterns.append(pattern)
                }
                webView.originWhitelist = patterns
            }
            if let v = w.value("appBoundDomains") {
                var domains: [String] = []
                for item in try v.items() { domains.append(try hostValue(item)) }
                webView.appBoundDomains = domains
            }
            if let v = w.value("limitsNavigationsToAppBoundDomains") {
                webView.limitsNavigationsToAppBoundDomains = try v.bool()
            }
            if let v = w.value("acceptThirdPartyCookies") { webView.acceptThirdPartyCookies = try v.bool() }
            if let v = w.value("openBrowser") { webView.openBrowser = try v.choice(InAppBrowser.self) }
            if let v = w.value("userActivation") {
                let a = try v.fields(userActivationKeys)
                // Absent keys keep the platform's values (the platform is the policy's, known when a flow runs).
                var rule = UserActivation()
                if let n = a.value("lifespanMs") {
                    let ms = try n.int()
                    guard ms >= 0 else { throw n.error("expected milliseconds (0 or more), found \(ms)") }
                    rule.lifespanMs = ms
                }
                if let n = a.value("survivesNetworkWait") { rule.survivesNetworkWait = try n.bool() }
                webView.userActivation = rule
            }
            if w.value("originWhitelist") != nil && webView.handler != .allowList {
                throw node.error("originWhitelist applies only with handler: allow-list")
            }
        }
        // The browser web URLs open in (iOS since 14 lets the user choose one); absent: the platform's.
        let defaultBrowser = try m.value("defaultBrowser")?.choice(SystemBrowser.self)
        return LoadedEnvironment(
            environment: Environment(apps: apps, defaultApps: defaultApps, webView: webView, defaultBrowser: defaultBrowser),
            behaviours: behaviours)
    }

    private static func hostValue(_ node: ConfigNode) throws(ConfigError) -> String {
        let raw = try node.string()
        guard let h = HostName.normalize(raw) else {
            throw node.error("expected a host name (like app.bankid.com), found '\(raw)'")
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
