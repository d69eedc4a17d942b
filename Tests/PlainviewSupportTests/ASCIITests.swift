import PlainviewSupport
import Testing

/// `ASCII.isASCII`, which reads native strings eight bytes at a time: a non-ASCII character anywhere (in the
/// words read whole, in the bytes after them, first or last) makes it false, whatever the length, for strings,
/// substrings, byte arrays and other sequences alike.
@Suite struct ASCIITests {
    @Test(arguments: ["é", "\u{80}", "€", "😀", "\u{7F}", "a"])
    func oneCharacterAnywhere(_ character: String) {
        let ascii = character.utf8.allSatisfy { $0 < 0x80 }
        for length in 0...19 {
            for at in 0...length {
                let text = String(repeating: "x", count: at) + character + String(repeating: "y", count: length - at)
                #expect(ASCII.isASCII(text) == ascii, "\(text)")
                #expect(ASCII.isASCII(Substring(text).dropFirst(at > 0 ? 1 : 0)) == ascii, "\(text)")
                #expect(ASCII.isASCII(Array(text.utf8)) == ascii, "\(text)")
                #expect(ASCII.isASCII(text.utf8.lazy.map { $0 }) == ascii, "\(text)")
            }
        }
    }

    /// One byte with its high bit set, at every place of every length up to 19 (each byte of a word read whole).
    @Test func oneHighByteAnywhere() {
        for length in 1...19 {
            for at in 0..<length {
                for high: UInt8 in [0x80, 0xC3, 0xFF] {
                    var bytes = [UInt8](repeating: 0x41, count: length)
                    bytes[at] = high
                    #expect(ASCII.isASCII(bytes) == false, "\(bytes)")
                    bytes[at] = 0x7F
                    #expect(ASCII.isASCII(bytes), "\(bytes)")
                }
            }
        }
    }

    @Test func noBytesAndAllBytes() {
        #expect(ASCII.isASCII(""))
        #expect(ASCII.isASCII([UInt8]()))
        #expect(ASCII.isASCII(String(decoding: (0..<128).map { UInt8($0) }, as: UTF8.self)))
        #expect(ASCII.isASCII((0..<256).map { UInt8($0) }) == false)
        // A substring that leaves the non-ASCII part out is ASCII.
        let text = "abcdefghijé"
        #expect(ASCII.isASCII(text.prefix(10)))
        #expect(ASCII.isASCII(text.suffix(1)) == false)
    }

    /// `ASCII.contains`: the needle's bytes together, anywhere (first, last, the whole), or within a range only;
    /// a needle longer than the bytes, or met only in part, is not there; an empty one is everywhere.
    @Test(arguments: [
        ("json", "application/json", true), ("json", "json", true), ("json", "jsonp", true), ("json", "jso", false),
        ("json", "js on", false), ("://", "https://x", true), ("://", ":/", false), ("", "", true), ("", "abc", true),
        ("aab", "aaab", true), ("abab", "abaabab", true), ("x", "", false), ("a", "bca", true), ("z", "abc", false),
        ("ab", "aaaaab", true), ("ab", "aaaaa", false), ("ba", "aaaab", false),
    ])
    func containsBytes(_ row: (String, String, Bool)) {
        let needle = Array(row.0.utf8), hay = Array(row.1.utf8)
        #expect(ASCII.contains(needle, in: hay) == row.2, "\(row)")
        #expect(ASCII.contains(needle, in: hay, within: 0..<hay.count) == row.2, "\(row)")
    }

    /// One byte, at every place of every length up to 20, and absent; within a slice of the bytes, never found past
    /// its end.
    @Test func containsAByte() {
        for count in 0...20 {
            for at in 0..<max(count, 1) {
                var hay = [UInt8](repeating: 0x61, count: count)
                if count > 0 { hay[at] = 0x3B }
                hay.withUnsafeBufferPointer { all in
                    #expect(ASCII.contains(0x3B, in: all) == (count > 0), "\(count) \(at)")
                    #expect(!ASCII.contains(0x3A, in: all), "\(count) \(at)")
                    #expect(ASCII.contains(0x3B, in: UnsafeBufferPointer(rebasing: all[0..<at])) == false, "\(count) \(at)")
                    if count > 0 {
                        #expect(ASCII.contains([0x3B], in: UnsafeBufferPointer(rebasing: all[at...])), "\(count) \(at)")
                    }
                }
            }
        }
    }

    @Test func containsWithinARange() {
        let hay = Array("token=REDACTED-1 other".utf8)
        let needle = Array("REDACTED-".utf8)
        #expect(ASCII.contains(needle, in: hay, within: 6..<16))
        #expect(!ASCII.contains(needle, in: hay, within: 7..<16))
        #expect(!ASCII.contains(needle, in: hay, within: 6..<14))
        #expect(ASCII.contains([], in: hay, within: 3..<3))
        // A range reaching outside the bytes is cut to them.
        #expect(ASCII.contains(needle, in: hay, within: -5..<100))
        #expect(!ASCII.contains(needle, in: hay, within: 50..<100))
    }
}
