/// `Tag`s of element names by the names' addresses. libxml2 hands over every element name from its parser's
/// dictionary (or a constant, for the elements it implies), which lives as long as the parse, so one address
/// is one name for the whole parse: a page's few dozen names fill a small direct-mapped table, and an element
/// costs a comparison of addresses instead of bytes (4% of a scan of the benchmark's checkout page).
struct TagCache {
    private var names = [UnsafePointer<UInt8>?](repeating: nil, count: 64)
    private var tags = [Tag](repeating: .other, count: 64)

    @inline(__always)
    mutating func tag(_ name: UnsafePointer<UInt8>) -> Tag {
        // The slot: the top six bits of the address times a large odd constant. libxml2's dictionary packs its
        // names a few bytes apart, so every bit of the address counts (dropping the low three put `h3` and `p`,
        // stored next to each other, in one slot: one element in seven missed).
        let slot = Int(truncatingIfNeeded: (UInt64(UInt(bitPattern: name)) &* 0x9E37_79B9_7F4A_7C15) >> 58)
        if names[slot] == name {
            // Debug builds (the tests) check that an address never comes back with another name.
            assert(tags[slot] == Tag(name), "libxml2 reused an element name's address for another name")
            return tags[slot]
        }
        let tag = Tag(name)
        names[slot] = name
        tags[slot] = tag
        return tag
    }
}
