// The apps of a simulated device whose own files the environment names (`manifest`, `infoPlist`,
// `entitlements`): the OS routes to them by what those files say, as a phone would, not by the environment's
// hand-written claims.
import AppConfiguration
import Foundation
import NavigationPolicy
import PlainviewConfig
import PlainviewURL

/// `SystemServices` over an `EnvironmentSystem`, answering for the apps with files from the files. An Android
/// app's intent filters decide its schemes, app links and intents (the platform's `IntentFilter.match`, as
/// `check-app` applies it); an iOS app's Info.plist decides its custom schemes, and its entitlements which of its
/// universal-link claims the OS honours (`applinks:` of the claim's host).
struct ConfiguredAppsSystem: SystemServices {
    let base: EnvironmentSystem
    /// Apps with files, in the environment's order.
    let configured: [(name: String, manifest: AndroidManifest?, ios: IOSAppConfiguration?)]

    /// The device's system: the environment's, wrapped when an app names its own files. Reading a file that
    /// is not what it should be is a ConfigError naming that file and line.
    static func make(_ environment: Environment) throws(ConfigError) -> any SystemServices {
        try load(environment).system
    }

    /// The device's system, and from the host app's Info.plist (when given) its `WKAppBoundDomains` and whether it
    /// declares `NSCrossWebsiteTrackingUsageDescription`.
    static func load(_ environment: Environment) throws(ConfigError) -> (
        system: any SystemServices, appBoundDomains: [String]?, asksForCrossWebsiteTracking: Bool
    ) {
        var configured: [(name: String, manifest: AndroidManifest?, ios: IOSAppConfiguration?)] = []
        var cleared = environment
        for (i, app) in environment.apps.enumerated() {
            guard let files = app.files else { continue }
            do throws(AppConfigurationError) {
                var manifest: AndroidManifest?
                if let path = files.manifest {
                    manifest = try AndroidManifest.read(try bytes(path), file: path)
                    if let package = manifest?.package, !package.contains("${") {
                        if let given = app.package, given != package {
                            throw AppConfigurationError(
                                file: path,
                                message: "package \(package), but the environment gives \(app.name) the package \(given)")
                        }
                        cleared.apps[i].package = package
                    }
                    cleared.apps[i].schemes = []
                    cleared.apps[i].appLinks = []
                }
                var ios: IOSAppConfiguration?
                if files.infoPlist != nil || files.entitlements != nil {
                    var plist: (file: String, bytes: [UInt8])?
                    var entitlements: (file: String, bytes: [UInt8])?
                    if let p = files.infoPlist { plist = (p, try bytes(p)) }
                    if let e = files.entitlements { entitlements = (e, try bytes(e)) }
                    ios = try IOSAppConfiguration.read(infoPlist: plist, entitlements: entitlements)
                    if files.infoPlist != nil { cleared.apps[i].schemes = [] }
                }
                configured.append((app.name, manifest, ios))
            } catch {
                throw ConfigError(file: error.file, line: error.line, error.message)
            }
        }
        let base = EnvironmentSystem(cleared)
        let host = configured.first { $0.name == environment.hostApp }?.ios
        let bound = host?.appBoundDomains?.map { $0.value.lowercased() }
        return (
            configured.isEmpty ? base : ConfiguredAppsSystem(base: base, configured: configured), bound,
            host?.asksForCrossWebsiteTracking ?? false
        )
    }

    private static func bytes(_ path: String) throws(AppConfigurationError) -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw AppConfigurationError(file: path, message: "cannot be read")
        }
        return [UInt8](data)
    }

    static let linkCategories = [AndroidIntentFilter.browsable, AndroidIntentFilter.defaultCategory]

    /// The first component of `manifest` (enabled, not `exported="false"`) with a filter taking the intent.
    private static func takes(
        _ manifest: AndroidManifest, action: String, categories: [String], data: String, verified: Bool = false
    )
        -> Bool
    {
        manifest.components.contains { c in
            c.enabled && c.exported != false
                && c.filters.contains { f in
                    (!verified || f.autoVerify) && f.matches(action: action, categories: categories, url: data)
                }
        }
    }

    func universalLinkApp(for url: String) -> String? {
        guard let app = base.universalLinkApp(for: url) else { return nil }
        guard let ios = configured.first(where: { $0.name == app })?.ios, ios.entitlements != nil else { return app }
        // The OS fetches the AASA only for the domains the app's entitlements name.
        guard let host = WebURL(url)?.comparableHost else { return nil }
        return ios.associatedDomains.contains { $0.service == "applinks" && $0.claims(host: host) } ? app : nil
    }

    func appLinkApp(for url: String) -> String? {
        // Since Android 12 only a verified filter (autoVerify) takes a web link from the browser or another app.
        if let app = configured.first(where: {
            $0.manifest.map {
                Self.takes($0, action: AndroidIntentFilter.view, categories: Self.linkCategories, data: url, verified: true)
            }
                ?? false
        }) {
            return app.name
        }
        return base.appLinkApp(for: url)
    }

    func customSchemeApp(for scheme: String) -> String? {
        let s = scheme.lowercased()
        for app in configured {
            // Asked by scheme alone (the OS's "who handles bankapp:"), a filter counts whatever its hosts and paths.
            if let m = app.manifest,
                m.components.contains(where: { c in
                    c.enabled && c.exported != false
                        && c.filters.contains {
                            $0.actions.contains(AndroidIntentFilter.view)
                                && Self.linkCategories.allSatisfy($0.categories.contains)
                                && $0.schemes.contains(s)
                        }
                })
            {
                return app.name
            }
            if let ios = app.ios, ios.infoPlist != nil, ios.urlSchemes.contains(where: { $0.value.lowercased() == s }) {
                return app.name
            }
        }
        return base.customSchemeApp(for: scheme)
    }

    func intentApp(for intent: AndroidIntent) -> String? {
        let action = intent.action ?? AndroidIntentFilter.view
        let categories = Array(Set(intent.categories + Self.linkCategories))
        let data = intent.data ?? ""
        if let package = intent.package {
            // An intent naming a package reaches that app only through a filter that takes it (Android 13+:
            // intents to another app's component must match its filters).
            if let owner = base.environment.apps.first(where: { $0.package == package })?.name,
                let m = configured.first(where: { $0.name == owner })?.manifest
            {
                return Self.takes(m, action: action, categories: categories, data: data) ? owner : nil
            }
            return base.intentApp(for: intent)
        }
        if let app = configured.first(where: {
            $0.manifest.map { Self.takes($0, action: action, categories: categories, data: data) } ?? false
        }) {
            return app.name
        }
        return base.intentApp(for: intent)
    }

    func defaultApp(for scheme: String, on platform: Platform) -> String? { base.defaultApp(for: scheme, on: platform) }
    func isHostApp(_ app: String) -> Bool { base.isHostApp(app) }
}
