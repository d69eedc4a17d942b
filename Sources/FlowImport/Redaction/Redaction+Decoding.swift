// Text as a browser reads it: percent-encoding, HTML character references and JavaScript/JSON string escapes
// undone, layer after layer, with every decoded UTF-16 unit remembering the span of the original text it came
// from. Detectors run on the decoded text; what they find is replaced in the original at the mapped span, in
// whatever spelling it was written (`4111%201111…`, `a&#64;b.se`, `a\u0040b.se`).
import Foundation
import PageScan
import PlainviewURL

struct DecodedText {
    /// The original text, UTF-16.
    let original: [UInt16]
    /// The original text (the decoded text while nothing was decoded).
    private let text: String
    /// The decoded text, UTF-16, and for each unit the original span `[start, end)` it came from.
    private(set) var units: [UInt16]
    private(set) var start: [Int32]
    private(set) var end: [Int32]
    /// True when nothing was decoded (the maps are then the identity and not stored).
    private(set) var isIdentity = true

    /// At most this many layers are undone (`%2526` is two; three covers what recorders meet).
    static let maximumLayers = 3

    init(_ text: String) {
        self.text = text
        original = Array(text.utf16)
        units = original
        start = []
        end = []
        guard original.contains(where: { $0 == 0x25 || $0 == 0x26 || $0 == 0x5C }) else { return }
        for _ in 0..<DecodedText.maximumLayers {
            guard decodeOneLayer() else { break }
        }
    }

    var string: String { isIdentity ? text : String(decoding: units, as: UTF16.self) }

    /// The original span (UTF-16 offsets) a decoded span came from.
    func originalRange(_ r: NSRange) -> NSRange {
        guard !isIdentity, r.length > 0 else { return r }
        let a = Int(start[r.location]), b = Int(end[r.location + r.length - 1])
        return NSRange(location: a, length: b - a)
    }

    /// The original text of a decoded span.
    func originalText(_ r: NSRange) -> String {
        let o = originalRange(r)
        return String(decoding: original[o.location..<(o.location + o.length)], as: UTF16.self)
    }

    /// Undoes one layer; false when there was nothing to undo.
    private mutating func decodeOneLayer() -> Bool {
        let u = units
        var out: [UInt16] = []
        var outStart: [Int32] = [], outEnd: [Int32] = []
        out.reserveCapacity(u.count)
        outStart.reserveCapacity(u.count)
        outEnd.reserveCapacity(u.count)
        var changed = false
        // Where unit i of the current layer came from in the original.
        func from(_ i: Int) -> Int32 { isIdentity ? Int32(i) : start[i] }
        func to(_ i: Int) -> Int32 { isIdentity ? Int32(i + 1) : end[i] }
        func emit(_ value: [UInt16], _ a: Int, _ b: Int) {
            for v in value {
                out.append(v)
                outStart.append(from(a))
                outEnd.append(to(b - 1))
            }
        }
        var i = 0
        while i < u.count {
            let c = u[i]
            if c == 0x25, let run = percentRun(u, at: i) {
                for (value, a, b) in run { emit(value, a, b) }
                i = run.last!.2
                changed = true
            } else if c == 0x26, let e = BrowserEscapes.characterReference(in: u, at: i) {
                emit(e.value, i, i + e.length)
                i += e.length
                changed = true
            } else if c == 0x5C, let e = BrowserEscapes.javaScriptEscape(in: u, at: i) {
                emit(e.value, i, i + e.length)
                i += e.length
                changed = true
            } else {
                out.append(c)
                outStart.append(from(i))
                outEnd.append(to(i))
                i += 1
            }
        }
        guard changed else { return false }
        units = out
        start = outStart
        end = outEnd
        isIdentity = false
        return true
    }

    /// A run of `%HH` escapes at `i`, decoded as UTF-8: per decoded character, its UTF-16 units and the span of
    /// escapes it came from. A byte that is not part of valid UTF-8 stays as written (its three units).
    private func percentRun(_ u: [UInt16], at i: Int) -> [([UInt16], Int, Int)]? {
        var bytes: [UInt8] = []
        var k = i
        while k + 2 < u.count, u[k] == 0x25,
            u[k + 1] < 0x80, u[k + 2] < 0x80,
            PercentEncoding.isHex(UInt8(u[k + 1])), PercentEncoding.isHex(UInt8(u[k + 2]))
        {
            bytes.append(PercentEncoding.hexValue(UInt8(u[k + 1])) << 4 | PercentEncoding.hexValue(UInt8(u[k + 2])))
            k += 3
        }
        guard !bytes.isEmpty else { return nil }
        var out: [([UInt16], Int, Int)] = []
        var b = 0
        while b < bytes.count {
            let at = i + 3 * b
            let n = DecodedText.utf8Length(bytes, at: b)
            if n > 0, let s = String(validating: bytes[b..<(b + n)], as: UTF8.self) {
                out.append((Array(s.utf16), at, at + 3 * n))
                b += n
            } else {
                out.append((Array(u[at..<(at + 3)]), at, at + 3))
                b += 1
            }
        }
        return out
    }

    /// The length of the UTF-8 sequence starting at `b` when its continuation bytes are present, else 0.
    static func utf8Length(_ bytes: [UInt8], at b: Int) -> Int {
        let lead = bytes[b]
        let n: Int
        switch lead {
        case 0x00...0x7F: return 1
        case 0xC2...0xDF: n = 2
        case 0xE0...0xEF: n = 3
        case 0xF0...0xF4: n = 4
        default: return 0
        }
        guard b + n <= bytes.count else { return 0 }
        for k in (b + 1)..<(b + n) where bytes[k] & 0xC0 != 0x80 { return 0 }
        return n
    }
}
