/// Bytes already in memory (read in place, never copied whole).
final class MemoryByteSource: ByteSource {
    private let bytes: [UInt8]
    private var offset = 0

    init(_ bytes: [UInt8], declaredEncoding: String?) {
        self.bytes = bytes
        super.init(declaredEncoding: declaredEncoding)
    }

    override func readRaw(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        let n = min(buffer.count, bytes.count - offset)
        guard n > 0 else { return 0 }
        bytes.withUnsafeBytes { buffer.baseAddress!.copyMemory(from: $0.baseAddress! + offset, byteCount: n) }
        offset += n
        return n
    }
}
