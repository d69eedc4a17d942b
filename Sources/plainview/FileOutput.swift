// Output written as it is produced, for outputs that can be large (`extract` on a 50 MB page lists hundreds of
// thousands of links): a JSONWriter hands it 64 kB chunks.
#if canImport(Glibc)
import Glibc
#endif

/// A file descriptor (standard output by default) that remembers its first write error.
final class FileOutput {
    private let fd: Int32
    /// The first write error (errno), if any; later writes are dropped.
    private(set) var writeError: Int32?

    init(fd: Int32 = 1) { self.fd = fd }

    func write(_ bytes: [UInt8]) {
        guard writeError == nil else { return }
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if n < 0 {
                if errno == EINTR { continue }
                writeError = errno
                return
            }
            offset += n
        }
    }
}
