// BankID (Sweden) app launch: `bankid:///?autostarttoken=…&redirect=…` and the universal/app link
// `https://app.bankid.com/?autostarttoken=…&redirect=…`; `redirect=null` returns to the previous app.
import NavigationPolicy
import PlainviewURL

/// Constants of the BankID app launch.
public enum BankID {
    /// The custom scheme the BankID app registers.
    public static let scheme = "bankid"
    /// The host of BankID's universal link (iOS) and app link (Android 6+).
    public static let universalLinkHost = KnownApp.bankIDUniversalLinkHost
    /// The Android package of the BankID app.
    public static let androidPackage = KnownApp.bankID.androidPackage!

    /// True for an autostart token in BankID's format: a UUID, `8-4-4-4-12` hex digits (either case).
    public static func isValidAutoStartToken(_ token: String) -> Bool {
        let bytes = Array(token.utf8)
        guard bytes.count == 36 else { return false }
        for (i, b) in bytes.enumerated() {
            if i == 8 || i == 13 || i == 18 || i == 23 {
                if b != UInt8(ascii: "-") { return false }
            } else if !PercentEncoding.isHex(b) {
                return false
            }
        }
        return true
    }
}

/// Where BankID sends the user when it is done.
public enum BankIDRedirect: Sendable, Hashable {
    /// `redirect=null`: BankID opens nothing and the user lands in the app they came from (the usual
    /// choice on Android, and for an app that launched BankID itself).
    case previousApp
    /// BankID opens this URL (decoded): the caller's custom scheme, universal link or web page.
    case url(String)
    /// No `redirect` parameter at all (or an empty one): BankID is given no return address.
    case absent

    /// The value as written in the launch URL's `redirect` parameter, decoded (`null` for `previousApp`).
    public var parameterValue: String? {
        switch self {
        case .previousApp: "null"
        case .url(let u): u
        case .absent: nil
        }
    }
}

/// Which of the two launch URLs.
public enum BankIDLaunchForm: String, Sendable, Hashable, Codable, CaseIterable {
    /// `bankid:///?…` (custom scheme).
    case scheme = "bankid"
    /// `https://app.bankid.com/?…` (universal link on iOS, app link on Android).
    case universalLink = "universal-link"
}

/// A validated BankID launch.
public struct BankIDLaunch: Sendable, Hashable, Encodable {
    /// The autostart token (a UUID). Only a parsed URL may lack it (BankID then opens without an order).
    public let autoStartToken: String?
    public let redirect: BankIDRedirect
    public let form: BankIDLaunchForm

    /// Validates: the token must be a UUID; a redirect URL must be absolute, not `javascript:`/`data:`/`file:`,
    /// and not BankID itself (`bankid:` or `https://app.bankid.com`), which would loop.
    public init(autoStartToken: String, redirect: BankIDRedirect = .previousApp, form: BankIDLaunchForm = .scheme) throws {
        try BankIDLaunch.validateToken(autoStartToken)
        try BankIDLaunch.validateRedirect(redirect)
        self.autoStartToken = autoStartToken
        if case .url(let u) = redirect, u.lowercased() == "null" {
            self.redirect = .previousApp
        } else {
            self.redirect = redirect
        }
        self.form = form
    }

    private init(parsedToken: String?, redirect: BankIDRedirect, form: BankIDLaunchForm) {
        self.autoStartToken = parsedToken
        self.redirect = redirect
        self.form = form
    }

    /// `bankid:///?autostarttoken=…&redirect=…` or `https://app.bankid.com/?autostarttoken=…&redirect=…`.
    /// The redirect URL is percent-encoded once (as Swish's callback); `null` is written as is; an absent
    /// redirect leaves the parameter out.
    public var url: String {
        var out = form == .scheme ? "bankid:///" : "https://\(BankID.universalLinkHost)/"
        var items: [String] = []
        if let token = autoStartToken { items.append("autostarttoken=\(token)") }
        switch redirect {
        case .previousApp: items.append("redirect=null")
        case .url(let u): items.append("redirect=\(AppSwitchEncoding.encodeComponent(u))")
        case .absent: break
        }
        if !items.isEmpty { out += "?" + items.joined(separator: "&") }
        return out
    }

    /// Reads a BankID launch URL (either form) the way the BankID app does, so a simulator knows which
    /// redirect to follow. The token, when present, must be a UUID; `redirect` is decoded once.
    public static func parse(_ url: String) throws -> BankIDLaunch {
        guard let parts = AppSwitchURLParts(url) else {
            throw AppSwitchError.unrecognizedURL(
                url: url,
                expected: "a BankID launch URL (bankid:///?autostarttoken=… or https://app.bankid.com/?autostarttoken=…)")
        }
        let form: BankIDLaunchForm
        switch parts.scheme {
        case BankID.scheme where parts.host == nil && (parts.path.isEmpty || parts.path == "/"):
            form = .scheme
        case "https"
        where parts.host == BankID.universalLinkHost && (parts.port == nil || parts.port == "443")
            && (parts.path.isEmpty || parts.path == "/"):
            form = .universalLink
        default:
            throw AppSwitchError.unrecognizedURL(
                url: url,
                expected: "a BankID launch URL (bankid:///?autostarttoken=… or https://app.bankid.com/?autostarttoken=…)")
        }
        let query = try QueryReader(parts)
        let token = try query.value("autostarttoken")
        if let token { try validateToken(token) }
        let redirect: BankIDRedirect
        switch try query.value("redirect") {
        case nil, "": redirect = .absent
        case let value? where value.lowercased() == "null": redirect = .previousApp
        case let value?:
            if AppSwitchURLParts(value) == nil, let twice = AppSwitchEncoding.decode(value), AppSwitchURLParts(twice) != nil {
                throw AppSwitchError.invalidField(
                    field: "redirect", rule: "is percent-encoded twice: after one decoding it is still not a URL; encode it once",
                    value: query.rawValue("redirect") ?? value)
            }
            redirect = .url(value)
            try validateRedirect(redirect)
        }
        return BankIDLaunch(parsedToken: token, redirect: redirect, form: form)
    }

    private static func validateToken(_ token: String) throws {
        if token.isEmpty {
            throw AppSwitchError.missingField(
                field: "autostarttoken", rule: "the autoStartToken from BankID's auth/sign response (a UUID)")
        }
        if !BankID.isValidAutoStartToken(token) {
            throw AppSwitchError.invalidField(
                field: "autostarttoken",
                rule: "must be a UUID (8-4-4-4-12 hex digits, e.g. 7c40b5c9-fa74-49cf-b98c-bfe651f9a7c6)",
                value: token)
        }
    }

    private static func validateRedirect(_ redirect: BankIDRedirect) throws {
        guard case .url(let u) = redirect else { return }
        if u.lowercased() == "null" { return }
        let parts = try ReturnURLRule.validate(u, field: "redirect", launchingScheme: BankID.scheme)
        if AppSwitchProtocol.identify(parts) == .bankID {
            throw AppSwitchError.invalidField(field: "redirect", rule: "must not point back at BankID itself", value: u)
        }
    }

    private enum CodingKeys: String, CodingKey { case autoStartToken, redirect, returnsTo, form, url }
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(autoStartToken, forKey: .autoStartToken)
        try c.encode(redirect.parameterValue, forKey: .redirect)
        let returnsTo: String =
            switch redirect {
            case .previousApp: "previous-app"
            case .url: "redirect-url"
            case .absent: "none"
            }
        try c.encode(returnsTo, forKey: .returnsTo)
        try c.encode(form, forKey: .form)
        try c.encode(url, forKey: .url)
    }
}
