// The goodlist's lookup table: every anchor (the normalised base of one or more patterns: `payex.com` for
// `**.payex.com`) in one compact open-addressing table keyed by a hash of the base's labels.
//
// A lookup hashes each suffix of the host that starts at a label boundary (right to left, one pass, no String
// per label) and probes the table once per suffix. Unlike a trie walk, the probes do not depend on each other,
// so the CPU overlaps their cache misses; a small bit filter answers most absent suffixes without touching the
// slots, and a slot is one cache line holding the hash, the anchored entries and (up to 32 bytes) the base
// itself: a lookup in a 100k-entry list costs little more than in a 12-entry one. A 100k-entry table spans
// 16 MB; on 4 kB pages nearly every probe into it would also miss the TLB, so tables of 4 MB and more ask
// Linux for transparent huge pages (`madvise`, honoured when THP is `madvise` or `always`): measured, that took
// the 100k÷12 time per match from 1.43 to 1.30.
// Every hash hit is verified byte for byte against the stored base: a hash never decides a match.

#if canImport(Glibc)
import Glibc
#endif

struct GoodlistAnchorTable: Sendable {
    /// One slot as read from the table.
    struct Slot: Sendable {
        var exact: Int32 = -1
        var oneLabel: Int32 = -1
        var anyDepth: Int32 = -1
    }

    /// Words per slot: hash (0 = empty), exact|oneLabel, anyDepth|length, pool offset, 4 words of inline bytes.
    private static let stride = 8
    private static let inlineBytes = 32
    /// The slots, 64 bytes each, starting at the first 64-byte boundary of the storage (see `pad`).
    private var words: [UInt64] = Array(repeating: 0, count: 16 * 8 + 8)
    private var slotCount = 16
    /// Bases longer than `inlineBytes`.
    private var pool: [UInt8] = []
    private(set) var count = 0
    /// One bit per hash (4 bits per slot): a clear bit proves a suffix is no anchor without touching the slots.
    private var filter: [UInt64] = [0]

    static let seed: UInt64 = 0x5054_4149_4E56_4945

    /// Zeroed storage; tables of 4 MiB and more ask the kernel for huge pages before first touch.
    static func zeroedWords(_ n: Int) -> [UInt64] {
        [UInt64](unsafeUninitializedCapacity: n) { buf, count in
            #if canImport(Glibc)
            if n * 8 >= 4 << 20, let base = buf.baseAddress {
                let huge = 2 << 20
                let start = (Int(bitPattern: base) + huge - 1) & ~(huge - 1)
                let end = (Int(bitPattern: base) + n * 8) & ~(huge - 1)
                if end > start { _ = madvise(UnsafeMutableRawPointer(bitPattern: start), end - start, MADV_HUGEPAGE) }
            }
            #endif
            buf.initialize(repeating: 0)
            count = n
        }
    }

    /// The hash of one label, folded into the hash of the labels to its right.
    @inline(__always)
    static func combine(_ h: UInt64, _ label: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var x = h ^ (UInt64(label.count) &* 0x9E37_79B9_7F4A_7C15)
        var i = 0
        let n = label.count
        let raw = UnsafeRawPointer(label.baseAddress)
        while i + 8 <= n, let raw {
            let w = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: i, as: UInt64.self))
            x = (x ^ w) &* 0xBF58_476D_1CE4_E5B9
            x ^= x >> 31
            i += 8
        }
        var w: UInt64 = 0
        var j: UInt64 = 0
        while i < n { w |= UInt64(label[i]) << (8 * j); i += 1; j += 1 }
        x = (x ^ w) &* 0x94D0_49BB_1331_11EB
        x ^= x >> 29
        return x == 0 ? 1 : x
    }

    /// The hash of a whole base (labels right to left, as a lookup computes it).
    static func hash(_ base: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var h = seed
        var end = base.count
        while true {
            var start = end
            while start > 0, base[start - 1] != UInt8(ascii: ".") { start -= 1 }
            h = combine(h, UnsafeBufferPointer(rebasing: base[start..<end]))
            if start == 0 { return h }
            end = start - 1
        }
    }

    @inline(__always)
    private static func filterBit(_ hash: UInt64, words: Int) -> (word: Int, mask: UInt64) {
        let bit = Int(truncatingIfNeeded: hash >> 35) & (words * 64 - 1)
        return (bit >> 6, 1 << UInt64(bit & 63))
    }

    @inline(__always)
    private static func home(_ hash: UInt64, _ slotCount: Int) -> Int {
        Int(truncatingIfNeeded: hash ^ (hash >> 32)) & (slotCount - 1)
    }

    /// Words to skip so that slot 0 starts on a 64-byte boundary (the storage moves when copied).
    @inline(__always)
    private static func pad(_ p: UnsafeBufferPointer<UInt64>) -> Int {
        guard let base = p.baseAddress else { return 0 }
        return (8 - (Int(bitPattern: base) >> 3) & 7) & 7
    }

    /// True when slot `at` (word index) holds exactly `bytes`.
    @inline(__always)
    private func equals(_ p: UnsafeBufferPointer<UInt64>, _ at: Int, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let length = Int(p[at + 2] >> 32)
        guard length == bytes.count else { return false }
        if length <= GoodlistAnchorTable.inlineBytes {
            // Whole words first (the inline bytes are packed little-endian, 8 to a word), then the tail.
            var i = 0
            if let raw = UnsafeRawPointer(bytes.baseAddress) {
                while i + 8 <= length {
                    if UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)) != p[at + 4 + i >> 3] {
                        return false
                    }
                    i += 8
                }
            }
            while i < length {
                let byte = UInt8(truncatingIfNeeded: p[at + 4 + i >> 3] >> (8 * UInt64(i & 7)))
                if byte != bytes[i] { return false }
                i += 1
            }
            return true
        }
        let off = Int(p[at + 3])
        guard off >= 0, off + length <= pool.count else { return false }
        return pool.withUnsafeBufferPointer { q in
            var i = 0
            while i < length {
                if q[off + i] != bytes[i] { return false }
                i += 1
            }
            return true
        }
    }

    /// The word index of the slot holding `bytes` (hash `hash`), if present.
    @inline(__always)
    private func locate(_ p: UnsafeBufferPointer<UInt64>, hash: UInt64, _ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        let pad = GoodlistAnchorTable.pad(p)
        var i = GoodlistAnchorTable.home(hash, slotCount)
        while true {
            let at = pad + i * GoodlistAnchorTable.stride
            let h = p[at]
            if h == 0 { return nil }
            if h == hash, equals(p, at, bytes) { return at }
            i = (i + 1) & (slotCount - 1)
        }
    }

    /// The anchors of the base with this hash and these bytes, if it is one.
    @inline(__always)
    func find(hash: UInt64, _ bytes: UnsafeBufferPointer<UInt8>) -> Slot? {
        let (word, bit) = GoodlistAnchorTable.filterBit(hash, words: filter.count)
        if filter[word] & bit == 0 { return nil }
        return words.withUnsafeBufferPointer { p in
            guard let at = locate(p, hash: hash, bytes) else { return nil }
            return Slot(
                exact: Int32(truncatingIfNeeded: p[at + 1]), oneLabel: Int32(truncatingIfNeeded: p[at + 1] >> 32),
                anyDepth: Int32(truncatingIfNeeded: p[at + 2]))
        }
    }

    private static func packAnchors(_ a: Int32, _ b: Int32) -> UInt64 {
        UInt64(UInt32(bitPattern: a)) | UInt64(UInt32(bitPattern: b)) << 32
    }

    /// Sets the anchors of `base` (inserting it when new).
    mutating func set(base: String, exact: Int32, oneLabel: Int32, anyDepth: Int32) {
        makeUnique()
        var b = base
        b.withUTF8 { bytes in
            let h = GoodlistAnchorTable.hash(bytes)
            let existing = words.withUnsafeBufferPointer { locate($0, hash: h, bytes) }
            if let at = existing {
                words[at + 1] = GoodlistAnchorTable.packAnchors(exact, oneLabel)
                words[at + 2] = UInt64(UInt32(bitPattern: anyDepth)) | (words[at + 2] & 0xFFFF_FFFF_0000_0000)
                return
            }
            if (count + 1) * 10 > slotCount * 7 { grow() }
            var slot = [UInt64](repeating: 0, count: GoodlistAnchorTable.stride)
            slot[0] = h
            slot[1] = GoodlistAnchorTable.packAnchors(exact, oneLabel)
            slot[2] = UInt64(UInt32(bitPattern: anyDepth)) | UInt64(bytes.count) << 32
            if bytes.count <= GoodlistAnchorTable.inlineBytes {
                for i in 0..<bytes.count { slot[4 + i >> 3] |= UInt64(bytes[i]) << (8 * UInt64(i & 7)) }
            } else {
                slot[3] = UInt64(pool.count)
                pool.append(contentsOf: bytes)
            }
            place(slot)
            count += 1
        }
    }

    /// Copies shared storage now (so the alignment `pad` computed next stays valid for the writes that follow),
    /// and moves the slots to the copy's own 64-byte boundary (a copy keeps word indices, not addresses).
    private mutating func makeUnique() {
        let oldPad = words.withUnsafeBufferPointer { GoodlistAnchorTable.pad($0) }
        let n = slotCount * GoodlistAnchorTable.stride
        words.withUnsafeMutableBufferPointer { p in
            let newPad = GoodlistAnchorTable.pad(UnsafeBufferPointer(p))
            guard newPad != oldPad else { return }
            let slots = Array(p[oldPad..<(oldPad + n)])
            for k in 0..<n { p[newPad + k] = slots[k] }
        }
    }

    private mutating func place(_ slot: [UInt64]) {
        makeUnique()
        let pad = words.withUnsafeBufferPointer { GoodlistAnchorTable.pad($0) }
        var i = GoodlistAnchorTable.home(slot[0], slotCount)
        while words[pad + i * GoodlistAnchorTable.stride] != 0 { i = (i + 1) & (slotCount - 1) }
        let at = pad + i * GoodlistAnchorTable.stride
        for k in 0..<GoodlistAnchorTable.stride { words[at + k] = slot[k] }
        let (word, bit) = GoodlistAnchorTable.filterBit(slot[0], words: filter.count)
        filter[word] |= bit
    }

    private mutating func grow() {
        let old = words
        let oldCount = slotCount
        let oldPad = old.withUnsafeBufferPointer { GoodlistAnchorTable.pad($0) }
        slotCount *= 2
        words = GoodlistAnchorTable.zeroedWords(slotCount * GoodlistAnchorTable.stride + 8)
        filter = Array(repeating: 0, count: slotCount / 16) // 4 bits per slot
        for i in 0..<oldCount {
            let at = oldPad + i * GoodlistAnchorTable.stride
            if old[at] != 0 { place(Array(old[at..<(at + GoodlistAnchorTable.stride)])) }
        }
    }
}
