// What a simulated app does when the OS opens it with a URL: the simulator's part of an environment file,
// decoded from each app's `behaviour` key. Pure value type; the simulator executes it.
//
//   behaviour:
//     then: complete                      # complete | cancel | fail | wait (what the user does in the app)
//     returnTo: {queryParameter: callbackurl}   # Swish: return via the launch URL's `callbackurl`
//     # returnTo: {queryParameter: redirect, nullMeansPrevious: true}   # BankID: `redirect=null` = previous app
//     # returnTo: {url: "https://shop.example.com/pay?order=1"}          # a fixed URL
//     # returnTo: previous                                               # back to the app that opened it
//     # returnTo: protocol                  # as the launch URL's app-switch protocol says (Swish, BankID, ROAMpay X)
//     cancelReturnTo: previous            # optional: where a cancel returns (default: returnTo)
//     host: true                          # this is the app that embeds the web view (the merchant app)
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// How an installed app behaves when opened, in the simulated world.
public struct AppBehaviour: Sendable, Hashable, Codable {
    /// What the user does in the app when nothing else is said (a flow step `app: NAME …` overrides it).
    public enum Outcome: String, Sendable, Hashable, Codable, CaseIterable {
        /// The user finishes (signs, pays); the app returns.
        case complete
        /// The user cancels in the app; the app returns (to `cancelReturnTo`, else `returnTo`).
        case cancel
        /// The app shows an error and stays: the flow is stuck in it.
        case fail
        /// The app waits for a flow step to say what the user does.
        case wait
    }

    /// Where the app goes when it is done.
    public enum Return: Sendable, Hashable {
        /// Back to the app that opened it (the OS "back" to the previous app).
        case previousApp
        /// Opens a fixed URL through the OS.
        case url(String)
        /// Opens the URL found in this query parameter of the launch URL (percent-decoded), e.g. Swish's
        /// `callbackurl` or BankID's `redirect`. With `nullMeansPrevious`, the value `null` (or an empty value)
        /// means "back to the previous app", as BankID documents it.
        case queryParameter(String, nullMeansPrevious: Bool)
        /// Where the app-switch protocol of the launch URL says (Swish `callbackurl`, BankID `redirect`,
        /// ROAMpay X `hostURL`), read by `AppSwitchMessage.parse(_:).whenDone`.
        case appSwitchProtocol
    }

    /// What an app does next, resolved against its launch URL.
    public enum Resolution: Sendable, Hashable {
        case previousApp
        case open(url: String)
        /// The app cannot return: the reason says why (e.g. the parameter is missing).
        case stuck(reason: String)
        /// The app failed or waits: nothing happens.
        case stays(reason: String)
    }

    /// True for the merchant app that embeds the web view: a URL it receives is checked by the policy
    /// and the payment page is reloaded.
    public var host: Bool
    public var then: Outcome
    public var returnTo: Return
    public var cancelReturnTo: Return?

    public init(host: Bool = false, then: Outcome = .complete, returnTo: Return = .previousApp,
                cancelReturnTo: Return? = nil) {
        self.host = host
        self.then = then
        self.returnTo = returnTo
        self.cancelReturnTo = cancelReturnTo
    }

    /// What the app does after the user's `outcome`, for an app launched with `launchURL`.
    public func resolve(_ outcome: Outcome, launchURL: String) -> Resolution {
        switch outcome {
        case .fail: return .stays(reason: "the app failed")
        case .wait: return .stays(reason: "the app waits for the user")
        case .complete: return Self.resolve(returnTo, launchURL: launchURL)
        case .cancel: return Self.resolve(cancelReturnTo ?? returnTo, launchURL: launchURL)
        }
    }

    static func resolve(_ r: Return, launchURL: String) -> Resolution {
        switch r {
        case .previousApp: return .previousApp
        case .url(let u): return .open(url: u)
        case .queryParameter(let name, let nullMeansPrevious):
            guard let value = Self.queryValue(name, in: launchURL) else {
                return .stuck(reason: "the launch URL has no '\(name)' query parameter to return to")
            }
            if value.isEmpty || value == "null" {
                return nullMeansPrevious ? .previousApp
                    : .stuck(reason: "the launch URL's '\(name)' parameter is empty")
            }
            return .open(url: value)
        case .appSwitchProtocol:
            let message: AppSwitchMessage
            do {
                message = try AppSwitchMessage.parse(launchURL)
            } catch {
                return .stuck(reason: "the launch URL is not a valid app-switch request: \(error)")
            }
            switch message.whenDone {
            case .url(let u)?: return .open(url: u)
            case .previousApp?: return .previousApp
            case .none?, nil: return .stuck(reason: "the launch URL gives no address to return to")
            }
        }
    }

    /// The percent-decoded value of the first query item `name` of `url` (nil when absent or undecodable).
    public static func queryValue(_ name: String, in url: String) -> String? {
        var s = Substring(url)
        if let hash = s.firstIndex(of: "#") { s = s[..<hash] }
        guard let q = s.firstIndex(of: "?") else { return nil }
        for item in s[s.index(after: q)...].split(separator: "&", omittingEmptySubsequences: true) {
            let parts = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let key = percentDecode(parts[0]), key == name else { continue }
            return parts.count > 1 ? percentDecode(parts[1]) : ""
        }
        return nil
    }

    /// Decodes `%XX` escapes (UTF-8); nil on a malformed escape or invalid UTF-8.
    static func percentDecode(_ s: Substring) -> String? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(s.utf8.count)
        var it = s.utf8.makeIterator()
        while let b = it.next() {
            if b == UInt8(ascii: "%") {
                guard let h = it.next(), let l = it.next(), let hv = hex(h), let lv = hex(l) else { return nil }
                bytes.append(hv << 4 | lv)
            } else {
                bytes.append(b)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func hex(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): c - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    // MARK: Codable (the environment file's shape)

    enum CodingKeys: String, CodingKey { case host, then, returnTo, cancelReturnTo }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let all = try decoder.container(keyedBy: AnyKey.self)
        for k in all.allKeys where CodingKeys(stringValue: k.stringValue) == nil {
            throw DecodingError.dataCorrupted(.init(
                codingPath: decoder.codingPath + [k],
                debugDescription: "unknown key '\(k.stringValue)'; expected host, then, returnTo, cancelReturnTo"))
        }
        host = try c.decodeIfPresent(Bool.self, forKey: .host) ?? false
        then = try c.decodeIfPresent(Outcome.self, forKey: .then) ?? (host ? .wait : .complete)
        returnTo = try c.decodeIfPresent(Return.self, forKey: .returnTo) ?? .previousApp
        cancelReturnTo = try c.decodeIfPresent(Return.self, forKey: .cancelReturnTo)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        if host { try c.encode(host, forKey: .host) }
        try c.encode(then, forKey: .then)
        try c.encode(returnTo, forKey: .returnTo)
        try c.encodeIfPresent(cancelReturnTo, forKey: .cancelReturnTo)
    }
}

/// Any key, to find the ones a type does not know.
struct AnyKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

extension AppBehaviour.Return: Codable {
    enum CodingKeys: String, CodingKey { case url, queryParameter, nullMeansPrevious }

    /// `previous`, or `{url: …}`, or `{queryParameter: NAME, nullMeansPrevious: BOOL}`.
    public init(from decoder: any Decoder) throws {
        if let single = try? decoder.singleValueContainer(), let word = try? single.decode(String.self) {
            switch word {
            case "previous": self = .previousApp
            case "protocol": self = .appSwitchProtocol
            default:
                throw DecodingError.dataCorrupted(.init(
                    codingPath: decoder.codingPath,
                    debugDescription: "expected 'previous', 'protocol', {url: URL} or {queryParameter: NAME}, got '\(word)'"))
            }
            return
        }
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let all = try decoder.container(keyedBy: AnyKey.self)
        for k in all.allKeys where CodingKeys(stringValue: k.stringValue) == nil {
            throw DecodingError.dataCorrupted(.init(
                codingPath: decoder.codingPath + [k],
                debugDescription: "unknown key '\(k.stringValue)'; expected url, or queryParameter and nullMeansPrevious"))
        }
        if let u = try c.decodeIfPresent(String.self, forKey: .url) {
            self = .url(u)
        } else if let q = try c.decodeIfPresent(String.self, forKey: .queryParameter) {
            self = .queryParameter(q, nullMeansPrevious: try c.decodeIfPresent(Bool.self, forKey: .nullMeansPrevious) ?? false)
        } else {
            throw DecodingError.dataCorrupted(.init(
                codingPath: decoder.codingPath,
                debugDescription: "expected 'previous', {url: URL} or {queryParameter: NAME}"))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .previousApp:
            var s = encoder.singleValueContainer()
            try s.encode("previous")
        case .appSwitchProtocol:
            var s = encoder.singleValueContainer()
            try s.encode("protocol")
        case .url(let u):
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(u, forKey: .url)
        case .queryParameter(let q, let n):
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(q, forKey: .queryParameter)
            if n { try c.encode(n, forKey: .nullMeansPrevious) }
        }
    }
}
