// The flow's `policy:` and `environment:` (a path relative to the flow file, or an inline mapping), read by
// PlainviewConfig's loaders (app behaviours decoded strictly by AppBehaviour.decode, as `decide --env` reads them).
import Foundation
import NavigationPolicy
import PlainviewConfig

enum ConfigBridge {
    struct LoadedEnvironment {
        var system: any SystemServices
        var apps: [String: AppBehaviour]
        var appNames: [String]
        var webView = Environment.WebViewSettings()
        var defaultBrowser: SystemBrowser?
    }

    private static func path(_ node: ConfigNode, folder: String) throws(ConfigError) -> String {
        let rel = try node.string()
        // `..` is resolved by name: the flow's folder may not exist yet (a flow checked before it is written).
        let path = URL(fileURLWithPath: rel.hasPrefix("/") ? rel : (folder as NSString).appendingPathComponent(rel))
            .standardizedFileURL.path
        guard FileManager.default.isReadableFile(atPath: path) else {
            throw node.error("cannot read '\(rel)' (looked at \(path))")
        }
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
            loaded = try EnvironmentFile.load(path: try path(node, folder: folder), behaviour: AppBehaviour.decode)
        } else {
            loaded = try EnvironmentFile.decode(node, baseDirectory: folder, behaviour: AppBehaviour.decode)
        }
        let device = try ConfiguredAppsSystem.load(loaded.device)
        var webView = loaded.environment.webView
        // The host app's Info.plist gives WKAppBoundDomains unless the environment says them itself.
        if webView.appBoundDomains == nil { webView.appBoundDomains = device.appBoundDomains }
        webView.mayAllowCrossWebsiteTracking = device.asksForCrossWebsiteTracking
        return LoadedEnvironment(
            system: device.system, apps: loaded.behaviours, appNames: loaded.environment.apps.map(\.name),
            webView: webView, defaultBrowser: loaded.environment.defaultBrowser)
    }
}
