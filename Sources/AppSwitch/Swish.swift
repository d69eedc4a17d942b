// Swish app switch (Swish's merchant app-switch guide, "Launching Swish app from merchant app"): detection, the launch URL
// `swish://paymentrequest?token=…&callbackurl=…`, and the switch back to the merchant's own URL.
import NavigationPolicy
import PlainviewURL

/// Constants of the Swish app switch.
public enum Swish {
    /// The custom scheme Swish registers.
    public static let scheme = "swish"
    /// The Android package (Swish's merchant app-switch guide §5.1.2).
    public static let androidPackage = KnownApp.swish.androidPackage!
    /// The URL an iOS app asks `canOpenURL` about (Swish's merchant app-switch guide §5.1.1). Since iOS 9 the asking app must list
    /// `swish` under `LSApplicationQueriesSchemes`, or the answer is always "no".
    public static let detectionURL = "swish://"
    /// Scheme and host of the launch URL.
    public static let launchPrefix = "swish://paymentrequest"

    /// Whether the device would open Swish, asked the way Swish's merchant app-switch guide does on each platform:
    /// iOS `canOpenURL("swish://")`; Android `getApplicationInfo("se.bankgirot.swish")`.
    public static func isInstalled(platform: Platform, system: some SystemServices) -> Bool {
        switch platform {
        case .ios:
            return system.customSchemeApp(for: scheme) != nil
        case .android:
            var intent = AndroidIntent()
            intent.package = androidPackage
            intent.action = "android.intent.action.VIEW"
            intent.data = detectionURL
            return system.intentApp(for: intent) != nil || system.customSchemeApp(for: scheme) != nil
        }
    }
}

/// How a merchant can tell whether Swish is installed (Swish's merchant app-switch guide §5.1).
public enum SwishDetection: Sendable, Hashable {
    /// iOS app: `canOpenURL(url)`; `queriesScheme` must be declared in `LSApplicationQueriesSchemes`.
    case canOpenURL(url: String, queriesScheme: String)
    /// Android app: ask the package manager for `package`.
    case packageManager(package: String)
    /// Mobile web page: only a timing guess; control returning after more than `thresholdMilliseconds`
    /// means Swish probably opened. Swish's guide: it does not work on Android Chrome 25+ (nor Android's default
    /// browser, nor Windows Phone), which show a "get the app" dialog instead of returning.
    case launchTiming(thresholdMilliseconds: Int)

    /// The seed's method for an app (`inBrowser == false`) or a web page on `platform`.
    public static func method(platform: Platform, inBrowser: Bool) -> SwishDetection {
        if inBrowser { return .launchTiming(thresholdMilliseconds: timingThresholdMilliseconds) }
        switch platform {
        case .ios: return .canOpenURL(url: Swish.detectionURL, queriesScheme: Swish.scheme)
        case .android: return .packageManager(package: Swish.androidPackage)
        }
    }

    /// Swish's guide §5.1.4: "more than 3 sec" away from the page means Swish most probably started.
    public static let timingThresholdMilliseconds = 3000

    /// The seed's browser heuristic: true (probably installed) when control came back after more than
    /// 3000 ms, false when sooner. nil when the heuristic does not apply: Android Chrome 25 or later
    /// (`chromeMajorVersion`), whose dialog instead of a return makes the time meaningless.
    public static func timingGuess(elapsedMilliseconds: Int, platform: Platform, chromeMajorVersion: Int? = nil) -> Bool? {
        if platform == .android, let v = chromeMajorVersion, v >= 25 { return nil }
        return elapsedMilliseconds > timingThresholdMilliseconds
    }
}

/// A validated Swish launch: the payment request token and the callback URL Swish opens when it is done.
public struct SwishLaunch: Sendable, Hashable, Encodable {
    /// The payment request token from Swish (CPC), inserted unencoded as the seed does.
    public let token: String
    /// The callback URL as Swish will open it (decoded): the merchant's own scheme or an https page.
    public let callbackURL: String
    /// True when the callback given to `init` was already percent-encoded as a whole (`merchant%3A%2F%2F`);
    /// it was decoded once first so that it is encoded exactly once.
    public let callbackWasPreEncoded: Bool

    /// Validates and normalises. The token must be non-empty and made of `A–Z a–z 0–9 - . _ ~` (the seed
    /// inserts it unencoded, so anything else would change the URL). The callback must be an absolute URL:
    /// the merchant's own scheme (seed: "each merchant shall use its own unique scheme") or http(s) for a
    /// web page; never `swish:` itself, `javascript:`, `data:` or `file:`. A callback that is already
    /// percent-encoded as a whole is recognised and decoded once, so it is never double-encoded.
    public init(token: String, callbackURL: String) throws {
        try SwishLaunch.validateToken(token)
        var callback = callbackURL
        var preEncoded = false
        if AppSwitchURLParts(callbackURL) == nil, callbackURL.lowercased().contains("%3a"),
            let once = AppSwitchEncoding.decode(callbackURL), AppSwitchURLParts(once) != nil
        {
            callback = once
            preEncoded = true
        }
        _ = try ReturnURLRule.validate(callback, field: "callbackurl", launchingScheme: Swish.scheme)
        self.token = token
        self.callbackURL = callback
        self.callbackWasPreEncoded = preEncoded
    }

    /// Advice that does not make the launch invalid: the guide's placeholder scheme `merchant` (Swish's merchant app-switch guide:
    /// "each merchant shall use its own unique scheme"), or an http(s) callback, which opens a browser
    /// page unless the merchant app claims it as a universal link or app link (https only).
    public var notes: [String] {
        var out: [String] = []
        let scheme = AppSwitchURLParts(callbackURL)?.scheme ?? ""
        if scheme == "merchant" {
            out.append("callbackurl uses merchant://, the seed's example scheme; register your app's own unique scheme")
        }
        if scheme == "https" {
            out.append(
                "callbackurl is an https URL: Swish opens it like a tapped link, so it returns to your app only if your app claims it as a universal link (iOS) or verified app link (Android); otherwise it opens in the browser"
            )
        } else if scheme == "http" {
            out.append(
                "callbackurl is an http URL: universal links and app links are https only, so Swish returns to a browser page, not to your app"
            )
        }
        return out
    }

    /// The callback as it appears in the launch URL: encoded once with the seed's reserved set
    /// `!*'();:@&=+$,/?%#[]` (plus characters no URL may hold). A `%` already in the callback becomes `%25`,
    /// so Swish's single decoding gives the callback back byte for byte.
    public var encodedCallback: String { AppSwitchEncoding.encodeComponent(callbackURL) }

    /// `swish://paymentrequest?token=…&callbackurl=…`.
    public var url: String { "\(Swish.launchPrefix)?token=\(token)&callbackurl=\(encodedCallback)" }

    /// Reads a launch URL the way the Swish app does: `swish://paymentrequest` with `token` and
    /// `callbackurl`, the callback decoded once. A callback that is still encoded after one decoding
    /// (`merchant%253A%252F%252F`: encoded twice) is an error, since Swish could not open it.
    public static func parse(_ url: String) throws -> SwishLaunch {
        guard let parts = AppSwitchURLParts(url), parts.scheme == Swish.scheme else {
            throw AppSwitchError.unrecognizedURL(
                url: url, expected: "a Swish launch URL (swish://paymentrequest?token=…&callbackurl=…)")
        }
        guard parts.hasAuthority, parts.host == "paymentrequest", parts.path.isEmpty || parts.path == "/" else {
            throw AppSwitchError.unrecognizedURL(
                url: url, expected: "a Swish launch URL: the host must be paymentrequest (swish://paymentrequest?…)")
        }
        let query = try QueryReader(parts)
        guard let token = try query.value("token"), !token.isEmpty else {
            throw AppSwitchError.missingField(field: "token", rule: "the payment request token from Swish")
        }
        guard let callback = try query.value("callbackurl"), !callback.isEmpty else {
            throw AppSwitchError.missingField(field: "callbackurl", rule: "the URL Swish opens when the payment is done")
        }
        if AppSwitchURLParts(callback) == nil, let twice = AppSwitchEncoding.decode(callback), AppSwitchURLParts(twice) != nil {
            throw AppSwitchError.invalidField(
                field: "callbackurl",
                rule: "is percent-encoded twice: after Swish decodes it once it is still not a URL; encode it once",
                value: query.rawValue("callbackurl") ?? callback)
        }
        try validateToken(token)
        _ = try ReturnURLRule.validate(callback, field: "callbackurl", launchingScheme: Swish.scheme)
        return try SwishLaunch(token: token, callbackURL: callback)
    }

    private static func validateToken(_ token: String) throws {
        if token.isEmpty {
            throw AppSwitchError.missingField(field: "token", rule: "the payment request token from Swish")
        }
        if !token.utf8.allSatisfy(AppSwitchEncoding.isUnreserved) {
            throw AppSwitchError.invalidField(
                field: "token", rule: "must contain only A-Z a-z 0-9 - . _ ~ (it is inserted unencoded)", value: token)
        }
    }

    private enum CodingKeys: String, CodingKey { case token, callbackURL, encodedCallback, callbackWasPreEncoded, url }
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(token, forKey: .token)
        try c.encode(callbackURL, forKey: .callbackURL)
        try c.encode(encodedCallback, forKey: .encodedCallback)
        try c.encode(callbackWasPreEncoded, forKey: .callbackWasPreEncoded)
        try c.encode(url, forKey: .url)
    }
}

/// The switch back from Swish: Swish (or BankID on its behalf) opens the callback URL it was given.
/// Swish's callback in its guide carries no result; the merchant asks its backend for the payment's status.
public struct SwishCallback: Sendable, Hashable, Encodable {
    /// The URL that came back.
    public let url: String
    /// True when it uses a custom scheme (the merchant app opens); false for http(s) (a browser page).
    public let opensApp: Bool
    /// Query parameters present in the returned URL but not in the registered callback, decoded.
    public let addedParameters: [String: String]

    /// Checks that `url` is the callback registered in `launch`: same scheme, host and path, every query
    /// parameter of the registered callback present with the same value. Extra parameters are reported.
    public static func parse(_ url: String, registered callback: String) throws -> SwishCallback {
        guard let got = AppSwitchURLParts(url) else {
            throw AppSwitchError.unrecognizedURL(url: url, expected: "an absolute URL")
        }
        guard let want = AppSwitchURLParts(callback) else {
            throw AppSwitchError.invalidField(field: "callbackurl", rule: "must be an absolute URL", value: callback)
        }
        let samePath = got.path == want.path || (got.path.isEmpty && want.path == "/") || (got.path == "/" && want.path.isEmpty)
        guard got.scheme == want.scheme, got.host == want.host, got.port == want.port, samePath else {
            throw AppSwitchError.unrecognizedURL(
                url: url, expected: "the registered Swish callback \(AppSwitchError.quote(callback))")
        }
        let gotQuery = try QueryReader(got)
        let wantQuery = try QueryReader(want)
        var added: [String: String] = [:]
        for name in gotQuery.unknown(wantQuery.order) { added[name] = try gotQuery.value(name) ?? "" }
        for name in wantQuery.order where try gotQuery.value(name) != wantQuery.value(name) {
            throw AppSwitchError.invalidField(
                field: name, rule: "must keep the value it has in the registered callback \(AppSwitchError.quote(callback))",
                value: gotQuery.rawValue(name) ?? "(absent)")
        }
        return SwishCallback(url: url, opensApp: got.scheme != "http" && got.scheme != "https", addedParameters: added)
    }
}
