/// A set of ASCII bytes as two bit masks (one test per byte on the scanner's hot loop).
struct ByteSet {
    private var low: UInt64 = 0, high: UInt64 = 0 // bits for bytes 0…63 and 64…127
    init(_ bytes: [UInt8]) {
        for b in bytes where b < 128 { if b < 64 { low |= 1 << UInt64(b) } else { high |= 1 << UInt64(b - 64) } }
    }
    @inline(__always)
    func contains(_ b: UInt8) -> Bool {
        if b >= 128 { return false }
        return b < 64 ? (low >> UInt64(b)) & 1 == 1 : (high >> UInt64(b - 64)) & 1 == 1
    }
}
