// Hand-written matchers for the detectors' regular expressions on ASCII text, the common case (URLs, headers,
// most pages). Each finds exactly what its expression finds (the same matches, groups and order, searching
// from the end of each match as NSRegularExpression does), over the text's bytes, without bridging the text to
// NSString and ICU. Text with any byte outside ASCII still goes to the expressions, whose Unicode classes
// (`\p{L}`, non-ASCII spaces) these do not model. ASCIIScannerTests checks each against its expression.
import Foundation

/// One match: the whole range and each capture group's (nil when the group took no part), as byte offsets,
/// which are UTF-16 offsets too in ASCII text.
struct ScanMatch: Equatable {
    var range: Range<Int>
    var groups: [Range<Int>?]

    /// Group `i` as NSRange (0: the whole match), `NSNotFound` when it took no part, as NSTextCheckingResult says.
    func range(at i: Int) -> NSRange {
        guard let r = i == 0 ? range : groups[i - 1] else { return NSRange(location: NSNotFound, length: 0) }
        return NSRange(location: r.lowerBound, length: r.count)
    }

    /// A regular expression's match in the same form.
    init(_ m: NSTextCheckingResult) {
        range = m.range.location..<(m.range.location + m.range.length)
        groups = (1..<m.numberOfRanges).map { i in
            let r = m.range(at: i)
            return r.location == NSNotFound ? nil : r.location..<(r.location + r.length)
        }
    }

    init(range: Range<Int>, groups: [Range<Int>?]) {
        self.range = range
        self.groups = groups
    }
}

enum ASCIIScanners {
    // MARK: Byte classes

    private static func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }
    private static func isLetter(_ b: UInt8) -> Bool { (b | 0x20) >= 0x61 && (b | 0x20) <= 0x7A }
    private static func isAlphanumeric(_ b: UInt8) -> Bool { isDigit(b) || isLetter(b) }
    /// ICU's `\s` on ASCII: TAB, LF, VT, FF, CR and space.
    static func isSpace(_ b: UInt8) -> Bool { b == 0x20 || (b >= 0x09 && b <= 0x0D) }
    private static func isQuote(_ b: UInt8) -> Bool { b == 0x22 || b == 0x27 }

    // MARK: Redactor.pairs

    /// `(?<![^?&;#\s"'(,{])([\p{L}\p{M}\p{N}_.\-\[\]]{1,80})=([^&#;?"'\s<>]+)`: `name=value`.
    static func pairs(_ c: [UInt8]) -> [ScanMatch] {
        func isName(_ b: UInt8) -> Bool {
            isAlphanumeric(b) || b == 0x5F || b == 0x2E || b == 0x2D || b == 0x5B || b == 0x5D
        }
        func isValue(_ b: UInt8) -> Bool {
            !(b == 0x26 || b == 0x23 || b == 0x3B || b == 0x3F || isQuote(b) || isSpace(b) || b == 0x3C || b == 0x3E)
        }
        func mayPrecede(_ b: UInt8) -> Bool {
            b == 0x3F || b == 0x26 || b == 0x3B || b == 0x23 || isQuote(b) || b == 0x28 || b == 0x2C || b == 0x7B || isSpace(b)
        }
        var out: [ScanMatch] = []
        var i = 0
        while i < c.count {
            guard isName(c[i]), i == 0 || mayPrecede(c[i - 1]) else {
                i += 1
                continue
            }
            // A name is the whole run of name characters (the byte before any later start is one of them).
            var j = i
            while j < c.count, isName(c[j]) { j += 1 }
            guard j - i <= 80, j + 1 < c.count, c[j] == 0x3D, isValue(c[j + 1]) else {
                i = j
                continue
            }
            var k = j + 1
            while k < c.count, isValue(c[k]) { k += 1 }
            out.append(ScanMatch(range: i..<k, groups: [i..<j, (j + 1)..<k]))
            i = k
        }
        return out
    }

    // MARK: Detectors.email

    /// `(?<![A-Za-z0-9._+\-])[A-Za-z0-9][A-Za-z0-9._+\-]{0,63}@[A-Za-z0-9](?:[A-Za-z0-9\-]{0,62}\.)+[A-Za-z]{2,24}`
    /// `(?![A-Za-z0-9\-])`.
    static func emails(_ c: [UInt8]) -> [ScanMatch] {
        func isLocal(_ b: UInt8) -> Bool { isAlphanumeric(b) || b == 0x2E || b == 0x5F || b == 0x2B || b == 0x2D }
        func isLabel(_ b: UInt8) -> Bool { isAlphanumeric(b) || b == 0x2D }
        var out: [ScanMatch] = []
        var i = 0
        search: while i < c.count {
            guard isAlphanumeric(c[i]), i == 0 || !isLocal(c[i - 1]) else {
                i += 1
                continue
            }
            var j = i + 1
            while j < c.count, j - i <= 64, isLocal(c[j]) { j += 1 }
            guard j - i <= 64, j + 1 < c.count, c[j] == 0x40, isAlphanumeric(c[j + 1]) else {
                i += 1
                continue
            }
            // The labels each end at a dot and have no other way to end: where each repetition of the group ends.
            var ends: [Int] = []
            var p = j + 2
            while true {
                var q = p
                while q < c.count, q - p <= 62, isLabel(c[q]) { q += 1 }
                guard q - p <= 62, q < c.count, c[q] == 0x2E else { break }
                ends.append(q + 1)
                p = q + 1
            }
            // The expression backtracks from the most repetitions; the top-level domain takes all the letters
            // there (fewer leave a letter next), and must not be followed by a digit or `-`.
            for e in ends.reversed() {
                var t = e
                while t < c.count, t - e < 25, isLetter(c[t]) { t += 1 }
                guard (2...24).contains(t - e), t == c.count || !isLabel(c[t]) else { continue }
                out.append(ScanMatch(range: i..<t, groups: []))
                i = t
                continue search
            }
            i += 1
        }
        return out
    }

    // MARK: Detectors.cardRun

    /// `(?<![0-9])(?<![0-9][.,])[0-9](?:[ \t\u00A0\u2007\u2009\u202F.\-+_/]?[0-9]){12,18}(?![0-9])(?![.,][0-9])`.
    static func cardRuns(_ c: [UInt8]) -> [ScanMatch] {
        func isSeparator(_ b: UInt8) -> Bool {
            b == 0x20 || b == 0x09 || b == 0x2E || b == 0x2D || b == 0x2B || b == 0x5F || b == 0x2F
        }
        func isPoint(_ b: UInt8) -> Bool { b == 0x2E || b == 0x2C }
        var out: [ScanMatch] = []
        var ends: [Int] = []
        var i = 0
        search: while i < c.count {
            guard isDigit(c[i]), i == 0 || !isDigit(c[i - 1]), i < 2 || !(isPoint(c[i - 1]) && isDigit(c[i - 2])) else {
                i += 1
                continue
            }
            // Each repetition takes a separator and a digit, or a digit: where each ends.
            ends.removeAll(keepingCapacity: true)
            var p = i + 1
            while ends.count < 18 {
                if p + 1 < c.count, isSeparator(c[p]), isDigit(c[p + 1]) {
                    p += 2
                } else if p < c.count, isDigit(c[p]) {
                    p += 1
                } else {
                    break
                }
                ends.append(p)
            }
            if ends.count >= 12 {
                for n in stride(from: ends.count, through: 12, by: -1) {
                    let q = ends[n - 1]
                    if q < c.count, isDigit(c[q]) { continue }
                    if q + 1 < c.count, isPoint(c[q]), isDigit(c[q + 1]) { continue }
                    out.append(ScanMatch(range: i..<q, groups: []))
                    i = q
                    continue search
                }
            }
            i += 1
        }
        return out
    }

    // MARK: Redactor.assignments

    /// `([\p{L}_$][\p{L}\p{M}\p{N}_$.\-]{0,80})["']?\s*[:=]\s*(["'])([^"'\n\\]{1,4096})\2`: `name = "value"`,
    /// `name: 'value'`.
    static func assignments(_ c: [UInt8]) -> [ScanMatch] {
        func isFirst(_ b: UInt8) -> Bool { isLetter(b) || b == 0x5F || b == 0x24 }
        func isRest(_ b: UInt8) -> Bool { isAlphanumeric(b) || b == 0x5F || b == 0x24 || b == 0x2E || b == 0x2D }
        func isValue(_ b: UInt8) -> Bool { !(isQuote(b) || b == 0x0A || b == 0x5C) }
        var out: [ScanMatch] = []
        var s = 0
        while s < c.count {
            guard isFirst(c[s]) else {
                s += 1
                continue
            }
            var n = s + 1
            while n < c.count, n - s <= 80, isRest(c[n]) { n += 1 }
            // A longer name leaves a name character where the quote or `:`/`=` must be; a later start may do.
            let tooLong = n < c.count && isRest(c[n])
            var p = n
            if p < c.count, isQuote(c[p]) { p += 1 }
            while p < c.count, isSpace(c[p]) { p += 1 }
            guard !tooLong, p < c.count, c[p] == 0x3A || c[p] == 0x3D else {
                s += 1
                continue
            }
            p += 1
            while p < c.count, isSpace(c[p]) { p += 1 }
            guard p < c.count, isQuote(c[p]) else {
                s += 1
                continue
            }
            let quote = p
            var e = p + 1
            while e < c.count, e - quote <= 4096, isValue(c[e]) { e += 1 }
            guard e - quote - 1 >= 1, e - quote - 1 <= 4096, e < c.count, c[e] == c[quote] else {
                s += 1
                continue
            }
            out.append(ScanMatch(range: s..<(e + 1), groups: [s..<n, quote..<(quote + 1), (quote + 1)..<e]))
            s = e + 1
        }
        return out
    }
}
