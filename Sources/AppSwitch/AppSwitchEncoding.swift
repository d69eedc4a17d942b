// Percent-encoding, query splitting and a small URL splitter for the app-switch protocols.
// Byte-exact and dependency-free on purpose: the seeds specify the encoding character by character.
import NavigationPolicy
import PlainviewURL

/// Percent-encoding as the app-switch seeds specify it.
public enum AppSwitchEncoding {
    /// The characters Swish's guide (its iOS snippet) percent-encodes in the callback URL: `!*'();:@&=+$,/?%#[]`.
    public static let swishReservedCharacters = "!*'();:@&=+$,/?%#[]"

    /// Encodes `value` for use as one query value: every character of the Swish reserved set
    /// `!*'();:@&=+$,/?%#[]` becomes `%XX` (upper-case hex), and so does every character that may not
    /// appear in a URL at all (space, controls, `"<>\^`{|}`, non-ASCII as UTF-8 bytes). Only the RFC 3986
    /// unreserved characters `A–Z a–z 0–9 - . _ ~` stay. Decoding the result once gives `value` back exactly.
    ///
    /// The seed's iOS snippet keeps everything outside the reserved set, so a space or `é` would reach
    /// Swish unencoded and `NSURL` would refuse the whole URL; encoding those too is what makes it work.
    public static func encodeComponent(_ value: String) -> String {
        encode(value) { isUnreserved($0) }
    }

    /// Encodes `value` as a query value but keeps `:`, `/`, `?` and `@` readable (RFC 3986 allows them in a
    /// query). `&`, `=`, `+`, `#`, `%` and every other reserved or disallowed character are encoded.
    /// Used for ROAMpay X, whose guide shows `hostURL=RPXUniversalLinkNativeTestApp://` unencoded.
    public static func encodeQueryValue(_ value: String) -> String {
        encode(value) {
            isUnreserved($0) || $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: "/")
                || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "@")
        }
    }

    /// Decodes `%XX` sequences once. `+` stays `+` (RFC 3986, not HTML forms).
    /// nil when a `%` is not followed by two hex digits or the bytes are not UTF-8.
    public static func decode(_ value: some StringProtocol) -> String? { PercentEncoding.decodeComponent(value) }

    static func isUnreserved(_ b: UInt8) -> Bool { PercentEncoding.isUnreserved(b) }

    private static func encode(_ value: String, keep: (UInt8) -> Bool) -> String {
        PercentEncoding.encode(value, keeping: keep)
    }
}

/// One `name=value` pair of a query, as written (value not yet decoded).
struct RawQueryItem: Sendable, Hashable {
    var name: String
    var rawValue: String?
}

/// The parts of a URL the app-switch parsers need, read by the URL core (`WebURL`): scheme, authority and
/// path as a browser parses them, so a host read here is the host a browser would contact. The query and
/// fragment stay exactly as written (the protocol readers decode each value themselves, once).
struct AppSwitchURLParts: Sendable, Hashable {
    /// Lower case, without `:`.
    var scheme: String
    /// True when the URL has an authority (`//` after a custom scheme; always for http(s)).
    var hasAuthority: Bool
    /// `user[:password]` when the URL carries credentials.
    var userinfo: String?
    /// Normalised (lower case, IDN as punycode, no trailing dot); nil when there is no authority or it is empty.
    var host: String?
    /// The port when it is not the scheme's default.
    var port: String?
    /// The path as the URL parser serialises it (`/` at least for http(s)).
    var path: String
    /// As written, without `?`.
    var query: String?
    /// As written, without `#`.
    var fragment: String?

    /// Everything before `?` (or `#`) as written: scheme, authority and path.
    var base: String

    /// Splits `raw`. nil when it holds spaces or control characters or is not a URL a browser would parse.
    init?(_ raw: String) {
        guard !raw.isEmpty, raw.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value != 0x7F }),
            let url = WebURL(raw)
        else { return nil }
        switch url.host {
        case nil, .empty?:
            host = nil
        case .opaque(let raw)?:
            // A custom scheme's host (`swish://PaymentRequest`): compared like a domain.
            guard let decoded = PercentEncoding.decodeComponent(raw), let normal = HostName.normalize(decoded) else { return nil }
            host = normal
        case .domain?, .ipv4?, .ipv6?:
            host = url.comparableHost
        }
        scheme = url.scheme
        // The protocols want the authority written out: `https:host`, `https:///host` (which a browser repairs)
        // have none here, so a reader's "needs a host" check refuses them.
        let special = url.isSpecial
        let slashes = raw.utf8.dropFirst(url.scheme.utf8.count + 1)
            .prefix { $0 == UInt8(ascii: "/") || (special && $0 == UInt8(ascii: "\\")) }.count
        if special, slashes != 2 { host = nil }
        hasAuthority = url.host != nil && slashes >= 2
        userinfo = url.hasCredentials ? url.username + (url.password.isEmpty ? "" : ":" + url.password) : nil
        port = url.port.map { String($0) }
        path = url.path
        // The query starts at the first `?` before the first `#`, in the text as written (the parser's
        // boundaries: the text holds no tab or newline it would remove).
        let hashIndex = raw.firstIndex(of: "#") ?? raw.endIndex
        let queryIndex = raw[..<hashIndex].firstIndex(of: "?") ?? hashIndex
        query = queryIndex < hashIndex ? String(raw[raw.index(after: queryIndex)..<hashIndex]) : nil
        fragment = hashIndex < raw.endIndex ? String(raw[raw.index(after: hashIndex)...]) : nil
        base = String(raw[..<queryIndex])
    }

    /// The query split on `&` into items (empty pieces skipped). Names are decoded; values are kept raw.
    var queryItems: [RawQueryItem] {
        guard let query else { return [] }
        return query.split(separator: "&", omittingEmptySubsequences: true).map { piece in
            if let eq = piece.firstIndex(of: "=") {
                let name = String(piece[..<eq])
                return RawQueryItem(
                    name: AppSwitchEncoding.decode(name) ?? name, rawValue: String(piece[piece.index(after: eq)...]))
            }
            let name = String(piece)
            return RawQueryItem(name: AppSwitchEncoding.decode(name) ?? name, rawValue: nil)
        }
    }

}

/// Reads the query items of a launch URL for one protocol: every name at most once.
struct QueryReader {
    private(set) var items: [String: String?] = [:]
    private(set) var order: [String] = []

    /// `caseInsensitive`: names are compared ignoring case (ROAMpay X's guide spells `invoiceID` and `invoiceId`).
    init(_ parts: AppSwitchURLParts, caseInsensitive: Bool = false) throws {
        for item in parts.queryItems {
            let key = caseInsensitive ? item.name.lowercased() : item.name
            if items[key] != nil { throw AppSwitchError.duplicateField(field: item.name) }
            items[key] = .some(item.rawValue)
            order.append(item.name)
        }
        self.caseInsensitive = caseInsensitive
    }

    private let caseInsensitive: Bool

    /// The decoded value of `name`: nil when absent; "" when present without `=`.
    func value(_ name: String) throws -> String? {
        let key = caseInsensitive ? name.lowercased() : name
        guard let entry = items[key] else { return nil }
        guard let raw = entry else { return "" }
        guard let decoded = AppSwitchEncoding.decode(raw) else {
            throw AppSwitchError.invalidField(
                field: name, rule: "must be percent-encoded UTF-8 (`%` followed by two hex digits)", value: raw)
        }
        return decoded
    }

    /// The raw (undecoded) value of `name`.
    func rawValue(_ name: String) -> String? {
        let key = caseInsensitive ? name.lowercased() : name
        guard let entry = items[key] else { return nil }
        return entry ?? ""
    }

    /// Names present that are not in `known`.
    func unknown(_ known: [String]) -> [String] {
        let set = Set(known.map { caseInsensitive ? $0.lowercased() : $0 })
        return order.filter { !set.contains(caseInsensitive ? $0.lowercased() : $0) }
    }
}
