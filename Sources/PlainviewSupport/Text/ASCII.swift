// The one test for "this text is ASCII": every UTF-8 byte below 0x80. The byte-level fast paths (host matching,
// the import's redaction and drafting) ask it before they treat a character as a byte; any other text goes to
// the Unicode-aware path. The one byte search (`contains`) is here too.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

package enum ASCII {
    /// True when every byte is below 0x80 (also for no bytes at all).
    @inlinable
    package static func isASCII<Bytes: Sequence>(_ bytes: Bytes) -> Bool where Bytes.Element == UInt8 {
        if let answer = bytes.withContiguousStorageIfAvailable({ isASCII($0) }) { return answer }
        return bytes.allSatisfy { $0 < 0x80 }
    }

    /// True when every character of `text` is ASCII (its UTF-8 bytes are all below 0x80). A native string's
    /// bytes are read in place, eight at a time (the import asks this of every value it redacts, often more than
    /// once: the generic walk over `utf8` was a tenth of its time).
    @inlinable
    package static func isASCII(_ text: some StringProtocol) -> Bool { isASCII(text.utf8) }

    /// The bytes in memory, a machine word at a time: no byte has its high bit set.
    @inlinable
    package static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        let raw = UnsafeRawPointer(base)
        let count = bytes.count
        var i = 0
        var high: UInt64 = 0
        while i + 8 <= count {
            high |= raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)
            i += 8
        }
        while i < count {
            high |= UInt64(base[i])
            i += 1
        }
        return high & 0x8080_8080_8080_8080 == 0
    }

    /// True when the bytes of `needle` stand together somewhere in `hay` (an empty needle is everywhere).
    package static func contains(_ needle: [UInt8], in hay: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let first = needle.first else { return true }
        guard needle.count <= hay.count else { return false }
        let last = hay.count - needle.count
        var i = 0
        while let at = firstIndex(of: first, in: hay, from: i), at <= last {
            var j = 1
            while j < needle.count, hay[at + j] == needle[j] { j += 1 }
            if j == needle.count { return true }
            i = at + 1
        }
        return false
    }

    /// True when `byte` is somewhere in `hay`.
    package static func contains(_ byte: UInt8, in hay: UnsafeBufferPointer<UInt8>) -> Bool {
        firstIndex(of: byte, in: hay, from: 0) != nil
    }

    /// Where `byte` first stands in `hay` at or after `start`: the C library's `memchr`, which compares many
    /// bytes per step and finds nothing past the buffer's end; nil for a start outside it.
    static func firstIndex(of byte: UInt8, in hay: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        guard let base = hay.baseAddress, start >= 0, start < hay.count,
            let found = memchr(base + start, Int32(byte), hay.count - start)
        else { return nil }
        return UnsafeRawPointer(base).distance(to: UnsafeRawPointer(found))
    }

    /// `contains(_:in:)` over an array's bytes, or over those in `range` (the whole array when nil; a range
    /// reaching outside the array is cut to it, never read beyond it).
    package static func contains(_ needle: [UInt8], in hay: [UInt8], within range: Range<Int>? = nil) -> Bool {
        hay.withUnsafeBufferPointer { all in
            contains(needle, in: range.map { UnsafeBufferPointer(rebasing: all[$0.clamped(to: 0..<all.count)]) } ?? all)
        }
    }
}
