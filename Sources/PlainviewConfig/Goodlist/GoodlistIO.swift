import Foundation
import NavigationPolicy
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// File reading and atomic writing for the goodlist tools.
public enum GoodlistIO {
    /// Reads a whole file, refusing folders, unreadable and oversized files with a message naming the path.
    public static func readBytes(_ path: String, what: String) throws(ConfigError) -> [UInt8] {
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDir) else {
            throw ConfigError(file: path, "no such file (expected \(what))")
        }
        if isDir.boolValue { throw ConfigError(file: path, "is a folder (expected \(what))") }
        guard FileManager.default.isReadableFile(atPath: path) else {
            throw ConfigError(file: path, "cannot read the file: permission denied")
        }
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue ?? 0
        if size > GoodlistFiles.maximumFileSize {
            throw ConfigError(
                file: path,
                "too large (\(size) bytes; the limit is \(GoodlistFiles.maximumFileSize / 1024 / 1024) MiB) for \(what)")
        }
        do {
            return [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        } catch {
            throw ConfigError(file: path, "cannot read the file (\(error.localizedDescription))")
        }
    }

    /// Replaces the file at `path` with `bytes` atomically: a temporary file in the same folder is written,
    /// flushed to disk and given the original's permissions, then renamed over the original. Readers see
    /// either the old or the new file, never a half-written one. A symbolic link is followed (its target is
    /// replaced, the link stays). On any error the original is untouched and the temporary file removed.
    public static func writeAtomically(_ bytes: [UInt8], to path: String) throws(ConfigError) {
        let target = URL(fileURLWithPath: path).resolvingSymlinksInPath()
        let dir = target.deletingLastPathComponent().path
        let name = target.lastPathComponent
        var template = Array("\(dir)/.\(name).plainview-XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        if fd < 0 {
            throw ConfigError(
                file: path,
                "cannot create a temporary file in \(dir) (\(String(cString: strerror(errno)))); the file is unchanged")
        }
        let tempPath = String(decoding: template.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var ok = false
        defer {
            if !ok { unlink(tempPath) }
        }
        var written = 0
        let writeError: Int32? = bytes.withUnsafeBytes { raw -> Int32? in
            while written < raw.count {
                let n = write(fd, raw.baseAddress! + written, raw.count - written)
                if n < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                written += n
            }
            return nil
        }
        if let e = writeError {
            close(fd)
            throw ConfigError(file: path, "cannot write (\(String(cString: strerror(e)))); the file is unchanged")
        }
        var st = stat()
        if stat(target.path, &st) == 0 { _ = fchmod(fd, st.st_mode & 0o7777) }
        if fsync(fd) != 0 {
            let e = errno
            close(fd)
            throw ConfigError(file: path, "cannot flush to disk (\(String(cString: strerror(e)))); the file is unchanged")
        }
        close(fd)
        if rename(tempPath, target.path) != 0 {
            throw ConfigError(file: path, "cannot replace the file (\(String(cString: strerror(errno)))); the file is unchanged")
        }
        ok = true
        // Make the rename itself durable.
        let dfd = open(dir, O_RDONLY)
        if dfd >= 0 { _ = fsync(dfd); close(dfd) }
    }
}
