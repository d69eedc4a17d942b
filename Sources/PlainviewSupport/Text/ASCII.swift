// The one test for "this text is ASCII": every UTF-8 byte below 0x80. The byte-level fast paths (host matching,
// the import's redaction and drafting) ask it before they treat a character as a byte; any other text goes to
// the Unicode-aware path.

package enum ASCII {
    /// True when every byte is below 0x80 (also for no bytes at all).
    @inlinable
    package static func isASCII<Bytes: Sequence>(_ bytes: Bytes) -> Bool where Bytes.Element == UInt8 {
        bytes.allSatisfy { $0 < 0x80 }
    }

    /// True when every character of `text` is ASCII (its UTF-8 bytes are all below 0x80).
    @inlinable
    package static func isASCII(_ text: some StringProtocol) -> Bool { isASCII(text.utf8) }
}
