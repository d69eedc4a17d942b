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
        guard FileManager.default.isReadableFile(atPath: path),
            let attributes = try? FileManager.default.attributesOfItem(atPath: path),
            attributes[.type] as? FileAttributeType != .typeDirectory,
            let size = attributes[.size] as? NSNumber
        else { return nil }
        return size.intValue
    }
}
