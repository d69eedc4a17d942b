// An input problem as the results file (`simulate --results FILE`) holds it: the path, the message and where
// the flow stands in the suite (absent for a PATH that names nothing).
import Foundation

extension FlowInputProblem: Codable {
    private enum CodingKeys: String, CodingKey { case path, message, position }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let position = try c.decodeIfPresent(Int.self, forKey: .position)
        if let position, position < 0 {
            throw DecodingError.dataCorruptedError(
                forKey: .position, in: c, debugDescription: "expected a whole number ≥ 0, found \(position)")
        }
        self.init(
            path: try c.decode(String.self, forKey: .path), message: try c.decode(String.self, forKey: .message),
            position: position)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(path, forKey: .path)
        try c.encode(message, forKey: .message)
        try c.encodeIfPresent(position, forKey: .position)
    }
}
