// The decoded text the detectors read (Redactor.redactDecoded, SecretResidue.scan), in the form each reader
// needs: ASCII text as bytes for the hand-written matchers (ASCIIScanners), other text as NSString for the
// regular expressions.
import Foundation

struct DetectorText {
    let string: String
    /// The text's bytes when all are ASCII (their offsets are then UTF-16 offsets too); nil otherwise.
    let ascii: [UInt8]?
    /// The text as NSString, when not ASCII.
    private let ns: NSString?

    init(_ string: String, isASCII: Bool) {
        self.string = string
        ascii = isASCII ? Array(string.utf8) : nil
        ns = isASCII ? nil : string as NSString
    }

    /// The matches of `scan` on ASCII text, else of `regex` (the expression the matcher stands for).
    func matches(_ regex: RegexBox, _ scan: ([UInt8]) -> [ScanMatch]) -> [ScanMatch] {
        if let ascii { return scan(ascii) }
        return regex.matches(in: string).map(ScanMatch.init)
    }

    /// The matches of `regex` (no matcher stands for it).
    func matches(_ regex: RegexBox) -> [ScanMatch] { regex.matches(in: string).map(ScanMatch.init) }

    /// The text of a range (UTF-16 offsets).
    func text(_ r: NSRange) -> String {
        if let ascii { return String(decoding: ascii[r.location..<(r.location + r.length)], as: UTF8.self) }
        return ns!.substring(with: r)
    }

    /// Group `i` of `m`, nil when it took no part.
    func group(_ m: ScanMatch, _ i: Int) -> String? {
        let r = m.range(at: i)
        return r.location == NSNotFound ? nil : text(r)
    }

    /// The UTF-16 unit at `offset`.
    func unit(at offset: Int) -> UInt16 { ascii.map { UInt16($0[offset]) } ?? ns!.character(at: offset) }

    /// The length in UTF-16 units.
    var length: Int { ascii?.count ?? ns!.length }

    /// The text as NSString (made here for ASCII text, which keeps none).
    var nsString: NSString { ns ?? string as NSString }
}
