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
            escape(bytes, htmlSafe: htmlSafe, runs: { out.append(contentsOf: $0) }, byte: { out.append($0) })
        }
        out.append(UInt8(ascii: "\""))
    }

    /// The inside of the literal for `bytes`: runs that need no escape go to `runs` whole (most strings are one
    /// run), everything else to `byte` a byte at a time.
    @inline(__always)
    static func escape(
        _ bytes: UnsafeBufferPointer<UInt8>, htmlSafe: Bool, runs: (UnsafeBufferPointer<UInt8>) -> Void,
        byte out: (UInt8) -> Void
    ) {
        var i = 0
        while i < bytes.count {
            let run = i
            // Eight bytes at a time while none of them needs a look (then one at a time up to the one that does).
            while i + 8 <= bytes.count,
                !mayNeedEscape(UnsafeRawPointer(bytes.baseAddress! + i).loadUnaligned(as: UInt64.self), htmlSafe)
            {
                i += 8
            }
            while i < bytes.count, plain(bytes[i], htmlSafe: htmlSafe) { i += 1 }
            if i > run { runs(UnsafeBufferPointer(rebasing: bytes[run..<i])) }
            guard i < bytes.count else { break }
            let b = bytes[i]
            switch b {
            case UInt8(ascii: "\""): out(UInt8(ascii: "\\")); out(b)
            case UInt8(ascii: "\\"): out(b); out(b)
            case UInt8(ascii: "\n"): out(UInt8(ascii: "\\")); out(UInt8(ascii: "n"))
            case UInt8(ascii: "\r"): out(UInt8(ascii: "\\")); out(UInt8(ascii: "r"))
            case UInt8(ascii: "\t"): out(UInt8(ascii: "\\")); out(UInt8(ascii: "t"))
            case UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "&"):
                if htmlSafe { unicodeEscape(UInt32(b), out) } else { out(b) }
            case 0xE2
            where htmlSafe && i + 2 < bytes.count && bytes[i + 1] == 0x80
                && (bytes[i + 2] == 0xA8 || bytes[i + 2] == 0xA9):
                unicodeEscape(bytes[i + 2] == 0xA8 ? 0x2028 : 0x2029, out)
                i += 2
            default:
                if b < 0x20 || b == 0x7F { unicodeEscape(UInt32(b), out) } else { out(b) }
            }
            i += 1
        }
    }

    /// False when none of the eight bytes of `w` can need an escape: none below 0x20, none of `"`, backslash,
    /// DEL (and with `htmlSafe` none of `<`, `>`, `&` and the lead byte 0xE2). Exact, by the usual bit tricks for
    /// a zero byte and a byte below a bound in a word.
    @inline(__always)
    private static func mayNeedEscape(_ w: UInt64, _ htmlSafe: Bool) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
        @inline(__always) func hasZero(_ v: UInt64) -> Bool { (v &- ones) & ~v & highs != 0 }
        @inline(__always) func has(_ c: UInt8) -> Bool { hasZero(w ^ (ones &* UInt64(c))) }
        let below20 = (w &- ones &* 0x20) & ~w & highs != 0
        if below20 || has(0x22) || has(0x5C) || has(0x7F) { return true }
        return htmlSafe && (has(0x3C) || has(0x3E) || has(0x26) || has(0xE2))
    }

    /// A byte written as it is: printable ASCII other than `"` and backslash (and `<`, `>`, `&` when `htmlSafe`), or
    /// any byte of a multi-byte character except the lead byte of U+2028/U+2029 when `htmlSafe`.
    @inline(__always)
    private static func plain(_ b: UInt8, htmlSafe: Bool) -> Bool {
        if b >= 0x80 { return !(htmlSafe && b == 0xE2) }
        guard b >= 0x20, b != 0x7F, b != UInt8(ascii: "\""), b != UInt8(ascii: "\\") else { return false }
        return !htmlSafe || (b != UInt8(ascii: "<") && b != UInt8(ascii: ">") && b != UInt8(ascii: "&"))
    }

    private static func unicodeEscape(_ v: UInt32, _ out: (UInt8) -> Void) {
        let hex: StaticString = "0123456789abcdef"
        out(UInt8(ascii: "\\"))
        out(UInt8(ascii: "u"))
        for shift in stride(from: 12, through: 0, by: -4) { out(hex.utf8Start[Int((v >> UInt32(shift)) & 0xF)]) }
    }

    /// A JSON array of strings.
    public static func array(_ items: [String]) -> String {
        "[" + items.map { quote($0) }.joined(separator: ", ") + "]"
    }
}
