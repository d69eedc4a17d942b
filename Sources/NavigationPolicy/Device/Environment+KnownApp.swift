// Built-in app models in an environment file: `behaviour: {model: swish}` fills in what the app registers.

extension Environment.App {
    /// The app with its built-in model's schemes, universal links and Android package filled in where the
    /// environment file gives none (what it does give wins: a test may model a different host or package).
    public func withModelDefaults() -> Environment.App {
        guard let model else { return self }
        var app = self
        if app.schemes.isEmpty { app.schemes = model.schemes }
        if app.universalLinks.isEmpty {
            app.universalLinks = model.universalLinkHosts.map {
                Environment.UniversalLink(host: $0, paths: model.universalLinkPaths)
            }
        }
        if app.package == nil { app.package = model.androidPackage }
        if app.appLinks.isEmpty, model.androidPackage != nil { // ROAMpay X is iOS only (the ROAMpay X universal link guide)
            app.appLinks = model.universalLinkHosts.map { Environment.LinkClaim(host: $0, paths: model.universalLinkPaths) }
        }
        return app
    }
}
