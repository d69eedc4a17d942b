#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An open file descriptor (a file, or standard input), read until its end. The caller owns the descriptor.
final class FileByteSource: ByteSource {
    private let fd: Int32
    private let name: String

    init(fd: Int32, name: String, declaredEncoding: String?) {
        self.fd = fd
        self.name = name
        super.init(declaredEncoding: declaredEncoding)
    }

    /// libxml2 asks for 4 kB at a time; the descriptor is read 64 kB at a time (a sixteenth of the system calls).
    private let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 16)
    private var chunkStart = 0, chunkEnd = 0

    deinit { chunk.deallocate() }

    override func readRaw(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        if chunkStart == chunkEnd {
            let n = readChunk()
            guard n > 0 else { return n }
            chunkStart = 0
            chunkEnd = n
        }
        let n = min(buffer.count, chunkEnd - chunkStart)
        buffer.baseAddress!.copyMemory(from: chunk.baseAddress! + chunkStart, byteCount: n)
        chunkStart += n
        return n
    }

    private func readChunk() -> Int {
        while true {
            let n = readFD(fd, chunk.baseAddress, chunk.count)
            if n >= 0 { return n }
            if errno == EINTR { continue }
            return fail("reading \(name) failed: \(String(cString: strerror(errno)))")
        }
    }
}

/// read(2), named so it does not clash with `ByteSource.read(into:)`.
private func readFD(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(fd, buffer, count)
}
