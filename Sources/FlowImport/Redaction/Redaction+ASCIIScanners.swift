// Hand-written matchers for the detectors' regular expressions on ASCII text, the common case (URLs, headers,
// most pages). Each finds exactly what its expression finds (the same matches, groups and order, searching
// from the end of each match as NSRegularExpression does), over the text's bytes, without bridging the text to
// NSString and ICU. Text with any byte outside ASCII still goes to the expressions, whose Unicode classes
// (`\p{L}`, non-ASCII spaces) these do not model. ASCIIScannerTests checks each against its expression.
import Foundation
import PlainviewURL

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
    private static func isAlphanumeric(_ b: UInt8) -> Bool { PercentEncoding.isASCIIAlphanumeric(b) }
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

    // MARK: Detectors.personalNumberRun

    /// `(?<![0-9])(?:(?:19|20)?[0-9]{6}[\-+ \u00A0]?[0-9]{4}|[0-9]{6}[ \u00A0]?[0-9]{5}|[0-9]{6}[\-+A-FU-Y][0-9]{3}[0-9A-Y]`
    /// `|[0-9]{7}-[0-9]|[89][0-9]{2} [0-9]{3} [0-9]{3}|(?<![A-Za-z])(?i:DK)[ \u00A0]?[0-9]{8})(?![0-9])`: the
    /// alternatives tried in order at each place, each with its optional parts taken first.
    static func personalNumbers(_ c: [UInt8]) -> [ScanMatch] {
        func digits(_ at: Int, _ n: Int) -> Bool {
            guard at >= 0, at + n <= c.count else { return false }
            return c[at..<(at + n)].allSatisfy(isDigit)
        }
        func byte(_ at: Int, is test: (UInt8) -> Bool) -> Bool { at < c.count && test(c[at]) }
        /// The end, when no digit follows it.
        func ending(_ e: Int) -> Int? { e < c.count && isDigit(c[e]) ? nil : e }
        func swedish(_ i: Int) -> Int? {
            for century in [true, false] {
                if century, !(i + 1 < c.count && (c[i] == 0x31 && c[i + 1] == 0x39 || c[i] == 0x32 && c[i + 1] == 0x30)) {
                    continue
                }
                let p = i + (century ? 2 : 0)
                guard digits(p, 6) else { continue }
                for separator in [true, false] {
                    if separator, !byte(p + 6, is: { $0 == 0x2D || $0 == 0x2B || $0 == 0x20 }) { continue }
                    let r = p + 6 + (separator ? 1 : 0)
                    if digits(r, 4), let e = ending(r + 4) { return e }
                }
            }
            return nil
        }
        func norwegian(_ i: Int) -> Int? {
            guard digits(i, 6) else { return nil }
            for space in [true, false] {
                if space, !byte(i + 6, is: { $0 == 0x20 }) { continue }
                let r = i + 6 + (space ? 1 : 0)
                if digits(r, 5), let e = ending(r + 5) { return e }
            }
            return nil
        }
        func finnish(_ i: Int) -> Int? {
            func isSign(_ b: UInt8) -> Bool {
                b == 0x2D || b == 0x2B || (b >= 0x41 && b <= 0x46) || (b >= 0x55 && b <= 0x59)
            }
            guard digits(i, 6), byte(i + 6, is: isSign), digits(i + 7, 3),
                byte(i + 10, is: { isDigit($0) || ($0 >= 0x41 && $0 <= 0x59) })
            else { return nil }
            return ending(i + 11)
        }
        func finnishCompany(_ i: Int) -> Int? {
            guard digits(i, 7), byte(i + 7, is: { $0 == 0x2D }), digits(i + 8, 1) else { return nil }
            return ending(i + 9)
        }
        func norwegianCompany(_ i: Int) -> Int? {
            guard byte(i, is: { $0 == 0x38 || $0 == 0x39 }), digits(i + 1, 2), byte(i + 3, is: { $0 == 0x20 }), digits(i + 4, 3),
                byte(i + 7, is: { $0 == 0x20 }), digits(i + 8, 3)
            else { return nil }
            return ending(i + 11)
        }
        func danishCompany(_ i: Int) -> Int? {
            guard i == 0 || !isLetter(c[i - 1]), i + 1 < c.count, c[i] | 0x20 == 0x64, c[i + 1] | 0x20 == 0x6B else { return nil }
            for space in [true, false] {
                if space, !byte(i + 2, is: { $0 == 0x20 }) { continue }
                let r = i + 2 + (space ? 1 : 0)
                if digits(r, 8), let e = ending(r + 8) { return e }
            }
            return nil
        }
        var out: [ScanMatch] = []
        var i = 0
        while i < c.count {
            guard i == 0 || !isDigit(c[i - 1]),
                let e = swedish(i) ?? norwegian(i) ?? finnish(i) ?? finnishCompany(i) ?? norwegianCompany(i)
                    ?? danishCompany(i)
            else {
                i += 1
                continue
            }
            out.append(ScanMatch(range: i..<e, groups: []))
            i = e
        }
        return out
    }

    // MARK: Redactor.tags and Redactor.attributes

    /// `<[A-Za-z][A-Za-z0-9\-]*\s[^>]{0,8192}>`: a start tag with attributes.
    static func tags(_ c: [UInt8]) -> [ScanMatch] {
        var out: [ScanMatch] = []
        var i = 0
        while i + 1 < c.count {
            guard c[i] == 0x3C, isLetter(c[i + 1]) else {
                i += 1
                continue
            }
            var n = i + 2
            while n < c.count, isAlphanumeric(c[n]) || c[n] == 0x2D { n += 1 }
            guard n < c.count, isSpace(c[n]) else {
                i += 1
                continue
            }
            var e = n + 1
            while e < c.count, e - n - 1 <= 8192, c[e] != 0x3E { e += 1 }
            guard e < c.count, c[e] == 0x3E, e - n - 1 <= 8192 else {
                i += 1
                continue
            }
            out.append(ScanMatch(range: i..<(e + 1), groups: []))
            i = e + 1
        }
        return out
    }

    /// `([A-Za-z_:][A-Za-z0-9_:.\-]*)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>"'=`]+))`: `name="value"`, `name='value'`,
    /// `name=value`.
    static func attributes(_ c: [UInt8]) -> [ScanMatch] {
        func isFirst(_ b: UInt8) -> Bool { isLetter(b) || b == 0x5F || b == 0x3A }
        func isRest(_ b: UInt8) -> Bool { isAlphanumeric(b) || b == 0x5F || b == 0x3A || b == 0x2E || b == 0x2D }
        func isBare(_ b: UInt8) -> Bool { !(isSpace(b) || b == 0x3E || isQuote(b) || b == 0x3D || b == 0x60) }
        var out: [ScanMatch] = []
        var i = 0
        search: while i < c.count {
            guard isFirst(c[i]) else {
                i += 1
                continue
            }
            var n = i + 1
            while n < c.count, isRest(c[n]) { n += 1 }
            var p = n
            while p < c.count, isSpace(c[p]) { p += 1 }
            guard p < c.count, c[p] == 0x3D else {
                i += 1
                continue
            }
            p += 1
            while p < c.count, isSpace(c[p]) { p += 1 }
            if p < c.count, isQuote(c[p]) {
                // A quoted value (the two quotes are the expression's two alternatives, in this order); no closing
                // quote leaves the bare alternative, which cannot start with a quote.
                var e = p + 1
                while e < c.count, c[e] != c[p] { e += 1 }
                guard e < c.count else {
                    i += 1
                    continue
                }
                let value: Range<Int>? = (p + 1)..<e
                let groups: [Range<Int>?] = c[p] == 0x22 ? [i..<n, value, nil, nil] : [i..<n, nil, value, nil]
                out.append(ScanMatch(range: i..<(e + 1), groups: groups))
                i = e + 1
                continue search
            }
            var e = p
            while e < c.count, isBare(c[e]) { e += 1 }
            guard e > p else {
                i += 1
                continue
            }
            out.append(ScanMatch(range: i..<e, groups: [i..<n, nil, nil, p..<e]))
            i = e
        }
        return out
    }
}
