// A shard as the results file (`simulate --results FILE`) holds it: `{"index": I, "count": N}`.
import Foundation

extension FlowShard: Codable {
    private enum CodingKeys: String, CodingKey { case index, count }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let index = try c.decode(Int.self, forKey: .index), count = try c.decode(Int.self, forKey: .count)
        do { try self.init(parsing: "\(index)/\(count)") } catch {
            throw DecodingError.dataCorruptedError(forKey: .index, in: c, debugDescription: error.description)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(index, forKey: .index)
        try c.encode(count, forKey: .count)
    }
}
