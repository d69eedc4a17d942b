// Where the HTML parser pulls a page's bytes from: memory or a file descriptor, a few kB at a time, so a page
// read from a file or a pipe is never held whole (a 50 MB page costs the parser kilobytes, not megabytes).
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A page's bytes, delivered in pieces. libxml2 2.9 stops parsing at a NUL byte; browsers go on (the
/// tokenizer turns NUL into U+FFFD or drops it). So for byte-oriented encodings every NUL is delivered as
/// U+FFFD and the rest of the page is still seen. UTF-16/32 input (declared, a BOM, or `<` next to a zero
/// byte at the start) is delivered as it is.
class ByteSource {
    /// Why reading stopped early (an I/O error), if it did.
    private(set) var failure: String?
    /// Bytes produced by NUL replacement that did not fit in the caller's buffer.
    private var pending: [UInt8] = []
    private var pendingStart = 0
    private var started = false
    private var replaceNULs = true
    private let declaredEncoding: String?

    init(declaredEncoding: String?) { self.declaredEncoding = declaredEncoding }

    /// Reads up to `buffer.count` raw bytes; 0 at the end, -1 on error (with `failure` set).
    func readRaw(into buffer: UnsafeMutableRawBufferPointer) -> Int { 0 }

    final func fail(_ reason: String) -> Int {
        failure = reason
        return -1
    }

    /// Byte-oriented input also passes through the per-element limits (wide input is left as it is).
    private(set) var limiter = MarkupLimiter()

    /// Whether the limiter drops the attributes no finding reads (on unless a test compares without it).
    var dropsUnreadAttributes: Bool {
        get { limiter.dropsUnreadAttributes }
        set { limiter.dropsUnreadAttributes = newValue }
    }

    /// Fills `buffer` with the next bytes (NULs replaced as above, start tags held to `MarkupLimiter`'s
    /// limits); 0 at the end, -1 on error.
    final func read(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        while true {
            let n = readReplacingNULs(into: buffer)
            guard n > 0, replaceNULs else { return n }
            let kept = limiter.filter(buffer.baseAddress!.assumingMemoryBound(to: UInt8.self), count: n)
            if kept > 0 { return kept } // a piece wholly dropped is not the end: read on
        }
    }

    private func readReplacingNULs(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        guard buffer.count > 0 else { return 0 }
        if pendingStart < pending.count {
            let n = min(buffer.count, pending.count - pendingStart)
            pending.withUnsafeBytes { buffer.baseAddress!.copyMemory(from: $0.baseAddress! + pendingStart, byteCount: n) }
            pendingStart += n
            if pendingStart == pending.count { pending.removeAll(keepingCapacity: true); pendingStart = 0 }
            return n
        }
        var n = readRaw(into: buffer)
        if !started, n > 0 {
            started = true
            // The UTF-16 test looks at the first two bytes: make sure there are two unless the input has one.
            if n == 1, buffer.count > 1 {
                let more = readRaw(into: UnsafeMutableRawBufferPointer(rebasing: buffer[1...]))
                if more < 0 { return -1 }
                n += more
            }
            replaceNULs = !ByteSource.isWide(buffer.prefix(n), declaredEncoding: declaredEncoding)
        }
        guard n > 0, replaceNULs, memchr(buffer.baseAddress!, 0, n) != nil else { return n }
        // Expand each NUL to EF BF BD; what does not fit waits in `pending`.
        var expanded: [UInt8] = []
        expanded.reserveCapacity(n + 64)
        for b in buffer.prefix(n) {
            if b == 0 { expanded.append(0xEF); expanded.append(0xBF); expanded.append(0xBD) } else { expanded.append(b) }
        }
        let fit = min(buffer.count, expanded.count)
        expanded.withUnsafeBytes { buffer.baseAddress!.copyMemory(from: $0.baseAddress!, byteCount: fit) }
        pending = Array(expanded[fit...])
        pendingStart = 0
        return fit
    }

    /// UTF-16/32: declared so, or a UTF-16 BOM, or `<` next to a zero byte in the first two bytes.
    static func isWide(_ head: Slice<UnsafeMutableRawBufferPointer>, declaredEncoding: String?) -> Bool {
        if let e = declaredEncoding?.lowercased(), e.hasPrefix("utf-16") || e.hasPrefix("utf-32") || e.hasPrefix("ucs") {
            return true
        }
        guard head.count >= 2 else { return false }
        let a = head[head.startIndex], b = head[head.startIndex + 1]
        return (a == 0xFE && b == 0xFF) || (a == 0xFF && b == 0xFE) || (a == 0 && b == 0x3C) || (a == 0x3C && b == 0)
    }
}
