import NavigationPolicy
import PaymentURLHelpers
import PlainviewURL

/// `plainview check-app`: whether every return the policy and the flows rely on reaches the app, judged on the
/// app's own files (Info.plist, entitlements, AndroidManifest.xml) and the well-known files its domains serve.
public struct AppCheck: Sendable {
    /// A well-known file (apple-app-site-association or assetlinks.json) served by `host`, read from `file`.
    public struct Served<Document: Sendable>: Sendable {
        public var host: String
        public var file: String
        public var document: Document
        public init(host: String, file: String, document: Document) {
            self.host = host.lowercased()
            self.file = file
            self.document = document
        }
    }

    public struct IOS: Sendable {
        public var configuration: IOSAppConfiguration
        /// TEAMID.bundle.id: given, or read from the entitlements.
        public var appID: String?
        public var aasa: [Served<AppSiteAssociation>]
        public init(configuration: IOSAppConfiguration, appID: String? = nil, aasa: [Served<AppSiteAssociation>] = []) {
            self.configuration = configuration
            self.appID = appID ?? configuration.appID
            self.aasa = aasa
        }
    }

    public struct Android: Sendable {
        public var manifest: AndroidManifest
        /// The application id: given, or the manifest's `package`.
        public var package: String?
        public var assetLinks: [Served<AssetLinks>]
        /// The SHA-256 fingerprints of the certificates the app is signed with (keytool's form).
        public var certificates: [String]
        public init(
            manifest: AndroidManifest, package: String? = nil, assetLinks: [Served<AssetLinks>] = [],
            certificates: [String] = []
        ) {
            self.manifest = manifest
            self.package = package ?? manifest.package.flatMap { $0.contains("${") ? nil : $0 }
            self.assetLinks = assetLinks
            self.certificates = certificates
        }
    }

    public var returns: [AppReturn]
    /// The returns to check on `platform`.
    func returns(on platform: Platform) -> [AppReturn] { returns.filter { $0.platform == nil || $0.platform == platform } }

    /// The hosts the web view itself must load (the policy's own hosts), for `WKAppBoundDomains`.
    public var webViewHosts: [String]
    public var ios: IOS?
    public var android: Android?

    public init(returns: [AppReturn], webViewHosts: [String] = [], ios: IOS? = nil, android: Android? = nil) {
        // One check per return that can differ; the others that share it are counted in its `why`.
        var order: [String] = []
        var byKey: [String: (first: AppReturn, more: Int)] = [:]
        for r in returns {
            if let seen = byKey[r.key] {
                var first = seen.first
                if r.need == .required { first.need = .required }
                byKey[r.key] = (first, seen.more + 1)
            } else {
                order.append(r.key)
                byKey[r.key] = (r, 0)
            }
        }
        self.returns = order.map { key in
            var (r, more) = byKey[key]!
            if more > 0 { r.why += " and \(more) more" }
            return r
        }
        self.webViewHosts = webViewHosts
        self.ios = ios
        self.android = android
    }

    /// The returns a policy relies on: paymentUrl (on iOS a universal link, as Swedbank Pay's plain web view
    /// guide recommends; on Android the guide's own return is an `intent:` page, which the flows show, so a
    /// link to paymentUrl is only recommended) and its `callbackScheme` form; completeUrl and cancelUrl are met
    /// in the web view, and only recommended outside it.
    public static func returns(of policy: Policy) -> [AppReturn] {
        var out = [
            AppReturn(url: policy.paymentURL, why: "paymentUrl", need: .required, platform: .ios),
            {
                var r = AppReturn(url: policy.paymentURL, why: "paymentUrl", need: .recommended, platform: .android)
                r.requiredWithAppLinks = true
                return r
            }(),
        ]
        if let scheme = policy.callbackScheme, let url = WebURL(policy.paymentURL) {
            var alias = "\(scheme)://\(url.hostname ?? "")\(url.path)"
            if let q = url.query { alias += "?\(q)" }
            out.append(AppReturn(url: alias, why: "callbackScheme", need: .required))
        }
        // paymentUrl as the Android payment-url helper: its page in the browser returns by an intent with
        // Swedbank Pay's action and the app's package, which the app's manifest must take.
        if let url = WebURL(policy.paymentURL), url.path.hasSuffix("/" + HelperEndpoints.androidPath),
            let package = url.queryItems.first(where: { $0.name == "package" })?.value
        {
            let authority = (url.hostname ?? "") + (url.port.map { ":\($0)" } ?? "")
            let intent = HelperEndpoints.androidReturnIntent(
                scheme: url.scheme, authority: authority, pathAndQuery: url.path + (url.query.map { "?\($0)" } ?? ""),
                package: package)
            out.append(
                AppReturn(url: intent, why: "paymentUrl's return page (the Android helper)", need: .required, platform: .android))
        }
        out.append(AppReturn(url: policy.completeURL, why: "completeUrl", need: .recommended))
        out.append(AppReturn(url: policy.cancelURL, why: "cancelUrl", need: .recommended))
        return out
    }

    public func run() -> [AppCheckFinding] {
        var out: [AppCheckFinding] = []
        if let ios { out += checkIOS(ios) }
        if let android { out += checkAndroid(android) }
        return out
    }

    /// A failure for a required return, a warning for a recommended one.
    static func miss(_ r: AppReturn) -> AppCheckFinding.Verdict { r.need == .required ? .fail : .warn }

    /// `why URL`, a URL over 120 characters cut in the middle of its query.
    static func subject(_ r: AppReturn) -> String {
        let url = r.url.count > 120 ? String(r.url.prefix(100)) + "…" + String(r.url.suffix(12)) : r.url
        return "\(r.why) \(url)"
    }
}
