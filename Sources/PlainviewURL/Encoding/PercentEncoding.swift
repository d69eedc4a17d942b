// Percent-encoding and -decoding of URL components, byte-level and Foundation-free. The one place these
// rules live: the WHATWG parser's encode sets (WebURL) and the RFC 3986 component rules below.

public enum PercentEncoding {
    /// RFC 3986 `unreserved`: ALPHA / DIGIT / "-" / "." / "_" / "~".
    public static func isUnreserved(_ b: UInt8) -> Bool {
        (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || (b >= 0x30 && b <= 0x39)
            || b == UInt8(ascii: "-") || b == UInt8(ascii: ".") || b == UInt8(ascii: "_") || b == UInt8(ascii: "~")
    }

    /// A-Z, a-z, 0-9.
    public static func isASCIIAlphanumeric(_ b: UInt8) -> Bool {
        (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || (b >= 0x30 && b <= 0x39)
    }

    /// RFC 3986 `sub-delims`: "!" / "$" / "&" / "'" / "(" / ")" / "*" / "+" / "," / ";" / "=".
    public static func isSubDelim(_ b: UInt8) -> Bool {
        switch b {
        case UInt8(ascii: "!"), UInt8(ascii: "$"), UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "("),
            UInt8(ascii: ")"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: ","), UInt8(ascii: ";"),
            UInt8(ascii: "="):
            return true
        default:
            return false
        }
    }

    /// A byte that may appear literally in an RFC 3986 path or query (`pchar` / "/" / "?"), "%" excluded.
    public static func isPathOrQueryChar(_ b: UInt8) -> Bool {
        isUnreserved(b) || isSubDelim(b) || b == UInt8(ascii: ":") || b == UInt8(ascii: "@")
            || b == UInt8(ascii: "/") || b == UInt8(ascii: "?")
    }

    public static func isHex(_ b: UInt8) -> Bool {
        (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x46) || (b >= 0x61 && b <= 0x66)
    }

    public static func hexValue(_ b: UInt8) -> UInt8 {
        switch b {
        case 0x30...0x39: return b - 0x30
        case 0x41...0x46: return b - 0x41 + 10
        default: return b &- 0x61 &+ 10
        }
    }

    private static let hexDigits: [UInt8] = Array("0123456789ABCDEF".utf8)

    /// Percent-encodes every byte of the UTF-8 form that is not `unreserved` (like `encodeURIComponent`, but
    /// stricter: `!'()*` are encoded too). The result is safe inside any URI component, header or attribute.
    public static func encodeComponent(_ s: String) -> String {
        encode(s, keeping: isUnreserved)
    }

    /// The `application/x-www-form-urlencoded` byte serializer (HTML forms, `URLSearchParams`): ASCII
    /// alphanumerics and `*-._` stay, a space is `+`, every other UTF-8 byte is `%XX`.
    public static func encodeForm(_ s: String) -> String {
        encode(s, keeping: isFormSafe, spaceAsPlus: true)
    }

    /// The same serializer for a page in another encoding (`application/x-www-form-urlencoded` with the
    /// document's encoding, as browsers submit forms): each character is encoded in `encoding`, one it cannot
    /// represent as the decimal character reference `&#N;`, and the bytes are percent-encoded as above. On a
    /// windows-1252 page, `ø` is `%F8` and `€` is `%80`.
    public static func encodeForm(_ s: String, encoding: TextEncoding) -> String {
        guard encoding != .utf8 else { return encodeForm(s) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(s.utf8.count)
        for scalar in s.unicodeScalars {
            if scalar.isASCII {
                bytes.append(UInt8(scalar.value))
            } else if let encoded = encoding.encode(scalar) {
                bytes += encoded
            } else {
                bytes += Array("&#\(scalar.value);".utf8)
            }
        }
        return encode(bytes: bytes, keeping: isFormSafe, spaceAsPlus: true)
    }

    private static func isFormSafe(_ b: UInt8) -> Bool {
        isASCIIAlphanumeric(b) || b == UInt8(ascii: "*") || b == UInt8(ascii: "-") || b == UInt8(ascii: ".")
            || b == UInt8(ascii: "_")
    }

    /// The percent-encoder: every UTF-8 byte of `s` for which `keep` is false becomes `%XX` (upper-case hex);
    /// `spaceAsPlus`: a space becomes `+` instead (form encoding). Every encoder in the project is this
    /// function, a thin wrapper of it, or WebURL's encode sets (the URL parser's own).
    public static func encode(_ s: String, keeping keep: (UInt8) -> Bool, spaceAsPlus: Bool = false) -> String {
        encode(bytes: s.utf8, keeping: keep, spaceAsPlus: spaceAsPlus)
    }

    /// The percent-encoder over bytes (of any encoding); the result is ASCII.
    public static func encode<C: Collection<UInt8>>(bytes: C, keeping keep: (UInt8) -> Bool, spaceAsPlus: Bool = false) -> String
    {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        for b in bytes {
            if keep(b) {
                out.append(b)
            } else if spaceAsPlus, b == UInt8(ascii: " ") {
                out.append(UInt8(ascii: "+"))
            } else {
                out.append(UInt8(ascii: "%"))
                out.append(hexDigits[Int(b >> 4)])
                out.append(hexDigits[Int(b & 0x0F)])
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// What a `%` not followed by two hex digits means to a decoder.
    public enum MalformedEscape: Sendable {
        /// It stays as it is (the URL Standard's percent-decode; browsers, `decodeURI`-like readers).
        case keep
        /// The whole input is refused (RFC 3986 strictness, as Foundation's decoding).
        case fail
    }

    /// The percent-decoder: `%XX` → the byte XX. `plusAsSpace`: `+` is a space
    /// (`application/x-www-form-urlencoded`). nil only when `malformed` is `.fail` and an escape is malformed.
    /// Every decoder in the project is this function or a thin wrapper of it.
    public static func decodeBytes<C: Collection>(
        _ bytes: C, plusAsSpace: Bool = false,
        malformed: MalformedEscape = .keep
    ) -> [UInt8]? where C.Element == UInt8 {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var i = bytes.startIndex
        while i != bytes.endIndex {
            let b = bytes[i]
            if b == UInt8(ascii: "%") {
                let h = bytes.index(after: i)
                let l = h == bytes.endIndex ? h : bytes.index(after: h)
                if h != bytes.endIndex, l != bytes.endIndex, isHex(bytes[h]), isHex(bytes[l]) {
                    out.append(hexValue(bytes[h]) << 4 | hexValue(bytes[l]))
                    i = bytes.index(after: l)
                    continue
                }
                if malformed == .fail { return nil }
                out.append(b)
            } else if plusAsSpace, b == UInt8(ascii: "+") {
                out.append(UInt8(ascii: " "))
            } else {
                out.append(b)
            }
            i = bytes.index(after: i)
        }
        return out
    }

    /// Lenient decoding to text: a malformed escape stays as it is, bytes that are not UTF-8 become U+FFFD.
    /// Returns `s` itself when it holds nothing to decode.
    public static func decode<S: StringProtocol>(_ s: S, plusAsSpace: Bool = false) -> String {
        if !s.utf8.contains(where: { $0 == UInt8(ascii: "%") || (plusAsSpace && $0 == UInt8(ascii: "+")) }) {
            return String(s)
        }
        return String(decoding: decodeBytes(s.utf8, plusAsSpace: plusAsSpace) ?? [], as: UTF8.self)
    }

    /// Percent-decodes an RFC 3986 component. `+` stays `+` (RFC 3986, as Foundation does; it is
    /// only a space in HTML form encoding). nil for a malformed escape or bytes that are not UTF-8.
    public static func decodeComponent<S: StringProtocol>(_ s: S) -> String? {
        guard let out = decodeBytes(s.utf8, malformed: .fail) else { return nil }
        return String(validating: out, as: UTF8.self)
    }

    /// True when `s` contains a C0 control character (CR, LF, NUL, TAB …), DEL or a C1 control.
    public static func containsControl<S: StringProtocol>(_ s: S) -> Bool {
        s.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F || ($0.value >= 0x80 && $0.value < 0xA0) }
    }

    /// Splits one raw query piece (`name=value`, still percent-encoded) at its first `=`; no `=` → empty value.
    public static func splitQueryItem(_ piece: Substring) -> (name: Substring, value: Substring) {
        guard let eq = piece.firstIndex(of: "=") else { return (piece, piece[piece.endIndex...]) }
        return (piece[piece.startIndex..<eq], piece[piece.index(after: eq)...])
    }
}
