// Small text utilities for the helper endpoints: RFC 3986 percent-encoding and -decoding, HTML and JSON
// escaping, and query splitting. Byte-level and Foundation-free so the rules are visible and testable.

public enum PercentEncoding {
    /// RFC 3986 `unreserved`: ALPHA / DIGIT / "-" / "." / "_" / "~".
    public static func isUnreserved(_ b: UInt8) -> Bool {
        (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || (b >= 0x30 && b <= 0x39)
            || b == UInt8(ascii: "-") || b == UInt8(ascii: ".") || b == UInt8(ascii: "_") || b == UInt8(ascii: "~")
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

    static func isHex(_ b: UInt8) -> Bool {
        (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x46) || (b >= 0x61 && b <= 0x66)
    }

    static func hexValue(_ b: UInt8) -> UInt8 {
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

    /// Percent-encodes (upper-case hex) every UTF-8 byte of `s` for which `keep` is false.
    public static func encode(_ s: String, keeping keep: (UInt8) -> Bool) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(s.utf8.count)
        for b in s.utf8 {
            if keep(b) {
                out.append(b)
            } else {
                out.append(UInt8(ascii: "%"))
                out.append(hexDigits[Int(b >> 4)])
                out.append(hexDigits[Int(b & 0x0F)])
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Percent-decodes an RFC 3986 component. `+` stays `+` (RFC 3986, as Apple's URLComponents does; it is
    /// only a space in HTML form encoding). nil for a malformed escape or bytes that are not UTF-8.
    public static func decodeComponent<S: StringProtocol>(_ s: S) -> String? {
        let bytes = Array(s.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var i = 0
        while i < bytes.count {
            let b = bytes[i]
            if b == UInt8(ascii: "%") {
                guard i + 2 < bytes.count, isHex(bytes[i + 1]), isHex(bytes[i + 2]) else { return nil }
                out.append(hexValue(bytes[i + 1]) << 4 | hexValue(bytes[i + 2]))
                i += 3
            } else {
                out.append(b)
                i += 1
            }
        }
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

public enum HTMLEscaping {
    /// Escapes text for an HTML text node or a quoted attribute value (`&<>"'`).
    public static func escape(_ s: String) -> String {
        var out = ""
        out.reserveCapacity(s.utf8.count)
        for ch in s.unicodeScalars {
            switch ch {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.unicodeScalars.append(ch)
            }
        }
        return out
    }
}

public enum JSONEscaping {
    /// A JSON string literal (with quotes). By default `<`, `>`, `&`, U+2028 and U+2029 are escaped as well,
    /// so the output is also safe if a browser sniffs it as HTML or a script embeds it (what the helper
    /// endpoints serve); `htmlSafe: false` keeps them readable in files and terminal output.
    public static func quote(_ s: String, htmlSafe: Bool = true) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(s.utf8.count + 2)
        append(s, to: &out, htmlSafe: htmlSafe)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends `s` as a JSON string literal (with quotes) to `out`. `htmlSafe` also escapes `<`, `>`, `&`,
    /// U+2028 and U+2029 (as `quote` does); without it only what JSON requires is escaped (`"`, `\`, control
    /// characters), which keeps URLs readable in output meant for files and terminals.
    public static func append(_ s: String, to out: inout [UInt8], htmlSafe: Bool = true) {
        out.append(UInt8(ascii: "\""))
        var copy = s
        copy.withUTF8 { bytes in
            var i = 0
            while i < bytes.count {
                let b = bytes[i]
                switch b {
                case UInt8(ascii: "\""): out.append(UInt8(ascii: "\\")); out.append(b)
                case UInt8(ascii: "\\"): out.append(b); out.append(b)
                case UInt8(ascii: "\n"): out.append(UInt8(ascii: "\\")); out.append(UInt8(ascii: "n"))
                case UInt8(ascii: "\r"): out.append(UInt8(ascii: "\\")); out.append(UInt8(ascii: "r"))
                case UInt8(ascii: "\t"): out.append(UInt8(ascii: "\\")); out.append(UInt8(ascii: "t"))
                case UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "&"):
                    if htmlSafe { appendUnicodeEscape(UInt32(b), to: &out) } else { out.append(b) }
                case 0xE2 where htmlSafe && i + 2 < bytes.count && bytes[i + 1] == 0x80
                    && (bytes[i + 2] == 0xA8 || bytes[i + 2] == 0xA9):
                    appendUnicodeEscape(bytes[i + 2] == 0xA8 ? 0x2028 : 0x2029, to: &out)
                    i += 2
                default:
                    if b < 0x20 || b == 0x7F { appendUnicodeEscape(UInt32(b), to: &out) } else { out.append(b) }
                }
                i += 1
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    private static func appendUnicodeEscape(_ v: UInt32, to out: inout [UInt8]) {
        let hex = Array("0123456789abcdef".utf8)
        out.append(UInt8(ascii: "\\"))
        out.append(UInt8(ascii: "u"))
        for shift in stride(from: 12, through: 0, by: -4) { out.append(hex[Int((v >> UInt32(shift)) & 0xF)]) }
    }

    /// A JSON array of strings.
    public static func array(_ items: [String]) -> String {
        "[" + items.map { quote($0) }.joined(separator: ", ") + "]"
    }
}
