// The goodlist's lookup table: every anchor (the normalised base of one or more patterns: `payex.com` for
// `**.payex.com`) in one compact open-addressing table keyed by a hash of the base's labels.
//
// A lookup hashes each suffix of the host that starts at a label boundary (right to left, one pass, no String
// per label) and probes the table once per suffix. Unlike a trie walk, the probes do not depend on each other,
// so the CPU overlaps their cache misses; a small bit filter answers most absent suffixes without touching the
// slots: a lookup in a 100k-entry list costs little more than in a 12-entry one.
// A slot holds the 64-bit hash, the anchored entry indices and the base's place in a byte pool; every hash hit
// is verified byte for byte against the pool, so a hash never decides a match.

struct GoodlistAnchorTable: Sendable {
    struct Slot: Sendable {
        /// Hash of the base; 0 marks an empty slot (a real hash of 0 is stored as 1).
        var hash: UInt64 = 0
        var exact: Int32 = -1
        var oneLabel: Int32 = -1
        var anyDepth: Int32 = -1
        /// The base's bytes: `pool[offset..<offset+length]`.
        var length: UInt32 = 0
        var offset: UInt64 = 0
    }

    private(set) var slots: [Slot] = Array(repeating: Slot(), count: 16)
    private var pool: [UInt8] = []
    private(set) var count = 0
    /// One bit per hash (4 bits per slot): a clear bit proves a suffix is no anchor without touching the
    /// (much larger) slot array, so absent suffixes cost one access to a small, cache-resident bit set.
    private var filter: [UInt64] = [0]

    @inline(__always)
    private static func filterBit(_ hash: UInt64, words: Int) -> (word: Int, mask: UInt64) {
        let bit = Int(truncatingIfNeeded: hash >> 35) & (words * 64 - 1)
        return (bit >> 6, 1 << UInt64(bit & 63))
    }

    /// The hash of one label, folded into the hash of the labels to its right.
    @inline(__always)
    static func combine(_ h: UInt64, _ label: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var x = h ^ (UInt64(label.count) &* 0x9E37_79B9_7F4A_7C15)
        var i = 0
        let n = label.count
        while i + 8 <= n {
            var w: UInt64 = 0
            for j in 0..<8 { w |= UInt64(label[i + j]) << (8 * UInt64(j)) }
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

    static let seed: UInt64 = 0x5054_4149_4E56_4945

    @inline(__always)
    private func equals(_ s: Slot, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard Int(s.length) == bytes.count else { return false }
        let off = Int(s.offset)
        guard off >= 0, off + bytes.count <= pool.count else { return false }
        return pool.withUnsafeBufferPointer { p in
            var i = 0
            while i < bytes.count {
                if p[off + i] != bytes[i] { return false }
                i += 1
            }
            return true
        }
    }

    /// The slot of the base with this hash and these bytes, if present.
    @inline(__always)
    func find(hash: UInt64, _ bytes: UnsafeBufferPointer<UInt8>) -> Slot? {
        let (word, bit) = GoodlistAnchorTable.filterBit(hash, words: filter.count)
        if filter[word] & bit == 0 { return nil }
        let mask = slots.count - 1
        var i = Int(truncatingIfNeeded: hash ^ (hash >> 32)) & mask
        return slots.withUnsafeBufferPointer { s in
            while true {
                let slot = s[i]
                if slot.hash == 0 { return nil }
                if slot.hash == hash, equals(slot, bytes) { return slot }
                i = (i + 1) & mask
            }
        }
    }

    private func index(hash: UInt64, _ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        let mask = slots.count - 1
        var i = Int(truncatingIfNeeded: hash ^ (hash >> 32)) & mask
        while slots[i].hash != 0 {
            if slots[i].hash == hash, equals(slots[i], bytes) { return i }
            i = (i + 1) & mask
        }
        return nil
    }

    /// Sets the anchors of `base` (inserting it when new).
    mutating func set(base: String, exact: Int32, oneLabel: Int32, anyDepth: Int32) {
        var b = base
        b.withUTF8 { bytes in
            let h = GoodlistAnchorTable.hash(bytes)
            if let i = index(hash: h, bytes) {
                slots[i].exact = exact
                slots[i].oneLabel = oneLabel
                slots[i].anyDepth = anyDepth
                return
            }
            if (count + 1) * 10 > slots.count * 7 { grow() }
            let slot = Slot(hash: h, exact: exact, oneLabel: oneLabel, anyDepth: anyDepth,
                            length: UInt32(bytes.count), offset: UInt64(pool.count))
            pool.append(contentsOf: bytes)
            place(slot)
            count += 1
            let (word, bit) = GoodlistAnchorTable.filterBit(h, words: filter.count)
            filter[word] |= bit
        }
    }

    private mutating func place(_ slot: Slot) {
        let mask = slots.count - 1
        var i = Int(truncatingIfNeeded: slot.hash ^ (slot.hash >> 32)) & mask
        while slots[i].hash != 0 { i = (i + 1) & mask }
        slots[i] = slot
    }

    private mutating func grow() {
        let old = slots
        slots = Array(repeating: Slot(), count: old.count * 2)
        filter = Array(repeating: 0, count: slots.count / 16)  // 4 bits per slot
        for s in old where s.hash != 0 {
            place(s)
            let (word, bit) = GoodlistAnchorTable.filterBit(s.hash, words: filter.count)
            filter[word] |= bit
        }
    }
}
