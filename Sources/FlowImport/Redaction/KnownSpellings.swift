// The spellings of the secrets a redactor has learnt, to replace wherever else they stand (see
// `Redactor.replaceKnown`). A long recording teaches about 100,000 of them, so they are held compactly (issue 34:
// the import's peak memory): every spelling's bytes in one arena, found through open-addressing tables of 32-bit
// indices, where a dictionary entry and an array per spelling took about three times the room.

/// Secret spellings (bytes) → placeholders, and for each run of the first `keyLength` bytes the distinct lengths
/// of the spellings that start with it, longest first. Secrets often share a prefix (`v000000000017`,
/// `v000000000018`) but rarely many lengths, so a position of a text costs one lookup per length, never a scan of
/// the secrets learnt.
struct KnownSpellings {
    /// How many leading bytes key the lengths (1…8).
    let keyLength: Int

    /// Every spelling's bytes, one after another.
    private var arena: [UInt8] = []
    /// Spelling i: its bytes `arena[offsets[i] ..< offsets[i] + lengths[i]]`, its placeholder `placeholders[owners[i]]`.
    /// Offsets and lengths are full-width: a recording of several gigabytes can teach more than 4 GB of spellings.
    /// The 32-bit counts and indices cannot be outgrown first: 2^31 spellings take over 60 GB here (arena, offsets,
    /// lengths, owners and slots), so memory runs out long before.
    private var offsets: [Int] = []
    private var lengths: [Int] = []
    private var owners: [UInt32] = []
    /// The placeholders, in the order first added; consecutive spellings of one secret share an entry.
    private var placeholders: [String] = []
    /// Open addressing over the spellings' bytes: a spelling's index, or -1. Capacity a power of two, at most half full.
    private var exactSlots: [Int32] = []

    /// The distinct leading runs, each with the head of its list of lengths (`nodeLength`, `nodeNext`), longest first.
    private var prefixes: [UInt64] = []
    private var prefixHeads: [Int32] = []
    /// Open addressing over `prefixes`: a prefix's index, or -1.
    private var prefixSlots: [Int32] = []
    private var nodeLength: [Int] = []
    private var nodeNext: [Int32] = []

    init(keyLength: Int) {
        self.keyLength = max(1, min(keyLength, 8))
    }

    var isEmpty: Bool { offsets.isEmpty }
    var count: Int { offsets.count }

    /// Learns `text` → `placeholder`; a spelling already known keeps its placeholder, and one shorter than
    /// `keyLength` bytes is not kept.
    mutating func add(_ text: String, placeholder: String) {
        let bytes = Array(text.utf8)
        guard bytes.count >= keyLength else { return }
        bytes.withUnsafeBufferPointer { b in
            guard index(of: b) == nil else { return }
            if exactSlots.count < 2 * (offsets.count + 1) { grow() }
            let spelling = Int32(offsets.count)
            offsets.append(arena.count)
            lengths.append(b.count)
            arena.append(contentsOf: b)
            if placeholders.last != placeholder { placeholders.append(placeholder) }
            owners.append(UInt32(placeholders.count - 1))
            insertExact(spelling)
            addLength(b.count, prefix: Self.prefix(b, at: 0, keyLength))
        }
    }

    /// The placeholder of the longest spelling that starts at `i` in `b` and that `accept` allows at that length
    /// (a whole token: the redactor checks the bytes around it), if any.
    func longest(in b: UnsafeBufferPointer<UInt8>, at i: Int, where accept: (Int) -> Bool) -> (length: Int, placeholder: String)?
    {
        guard i + keyLength <= b.count, let p = prefixIndex(Self.prefix(b, at: i, keyLength)) else { return nil }
        var node = prefixHeads[p]
        while node >= 0 {
            let length = nodeLength[Int(node)]
            node = nodeNext[Int(node)]
            guard i + length <= b.count, accept(length) else { continue }
            let slice = UnsafeBufferPointer(rebasing: b[i..<(i + length)])
            if let s = index(of: slice) { return (length, placeholders[Int(owners[s])]) }
        }
        return nil
    }

    // MARK: the tables

    private static func prefix(_ b: UnsafeBufferPointer<UInt8>, at i: Int, _ k: Int) -> UInt64 {
        var key: UInt64 = 0
        for j in 0..<k { key = key << 8 | UInt64(b[i + j]) }
        return key
    }

    /// FNV-1a over the bytes.
    private static func hash(_ b: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in b { h = (h ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        return h
    }

    private static func hash(_ key: UInt64) -> UInt64 {
        var h = key &* 0x9e37_79b9_7f4a_7c15
        h ^= h >> 29
        return h
    }

    private func bytesEqual(_ spelling: Int, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        guard lengths[spelling] == b.count else { return false }
        let start = offsets[spelling]
        return arena.withUnsafeBufferPointer { a in
            for j in 0..<b.count where a[start + j] != b[j] { return false }
            return true
        }
    }

    private func index(of b: UnsafeBufferPointer<UInt8>) -> Int? {
        Self.find(in: exactSlots, hash: Self.hash(b)) { bytesEqual($0, b) }
    }

    private mutating func insertExact(_ spelling: Int32) {
        let start = offsets[Int(spelling)], length = lengths[Int(spelling)]
        let h = arena.withUnsafeBufferPointer { Self.hash(UnsafeBufferPointer(rebasing: $0[start..<(start + length)])) }
        Self.place(spelling, in: &exactSlots, hash: h)
    }

    /// Linear probing from `hash`: the first entry `matches` accepts, or nil at an empty slot.
    @inline(__always)
    private static func find(in slots: [Int32], hash: UInt64, _ matches: (Int) -> Bool) -> Int? {
        guard !slots.isEmpty else { return nil }
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: hash) & mask
        while slots[slot] >= 0 {
            if matches(Int(slots[slot])) { return Int(slots[slot]) }
            slot = (slot + 1) & mask
        }
        return nil
    }

    /// Puts `entry` in the first empty slot from `hash`.
    private static func place(_ entry: Int32, in slots: inout [Int32], hash: UInt64) {
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: hash) & mask
        while slots[slot] >= 0 { slot = (slot + 1) & mask }
        slots[slot] = entry
    }

    /// Doubles the spellings' table, placing every spelling again.
    private mutating func grow() {
        exactSlots = [Int32](repeating: -1, count: max(64, exactSlots.count * 2))
        for s in 0..<offsets.count { insertExact(Int32(s)) }
    }

    private func prefixIndex(_ key: UInt64) -> Int? {
        Self.find(in: prefixSlots, hash: Self.hash(key)) { prefixes[$0] == key }
    }

    private mutating func insertPrefix(_ p: Int) { Self.place(Int32(p), in: &prefixSlots, hash: Self.hash(prefixes[p])) }

    /// Adds `length` to the prefix's lengths, keeping them distinct and longest first.
    private mutating func addLength(_ length: Int, prefix key: UInt64) {
        let p: Int
        if let known = prefixIndex(key) {
            p = known
        } else {
            if prefixSlots.count < 2 * (prefixes.count + 1) {
                prefixSlots = [Int32](repeating: -1, count: max(64, prefixSlots.count * 2))
                for q in 0..<prefixes.count { insertPrefix(q) }
            }
            p = prefixes.count
            prefixes.append(key)
            prefixHeads.append(-1)
            insertPrefix(p)
        }
        var previous: Int32 = -1
        var node = prefixHeads[p]
        while node >= 0, nodeLength[Int(node)] > length {
            previous = node
            node = nodeNext[Int(node)]
        }
        if node >= 0, nodeLength[Int(node)] == length { return }
        let new = Int32(nodeLength.count)
        nodeLength.append(length)
        nodeNext.append(node)
        if previous < 0 { prefixHeads[p] = new } else { nodeNext[Int(previous)] = new }
    }
}
