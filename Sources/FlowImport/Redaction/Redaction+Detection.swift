// What the detectors find in one text (Redactor.detect), kept apart from what the redactor then does with it
// (checking each finding against the placeholders made so far, numbering, replacing). Finding does not depend on
// what was learnt, so the findings of the next entries can be worked out ahead on another core while this
// redactor numbers the ones before (Redactor.detectEntries).
import Foundation

struct Detection: Sendable {
    /// One thing found: its span in the original text (UTF-16 offsets), the original text of that span, the
    /// value that identifies the secret, and what it is.
    struct Finding: Sendable {
        var range: NSRange
        var original: String
        var key: String
        var kind: RedactionKind
        var name: String
    }

    /// The text as the detectors read it, with the way back to the original.
    let view: DecodedText
    /// The decoded text went to the hand-written ASCII matchers (so the text itself is ASCII).
    let isASCII: Bool
    /// Everything found, in the detectors' order, before any is checked against the placeholders.
    let findings: [Finding]
    /// Whether what is found, or not, may change with what is learnt (a value that is a placeholder by then):
    /// false for a text that is clean for good.
    let dependsOnLearnt: Bool

    /// A text by its bytes, and whether scripts' forms were searched: Strings compare and hash by canonical
    /// equivalence, but findings are spans of one exact text.
    struct Key: Hashable, Sendable {
        let text: String
        let scripts: Bool

        static func == (a: Key, b: Key) -> Bool {
            guard a.scripts == b.scripts, a.text.utf8.count == b.text.utf8.count else { return false }
            return a.withBytes { x in b.withBytes { y in x.count == 0 || memcmp(x.baseAddress!, y.baseAddress!, x.count) == 0 } }
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(scripts)
            withBytes { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
        }

        /// The text's UTF-8 bytes in place (a bridged string is made native first).
        private func withBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
            var native = text
            native.makeContiguousUTF8()
            return native.utf8.withContiguousStorageIfAvailable(body)!
        }
    }
}
