// The detectors redaction uses: name patterns, card numbers, Nordic personal numbers, e-mail addresses.
import Foundation

/// A `names` entry of RedactionConfig: a word or whole name, or a glob with `*`.
struct NamePattern: Sendable, Hashable {
    let pattern: String
    let isGlob: Bool

    init(_ raw: String) {
        pattern = raw.lowercased()
        isGlob = raw.contains("*")
    }

    func matches(_ name: String) -> Bool {
        let lower = name.lowercased()
        if isGlob { return NamePattern.glob(Array(pattern.utf8), Array(lower.utf8)) }
        if lower == pattern { return true }
        return NamePattern.words(name).contains(pattern)
    }

    /// `access_token` → [access, token]; `csrfToken` → [csrf, token]; `X-Auth-Token` → [x, auth, token];
    /// `data[sessionId]` → [data, session, id]. Lower-cased.
    static func words(_ name: String) -> [String] {
        var out: [String] = []
        var current = ""
        var previousLower = false
        for ch in name {
            if ch.isLetter || ch.isNumber {
                if ch.isUppercase, previousLower, !current.isEmpty {
                    out.append(current)
                    current = ""
                }
                current.append(contentsOf: ch.lowercased())
                previousLower = ch.isLowercase || ch.isNumber
            } else {
                if !current.isEmpty { out.append(current) }
                current = ""
                previousLower = false
            }
        }
        if !current.isEmpty { out.append(current) }
        return out
    }

    /// `*` matches any run (iterative, linear backtracking: no recursion on input).
    static func glob(_ p: [UInt8], _ s: [UInt8]) -> Bool {
        var pi = 0, si = 0, star = -1, mark = 0
        while si < s.count {
            if pi < p.count, p[pi] == s[si] {
                pi += 1
                si += 1
            } else if pi < p.count, p[pi] == UInt8(ascii: "*") {
                star = pi
                mark = si
                pi += 1
            } else if star >= 0 {
                pi = star + 1
                mark += 1
                si = mark
            } else {
                return false
            }
        }
        while pi < p.count, p[pi] == UInt8(ascii: "*") { pi += 1 }
        return pi == p.count
    }
}

/// A compiled NSRegularExpression used from one thread at a time (`Redactor` is a value, not shared).
struct RegexBox: @unchecked Sendable {
    /// nil only for an invalid pattern (the constants here are valid; config patterns are validated on load).
    let re: NSRegularExpression?
    init(_ pattern: String, options: NSRegularExpression.Options = []) {
        re = try? NSRegularExpression(pattern: pattern, options: options)
    }

    func matches(in text: String) -> [NSTextCheckingResult] {
        re?.matches(in: text, range: NSRange(location: 0, length: (text as NSString).length)) ?? []
    }

    /// Rebuilds `text`, letting `transform` replace each match (nil keeps it).
    func replace(in text: String, _ transform: (_ match: NSTextCheckingResult, _ ns: NSString) -> String?) -> String {
        let ns = text as NSString
        let matches = matches(in: text)
        guard !matches.isEmpty else { return text }
        let out = NSMutableString(string: "")
        var cursor = 0
        var changed = false
        for m in matches {
            guard let replacement = transform(m, ns) else { continue }
            out.append(ns.substring(with: NSRange(location: cursor, length: m.range.location - cursor)))
            out.append(replacement)
            cursor = m.range.location + m.range.length
            changed = true
        }
        guard changed else { return text }
        out.append(ns.substring(from: cursor))
        return out as String
    }
}

extension NSTextCheckingResult {
    func group(_ i: Int, in ns: NSString) -> String? {
        guard i < numberOfRanges else { return nil }
        let r = range(at: i)
        return r.location == NSNotFound ? nil : ns.substring(with: r)
    }
}

enum Detectors {
    /// Luhn (mod 10) over the digits.
    static func luhnValid(_ digits: [Int]) -> Bool {
        guard !digits.isEmpty else { return false }
        var sum = 0
        for (i, d) in digits.reversed().enumerated() {
            if i % 2 == 1 {
                let x = d * 2
                sum += x > 9 ? x - 9 : x
            } else {
                sum += d
            }
        }
        return sum % 10 == 0
    }

    static func digits(_ s: String) -> [Int] { s.compactMap { $0.wholeNumberValue }.filter { $0 >= 0 && $0 <= 9 } }

    /// A card number: 13–19 digits, single spaces or dashes between digits, Luhn-valid, not all one digit.
    static func isCardNumber(_ candidate: String) -> Bool {
        let d = digits(candidate)
        guard (13...19).contains(d.count), Set(d).count > 1 else { return false }
        return luhnValid(d)
    }

    /// Swedish personnummer / samordningsnummer: [CC]YYMMDD[-+]NNNN, month 01–12, day 01–31 (or +60),
    /// Luhn over the ten digits YYMMDDNNNN.
    static func isSwedishPersonalNumber(_ candidate: String) -> Bool {
        let d = digits(candidate)
        guard d.count == 10 || d.count == 12 else { return false }
        if d.count == 12 {
            let century = d[0] * 10 + d[1]
            guard century == 19 || century == 20 else { return false }
        }
        let ten = Array(d.suffix(10))
        let month = ten[2] * 10 + ten[3], day = ten[4] * 10 + ten[5]
        guard (1...12).contains(month), (1...31).contains(day) || (61...91).contains(day) else { return false }
        return luhnValid(ten)
    }

    /// Norwegian fødselsnummer / D-nummer: DDMMYY + 5 digits, two mod-11 check digits.
    static func isNorwegianPersonalNumber(_ candidate: String) -> Bool {
        let d = digits(candidate)
        guard d.count == 11 else { return false }
        let day = d[0] * 10 + d[1], month = d[2] * 10 + d[3]
        guard (1...31).contains(day) || (41...71).contains(day),
              (1...12).contains(month) || (41...52).contains(month) else { return false }
        func check(_ weights: [Int]) -> Int? {
            let s = zip(weights, d).reduce(0) { $0 + $1.0 * $1.1 }
            let k = 11 - s % 11
            return k == 11 ? 0 : (k == 10 ? nil : k)
        }
        guard let k1 = check([3, 7, 6, 1, 8, 9, 4, 5, 2]), k1 == d[9],
              let k2 = check([5, 4, 3, 2, 7, 6, 5, 4, 3, 2]), k2 == d[10] else { return false }
        return true
    }

    /// Finnish henkilötunnus: DDMMYY, century sign, NNN, check character (mod 31).
    static func isFinnishPersonalNumber(_ candidate: String) -> Bool {
        let chars = Array(candidate.uppercased())
        guard chars.count == 11 else { return false }
        let datePart = String(chars[0..<6]), individual = String(chars[7..<10])
        guard let n = Int(datePart + individual), datePart.allSatisfy(\.isNumber) else { return false }
        let day = Int(datePart.prefix(2)) ?? 0, month = Int(datePart.dropFirst(2).prefix(2)) ?? 0
        guard (1...31).contains(day), (1...12).contains(month) else { return false }
        let table = Array("0123456789ABCDEFHJKLMNPRSTUVWXY")
        return table[n % 31] == chars[10]
    }

    /// Danish CPR in its written form DDMMYY-NNNN with a valid day and month (no checksum since 2007).
    static func isDanishPersonalNumber(_ candidate: String) -> Bool {
        let parts = candidate.split(separator: "-")
        guard parts.count == 2, parts[0].count == 6, parts[1].count == 4 else { return false }
        let d = digits(candidate)
        guard d.count == 10 else { return false }
        let day = d[0] * 10 + d[1], month = d[2] * 10 + d[3]
        return (1...31).contains(day) && (1...12).contains(month)
    }

    static func isPersonalNumber(_ candidate: String) -> Bool {
        isSwedishPersonalNumber(candidate) || isNorwegianPersonalNumber(candidate)
            || isFinnishPersonalNumber(candidate) || isDanishPersonalNumber(candidate)
    }

    /// File extensions that look like top-level domains in `icon@2x.png`: not e-mail addresses.
    static let notMailDomains: Set<String> = ["png", "jpg", "jpeg", "gif", "svg", "webp", "avif", "ico", "css", "js",
                                              "mjs", "map", "woff", "woff2", "ttf", "otf", "eot", "html", "htm", "json"]

    // Digit runs with single space/dash separators, bounded by non-digits.
    static let cardRun = RegexBox(#"(?<![0-9])[0-9](?:[ \-]?[0-9]){12,18}(?![0-9])"#)
    // Swedish [CC]YYMMDD[-+]NNNN, Danish DDMMYY-NNNN, Norwegian 11 digits, Finnish DDMMYY[-+A-FU-Y]NNNC.
    static let personalNumberRun = RegexBox(
        #"(?<![0-9A-Za-z])(?:[0-9]{6}(?:[0-9]{2})?[\-+]?[0-9]{4}|[0-9]{6} ?[0-9]{5}|[0-9]{6}[\-+A-FU-Y][0-9]{3}[0-9A-Y])(?![0-9A-Za-z])"#)
    static let email = RegexBox(
        #"(?<![A-Za-z0-9._+\-])([A-Za-z0-9][A-Za-z0-9._+\-]{0,63})(@|%40)([A-Za-z0-9](?:[A-Za-z0-9\-]{0,62}\.)+[A-Za-z]{2,24})(?![A-Za-z0-9\-])"#)
}
