/// Names numbered in the order first seen: their bytes end to end and an open-addressing table of numbers
/// (about 20 bytes a name; a `[String: Int32]` takes about 50, and a page can declare 200,000 functions).
struct NameTable {
    private var bytes: [UInt8] = []
    private var ends: [Int32] = []
    /// Name numbers by hash, -1 for empty; at most half full.
    private var slots = [Int32](repeating: -1, count: 64)

    /// The number of `name`, and whether it was new.
    mutating func insert<C: Collection<UInt8>>(_ name: C) -> (id: Int32, new: Bool) {
        var k = Self.hash(name) & (slots.count - 1)
        while slots[k] >= 0 {
            if self.name(Int(slots[k])).elementsEqual(name) { return (slots[k], false) }
            k = (k + 1) & (slots.count - 1)
        }
        let id = Int32(ends.count)
        bytes += name
        ends.append(Int32(truncatingIfNeeded: bytes.count))
        slots[k] = id
        if ends.count * 2 > slots.count { grow() }
        return (id, true)
    }

    func find<C: Collection<UInt8>>(_ name: C) -> Int32? {
        var k = Self.hash(name) & (slots.count - 1)
        while slots[k] >= 0 {
            if self.name(Int(slots[k])).elementsEqual(name) { return slots[k] }
            k = (k + 1) & (slots.count - 1)
        }
        return nil
    }

    private func name(_ id: Int) -> ArraySlice<UInt8> { bytes[(id == 0 ? 0 : Int(ends[id - 1]))..<Int(ends[id])] }

    private mutating func grow() {
        slots = [Int32](repeating: -1, count: slots.count * 2)
        for id in ends.indices {
            var k = Self.hash(name(id)) & (slots.count - 1)
            while slots[k] >= 0 { k = (k + 1) & (slots.count - 1) }
            slots[k] = Int32(id)
        }
    }

    /// FNV-1a.
    private static func hash<C: Collection<UInt8>>(_ name: C) -> Int {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in name { h = (h ^ UInt64(b)) &* 0x100_0000_01b3 }
        return Int(truncatingIfNeeded: h ^ (h >> 32))
    }
}
