// Escaping for the helper endpoints' responses: HTML and JSON. (Percent-coding is the URL core's.)
import NavigationPolicy
import PlainviewURL

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

