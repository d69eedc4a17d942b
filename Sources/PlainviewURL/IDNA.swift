// Domain to ASCII: the WHATWG URL "domain to ASCII" over a pragmatic subset of UTS #46
// (non-transitional, CheckHyphens=false, VerifyDnsLength=false, CheckBidi/CheckJoiners approximated).
//
// What the subset does:
//   * ASCII input without `xn--` labels is only lower-cased (the URL Standard's fast path); ASCII input is
//     otherwise also passed through lower-cased (the WPT toascii vectors expect `xn--a` to survive).
//   * Non-ASCII input: ideographic full stops (U+3002, U+FF0E, U+FF61) become `.`, full-width ASCII becomes
//     ASCII, default-ignorable code points UTS #46 maps to nothing are removed, the rest is lower-cased and
//     put in NFC; disallowed code points (controls, format characters, unassigned, private use, specials,
//     non-characters, spaces, ideographic description characters, symbols UTS #46 disallows) fail;
//     ZWJ/ZWNJ only after a virama (ZWNJ also between Arabic letters); a label holding right-to-left letters
//     may not hold left-to-right letters (the Bidi rule, approximated by script ranges);
//     `xn--` labels must decode and re-validate; other labels are Punycode-encoded.
//   * Hosts of more than `maxUnicodeHostBytes` UTF-8 bytes that need this processing fail (DNS allows 253).

public enum IDNA {
    /// Longest non-ASCII host processed (UTF-8 bytes); longer ones are not valid hosts.
    public static let maxUnicodeHostBytes = 2048

    /// The WHATWG "domain to ASCII" of `domain` (already percent-decoded), or nil on failure.
    public static func toASCII(_ domain: String) -> String? {
        let utf8 = domain.utf8
        if utf8.allSatisfy({ $0 < 0x80 }) {
            let lowered = String(decoding: utf8.map { ($0 >= 65 && $0 <= 90) ? $0 + 32 : $0 }, as: UTF8.self)
            guard !lowered.isEmpty, !lowered.utf8.contains(where: isForbiddenDomainByte) else { return nil }
            return lowered
        }
        guard utf8.count <= maxUnicodeHostBytes else { return nil }
        // 1. Map.
        var mapped = String.UnicodeScalarView()
        for s in domain.unicodeScalars {
            switch s.value {
            case 0x3002, 0xFF0E, 0xFF61: mapped.append(".")
            case 0xFF01...0xFF5E:
                if let ascii = Unicode.Scalar(s.value - 0xFF01 + 0x21) { mapped.append(ascii) }
            case 0x2A74: mapped.append(contentsOf: "::=".unicodeScalars)  // disallowed_STD3_mapped: contains ':'
            case 0x2A75: mapped.append(contentsOf: "==".unicodeScalars)
            case 0x2A76: mapped.append(contentsOf: "===".unicodeScalars)
            default:
                if isIgnored(s.value) { continue }
                mapped.append(s)
            }
        }
        // 2. Lower-case, then NFC.
        let lowered = String(mapped).lowercased()
        let normalized = String(decoding: lowered._nfcCodeUnits, as: UTF8.self)
        // 3. Per label.
        var out: [String] = []
        for labelSub in normalized.split(separator: ".", omittingEmptySubsequences: false) {
            let label = String(labelSub)
            let scalars = Array(label.unicodeScalars)
            if scalars.allSatisfy({ $0.isASCII }) {
                if label.hasPrefix("xn--") {
                    let encoded = String(label.dropFirst(4))
                    guard let decoded = Punycode.decode(encoded), !decoded.isEmpty,
                          decoded.contains(where: { !$0.isASCII }),
                          validLabel(decoded),
                          Punycode.encode(decoded) == encoded
                    else { return nil }
                }
                guard !label.utf8.contains(where: isForbiddenDomainByte) else { return nil }
                out.append(label)
            } else {
                if label.hasPrefix("xn--") { return nil }
                guard validLabel(scalars), let encoded = Punycode.encode(scalars) else { return nil }
                out.append("xn--" + encoded)
            }
        }
        let result = out.joined(separator: ".")
        return result.isEmpty ? nil : result
    }

    /// Forbidden domain code points (ASCII part): C0 controls, space, `#%/:<>?@[\]^|`, DEL.
    static func isForbiddenDomainByte(_ b: UInt8) -> Bool {
        switch b {
        case 0x00...0x20, 0x7F: true
        case UInt8(ascii: "#"), UInt8(ascii: "%"), UInt8(ascii: "/"), UInt8(ascii: ":"), UInt8(ascii: "<"),
             UInt8(ascii: ">"), UInt8(ascii: "?"), UInt8(ascii: "@"), UInt8(ascii: "["), UInt8(ascii: "\\"),
             UInt8(ascii: "]"), UInt8(ascii: "^"), UInt8(ascii: "|"): true
        default: false
        }
    }

    /// Code points UTS #46 maps to nothing.
    static func isIgnored(_ v: UInt32) -> Bool {
        switch v {
        case 0xAD, 0x34F, 0x180B...0x180F, 0x200B, 0x2060, 0x2064, 0x206A...0x206F, 0xFE00...0xFE0F, 0xFEFF,
             0x1BCA0...0x1BCA3, 0xE0100...0xE01EF: true
        default: false
        }
    }

    private static func isViramaBefore(_ scalars: [Unicode.Scalar], _ i: Int) -> Bool {
        i > 0 && scalars[i - 1].properties.canonicalCombiningClass.rawValue == 9
    }

    private static func isRTL(_ v: UInt32) -> Bool {
        switch v {
        case 0x0590...0x08FF, 0xFB1D...0xFDFF, 0xFE70...0xFEFE, 0x10800...0x10FFF, 0x1E800...0x1EFFF: true
        default: false
        }
    }

    private static func isArabicLetter(_ s: Unicode.Scalar) -> Bool {
        (0x0620...0x06FF).contains(s.value) && s.properties.generalCategory == .otherLetter
    }

    /// UTS #46 validity, approximated (see the file comment).
    static func validLabel(_ scalars: [Unicode.Scalar]) -> Bool {
        var hasRTL = false, hasLTRLetter = false
        for (i, s) in scalars.enumerated() {
            let v = s.value
            if v < 0x80 {
                if isForbiddenDomainByte(UInt8(v)) || (v >= 65 && v <= 90) { return false }
                if (v >= 97 && v <= 122) { hasLTRLetter = true }
                continue
            }
            if v == 0x200D {
                guard isViramaBefore(scalars, i) else { return false }
                continue
            }
            if v == 0x200C {
                let joins = i > 0 && i + 1 < scalars.count && isArabicLetter(scalars[i - 1]) && isArabicLetter(scalars[i + 1])
                guard isViramaBefore(scalars, i) || joins else { return false }
                continue
            }
            switch v {
            case 0x80...0xA0, 0x1680, 0x2000...0x200F, 0x2025, 0x2028...0x202F, 0x205F, 0x2FF0...0x2FFF, 0x3000,
                 0xFFF9...0xFFFF, 0xE0000...0xE0FFF:
                return false
            default: break
            }
            if (v & 0xFFFE) == 0xFFFE || (0xFDD0...0xFDEF).contains(v) { return false }
            switch s.properties.generalCategory {
            case .unassigned, .control, .format, .surrogate, .privateUse, .spaceSeparator, .lineSeparator,
                 .paragraphSeparator:
                return false
            default: break
            }
            if isRTL(v) {
                hasRTL = true
            } else if s.properties.isAlphabetic && !s.properties.generalCategory.isMark {
                hasLTRLetter = true
            }
        }
        if hasRTL && hasLTRLetter { return false }
        // A label may not start with a combining mark.
        if let first = scalars.first, first.properties.generalCategory.isMark { return false }
        return true
    }
}

extension Unicode.GeneralCategory {
    fileprivate var isMark: Bool {
        self == .nonspacingMark || self == .spacingMark || self == .enclosingMark
    }
}
