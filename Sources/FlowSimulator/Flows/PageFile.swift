// A page file a flow names, read when the flow runs rather than when it is loaded (`simulate` over a suite whose
// flows share or hold large pages never has every flow's pages in memory at once).
import Foundation

/// A page body on disk, by path.
public struct PageFile: Sendable, Hashable {
    public var path: String

    public init(path: String) { self.path = path }

    /// The file's bytes, or nil when it cannot be read now.
    public func read() -> [UInt8]? { FileManager.default.contents(atPath: path).map(Array.init) }

    /// The size of a readable regular file (symlinks followed), or nil: what the loader checks before a run.
    static func readableSize(_ path: String) -> Int? {
        // attributesOfItem describes a symlink itself: look at what it points to, as reading the file will.
        let target = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        guard FileManager.default.isReadableFile(atPath: target),
            let attributes = try? FileManager.default.attributesOfItem(atPath: target),
            attributes[.type] as? FileAttributeType != .typeDirectory,
            let size = attributes[.size] as? NSNumber
        else { return nil }
        return size.intValue
    }
}
