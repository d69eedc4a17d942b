// Percent-encoding, query splitting and a small URL splitter for the app-switch protocols.
// Byte-exact and dependency-free on purpose: the seeds specify the encoding character by character.
import NavigationPolicy
import PlainviewURL

/// Percent-encoding as the app-switch seeds specify it.
public enum AppSwitchEncoding {
    /// The characters Swish's guide (seed 003, iOS snippet) percent-encodes in the callback URL: `!*'();:@&=+$,/?%#[]`.
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
        encode(value) { isUnreserved($0) || $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: "/")
            || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "@") }
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

/// The parts of a URL the app-switch parsers need. Not a general URL parser: it splits like WHATWG does for
/// the schemes in play (`\` counts as `/` in http(s) authorities, userinfo ends at the last `@`), so a host
/// read here is the host a browser would contact.
struct AppSwitchURLParts: Sendable, Hashable {
    /// Lower case, without `:`.
    var scheme: String
    /// True when `//` follows the scheme.
    var hasAuthority: Bool
    var userinfo: String?
    /// Normalised (lower case, no trailing dot); nil when there is no authority or it is empty.
    var host: String?
    var port: String?
    var path: String
    var query: String?
    var fragment: String?

    /// Everything before `?` (or `#`): scheme, authority and path as written.
    var base: String

    /// Splits `string`. nil when it has no valid scheme or holds spaces or control characters.
    init?(_ string: String) {
        guard !string.isEmpty,
              string.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value != 0x7F })
        else { return nil }
        let bytes = Array(string.utf8)
        // scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ) ":"
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")), colon > 0 else { return nil }
        for (i, b) in bytes[..<colon].enumerated() {
            let alpha = (b | 0x20) >= UInt8(ascii: "a") && (b | 0x20) <= UInt8(ascii: "z")
            let other = (b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9")) || b == UInt8(ascii: "+")
                || b == UInt8(ascii: "-") || b == UInt8(ascii: ".")
            if !(alpha || (i > 0 && other)) { return nil }
        }
        let scheme = String(decoding: bytes[..<colon], as: UTF8.self).lowercased()
        let special = SchemeKind(scheme: scheme) == .web
        func isSlash(_ b: UInt8) -> Bool { b == UInt8(ascii: "/") || (special && b == UInt8(ascii: "\\")) }

        var i = colon + 1
        // Fragment and query boundaries (the first `#`, then the first `?` before it).
        let hashIndex = bytes[i...].firstIndex(of: UInt8(ascii: "#")) ?? bytes.endIndex
        let queryIndex = bytes[i..<hashIndex].firstIndex(of: UInt8(ascii: "?")) ?? hashIndex

        var hasAuthority = false
        var userinfo: String?
        var host: String?
        var port: String?
        if i + 1 < queryIndex, isSlash(bytes[i]), isSlash(bytes[i + 1]) {
            hasAuthority = true
            i += 2
            let authEnd = bytes[i..<queryIndex].firstIndex(where: isSlash) ?? queryIndex
            var authority = bytes[i..<authEnd]
            if let at = authority.lastIndex(of: UInt8(ascii: "@")) {
                userinfo = String(decoding: authority[..<at], as: UTF8.self)
                authority = authority[(at + 1)...]
            }
            var hostBytes = authority
            if let portColon = authority.lastIndex(of: UInt8(ascii: ":")),
               !authority.contains(UInt8(ascii: "]"))
                || (portColon > authority.startIndex && authority[portColon - 1] == UInt8(ascii: "]")) {
                let digits = authority[(portColon + 1)...]
                guard digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else { return nil }
                port = digits.isEmpty ? nil : String(decoding: digits, as: UTF8.self)
                hostBytes = authority[..<portColon]
            }
            if !hostBytes.isEmpty {
                guard let decoded = AppSwitchEncoding.decode(String(decoding: hostBytes, as: UTF8.self)),
                      let normal = HostName.normalize(decoded) else { return nil }
                host = normal
            }
            i = authEnd
        }
        self.scheme = scheme
        self.hasAuthority = hasAuthority
        self.userinfo = userinfo
        self.host = host
        self.port = port
        self.path = String(decoding: bytes[i..<queryIndex], as: UTF8.self)
        self.query = queryIndex < hashIndex ? String(decoding: bytes[(queryIndex + 1)..<hashIndex], as: UTF8.self) : nil
        self.fragment = hashIndex < bytes.endIndex ? String(decoding: bytes[(hashIndex + 1)...], as: UTF8.self) : nil
        self.base = String(decoding: bytes[..<queryIndex], as: UTF8.self)
    }

    /// The query split on `&` into items (empty pieces skipped). Names are decoded; values are kept raw.
    var queryItems: [RawQueryItem] {
        guard let query else { return [] }
        return query.split(separator: "&", omittingEmptySubsequences: true).map { piece in
            if let eq = piece.firstIndex(of: "=") {
                let name = String(piece[..<eq])
                return RawQueryItem(name: AppSwitchEncoding.decode(name) ?? name, rawValue: String(piece[piece.index(after: eq)...]))
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
            throw AppSwitchError.invalidField(field: name, rule: "must be percent-encoded UTF-8 (`%` followed by two hex digits)", value: raw)
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
