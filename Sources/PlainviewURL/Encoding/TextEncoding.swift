// A page's character encoding, for what a browser encodes in it: an HTML form's submission is encoded in the
// document's encoding, so `ø` from a windows-1252 page is `%F8`, not UTF-8's `%C3%B8`.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A character encoding, named as the Encoding Standard names it (`utf-8`, `windows-1252`, `shift_jis` …).
/// UTF-8 and windows-1252 (which the Encoding Standard uses for every Latin-1 and ASCII label) are built in;
/// any other encoding is converted by the C library's iconv.
public struct TextEncoding: Sendable, Hashable, CustomStringConvertible {
    /// The encoding's name, lower case.
    public let name: String

    public static let utf8 = TextEncoding(name: "utf-8")
    public static let windows1252 = TextEncoding(name: "windows-1252")

    private init(name: String) { self.name = name }

    /// The encoding a charset label names (`charset=` of a Content-Type, `<meta charset>`), or nil when the
    /// label names none this machine can encode. UTF-16 labels give UTF-8: an HTML form never submits UTF-16.
    public init?(label: String) {
        let l = label.trimmingASCIIWhitespace().lowercased()
        guard !l.isEmpty, l.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else { return nil }
        if Self.utf8Labels.contains(l) || l.hasPrefix("utf-16") || l == "unicodefffe" || l == "unicode" || l == "ucs-2" {
            self = .utf8
        } else if Self.windows1252Labels.contains(l) {
            self = .windows1252
        } else {
            let cd = iconv_open(l, "UTF-8")
            guard cd != iconv_t(bitPattern: -1) else { return nil }
            iconv_close(cd)
            self.init(name: l)
        }
    }

    public var description: String { name }

    /// The bytes of `scalar` in this encoding, nil when it cannot represent it.
    public func encode(_ scalar: Unicode.Scalar) -> [UInt8]? {
        switch name {
        case "utf-8":
            return Array(String(scalar).utf8)
        case "windows-1252":
            let v = scalar.value
            if v < 0x80 || (0xA0...0xFF).contains(v) { return [UInt8(v)] }
            guard let i = Self.windows1252High.firstIndex(of: UInt16(truncatingIfNeeded: v)), v <= 0xFFFF else { return nil }
            return [UInt8(0x80 + i)]
        default:
            return iconvEncode(scalar)
        }
    }

    private func iconvEncode(_ scalar: Unicode.Scalar) -> [UInt8]? {
        let cd = iconv_open(name, "UTF-8")
        guard cd != iconv_t(bitPattern: -1) else { return nil }
        defer { iconv_close(cd) }
        var input = Array(String(scalar).utf8).map { CChar(bitPattern: $0) }
        var output = [CChar](repeating: 0, count: 16)
        let written: Int? = input.withUnsafeMutableBufferPointer { inBuf in
            output.withUnsafeMutableBufferPointer { outBuf in
                var inPtr: UnsafeMutablePointer<CChar>? = inBuf.baseAddress
                var outPtr: UnsafeMutablePointer<CChar>? = outBuf.baseAddress
                var inLeft = inBuf.count, outLeft = outBuf.count
                guard iconv(cd, &inPtr, &inLeft, &outPtr, &outLeft) != -1, inLeft == 0 else { return nil }
                // Stateful encodings (ISO-2022-JP) return to their initial state.
                guard iconv(cd, nil, nil, &outPtr, &outLeft) != -1 else { return nil }
                return outBuf.count - outLeft
            }
        }
        guard let written else { return nil }
        return output[..<written].map { UInt8(bitPattern: $0) }
    }

    /// The Encoding Standard's labels of UTF-8.
    private static let utf8Labels: Set<String> = [
        "utf-8", "utf8", "unicode-1-1-utf-8", "unicode11utf8", "unicode20utf8",
        "x-unicode20utf8",
    ]
    /// The Encoding Standard's labels of windows-1252 (Latin-1 and ASCII labels included: browsers decode
    /// and encode them all as windows-1252, with € at 0x80).
    private static let windows1252Labels: Set<String> = [
        "windows-1252", "ansi_x3.4-1968", "ascii", "cp1252", "cp819", "csisolatin1", "ibm819", "iso-8859-1",
        "iso-ir-100", "iso8859-1", "iso88591", "iso_8859-1", "iso_8859-1:1987", "l1", "latin1", "us-ascii", "x-cp1252",
    ]
    /// windows-1252 bytes 0x80…0x9F: the code point each stands for.
    private static let windows1252High: [UInt16] = [
        0x20AC, 0x0081, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x008D, 0x017D,
        0x008F,
        0x0090, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x009D, 0x017E,
        0x0178,
    ]
}

extension StringProtocol {
    /// Trims ASCII whitespace (space, tab, LF, FF, CR) from both ends, as the HTML and URL standards do.
    public func trimmingASCIIWhitespace() -> String {
        let ws: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0C || $0 == 0x0D }
        let u = Array(utf8)
        var a = 0, b = u.count
        while a < b, ws(u[a]) { a += 1 }
        while b > a, ws(u[b - 1]) { b -= 1 }
        return String(decoding: u[a..<b], as: UTF8.self)
    }
}
