// The app-switch apps the policy knows by name: their schemes, universal-link hosts and Android packages.
// The protocols themselves (reading and building Swish, BankID and ROAMpay X URLs) live in AppSwitch.
import PlainviewURL

/// An app that payment pages switch to and that must switch back (Swish, BankID, ROAMpay X, Vipps MobilePay).
public enum KnownApp: String, Sendable, Hashable, Codable, CaseIterable {
    case swish
    case bankID = "bankid"
    case roampayX = "roampay-x"
    /// The Vipps app (Norway, Sweden) and the MobilePay app (Denmark, Finland): one company, one API, one set of
    /// links (Vipps MobilePay's developer documentation treats the two apps alike throughout).
    case vippsMobilePay = "vipps-mobilepay"

    /// BankID's universal-link (iOS) and app-link (Android 6+) host.
    public static let bankIDUniversalLinkHost = "app.bankid.com"
    /// ROAMpay X's universal-link host (its launch URLs are `https://assets.roamdata.com/transaction/?…`).
    public static let roampayUniversalLinkHost = "assets.roamdata.com"
    /// Vipps MobilePay's universal-link hosts: its API's production and test hosts, whose https URLs the phone opens
    /// in the app by universal linking (its "User flows" guide).
    public static let vippsMobilePayUniversalLinkHosts = ["api.vipps.no", "apitest.vipps.no"]
    /// Vipps MobilePay: the app opens from its universal link only when the link is followed within about this long
    /// after the user's tap (its "Return URLs and redirects" guide, which adds that neither Apple nor Google
    /// documents it).
    public static let vippsMobilePayTapWindowMs = 3_000

    /// The name to show a person ("Swish is not installed").
    public var displayName: String {
        switch self {
        case .swish: "Swish"
        case .bankID: "BankID"
        case .roampayX: "ROAMpay X"
        case .vippsMobilePay: "Vipps MobilePay"
        }
    }

    /// Custom URL schemes the app registers (lower case).
    public var schemes: [String] {
        switch self {
        case .swish: ["swish"]
        case .bankID: ["bankid"]
        case .roampayX: []
        // `vipps://` is the isApp deep link (its "Using the isApp feature" guide); `mobilepay://` MobilePay's.
        case .vippsMobilePay: ["vipps", "mobilepay"]
        }
    }

    /// The app that registers this custom scheme (lower case, without `:`), if any.
    public static func registering(scheme: String) -> KnownApp? {
        allCases.first { $0.schemes.contains(scheme) }
    }

    /// Hosts whose https URLs open the app as a universal link (iOS) / app link (Android).
    public var universalLinkHosts: [String] {
        switch self {
        case .swish: []
        case .bankID: [KnownApp.bankIDUniversalLinkHost]
        case .roampayX: [KnownApp.roampayUniversalLinkHost]
        case .vippsMobilePay: KnownApp.vippsMobilePayUniversalLinkHosts
        }
    }

    /// The Android package name, where the protocol's guide or the vendor documents one.
    public var androidPackage: String? {
        switch self {
        case .swish: "se.bankgirot.swish" // Swish's merchant integration guide, §5.1.2
        case .bankID: "com.bankid.bus" // BankID's app-detection guidance
        case .roampayX: nil // ROAMpay X is iOS only
        case .vippsMobilePay: "no.dnb.vipps" // the Vipps eCom API guide's Android app-switch example
        }
    }

    /// The universal-link paths the app claims on each of its hosts (AASA legacy syntax).
    public var universalLinkPaths: [String] {
        switch self {
        case .swish: []
        case .bankID: ["/*"]
        case .roampayX: ["/transaction", "/transaction/*"] // https://…/transaction/?amount=…
        case .vippsMobilePay: ["/*"]
        }
    }

    /// True for ROAMpay X's launch path (`/transaction` with or without the trailing slash).
    public static func isROAMpayTransactionPath(_ path: String) -> Bool {
        path == "/transaction" || path == "/transaction/"
    }

    /// The app a URL is meant to open, or nil. Scheme and host compare after the URL core's normalisation
    /// (case, IDN, one trailing dot), so a look-alike host (`app.bankid.com.evil.example`, userinfo pointing
    /// elsewhere) is not recognised. `intent:` URLs are recognised by their `scheme=` or `package=`.
    public static func identify(url raw: String) -> KnownApp? {
        guard let url = WebURL(raw) else { return nil }
        if let app = registering(scheme: url.scheme) { return app }
        switch url.scheme {
        case "https":
            guard let host = url.comparableHost else { return nil }
            if host == bankIDUniversalLinkHost { return .bankID }
            if host == roampayUniversalLinkHost, isROAMpayTransactionPath(url.path) { return .roampayX }
            if vippsMobilePayUniversalLinkHosts.contains(host) { return .vippsMobilePay }
            return nil
        case "intent":
            // intent://…#Intent;scheme=bankid;package=com.bankid.bus;end
            guard let fragment = url.fragment, fragment.hasPrefix("Intent;") else { return nil }
            // Split on the code points `;` and `=` (a Character split would miss one followed by a combining mark).
            for field in fragment.unicodeScalars.split(separator: ";") {
                let pair = field.split(separator: "=", maxSplits: 1).map { String(String.UnicodeScalarView($0)) }
                guard pair.count == 2 else { continue }
                let value = pair[1].lowercased()
                switch pair[0] {
                case "scheme":
                    if let app = registering(scheme: value) { return app }
                case "package":
                    if let app = allCases.first(where: { $0.androidPackage == value }) { return app }
                default: continue
                }
            }
            return nil
        default:
            return nil
        }
    }

    /// A sentence for a URL whose app is missing: "Swish is not installed", or nil for an unknown URL.
    public static func notInstalledMessage(url: String) -> String? {
        identify(url: url).map { "\($0.displayName) is not installed" }
    }

    /// The `custom-scheme.no-app` reason: "Swish is not installed (no app handles swish:)" for a known app,
    /// else "no app handles X:". A custom scheme alone names the app (`scheme`: lower case, without `:`).
    public static func noAppReason(scheme: String) -> String {
        let plain = "no app handles \(scheme):"
        guard let app = registering(scheme: scheme) else { return plain }
        return "\(app.displayName) is not installed (\(plain))"
    }
}
