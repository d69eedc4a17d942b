// SystemServices answered from an Environment: what the OS would do on a device with exactly these apps.
import PlainviewURL

/// The OS oracle of a simulated device built from an `Environment`.
public struct EnvironmentSystem: SystemServices {
    public let environment: Environment
    /// (app name, normalised host, its AASA), for every universal-link claim, in file order.
    private let associations: [(app: String, host: String, aasa: AppSiteAssociation)]

    public init(_ environment: Environment) {
        self.environment = environment
        var out: [(String, String, AppSiteAssociation)] = []
        for app in environment.apps {
            for claim in app.universalLinks {
                guard let host = HostName.normalize(claim.host) else { continue }
                if let paths = claim.paths {
                    out.append((app.name, host, AppSiteAssociation(appID: app.name, paths: paths, domain: host)))
                } else if let json = claim.aasaJSON, let aasa = try? AppSiteAssociation(json: json, domain: host) {
                    out.append((app.name, host, aasa))
                }
            }
        }
        associations = out
    }

    public func universalLinkApp(for url: String) -> String? {
        // Universal links are https only (AppSiteAssociation also checks scheme, host and port).
        guard let u = WebURL(url), u.scheme == "https", let host = u.comparableHost else { return nil }
        for a in associations where a.host == host {
            // A legacy-paths claim names the app itself; an AASA file names app IDs: any match is this app.
            if a.aasa.verdict(appID: a.app, url: u.href) == .match || a.aasa.app(for: u.href) != nil { return a.app }
        }
        return nil
    }

    public func appLinkApp(for url: String) -> String? {
        guard let u = WebURL(url), SchemeKind(scheme: u.scheme) == .web, let host = u.comparableHost else { return nil }
        for app in environment.apps {
            for claim in app.appLinks where HostName.normalize(claim.host) == host {
                if claim.paths.contains(where: { EnvironmentSystem.glob($0, u.path) }) { return app.name }
            }
        }
        return nil
    }

    public func customSchemeApp(for scheme: String) -> String? {
        let s = scheme.lowercased()
        return environment.apps.first { $0.schemes.contains(s) }?.name
    }

    public func defaultApp(for scheme: String, on platform: Platform) -> String? {
        if let kept = environment.defaultApps, !kept.contains(scheme) { return nil }
        return PlatformDefaultApps.app(for: scheme, on: platform)
    }

    public func isHostApp(_ app: String) -> Bool { app == environment.hostApp }

    public func intentApp(for intent: AndroidIntent) -> String? {
        if let package = intent.package ?? intent.component.flatMap({ $0.split(separator: "/").first.map(String.init) }) {
            // An explicit package: only that app (a missing app is missing, never another app).
            return environment.apps.first { $0.package == package }?.name
        }
        guard let data = intent.data, let url = WebURL(data) else { return nil }
        if SchemeKind(scheme: url.scheme) == .web {
            // Only a non-browser app: one with a verified app link for it.
            return appLinkApp(for: url.href)
        } else {
            return customSchemeApp(for: url.scheme)
        }
    }

    /// App-link path patterns: `*` (any run) and `?` (one character) over unicode scalars; O(pattern × text) at worst.
    public static func glob(_ pattern: String, _ text: String) -> Bool {
        let p = Array(pattern.unicodeScalars), t = Array(text.unicodeScalars)
        var pi = 0, ti = 0
        var star = -1, mark = 0
        while ti < t.count {
            if pi < p.count, p[pi] == "?" || p[pi] == t[ti], p[pi] != "*" {
                pi += 1
                ti += 1
            } else if pi < p.count, p[pi] == "*" {
                star = pi
                mark = ti
                pi += 1
            } else if star >= 0 {
                pi = star + 1
                mark += 1
                ti = mark
            } else {
                return false
            }
        }
        while pi < p.count, p[pi] == "*" { pi += 1 }
        return pi == p.count
    }
}
