// Built-in app models in an environment file: `behaviour: {model: swish}` fills in what the app registers.

extension KnownApp {
    /// The universal-link paths the app claims on each of its hosts (AASA legacy syntax).
    public var universalLinkPaths: [String] {
        switch self {
        case .swish: []
        case .bankID: ["/*"]
        case .roampayX: ["/transaction", "/transaction/*"]   // seed 004: https://…/transaction/?amount=…
        }
    }
}

extension Environment.App {
    /// The app with its built-in model's schemes, universal links and Android package filled in where the
    /// environment file gives none (what it does give wins: a test may model a different host or package).
    public func withModelDefaults() -> Environment.App {
        guard let model = behaviour?.model else { return self }
        var app = self
        if app.schemes.isEmpty { app.schemes = model.schemes }
        if app.universalLinks.isEmpty {
            app.universalLinks = model.universalLinkHosts.map {
                Environment.UniversalLink(host: $0, paths: model.universalLinkPaths)
            }
        }
        if app.package == nil { app.package = model.androidPackage }
        if app.appLinks.isEmpty, model.androidPackage != nil {   // ROAMpay X is iOS only (seed 004)
            app.appLinks = model.universalLinkHosts.map { Environment.LinkClaim(host: $0, paths: model.universalLinkPaths) }
        }
        return app
    }
}

extension AppSwitchProtocol {
    /// The `custom-scheme.no-app` reason: "Swish is not installed (no app handles swish:)" for a known app,
    /// else "no app handles X:". A custom scheme alone names the app (`scheme`: lower case, without `:`).
    public static func noAppReason(scheme: String) -> String {
        let plain = "no app handles \(scheme):"
        guard let app = KnownApp.registering(scheme: scheme) else { return plain }
        return "\(app.displayName) is not installed (\(plain))"
    }
}
