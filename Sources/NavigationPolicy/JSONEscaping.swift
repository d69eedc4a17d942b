// The one JSON string escaper: decisions, traces, goodlist output and the helper endpoints write through it.

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
                // Bytes that need no escape are copied a run at a time.
                let run = i
                while i < bytes.count, Self.plain(bytes[i], htmlSafe: htmlSafe) { i += 1 }
                if i > run { out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[run..<i])) }
                guard i < bytes.count else { break }
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

    /// A byte written as it is: printable ASCII other than `"` and backslash (and `<`, `>`, `&` when `htmlSafe`), or
    /// any byte of a multi-byte character except the lead byte of U+2028/U+2029 when `htmlSafe`.
    @inline(__always)
    private static func plain(_ b: UInt8, htmlSafe: Bool) -> Bool {
        if b >= 0x80 { return !(htmlSafe && b == 0xE2) }
        guard b >= 0x20, b != 0x7F, b != UInt8(ascii: "\""), b != UInt8(ascii: "\\") else { return false }
        return !htmlSafe || (b != UInt8(ascii: "<") && b != UInt8(ascii: ">") && b != UInt8(ascii: "&"))
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
