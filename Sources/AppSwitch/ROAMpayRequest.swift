// ROAMpay X universal link (the ROAMpay X universal link guide, "Starting a Payment"):
// `https://assets.roamdata.com/transaction/?amount=…&authToken=…&hostURL=…` with the guide's per-field rules.
import NavigationPolicy
import PlainviewURL

/// Constants of the ROAMpay X universal link.
public enum ROAMpay {
    /// The universal-link host of the seed's example.
    public static let universalLinkHost = KnownApp.roampayUniversalLinkHost
    /// The seed's launch base.
    public static let defaultBase = "https://assets.roamdata.com/transaction/"
    /// The most `amount` may be, in cents (the ROAMpay X universal link guide: `amount <= 10000000`).
    public static let maximumAmount = 10_000_000

    static func isTransactionPath(_ path: String) -> Bool { KnownApp.isROAMpayTransactionPath(path) }
}

/// `loginStrategy` (the ROAMpay X universal link guide: "normal" or "readerserialnumber").
public enum ROAMpayLoginStrategy: String, Sendable, Hashable, Codable, CaseIterable {
    case normal
    case readerSerialNumber = "readerserialnumber"
}

/// `tenderType` (the ROAMpay X universal link guide: "cash", "keyed", "card" or "keyedonpinpad"). Absent: RPX shows "Choose Tender".
public enum ROAMpayTenderType: String, Sendable, Hashable, Codable, CaseIterable {
    case cash
    case keyed
    case card
    case keyedOnPinPad = "keyedonpinpad"
}

/// A ROAMpay X payment request. Build one, call `validate()` (or read `url()`, which validates).
/// Numbers stay the strings the link carries, so leading zeros and exact decimals survive a round trip.
public struct ROAMpayRequest: Sendable, Hashable, Codable {
    /// Where the link points (default `https://assets.roamdata.com/transaction/`): https, with a host.
    public var base: String
    /// Cents; digits only, > 0 and ≤ 10,000,000.
    public var amount: String
    /// The security token from `/wsapi/SecurityTokens` (valid for 20 seconds); non-empty.
    public var authToken: String
    /// Where RPX returns: `yourscheme://` (native app; must end in `://`) or an http(s) URL (web app).
    public var hostURL: String
    /// Cents; digits only.
    public var tip: String?
    /// Percent: `^\d{1,3}(\.\d{1,3})?$`, 0…100.
    public var tax: String?
    /// `[a-zA-Z0-9]{0,15}`.
    public var invoiceID: String?
    /// `[\x20-\x7E]{0,200}` (printable ASCII).
    public var transactionNotes: String?
    /// `[-a-zA-Z0-9]{0,20}`.
    public var customReferenceNumber: String?
    public var loginStrategy: ROAMpayLoginStrategy?
    public var tenderType: ROAMpayTenderType?
    /// Parsed links only: parameters the guide does not define (RPX ignores them; often a typo).
    public var unrecognizedParameters: [String]

    public init(
        base: String = ROAMpay.defaultBase, amount: String, authToken: String, hostURL: String,
        tip: String? = nil, tax: String? = nil, invoiceID: String? = nil, transactionNotes: String? = nil,
        customReferenceNumber: String? = nil, loginStrategy: ROAMpayLoginStrategy? = nil,
        tenderType: ROAMpayTenderType? = nil
    ) {
        self.base = base
        self.amount = amount
        self.authToken = authToken
        self.hostURL = hostURL
        self.tip = tip
        self.tax = tax
        self.invoiceID = invoiceID
        self.transactionNotes = transactionNotes
        self.customReferenceNumber = customReferenceNumber
        self.loginStrategy = loginStrategy
        self.tenderType = tenderType
        self.unrecognizedParameters = []
    }

    /// Whether `hostURL` returns to a native app (custom scheme) or opens a web page in Safari.
    public enum HostKind: String, Sendable, Hashable, Codable { case nativeApp = "native-app", webApp = "web-app" }

    /// The kind of `hostURL` (after `validate()` succeeded).
    public var hostKind: HostKind {
        let lower = hostURL.lowercased()
        return lower.hasPrefix("http://") || lower.hasPrefix("https://") ? .webApp : .nativeApp
    }

    /// Checks every rule of the ROAMpay X universal link guide's "Starting a Payment Transaction" table. Throws the first broken rule.
    public func validate() throws {
        try Self.validateBase(base)
        try Self.validateAmount(amount)
        if authToken.isEmpty {
            throw AppSwitchError.missingField(
                field: "authToken", rule: "length > 0: the security token from /wsapi/SecurityTokens")
        }
        try Self.validateHostURL(hostURL)
        if let tip, !Self.isDigits(tip) {
            throw AppSwitchError.invalidField(field: "tip", rule: #"must match "\d+" (cents, digits only)"#, value: tip)
        }
        if let tax { try Self.validateTax(tax) }
        if let invoiceID, !(invoiceID.utf8.count <= 15 && invoiceID.utf8.allSatisfy(Self.isAlnum)) {
            throw AppSwitchError.invalidField(field: "invoiceID", rule: #"must match "[a-zA-Z0-9]{0,15}""#, value: invoiceID)
        }
        if let notes = transactionNotes,
            !(notes.utf8.count <= 200 && notes.utf8.allSatisfy({ $0 >= 0x20 && $0 <= 0x7E }))
        {
            throw AppSwitchError.invalidField(
                field: "transactionNotes", rule: #"must match "[\x20-\x7E]{0,200}" (printable ASCII, at most 200)"#, value: notes)
        }
        if let ref = customReferenceNumber,
            !(ref.utf8.count <= 20 && ref.utf8.allSatisfy({ Self.isAlnum($0) || $0 == UInt8(ascii: "-") }))
        {
            throw AppSwitchError.invalidField(
                field: "customReferenceNumber", rule: #"must match "[-a-zA-Z0-9]{0,20}""#, value: ref)
        }
    }

    /// The launch link, validated. Parameters in the seed's order; values encoded with
    /// `AppSwitchEncoding.encodeQueryValue` (so `hostURL=yourapp://` reads as in the guide).
    public func url() throws -> String {
        try validate()
        var items: [(String, String?)] = [
            ("amount", amount), ("tip", tip), ("tax", tax), ("authToken", authToken), ("invoiceID", invoiceID),
            ("customReferenceNumber", customReferenceNumber), ("transactionNotes", transactionNotes),
            ("hostURL", hostURL), ("loginStrategy", loginStrategy?.rawValue), ("tenderType", tenderType?.rawValue),
        ]
        items.removeAll { $0.1 == nil }
        let query = items.map { "\($0.0)=\(AppSwitchEncoding.encodeQueryValue($0.1 ?? ""))" }.joined(separator: "&")
        return "\(base)?\(query)"
    }

    /// The parameter names the guide defines.
    public static let parameterNames = [
        "amount", "tip", "tax", "authToken", "invoiceID", "customReferenceNumber", "transactionNotes", "hostURL",
        "loginStrategy", "tenderType",
    ]

    /// Reads a ROAMpay X launch link back (for the simulator: which `hostURL` RPX returns to) and validates it.
    /// Parameter names compare ignoring case and enum values too: the guide itself writes `invoiceID` and
    /// `invoiceId`, `readerserialnumber` and `ReaderSerialNumber`. A parameter given twice is an error.
    public static func parse(_ url: String) throws -> ROAMpayRequest {
        guard let parts = AppSwitchURLParts(url), parts.scheme == "https", parts.host != nil else {
            throw AppSwitchError.unrecognizedURL(
                url: url, expected: "a ROAMpay X link (https://assets.roamdata.com/transaction/?amount=…&authToken=…&hostURL=…)")
        }
        let q = try QueryReader(parts, caseInsensitive: true)
        guard let amount = try q.value("amount") else {
            throw AppSwitchError.missingField(field: "amount", rule: "the amount in cents")
        }
        guard let authToken = try q.value("authToken") else {
            throw AppSwitchError.missingField(
                field: "authToken", rule: "length > 0: the security token from /wsapi/SecurityTokens")
        }
        guard let hostURL = try q.value("hostURL") else {
            throw AppSwitchError.missingField(
                field: "hostURL", rule: "RPX opens it after the transaction: yourscheme:// or an http(s) URL")
        }
        var request = ROAMpayRequest(
            base: parts.base, amount: amount, authToken: authToken, hostURL: hostURL,
            tip: try q.value("tip"), tax: try q.value("tax"), invoiceID: try q.value("invoiceID"),
            transactionNotes: try q.value("transactionNotes"), customReferenceNumber: try q.value("customReferenceNumber"))
        if let raw = try q.value("loginStrategy") {
            guard let v = ROAMpayLoginStrategy(rawValue: raw.lowercased()) else {
                throw AppSwitchError.invalidField(
                    field: "loginStrategy", rule: #"must be "normal" or "readerserialnumber""#, value: raw)
            }
            request.loginStrategy = v
        }
        if let raw = try q.value("tenderType") {
            guard let v = ROAMpayTenderType(rawValue: raw.lowercased()) else {
                throw AppSwitchError.invalidField(
                    field: "tenderType", rule: #"must be "cash", "keyed", "card" or "keyedonpinpad""#, value: raw)
            }
            request.tenderType = v
        }
        request.unrecognizedParameters = q.unknown(parameterNames)
        try request.validate()
        return request
    }

    // MARK: rules

    static func isDigits(_ s: String) -> Bool {
        !s.isEmpty && s.utf8.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
    }

    static func isAlnum(_ b: UInt8) -> Bool {
        (b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9")) || (b >= UInt8(ascii: "a") && b <= UInt8(ascii: "z"))
            || (b >= UInt8(ascii: "A") && b <= UInt8(ascii: "Z"))
    }

    /// Compares a digit string with `limit` without overflow (any length of digits).
    static func digits(_ s: String, exceed limit: Int) -> Bool {
        let trimmed = s.drop { $0 == "0" }
        if trimmed.count > String(limit).count { return true }
        return (Int(trimmed) ?? 0) > limit
    }

    static func validateAmount(_ amount: String) throws {
        if amount.isEmpty { throw AppSwitchError.missingField(field: "amount", rule: "the amount in cents") }
        guard isDigits(amount) else {
            throw AppSwitchError.invalidField(field: "amount", rule: #"must match "\d+" (cents, digits only)"#, value: amount)
        }
        if amount.allSatisfy({ $0 == "0" }) {
            throw AppSwitchError.invalidField(field: "amount", rule: "must be > 0", value: amount)
        }
        if digits(amount, exceed: ROAMpay.maximumAmount) {
            throw AppSwitchError.invalidField(field: "amount", rule: "must be <= 10000000 (cents)", value: amount)
        }
    }

    static func validateTax(_ tax: String) throws {
        // ^\d{1,3}(\.\d{1,3})?$
        let pieces = tax.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let whole = pieces.first.map(String.init) ?? ""
        let fraction = pieces.count == 2 ? String(pieces[1]) : nil
        let patternOK =
            isDigits(whole) && whole.count <= 3
            && (fraction.map { isDigits($0) && $0.count <= 3 } ?? true)
        guard patternOK else {
            throw AppSwitchError.invalidField(
                field: "tax", rule: #"must match "^\d{1,3}(\.\d{1,3})?$" (a percentage)"#, value: tax)
        }
        // >= 0 holds by the pattern; <= 100: 100 with a zero fraction at most.
        let wholeValue = Int(whole) ?? 0
        let fractionIsZero = fraction.map { $0.allSatisfy { $0 == "0" } } ?? true
        if wholeValue > 100 || (wholeValue == 100 && !fractionIsZero) {
            throw AppSwitchError.invalidField(field: "tax", rule: "must be >= 0 and <= 100 (percent)", value: tax)
        }
    }

    static func validateHostURL(_ hostURL: String) throws {
        if hostURL.isEmpty {
            throw AppSwitchError.missingField(
                field: "hostURL", rule: "RPX opens it after the transaction: yourscheme:// or an http(s) URL")
        }
        let rule = #"must be your app's custom URL ending in "://" (native app) or an http:// or https:// URL (web app)"#
        guard let parts = AppSwitchURLParts(hostURL) else {
            throw AppSwitchError.invalidField(field: "hostURL", rule: rule, value: hostURL)
        }
        if SchemeKind(scheme: parts.scheme) == .neverExternal {
            throw AppSwitchError.invalidField(
                field: "hostURL", rule: "must not use the \(parts.scheme): scheme; " + rule, value: hostURL)
        }
        if SchemeKind(scheme: parts.scheme) == .web {
            guard parts.host != nil else {
                throw AppSwitchError.invalidField(
                    field: "hostURL", rule: "a web-app hostURL needs a host (https://shop.example/…)", value: hostURL)
            }
            return
        }
        // Native: exactly `scheme://` (the ROAMpay X universal link guide §4.1.1: "must be unique and end with ://").
        guard hostURL.hasSuffix("://"), hostURL.utf8.count == parts.scheme.utf8.count + 3 else {
            throw AppSwitchError.invalidField(field: "hostURL", rule: rule, value: hostURL)
        }
    }

    static func validateBase(_ base: String) throws {
        guard let parts = AppSwitchURLParts(base), parts.scheme == "https", parts.host != nil,
            parts.query == nil, parts.fragment == nil, parts.userinfo == nil
        else {
            throw AppSwitchError.invalidField(
                field: "base",
                rule: "must be an https URL with a host and no query (a universal link), e.g. \(ROAMpay.defaultBase)",
                value: base)
        }
    }
}
