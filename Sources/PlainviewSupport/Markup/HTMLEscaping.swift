// The one HTML escaper: the helper endpoints' pages, the HTML report, redaction's spellings of a secret, and (through
// XMLEscaping) the JUnit report. JSON is JSONEscaping's; percent-coding is PlainviewURL's.

public enum HTMLEscaping {
    /// Escapes text for an HTML text node or a quoted attribute value (`&<>"'`).
    public static func escape(_ s: String) -> String {
        // Most text (names, URLs without `&`) has nothing to escape: hand it back as it is.
        guard s.utf8.contains(where: { $0 == 0x26 || $0 == 0x3C || $0 == 0x3E || $0 == 0x22 || $0 == 0x27 }) else { return s }
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
