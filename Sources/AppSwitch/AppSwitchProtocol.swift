// The app-switch protocols' common parts: recognising a protocol URL, return-address rules, parsed messages.
import NavigationPolicy
import PlainviewURL

/// Recognises app-switch URLs for the protocol readers (the policy's own recogniser is `KnownApp.identify`).
public enum AppSwitchProtocol {
    /// The app a URL is meant to open, or nil (see `KnownApp.identify(url:)`).
    public static func identify(url: String) -> KnownApp? { KnownApp.identify(url: url) }

    static func identify(_ parts: AppSwitchURLParts) -> KnownApp? {
        KnownApp.identify(url: parts.base + (parts.query.map { "?" + $0 } ?? "") + (parts.fragment.map { "#" + $0 } ?? ""))
    }
}

/// Where an app sends the user back to: the caller's own custom scheme (native app) or an http(s) page.
enum ReturnURLRule {
    /// Checks that `value` can serve as a return address: an absolute URL with no spaces or control
    /// characters, a scheme that may reach an app (never `javascript:`, `data:`, `file:` …), not the
    /// launching app's own scheme (that would loop), and for http(s) a host.
    static func validate(_ value: String, field: String, launchingScheme: String?) throws -> AppSwitchURLParts {
        if value.isEmpty {
            throw AppSwitchError.missingField(field: field, rule: "give the URL the app opens when it is done")
        }
        guard let parts = AppSwitchURLParts(value) else {
            throw AppSwitchError.invalidField(
                field: field,
                rule: "must be an absolute URL (scheme:…) without spaces or control characters", value: value)
        }
        if SchemeKind(scheme: parts.scheme) == .neverExternal {
            throw AppSwitchError.invalidField(
                field: field, rule: "must not use the \(parts.scheme): scheme; use your app's own scheme or an https URL",
                value: value)
        }
        if let launchingScheme, parts.scheme == launchingScheme {
            throw AppSwitchError.invalidField(
                field: field, rule: "must not use the \(launchingScheme): scheme (the app would open itself)", value: value)
        }
        if SchemeKind(scheme: parts.scheme) == .web {
            guard parts.hasAuthority, parts.host != nil else {
                throw AppSwitchError.invalidField(field: field, rule: "an http(s) URL needs a host", value: value)
            }
        }
        return parts
    }
}

/// Any URL of the three protocols, read by `AppSwitchMessage.parse(_:)`.
public enum AppSwitchMessage: Sendable, Hashable, Encodable {
    /// `swish://paymentrequest?…`: what Swish reads (token, callback to open).
    case swishLaunch(SwishLaunch)
    /// The merchant's callback URL coming back from Swish.
    case swishCallback(SwishCallback)
    /// `bankid:///?…` or `https://app.bankid.com/?…`: what BankID reads (token, redirect to follow).
    case bankIDLaunch(BankIDLaunch)
    /// `https://…/transaction/?amount=…`: what ROAMpay X reads (amount, hostURL to return to).
    case roampayRequest(ROAMpayRequest)
    /// `hostURL?transactionResponse=…`: what ROAMpay X returned.
    case roampayResponse(ROAMpayResponse)

    /// The kind, as written in JSON (`swish-launch`, `swish-callback`, `bankid-launch`, `roampay-request`,
    /// `roampay-response`).
    public var kind: String {
        switch self {
        case .swishLaunch: "swish-launch"
        case .swishCallback: "swish-callback"
        case .bankIDLaunch: "bankid-launch"
        case .roampayRequest: "roampay-request"
        case .roampayResponse: "roampay-response"
        }
    }

    /// For a launch URL: where the launched app sends the user when it is done. nil for a returned URL.
    /// ROAMpay X returns to `hostURL` with `?transactionResponse=…` added: build it with `ROAMpayResponse.make`.
    public var whenDone: AppSwitchReturn? {
        switch self {
        case .swishLaunch(let l): .url(l.callbackURL)
        case .bankIDLaunch(let l):
            switch l.redirect {
            case .url(let u): .url(u)
            case .previousApp: .previousApp
            case .absent: AppSwitchReturn.none
            }
        case .roampayRequest(let r): .url(r.hostURL)
        case .swishCallback, .roampayResponse: nil
        }
    }

    /// Recognises and reads `url`. With `swishCallback` (the callback a Swish launch registered), the URL
    /// is read as that callback coming back. Throws `AppSwitchError` naming the field and rule.
    public static func parse(_ url: String, swishCallback: String? = nil) throws -> AppSwitchMessage {
        if let swishCallback { return .swishCallback(try SwishCallback.parse(url, registered: swishCallback)) }
        guard let parts = AppSwitchURLParts(url) else {
            throw AppSwitchError.unrecognizedURL(url: url, expected: "an absolute URL without spaces or control characters")
        }
        if parts.scheme == Swish.scheme { return .swishLaunch(try SwishLaunch.parse(url)) }
        if parts.scheme == BankID.scheme || (parts.scheme == "https" && parts.host == BankID.universalLinkHost) {
            return .bankIDLaunch(try BankIDLaunch.parse(url))
        }
        if parts.queryItems.contains(where: { $0.name == "transactionResponse" }) {
            return .roampayResponse(try ROAMpayResponse.parse(url: url))
        }
        let names = Set(parts.queryItems.map { $0.name.lowercased() })
        if parts.scheme == "https",
            (parts.host == ROAMpay.universalLinkHost && ROAMpay.isTransactionPath(parts.path))
                || (names.contains("authtoken") && names.contains("hosturl"))
        {
            return .roampayRequest(try ROAMpayRequest.parse(url))
        }
        throw AppSwitchError.unrecognizedURL(
            url: url,
            expected:
                "a Swish, BankID or ROAMpay X URL (swish://paymentrequest?…, bankid:///?…, https://app.bankid.com/?…, https://…/transaction/?amount=…, or …?transactionResponse=…)"
        )
    }

    private enum CodingKeys: String, CodingKey { case kind }
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(kind, forKey: .kind)
        switch self {
        case .swishLaunch(let v): try v.encode(to: encoder)
        case .swishCallback(let v): try v.encode(to: encoder)
        case .bankIDLaunch(let v): try v.encode(to: encoder)
        case .roampayRequest(let v): try v.encode(to: encoder)
        case .roampayResponse(let v): try v.encode(to: encoder)
        }
    }
}

/// Where an app-switch target sends the user back to.
public enum AppSwitchReturn: Sendable, Hashable {
    /// The app opens this URL (a custom scheme, universal link or web page).
    case url(String)
    /// The app opens nothing; the OS shows the app the user came from (BankID `redirect=null`).
    case previousApp
    /// No return address was given.
    case none
}
