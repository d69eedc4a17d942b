#if canImport(Glibc)
import Glibc
#endif

/// How the command's allocations go back to the system. glibc serves blocks of 128 kB and more with their own
/// mappings, returned when freed, until the first such block is freed: from then on it raises that threshold to
/// the freed block's size (up to 32 MB), and later big buffers come from the heap, whose freed space a process
/// keeps (mallopt(3), "M_MMAP_THRESHOLD"). A command that reads an 8 MB page or a large recording grows and
/// drops many big buffers; with the threshold moving, its peak depends on the order they were freed in
/// (measured on `extract` of a page of 175,000 named functions: 2.1 to 2.9 times the page, 2.2 with the
/// threshold fixed). Fixing it keeps every big buffer its own mapping, so what is freed is given back.
enum ProcessMemory {
    static let mapThreshold: Int32 = 128 * 1024

    static func returnBigBuffersWhenFreed() {
        #if canImport(Glibc)
        // `mallopt` is in <malloc.h>, which Swift's Glibc module does not include: looked up by name.
        // M_MMAP_THRESHOLD is -3 in that header.
        typealias MallOpt = @convention(c) (Int32, Int32) -> Int32
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt") else { return }
        _ = unsafeBitCast(symbol, to: MallOpt.self)(-3, mapThreshold)
        #endif
    }
}
