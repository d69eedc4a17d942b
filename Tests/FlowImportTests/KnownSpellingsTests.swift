import Foundation
import Testing
import TestSupport

@testable import FlowImport

/// Issue 34: the compact table of learnt spellings answers exactly as a plain dictionary of spellings would: the
/// longest accepted spelling at a position, the first placeholder of a spelling learnt twice, nothing shorter than
/// its key length, across many growths of its tables.
@Suite struct KnownSpellingsTests {
    /// The reference: every spelling in a dictionary, tried longest first.
    struct Reference {
        var placeholderOf: [[UInt8]: String] = [:]
        /// Every length any spelling has, longest first: a match at a position of one of them is the longest one.
        var lengths: [Int] = []
        let keyLength: Int

        mutating func add(_ text: String, placeholder: String) {
            let bytes = Array(text.utf8)
            guard bytes.count >= keyLength, placeholderOf[bytes] == nil else { return }
            placeholderOf[bytes] = placeholder
            if !lengths.contains(bytes.count) { lengths = (lengths + [bytes.count]).sorted(by: >) }
        }

        func longest(in b: [UInt8], at i: Int, where accept: (Int) -> Bool) -> (length: Int, placeholder: String)? {
            for length in lengths where i + length <= b.count && accept(length) {
                if let p = placeholderOf[Array(b[i..<(i + length)])] { return (length, p) }
            }
            return nil
        }
    }

    @Test func itAnswersAsADictionaryOnGeneratedSecretsAndTexts() {
        var random = FuzzRNG(seed: 34)
        let keyLength = 8
        var table = KnownSpellings(keyLength: keyLength)
        var reference = Reference(keyLength: keyLength)
        // Secrets that share prefixes and lengths, as sequential ids and tokens do, and some shorter than the key.
        let stems = ["v00000000", "tok_", "eyJhbGciOi", "4111111111", "ab", "sess-", "x"]
        var learnt: [String] = []
        for n in 0..<6_000 {
            let stem = random.pick(stems)
            let tail = String((0...random.below(12)).map { _ in random.pick(Array("0123456789abcdef")) })
            let secret = stem + tail
            let placeholder = "REDACTED-TOKEN-\(n)"
            table.add(secret, placeholder: placeholder)
            reference.add(secret, placeholder: placeholder)
            learnt.append(secret)
        }
        #expect(table.count == reference.placeholderOf.count)
        #expect(table.count > 3_000)
        var positions = 0
        var found = 0
        for _ in 0..<400 {
            var text = ""
            for _ in 0...random.below(6) {
                text += random.pick([" ", "=", "&", "x", "-", "\"", "a"])
                text += random.pick(learnt)
                if random.oneIn(3) { text.append(random.pick(Array("0123456789abcdef"))) }
            }
            let b = Array(text.utf8)
            // Accepting only some lengths, as the redactor's whole-token check does.
            let accept: (Int) -> Bool = { $0 % 5 != 3 }
            b.withUnsafeBufferPointer { buffer in
                for i in 0..<b.count {
                    let got = table.longest(in: buffer, at: i, where: accept)
                    let want = reference.longest(in: b, at: i, where: accept)
                    #expect(got?.length == want?.length && got?.placeholder == want?.placeholder, "\(text) at \(i)")
                    positions += 1
                    if want != nil { found += 1 }
                }
            }
        }
        #expect(found > 500, "the generated texts hold too few learnt secrets to test anything: \(found) of \(positions)")
    }

    @Test func theFirstPlaceholderStaysAndShortSpellingsAreNotKept() {
        var table = KnownSpellings(keyLength: 8)
        table.add("secret-value-1", placeholder: "REDACTED-TOKEN-1")
        table.add("secret-value-1", placeholder: "REDACTED-TOKEN-2")
        table.add("short", placeholder: "REDACTED-TOKEN-3")
        #expect(table.count == 1)
        let text = Array("a secret-value-1 and short".utf8)
        text.withUnsafeBufferPointer { b in
            #expect(table.longest(in: b, at: 2) { _ in true }?.placeholder == "REDACTED-TOKEN-1")
            #expect(table.longest(in: b, at: 2) { _ in false } == nil)
            #expect(table.longest(in: b, at: 21) { _ in true } == nil)
            #expect(table.longest(in: b, at: 3) { _ in true } == nil)
        }
    }

    /// The longest spelling wins where one secret holds another: `abcdefgh-1234` over `abcdefgh`.
    @Test func aSecretHoldingAnotherWins() {
        var table = KnownSpellings(keyLength: 8)
        table.add("abcdefgh", placeholder: "REDACTED-TOKEN-1")
        table.add("abcdefgh-1234", placeholder: "REDACTED-TOKEN-2")
        let text = Array("abcdefgh-1234".utf8)
        text.withUnsafeBufferPointer { b in
            #expect(table.longest(in: b, at: 0) { _ in true }?.length == 13)
            #expect(table.longest(in: b, at: 0) { $0 < 13 }?.placeholder == "REDACTED-TOKEN-1")
        }
    }
}
