// The goodlist trie's edges as one compact open-addressing table: a slot holds the edge (parent node, label)
// and the anchors of the node it leads to, so a lookup step touches one slot and hashes the label's bytes
// straight from the host (no String per label). Labels of up to 16 bytes are stored in the slot itself;
// longer ones in a shared byte pool. Every hit is verified byte for byte: a hash never decides a match.

struct GoodlistEdgeTable: Sendable {
    struct Slot: Sendable {
        /// The parent node; -1 marks an empty slot.
        var parent: Int32 = -1
        var child: Int32 = -1
        var length: Int32 = 0
        /// The child's anchored entries (mirrors `Goodlist.Node`), -1 when none.
        var exact: Int32 = -1
        var oneLabel: Int32 = -1
        var anyDepth: Int32 = -1
        /// Label bytes 0..<8 and 8..<16, little-endian, zero-padded; for longer labels w0 is the pool offset.
        var w0: UInt64 = 0
        var w1: UInt64 = 0
    }

    private(set) var slots: [Slot] = Array(repeating: Slot(), count: 16)
    private var pool: [UInt8] = []
    private(set) var count = 0

    @inline(__always)
    private static func hash(parent: Int32, w0: UInt64, w1: UInt64, length: Int, tail: UInt64) -> UInt64 {
        var h = (UInt64(UInt32(bitPattern: parent)) << 32 | UInt64(length)) &* 0x9E37_79B9_7F4A_7C15
        h = (h ^ w0) &* 0xBF58_476D_1CE4_E5B9
        h = (h ^ w1 ^ tail) &* 0x94D0_49BB_1331_11EB
        return h ^ (h >> 29)
    }

    /// The two inline words of a label and a digest of the bytes past 16 (0 for short labels).
    @inline(__always)
    private static func words(_ label: UnsafeBufferPointer<UInt8>) -> (UInt64, UInt64, UInt64) {
        var w0: UInt64 = 0, w1: UInt64 = 0, tail: UInt64 = 0
        let n = label.count
        var i = 0
        while i < n, i < 8 { w0 |= UInt64(label[i]) << (8 * UInt64(i)); i += 1 }
        while i < n, i < 16 { w1 |= UInt64(label[i]) << (8 * UInt64(i - 8)); i += 1 }
        while i < n { tail = (tail ^ UInt64(label[i])) &* 0x100_0000_01B3; i += 1 }
        return (w0, w1, tail)
    }

    @inline(__always)
    private func labelEquals(_ s: Slot, _ label: UnsafeBufferPointer<UInt8>, _ w0: UInt64, _ w1: UInt64) -> Bool {
        guard Int(s.length) == label.count else { return false }
        if label.count <= 16 { return s.w0 == w0 && s.w1 == w1 }
        let off = Int(s.w0)
        guard off >= 0, off + label.count <= pool.count else { return false }
        for i in 0..<label.count where pool[off + i] != label[i] { return false }
        return true
    }

    /// The slot index of the edge from `parent` by `label`, if present.
    @inline(__always)
    func find(parent: Int32, _ label: UnsafeBufferPointer<UInt8>) -> Int? {
        let (w0, w1, tail) = GoodlistEdgeTable.words(label)
        let mask = slots.count - 1
        var i = Int(truncatingIfNeeded: GoodlistEdgeTable.hash(parent: parent, w0: w0, w1: w1, length: label.count, tail: tail)) & mask
        return slots.withUnsafeBufferPointer { s in
            while true {
                let slot = s[i]
                if slot.parent < 0 { return nil }
                if slot.parent == parent, labelEquals(slot, label, w0, w1) { return i }
                i = (i + 1) & mask
            }
        }
    }

    func slot(_ i: Int) -> Slot { slots[i] }

    /// Inserts the edge (it must not be present yet).
    mutating func insert(parent: Int32, label: UnsafeBufferPointer<UInt8>, child: Int32) {
        if (count + 1) * 4 > slots.count * 3 { grow() }
        var slot = Slot(parent: parent, child: child, length: Int32(label.count))
        let (w0, w1, tail) = GoodlistEdgeTable.words(label)
        if label.count <= 16 {
            slot.w0 = w0
            slot.w1 = w1
        } else {
            slot.w0 = UInt64(pool.count)
            pool.append(contentsOf: label)
        }
        place(slot, hash: GoodlistEdgeTable.hash(parent: parent, w0: w0, w1: w1, length: label.count, tail: tail))
        count += 1
    }

    /// Updates the anchors stored with the edge into `child`.
    mutating func setAnchors(at index: Int, exact: Int32, oneLabel: Int32, anyDepth: Int32) {
        slots[index].exact = exact
        slots[index].oneLabel = oneLabel
        slots[index].anyDepth = anyDepth
    }

    private mutating func place(_ slot: Slot, hash: UInt64) {
        let mask = slots.count - 1
        var i = Int(truncatingIfNeeded: hash) & mask
        while slots[i].parent >= 0 { i = (i + 1) & mask }
        slots[i] = slot
    }

    private mutating func grow() {
        let old = slots
        slots = Array(repeating: Slot(), count: old.count * 2)
        for s in old where s.parent >= 0 {
            let n = Int(s.length)
            let h: UInt64
            if n <= 16 {
                h = GoodlistEdgeTable.hash(parent: s.parent, w0: s.w0, w1: s.w1, length: n, tail: 0)
            } else {
                let off = Int(s.w0)
                h = pool[off..<(off + n)].withUnsafeBufferPointer { buf in
                    let (w0, w1, tail) = GoodlistEdgeTable.words(buf)
                    return GoodlistEdgeTable.hash(parent: s.parent, w0: w0, w1: w1, length: n, tail: tail)
                }
            }
            place(s, hash: h)
        }
    }
}
