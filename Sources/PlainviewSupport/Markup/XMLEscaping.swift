// Escaping for XML text and attribute values (the JUnit report), on top of HTML's escaping.

public enum XMLEscaping {
    /// Text for an XML text node or a quoted attribute value: HTML's escaping (`&<>"'`), and the control characters
    /// XML 1.0 cannot hold (all below U+0020 but tab, newline and carriage return) replaced by `?`.
    public static func text(_ s: String) -> String {
        guard s.unicodeScalars.contains(where: { $0.value < 0x20 && $0 != "\n" && $0 != "\t" && $0 != "\r" }) else {
            return HTMLEscaping.escape(s)
        }
        var clean = String.UnicodeScalarView()
        for u in s.unicodeScalars { clean.append(u.value < 0x20 && u != "\n" && u != "\t" && u != "\r" ? "?" : u) }
        return HTMLEscaping.escape(String(clean))
    }
}
