// Cheap byte tests run before the detectors' regular expressions (Redactor.redactDecoded, SecretResidue.scan).
// Each test answers "no" only when its expression cannot match the text, or when no match could be kept by the
// checks that follow the expression; so skipping an expression on "no" changes no output. One pass over the
// UTF-8 bytes of the decoded text answers all of them.
import Foundation
import PlainviewSupport
import PlainviewURL

/// What a text holds that the detectors' expressions need (see each property for the expression it gates).
struct SecretPrefilter {
    /// Digits joined by at most one other character between two digits, the longest such sequence
    /// (Detectors.cardRun needs 13, SecretResidue.digitRun 12).
    private(set) var longestJoinedDigits = 0
    /// The longest run of consecutive digits (Detectors.personalNumberRun needs 6, or the `NNN NNN NNN` form).
    private(set) var longestDigitRun = 0
    /// A run of exactly three digits followed by a space and a digit (the `NNN NNN NNN` form).
    private(set) var threeDigitsSpaceDigit = false
    /// `eyJ` (Detectors.jwt).
    private(set) var mayHoldJWT = false
    /// `AKIA` or `ASIA` (Detectors.awsAccessKey).
    private(set) var mayHoldAWSKey = false
    /// `/` followed by 16 or more of `A-Za-z0-9_-` (Detectors.pathSegment).
    private(set) var mayHoldPathToken = false
    /// `=` (Redactor.pairs).
    private(set) var hasEquals = false
    /// `:` (with a quote, Redactor.assignments).
    private(set) var hasColon = false
    /// `"` or `'` (Redactor.assignments).
    private(set) var hasQuote = false
    /// Any byte outside ASCII.
    private(set) var hasNonASCII = false
    /// A letter or mark outside ASCII (`ä`, a combining diaeresis, the Kelvin sign, `ſ`): the tests that
    /// compare letters case-insensitively then answer "maybe".
    private(set) var hasNonASCIILetter = false
    /// A space outside ASCII (no-break, thin …), which `\s` matches: the authValue test then answers "maybe".
    private(set) var hasNonASCIISpace = false
    /// The text, searched case-insensitively by `mayContain` (only when asked: most texts never are).
    private let text: String

    init(_ text: String) {
        self.text = text
        var native = text
        native.makeContiguousUTF8()
        // The bytes in place (a bridged string is made native first): the walk is over every text redacted.
        if native.utf8.withContiguousStorageIfAvailable({ note($0) }) == nil {
            Array(text.utf8).withUnsafeBufferPointer { note($0) }
        }
        guard hasNonASCII else { return }
        for scalar in text.unicodeScalars where !scalar.isASCII {
            let p = scalar.properties
            if p.isWhitespace { hasNonASCIISpace = true }
            switch p.generalCategory {
            case .nonspacingMark, .spacingMark, .enclosingMark: hasNonASCIILetter = true
            default: if p.isAlphabetic || p.changesWhenCaseFolded || p.changesWhenLowercased { hasNonASCIILetter = true }
            }
        }
    }

    /// Notes what the UTF-8 `bytes` hold (all but the non-ASCII letters and spaces).
    private mutating func note(_ bytes: UnsafeBufferPointer<UInt8>) {
        var joined = 0, run = 0
        var lastWasDigit = false, gap = false
        var afterThreeAndSpace = false
        var slashRun = -1 // token bytes after a `/`, -1 when not after one
        var tail: UInt32 = 0 // the last four bytes
        for b in bytes {
            tail = tail << 8 | UInt32(b)
            if b >= 0x80 {
                hasNonASCII = true
                slashRun = -1
                afterThreeAndSpace = false
                // A continuation byte belongs to the character its lead byte began: nothing more to note.
                guard b >= 0xC0 else { continue }
            }
            if b >= 0x30 && b <= 0x39 {
                joined = lastWasDigit || gap ? joined + 1 : 1
                run += 1
                if afterThreeAndSpace { threeDigitsSpaceDigit = true }
                afterThreeAndSpace = false
                lastWasDigit = true
                gap = false
                longestJoinedDigits = max(longestJoinedDigits, joined)
                longestDigitRun = max(longestDigitRun, run)
            } else {
                // One character (of any length) may join two digits; a second ends the sequence.
                afterThreeAndSpace = b == 0x20 && run == 3
                if lastWasDigit {
                    gap = true
                } else {
                    joined = 0
                    gap = false
                }
                lastWasDigit = false
                run = 0
            }
            if b >= 0x80 { continue }
            switch b {
            case UInt8(ascii: "="): hasEquals = true
            case UInt8(ascii: ":"): hasColon = true
            case UInt8(ascii: "\""), UInt8(ascii: "'"): hasQuote = true
            default: break
            }
            if tail & 0xFF_FFFF == 0x65_794A { mayHoldJWT = true } // eyJ
            if tail == 0x414B_4941 || tail == 0x4153_4941 { mayHoldAWSKey = true } // AKIA, ASIA
            if b == UInt8(ascii: "/") {
                slashRun = 0
            } else if slashRun >= 0 {
                if Detectors.isWordByte(b) || b == UInt8(ascii: "-") {
                    slashRun += 1
                    if slashRun >= 16 { mayHoldPathToken = true }
                } else {
                    slashRun = -1
                }
            }
        }
    }

    /// Detectors.personalNumberRun can match: six digits in a row, or a run of three then a space.
    var mayHoldPersonalNumber: Bool { longestDigitRun >= 6 || threeDigitsSpaceDigit }

    /// Lower-case ASCII words to look for in any case, with the bytes they start with (made once per list).
    struct Words {
        let words: [[UInt8]]
        let starts: [Bool]

        init(_ words: [String]) {
            self.words = words.map { Array($0.utf8) }
            var starts = [Bool](repeating: false, count: 256)
            for w in self.words { if let f = w.first { starts[Int(f)] = true } }
            self.starts = starts
        }
    }

    /// One of `words` in any case (or, with a letter or mark outside ASCII, always true: some lower-case or fold
    /// to ASCII letters, and a name may be spelled with combining marks).
    func mayContain(_ words: Words) -> Bool {
        if hasNonASCIILetter { return true }
        var native = text
        native.makeContiguousUTF8()
        return native.utf8.withContiguousStorageIfAvailable { hay in
            // One pass: at each byte that starts some word, the words starting with it.
            for i in hay.indices where words.starts[Int(SecretPrefilter.lowered(hay[i]))] {
                for w in words.words where w.count <= hay.count - i && w.first == SecretPrefilter.lowered(hay[i]) {
                    var j = 1
                    while j < w.count, SecretPrefilter.lowered(hay[i + j]) == w[j] { j += 1 }
                    if j == w.count { return true }
                }
            }
            return false
        } ?? true
    }

    /// Detectors.schemeCredential: `bearer` or `basic`, any case.
    var mayHoldSchemeCredential: Bool { mayContain(SecretPrefilter.schemeWords) }
    private static let schemeWords = Words(["bearer", "basic"])

    /// A card security code name (Detectors.cardCodeNames), any case: SecretResidue's card-code rule.
    var mayHoldCardCodeName: Bool { mayContain(SecretPrefilter.cardCodeStemWords) }
    private static let cardCodeStemWords = Words(cardCodeStems)

    /// The card code names, ASCII ones (the others hold a non-ASCII letter, answered by `hasNonASCIILetter`), without
    /// those holding another (`cvv2` holds `cvv`).
    static let cardCodeStems = Detectors.cardCodeNames.filter { name in
        ASCII.isASCII(name)
            && !Detectors.cardCodeNames.contains { $0 != name && ASCII.isASCII($0) && name.contains($0) }
    }

    /// SecretResidue.authValue can report something: at some `=` or `:`, a name before it (its whole run of
    /// name characters, after an optional quote and spaces) with a credential word (SecretResidue.isCredentialName)
    /// or over 80 characters (the expression then takes its end only), and after it (spaces, an optional quote) a
    /// run of 16 or more value characters with a letter and a digit and without `REDACTED-`.
    func mayHoldAuthValue(_ text: String) -> Bool {
        if hasNonASCIISpace { return true }
        guard hasEquals || hasColon else { return false }
        let u = Array(text.utf8)
        func isSpace(_ b: UInt8) -> Bool { b == 0x20 || (0x09...0x0D).contains(b) }
        func isQuote(_ b: UInt8) -> Bool { b == 0x22 || b == 0x27 }
        let redacted = Array("REDACTED-".utf8)
        for k in u.indices where u[k] == UInt8(ascii: "=") || u[k] == UInt8(ascii: ":") {
            var v = k + 1
            while v < u.count, isSpace(u[v]) { v += 1 }
            if v < u.count, isQuote(u[v]) { v += 1 }
            var e = v
            var letter = false, digit = false
            while e < u.count, SecretPrefilter.isValueByte(u[e]) {
                if (0x30...0x39).contains(u[e]) {
                    digit = true
                } else if PercentEncoding.isASCIIAlphanumeric(u[e]) {
                    letter = true
                }
                e += 1
            }
            guard e - v >= 16, letter, digit, !ASCII.contains(redacted, in: u, within: v..<e) else { continue }
            var n = k
            while n > 0, isSpace(u[n - 1]) { n -= 1 }
            if n > 0, isQuote(u[n - 1]) { n -= 1 }
            var s = n
            while s > 0, SecretPrefilter.isNameByte(u[s - 1]) { s -= 1 }
            guard s < n else { continue }
            if n - s > 80 || SecretResidue.isCredentialName(String(decoding: u[s..<n], as: UTF8.self)) { return true }
        }
        return false
    }

    /// `[A-Za-z0-9+/_=.~-]`: SecretResidue.authValue's value characters.
    static func isValueByte(_ b: UInt8) -> Bool {
        PercentEncoding.isASCIIAlphanumeric(b) || b == 0x2B || b == 0x2F || b == 0x5F || b == 0x3D || b == 0x2E || b == 0x7E
            || b == 0x2D
    }

    /// `[A-Za-z0-9_.\-\[\]$]`: SecretResidue.authValue's name characters.
    static func isNameByte(_ b: UInt8) -> Bool {
        PercentEncoding.isASCIIAlphanumeric(b) || b == 0x5F || b == 0x2E || b == 0x2D || b == 0x5B || b == 0x5D || b == 0x24
    }

    /// `text.contains(ascii)` as Foundation answers it, for an ASCII `ascii` without CR or LF answered from the
    /// bytes when `text` is ASCII too: there every byte is a character of its own but CR LF (one character to
    /// Swift, which a needle without CR and LF can neither match nor split). A one-byte `ascii` absent from the
    /// bytes is absent from any text, but for `K`, `;` and `` ` ``, which have a canonically equivalent character
    /// outside ASCII (the Kelvin sign, the Greek question mark, the Greek varia). Anything else is Foundation's
    /// answer.
    static func has(_ text: String, _ ascii: String) -> Bool {
        let needle = ascii.utf8
        guard !needle.isEmpty, needle.allSatisfy({ $0 < 0x80 && $0 != 0x0D && $0 != 0x0A }) else {
            return text.contains(ascii)
        }
        if needle.count == 1, let b = needle.first {
            // A native string's bytes in place; the generic walk over `utf8` otherwise.
            let present = text.utf8.withContiguousStorageIfAvailable { ASCII.contains(b, in: $0) } ?? text.utf8.contains(b)
            if !present, b != 0x4B, b != 0x3B, b != 0x60 { return false }
            return ASCII.isASCII(text) ? present : text.contains(ascii)
        }
        guard ASCII.isASCII(text) else { return text.contains(ascii) }
        var native = text
        native.makeContiguousUTF8()
        return native.utf8.withContiguousStorageIfAvailable { ASCII.contains(Array(needle), in: $0) }
            ?? ASCII.contains(Array(needle), in: Array(text.utf8))
    }

    /// `text.range(of: word, options: .caseInsensitive) != nil` as before, answered from the bytes when no
    /// ASCII spelling of `word` (lower-case ASCII letters but `s` and `k`, `-`, `<`: `<textarea`, `form-data`) is
    /// there in any case, as no non-ASCII letter case-folds to those (`ſ` folds to `s` and the Kelvin sign to `k`);
    /// and when one is there in ASCII text, where ASCII case is all the folding. Any other word is answered by
    /// Foundation alone.
    static func hasIgnoringCase(_ text: String, _ word: String) -> Bool {
        let needle = Array(word.utf8)
        guard needle.allSatisfy(answersFromBytes) else { return text.range(of: word, options: .caseInsensitive) != nil }
        var native = text
        native.makeContiguousUTF8()
        let found =
            native.utf8.withContiguousStorageIfAvailable { hay -> Bool in
                guard needle.count <= hay.count else { return false }
                for i in 0...(hay.count - needle.count) {
                    var j = 0
                    while j < needle.count {
                        let c = hay[i + j]
                        guard (c >= 0x41 && c <= 0x5A ? c | 0x20 : c) == needle[j] else { break }
                        j += 1
                    }
                    if j == needle.count { return true }
                }
                return false
            } ?? true
        guard found else { return false }
        if ASCII.isASCII(text) { return true }
        return text.range(of: word, options: .caseInsensitive) != nil
    }

    /// A byte of a word `hasIgnoringCase` may answer from the bytes: a lower-case ASCII letter that no other
    /// character case-folds to (all but `s` and `k`), `-` or `<`.
    private static func answersFromBytes(_ b: UInt8) -> Bool {
        b >= 0x61 && b <= 0x7A && b != 0x73 && b != 0x6B || b == 0x2D || b == 0x3C
    }

    /// An ASCII upper-case letter as lower-case; any other byte as it is.
    static func lowered(_ b: UInt8) -> UInt8 { b >= 0x41 && b <= 0x5A ? b | 0x20 : b }
}
