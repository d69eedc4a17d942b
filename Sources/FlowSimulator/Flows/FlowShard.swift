import Foundation
import PlainviewConfig

/// One part of a flow suite split for a CI matrix (`--shard I/N`): the flows whose position in the suite sorted
/// by path is I, I+N, I+2N … (1-based), so the parts never overlap, cover the suite, and stay put as it grows.
public struct FlowShard: Sendable, Hashable, CustomStringConvertible {
    public var index: Int
    public var count: Int

    /// Why `I/N` was refused.
    public struct ParseError: Error, Sendable, CustomStringConvertible {
        public var description: String
    }

    /// Reads `I/N`: whole numbers with 1 ≤ I ≤ N.
    public init(parsing text: String) throws(ParseError) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let i = Int(parts[0]), let n = Int(parts[1]), parts.allSatisfy({ $0.allSatisfy(\.isASCII) })
        else {
            throw ParseError(description: "expected I/N (this run's part I of N parts, like 2/4), found '\(text)'")
        }
        guard n >= 1, i >= 1, i <= n else {
            throw ParseError(
                description: "expected 1 ≤ I ≤ N in I/N (like 1/\(max(n, 2)) … \(max(n, 2))/\(max(n, 2))), found '\(text)'")
        }
        index = i
        count = n
    }

    public var description: String { "\(index)/\(count)" }

    /// This part of `paths`, in sorted order.
    public func select(_ paths: [String]) -> [String] { positions(paths).map { paths[$0] } }

    /// Where this part's paths stand in `paths` (0-based), in sorted path order: a path named twice stands
    /// twice, the earlier position first.
    public func positions(_ paths: [String]) -> [Int] {
        paths.indices.sorted { paths[$0] != paths[$1] ? paths[$0] < paths[$1] : $0 < $1 }.enumerated()
            .filter { $0.offset % count == index - 1 }.map(\.element)
    }
}
