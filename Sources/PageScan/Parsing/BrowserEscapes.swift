// The escapes a browser undoes inside a page, one at a time: HTML character references (named ones from
// libxml2's HTML entity table, the table PageScan's parser uses) and JavaScript string escapes (which cover
// JSON's). Used by the page scanner for script string literals and by redaction to see text as a browser does.
internal import CLibXML2

public enum BrowserEscapes {
    /// One escape as found in UTF-16 text: the UTF-16 units it stands for, and how many units it spans.
    public struct Escape: Sendable, Hashable {
        public var value: [UInt16]
        public var length: Int
    }

    /// The character a named HTML reference stands for (`nbsp` → U+00A0, `commat` → `@`), or nil.
    public static func characterNamed(_ name: String) -> Unicode.Scalar? {
        guard !name.isEmpty, name.utf8.count <= 32 else { return nil }
        if let extra = namesAfterHTML4[name] { return extra }
        guard let desc = name.withCString({ htmlEntityLookup(UnsafeRawPointer($0).assumingMemoryBound(to: xmlChar.self)) })
        else { return nil }
        return Unicode.Scalar(desc.pointee.value)
    }

    /// HTML5 names for characters that matter in secrets, which libxml2's HTML 4 table lacks.
    private static let namesAfterHTML4: [String: Unicode.Scalar] = [
        "commat": "@", "period": ".", "hyphen": "-", "dash": "-", "colon": ":", "semi": ";", "equals": "=",
        "plus": "+", "sol": "/", "bsol": "\\", "num": "#", "percnt": "%", "lowbar": "_", "quest": "?",
        "excl": "!", "comma": ",", "lpar": "(", "rpar": ")", "apos": "'", "Tab": "\t", "NewLine": "\n",
        "NonBreakingSpace": "\u{A0}",
    ]

    /// An HTML character reference at `i` (which holds `&`): `&#64;`, `&#x40;`, `&nbsp;`. Numeric references
    /// may omit the `;` as browsers allow; named ones need it.
    public static func characterReference(in u: [UInt16], at i: Int) -> Escape? {
        guard i + 2 < u.count, u[i] == 0x26 else { return nil }
        var k = i + 1
        if u[k] == 0x23 { // #
            k += 1
            let hexadecimal = k < u.count && (u[k] == 0x78 || u[k] == 0x58)
            if hexadecimal { k += 1 }
            var v: UInt32 = 0
            let digitsStart = k
            while k < u.count, k - digitsStart < 8, let d = digit(u[k], hexadecimal: hexadecimal) {
                v = v * (hexadecimal ? 16 : 10) + d
                k += 1
            }
            guard k > digitsStart else { return nil }
            if k < u.count, u[k] == 0x3B { k += 1 }
            // As the HTML standard: 0, surrogates and out-of-range values become U+FFFD.
            let scalar = Unicode.Scalar(v).flatMap { v == 0 ? nil : $0 } ?? "\u{FFFD}"
            return Escape(value: Array(String(scalar).utf16), length: k - i)
        }
        var name = ""
        while k < u.count, k - i <= 33, let s = Unicode.Scalar(u[k]), s.isASCII,
            s.properties.isAlphabetic || ("0"..."9").contains(s)
        {
            name.unicodeScalars.append(s)
            k += 1
        }
        guard k < u.count, u[k] == 0x3B, let scalar = characterNamed(name) else { return nil }
        return Escape(value: Array(String(scalar).utf16), length: k + 1 - i)
    }

    /// A JavaScript string escape at `i` (which holds `\`): `\xHH`, `\uHHHH` (one UTF-16 unit, so surrogate
    /// pairs combine), `\u{…}`, `\n` `\t` `\r` `\b` `\f` `\v` `\0`, a line continuation (no value), and `\` before
    /// any other character (that character). JSON's escapes are a subset.
    public static func javaScriptEscape(in u: [UInt16], at i: Int) -> Escape? {
        guard i + 1 < u.count, u[i] == 0x5C else { return nil }
        let e = u[i + 1]
        func hex(_ from: Int, _ count: Int) -> UInt32? {
            guard from + count <= u.count else { return nil }
            var v: UInt32 = 0
            for k in from..<(from + count) {
                guard let d = digit(u[k], hexadecimal: true) else { return nil }
                v = v * 16 + d
            }
            return v
        }
        func scalarUnits(_ v: UInt32) -> [UInt16] {
            Array(String(Unicode.Scalar(v) ?? "\u{FFFD}").utf16)
        }
        switch e {
        case 0x6E: return Escape(value: [0x0A], length: 2)
        case 0x74: return Escape(value: [0x09], length: 2)
        case 0x72: return Escape(value: [0x0D], length: 2)
        case 0x62: return Escape(value: [0x08], length: 2)
        case 0x66: return Escape(value: [0x0C], length: 2)
        case 0x76: return Escape(value: [0x0B], length: 2)
        case 0x30 where !(i + 2 < u.count && (0x30...0x39).contains(u[i + 2])): return Escape(value: [0], length: 2)
        case 0x0A, 0x2028, 0x2029: return Escape(value: [], length: 2)
        case 0x0D: return Escape(value: [], length: i + 2 < u.count && u[i + 2] == 0x0A ? 3 : 2)
        case 0x78: // x
            if let v = hex(i + 2, 2) { return Escape(value: scalarUnits(v), length: 4) }
            return Escape(value: [0x78], length: 2)
        case 0x75: // u
            if i + 2 < u.count, u[i + 2] == 0x7B {
                var close = i + 3
                while close < u.count, close - i <= 10, u[close] != 0x7D { close += 1 }
                if close < u.count, u[close] == 0x7D, close > i + 3, let v = hex(i + 3, close - i - 3), v <= 0x10FFFF {
                    return Escape(value: scalarUnits(v), length: close + 1 - i)
                }
            } else if let v = hex(i + 2, 4) {
                return Escape(value: [UInt16(v)], length: 6)
            }
            return Escape(value: [0x75], length: 2)
        default:
            return Escape(value: [e], length: 2)
        }
    }

    /// `s` with its HTML character references decoded.
    public static func decodeCharacterReferences(_ s: String) -> String {
        guard contains(0x26, s) else { return s }
        return decodeAll(s, javaScript: false)
    }

    /// `s` with its JavaScript string escapes decoded.
    public static func decodeJavaScriptEscapes(_ s: String) -> String {
        guard contains(0x5C, s) else { return s }
        return decodeAll(s, javaScript: true)
    }

    /// True when `s` holds the ASCII byte `b` (a scan of its UTF-8 storage where it has one).
    private static func contains(_ b: UInt8, _ s: String) -> Bool {
        s.utf8.withContiguousStorageIfAvailable { $0.contains(b) } ?? s.utf8.contains(b)
    }

    private static func decodeAll(_ s: String, javaScript: Bool) -> String {
        let u = Array(s.utf16)
        var out: [UInt16] = []
        out.reserveCapacity(u.count)
        var i = 0
        while i < u.count {
            if let e = javaScript ? javaScriptEscape(in: u, at: i) : characterReference(in: u, at: i) {
                out.append(contentsOf: e.value)
                i += e.length
            } else {
                out.append(u[i])
                i += 1
            }
        }
        return String(decoding: out, as: UTF16.self)
    }

    private static func digit(_ c: UInt16, hexadecimal: Bool) -> UInt32? {
        switch c {
        case 0x30...0x39: return UInt32(c - 0x30)
        case 0x41...0x46 where hexadecimal: return UInt32(c - 0x41 + 10)
        case 0x61...0x66 where hexadecimal: return UInt32(c - 0x61 + 10)
        default: return nil
        }
    }
}
