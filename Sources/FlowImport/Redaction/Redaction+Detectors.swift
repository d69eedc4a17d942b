// The detectors redaction uses: name patterns, card numbers, Nordic personal numbers, e-mail addresses.
import Foundation
import PlainviewSupport
import PlainviewURL

/// A `names` entry of RedactionConfig: a word or whole name, or a glob with `*`.
struct NamePattern: Sendable, Hashable {
    let pattern: String
    let isGlob: Bool

    init(_ raw: String) {
        pattern = raw.lowercased()
        isGlob = raw.contains("*")
    }

    func matches(_ name: String) -> Bool {
        matches(lower: name.lowercased(), words: NamePattern.words(name))
    }

    /// With the name's lower-cased form and words computed once for all patterns.
    func matches(lower: String, words: [String]) -> Bool {
        if isGlob { return NamePattern.glob(Array(pattern.utf8), Array(lower.utf8)) }
        return lower == pattern || words.contains(pattern)
    }

    /// `access_token` → [access, token]; `csrfToken` → [csrf, token]; `X-Auth-Token` → [x, auth, token];
    /// `data[sessionId]` → [data, session, id]. Lower-cased.
    static func words(_ name: String) -> [String] {
        if ASCII.isASCII(name) { return asciiWords(name) }
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

    /// `words` of an ASCII name, from its bytes: the same rules (letters and digits make words, a capital after
    /// a small letter or digit starts one).
    private static func asciiWords(_ name: String) -> [String] {
        var out: [String] = []
        var current: [UInt8] = []
        var previousLower = false
        for b in name.utf8 {
            let upper = b >= 0x41 && b <= 0x5A, lower = b >= 0x61 && b <= 0x7A, digit = b >= 0x30 && b <= 0x39
            if upper || lower || digit {
                if upper, previousLower, !current.isEmpty {
                    out.append(String(decoding: current, as: UTF8.self))
                    current.removeAll(keepingCapacity: true)
                }
                current.append(upper ? b | 0x20 : b)
                previousLower = lower || digit
            } else {
                if !current.isEmpty { out.append(String(decoding: current, as: UTF8.self)) }
                current.removeAll(keepingCapacity: true)
                previousLower = false
            }
        }
        if !current.isEmpty { out.append(String(decoding: current, as: UTF8.self)) }
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

    static func digits(_ s: String) -> [Int] {
        // ASCII (nearly always): the digit bytes. Otherwise every character with a digit value, as written in any
        // script (`٤١١١`).
        if ASCII.isASCII(s) { return s.utf8.compactMap { $0 >= 0x30 && $0 <= 0x39 ? Int($0 - 0x30) : nil } }
        return s.compactMap { $0.wholeNumberValue }.filter { $0 >= 0 && $0 <= 9 }
    }

    /// A card number: 13–19 digits, Luhn-valid, not all one digit; written whole or in groups of 2–6 digits
    /// with one kind of separator (space, TAB, no-break or thin space, `.`, `-`), as `4111 1111 1111 1111` or
    /// `3782-822463-10005`. With `+` (a space in a GET form), `_` or `/`, which also join dates, sums and paths,
    /// every group but the last has 4–6 digits (`5200+1076+6513+0878`, `3782/822463/10005`).
    static func isCardNumber(_ candidate: String) -> Bool {
        // ASCII (nearly always) byte by byte, without Character properties. A CR before an LF is one Character
        // (one separator to the general test, two bytes here), so such text takes the general test.
        if ASCII.isASCII(candidate), !candidate.utf8.contains(0x0D) { return isCardNumber(ascii: Array(candidate.utf8)) }
        return isCardNumber(characters: candidate)
    }

    /// `isCardNumber` on ASCII bytes without a CR: the same test as `isCardNumber(characters:)`, whose groups are
    /// the digit runs and whose separators are the other characters (one byte each).
    static func isCardNumber(ascii b: [UInt8]) -> Bool {
        var d: [Int] = []
        d.reserveCapacity(b.count)
        var groups: [Range<Int>] = []
        var separator: UInt8?
        var oneSeparator = true
        var start: Int?
        for (i, c) in b.enumerated() {
            if c >= 0x30, c <= 0x39 {
                d.append(Int(c - 0x30))
                if start == nil { start = i }
            } else {
                if let s = start { groups.append(s..<i) }
                start = nil
                if separator == nil { separator = c } else if separator != c { oneSeparator = false }
            }
        }
        if let s = start { groups.append(s..<b.count) }
        guard (13...19).contains(d.count), d.contains(where: { $0 != d[0] }) else { return false }
        if groups.count > 1, let separator, let last = groups.last {
            // A one-digit group passes when it equals the last group (as the general test compares them).
            guard oneSeparator,
                groups.allSatisfy({
                    (2...6).contains($0.count) || $0.count == 1 && last.count == 1 && b[$0.lowerBound] == b[last.lowerBound]
                })
            else { return false }
            if weakCardSeparators.contains(Character(Unicode.Scalar(separator))) {
                guard groups.dropLast().allSatisfy({ (4...6).contains($0.count) }) else { return false }
            }
        }
        return luhnValid(d)
    }

    /// `isCardNumber` on any text, by its Characters (digits as written in any script count).
    static func isCardNumber(characters candidate: String) -> Bool {
        let d = digits(candidate)
        guard (13...19).contains(d.count), Set(d).count > 1 else { return false }
        let groups = candidate.split { !$0.isASCII || !$0.isNumber }
        if groups.count > 1 {
            let separators = Set(candidate.filter { !($0.isASCII && $0.isNumber) })
            guard separators.count == 1, groups.allSatisfy({ (2...6).contains($0.count) || $0.count == 1 && $0 == groups.last })
            else { return false }
            if let s = separators.first, weakCardSeparators.contains(s) {
                guard groups.dropLast().allSatisfy({ (4...6).contains($0.count) }) else { return false }
            }
        }
        return luhnValid(d)
    }

    /// Card-group separators that also join other numbers (dates, sums, paths): stricter groups (isCardNumber).
    static let weakCardSeparators: Set<Character> = ["+", "_", "/"]

    /// Names of a card's security code (CVV/CVC) in the languages the seeds' checkouts use: redacted by name
    /// (RedactionConfig.defaultNames) and, when a 3–4 digit value is left under one, flagged by SecretResidue.
    static let cardCodeNames = [
        "cvv", "cvc", "cvv2", "cvc2", "csc", "cvn", "säkerhetskod", "kontrollsiffror", "kontrollsiffra", "prüfziffer",
        "pruefziffer",
    ]

    /// True when `name` (or one of its words) is a card security code name.
    static func isCardCodeName(_ name: String) -> Bool {
        let lower = name.lowercased(), words = NamePattern.words(name)
        return cardCodeNames.contains { lower == $0 || words.contains($0) }
    }

    /// A path segment that is an identifier, not a word: a UUID, 16+ hex digits with letters and digits, or
    /// 16+ base64url characters with upper- and lower-case letters and digits that look random
    /// (SecretResidue.looksRandom), not words joined by `-` or `_`. Slugs (`blue-shirt-xl-2024`), file names
    /// (`plainview-test-86C4…`) and order numbers (`ORD2026112000042`) are not.
    static func isPathToken(_ segment: String) -> Bool {
        let u = Array(segment.utf8)
        guard u.count >= 16 else { return false }
        let isHex = u.allSatisfy { PercentEncoding.isHex($0) }
        let hasDigit = u.contains { (0x30...0x39).contains($0) }
        let hasLetter = u.contains { PercentEncoding.isASCIIAlphanumeric($0) && !(0x30...0x39).contains($0) }
        if isHex { return hasDigit && hasLetter }
        if u.count == 36,
            u.enumerated().allSatisfy({
                [8, 13, 18, 23].contains($0.offset) ? $0.element == 0x2D : PercentEncoding.isHex($0.element)
            })
        {
            return true
        }
        // Words joined by `-` or `_` (`plainview-test-…`, `order_Summary2024`) make a name, not a token.
        let words = segment.split { $0 == "-" || $0 == "_" }
        if words.count > 1, words.contains(where: { $0.count >= 4 && $0.allSatisfy { $0.isASCII && $0.isLowercase } }) {
            return false
        }
        let hasLower = u.contains { (0x61...0x7A).contains($0) }, hasUpper = u.contains { (0x41...0x5A).contains($0) }
        return hasDigit && hasLower && hasUpper && SecretResidue.looksRandom(segment)
    }

    /// True when the `pathSegment` match at `r` in `ns` stands in a URL's path: the text it belongs to (back to a
    /// space, quote, bracket, `=`, `&` or `?`) starts with `/` or a scheme's `://` and holds no `+` (base64 data).
    static func isInURLPath(_ ns: NSString, _ r: NSRange) -> Bool {
        var i = r.location
        let stops: Set<UInt16> = [0x20, 0x09, 0x0A, 0x0D, 0x22, 0x27, 0x3C, 0x3E, 0x28, 0x29, 0x2C, 0x60, 0x3D, 0x26, 0x3F, 0x5B]
        while i > 0, !stops.contains(ns.character(at: i - 1)) {
            i -= 1
            if ns.character(at: i) == 0x2B { return false }
        }
        let prefix = ns.substring(with: NSRange(location: i, length: r.location - i))
        return prefix.hasPrefix("/")
            || urlScheme.re?.firstMatch(in: prefix, range: NSRange(location: 0, length: (prefix as NSString).length)) != nil
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
            (1...12).contains(month) || (41...52).contains(month)
        else { return false }
        func check(_ weights: [Int]) -> Int? {
            let s = zip(weights, d).reduce(0) { $0 + $1.0 * $1.1 }
            let k = 11 - s % 11
            return k == 11 ? 0 : (k == 10 ? nil : k)
        }
        guard let k1 = check([3, 7, 6, 1, 8, 9, 4, 5, 2]), k1 == d[9],
            let k2 = check([5, 4, 3, 2, 7, 6, 5, 4, 3, 2]), k2 == d[10]
        else { return false }
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
        let c = withoutLetterPrefix(candidate)
        return isSwedishPersonalNumber(c) || isNorwegianPersonalNumber(c) || isFinnishPersonalNumber(c)
            || isDanishPersonalNumber(c)
    }

    /// Swedish organisationsnummer NNNNNN-NNNN (third digit ≥ 2, Luhn), Finnish Y-tunnus NNNNNNN-N (mod 11),
    /// Norwegian organisasjonsnummer `NNN NNN NNN` (mod 11, starts 8 or 9), Danish CVR `DK NNNNNNNN` (mod 11).
    /// Only these written forms: a bare run of 8–10 digits is too often something else.
    static func isOrganisationNumber(_ candidate: String) -> Bool {
        let d = digits(candidate)
        let upper = candidate.uppercased()
        func mod11(_ weights: [Int]) -> Int { zip(weights, d).reduce(0) { $0 + $1.0 * $1.1 } % 11 }
        if d.count == 10, candidate.contains("-"), !upper.contains("DK") {
            return d[2] >= 2 && luhnValid(d)
        }
        if d.count == 8, candidate.contains("-"), upper.first?.isNumber == true {
            let r = mod11([7, 9, 10, 5, 8, 4, 2])
            return r != 1 && (r == 0 ? 0 : 11 - r) == d[7]
        }
        if d.count == 9, candidate.filter({ $0 == " " }).count == 2 {
            guard d[0] == 8 || d[0] == 9 else { return false }
            let r = mod11([3, 2, 7, 6, 5, 4, 3, 2])
            return r != 1 && (r == 0 ? 0 : 11 - r) == d[8]
        }
        if d.count == 8, upper.hasPrefix("DK") {
            return mod11([2, 7, 6, 5, 4, 3, 2, 1]) == 0
        }
        return false
    }

    /// `SE198001011234` → `198001011234`: letters a form or a system put before the number.
    static func withoutLetterPrefix(_ s: String) -> String {
        guard let first = s.first, first.isLetter else { return s }
        return String(s.drop { $0.isLetter || $0 == " " || $0 == "\u{A0}" })
    }

    /// The identity of a personal or organisation number: its digits and a Finnish check character, without
    /// separators or prefixes (so `800101-1234`, `800101 1234` and `8001011234` are one secret).
    static func digitsAndCheck(_ s: String) -> String {
        String(withoutLetterPrefix(s).filter { $0.isASCII && ($0.isNumber || $0.isLetter) }).uppercased()
    }

    /// True when `u[a..<b]` is ASCII digits standing as a JSON or script number: after `:` `[` `,` `=` `(`
    /// and before `,` `}` `]` `)` `;` or the end (spaces between allowed).
    static func isBareNumber(_ u: [UInt16], _ a: Int, _ b: Int) -> Bool {
        guard a < b, u[a..<b].allSatisfy({ (0x30...0x39).contains($0) }) else { return false }
        var i = a - 1
        while i >= 0, u[i] == 0x20 || u[i] == 0x09 || u[i] == 0x0A || u[i] == 0x0D { i -= 1 }
        guard i >= 0, [0x3A, 0x5B, 0x2C, 0x3D, 0x28].contains(u[i]) else { return false }
        var j = b
        while j < u.count, u[j] == 0x20 || u[j] == 0x09 || u[j] == 0x0A || u[j] == 0x0D { j += 1 }
        return j == u.count || [0x2C, 0x7D, 0x5D, 0x29, 0x3B].contains(u[j])
    }

    /// A letter, digit or `_`: bytes a token continues with.
    static func isWordByte(_ b: UInt8) -> Bool {
        PercentEncoding.isASCIIAlphanumeric(b) || b == UInt8(ascii: "_")
    }

    /// A placeholder this redactor writes (`REDACTED-CARD-2`, `redacted3@example.invalid`, `-990000004`,
    /// `00000000-0000-4000-8000-000000000003`).
    static func isPlaceholder(_ s: String) -> Bool {
        s.hasPrefix("REDACTED-") || (s.hasPrefix("redacted") && s.hasSuffix("@example.invalid"))
            || (s.utf8.count == 10 && s.hasPrefix("-99") && s.dropFirst().allSatisfy { $0.isASCII && $0.isNumber })
            || (s.utf8.count == 36 && s.hasPrefix(uuidPlaceholderPrefix))
    }

    /// The start of the placeholder of a secret written as a UUID: the placeholder is a UUID too, because protocols
    /// check the shape (BankID's `autostarttoken` must be one, or the app refuses the launch).
    static let uuidPlaceholderPrefix = "00000000-0000-4000-8000-"

    /// 8-4-4-4-12 hex digits (RFC 9562's text form), either case.
    static func isUUID(_ s: String) -> Bool {
        guard s.utf8.count == 36 else { return false }
        let b = Array(s.utf8)
        for (i, c) in b.enumerated() {
            if [8, 13, 18, 23].contains(i) {
                guard c == UInt8(ascii: "-") else { return false }
            } else {
                guard (0x30...0x39).contains(c) || (0x41...0x46).contains(c) || (0x61...0x66).contains(c) else { return false }
            }
        }
        return true
    }

    /// A cheap test before decoding: could the text hold anything the decoded-text detectors find?
    static func mayHoldSecret(_ s: String) -> Bool {
        var digitsSeen = 0
        var previous: (UInt8, UInt8) = (0, 0)
        for b in s.utf8 {
            defer { previous = (previous.1, b) }
            switch b {
            case UInt8(ascii: "="), UInt8(ascii: "@"), UInt8(ascii: "%"), UInt8(ascii: "&"), UInt8(ascii: "\\"),
                UInt8(ascii: ":"), UInt8(ascii: "/"):
                return true
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                digitsSeen += 1
                if digitsSeen >= 8 { return true }
            case UInt8(ascii: "J") where previous == (UInt8(ascii: "e"), UInt8(ascii: "y")):
                return true
            default:
                continue
            }
        }
        return false
    }

    /// File extensions that look like top-level domains in `icon@2x.png`: not e-mail addresses.
    static let notMailDomains: Set<String> = [
        "png", "jpg", "jpeg", "gif", "svg", "webp", "avif", "ico", "css", "js",
        "mjs", "map", "woff", "woff2", "ttf", "otf", "eot", "html", "htm", "json",
    ]

    // On decoded text. Digit runs with single separators (space, no-break spaces, `.`, `-`), not inside a
    // decimal number.
    static let cardRun = RegexBox(
        #"(?<![0-9])(?<![0-9][.,])[0-9](?:[ \t\u00A0\u2007\u2009\u202F.\-+_/]?[0-9]){12,18}(?![0-9])(?![.,][0-9])"#)
    // Swedish [CC]YYMMDD[-+ ]NNNN, Danish DDMMYY-NNNN, Norwegian DDMMYY[ ]NNNNN, Finnish DDMMYY[-+A-FU-Y]NNNC,
    // each possibly after letters (`SE`, `ID:`); organisation numbers NNNNNN-NNNN, NNNNNNN-N, NNN NNN NNN,
    // DK NNNNNNNN.
    static let personalNumberRun = RegexBox(
        #"(?<![0-9])(?:(?:19|20)?[0-9]{6}[\-+ \u00A0]?[0-9]{4}|[0-9]{6}[ \u00A0]?[0-9]{5}|[0-9]{6}[\-+A-FU-Y][0-9]{3}[0-9A-Y]|[0-9]{7}-[0-9]|[89][0-9]{2} [0-9]{3} [0-9]{3}|(?<![A-Za-z])(?i:DK)[ \u00A0]?[0-9]{8})(?![0-9])"#
    )
    static let email = RegexBox(
        #"(?<![A-Za-z0-9._+\-])[A-Za-z0-9][A-Za-z0-9._+\-]{0,63}@[A-Za-z0-9](?:[A-Za-z0-9\-]{0,62}\.)+[A-Za-z]{2,24}(?![A-Za-z0-9\-])"#
    )
    // JWE header.encryptedKey.iv.ciphertext.tag (the key empty for `dir`), or JWS header.payload.signature;
    // base64url, the header (and a JWS payload) a JSON object starting `{"` (`eyJ`).
    static let jwt = RegexBox(
        #"(?<![A-Za-z0-9_\-])eyJ[A-Za-z0-9_\-]{4,}\.(?:[A-Za-z0-9_\-]*(?:\.[A-Za-z0-9_\-]{8,}){3}|eyJ[A-Za-z0-9_\-]{2,}\.[A-Za-z0-9_\-]*)"#
    )
    // A path segment of 16+ token characters, ended by `/`, a query, fragment, matrix parameter or the text
    // around a URL (isPathToken and isInURLPath decide).
    static let pathSegment = RegexBox(#"(?<=/)[A-Za-z0-9_\-]{16,256}(?=[/?#;"'\s<>)\]&,]|$)"#)
    static let urlScheme = RegexBox(#"^[A-Za-z][A-Za-z0-9+.\-]*://"#)
    // An AWS access key id (long-term `AKIA…`, temporary `ASIA…`).
    static let awsAccessKey = RegexBox(#"(?<![A-Za-z0-9])(?:AKIA|ASIA)[A-Z0-9]{16}(?![A-Za-z0-9])"#)
    // `Bearer …`, `Basic …` written anywhere (an inline script building an Authorization header).
    static let schemeCredential = RegexBox(
        #"(?i:\b(?:bearer|basic)\s+)(?=[A-Za-z0-9\-._~+/]*[0-9+/=_.\-])([A-Za-z0-9\-._~+/]{12,}=*)"#)
}
