// One flow of a results file (`simulate --results FILE`): where it stands in the suite and its runs.
import Foundation

/// A flow's runs as a results file holds them.
public struct RecordedFlow: Sendable, Codable {
    /// Where the flow stands in the whole suite (0-based, in the order an unsplit run takes the flows):
    /// `merge-results` puts the shards' flows back in this order.
    public var position: Int
    /// One result per run of the file's `runs`, in that order (the mode's engine, or with compare the model's
    /// then each engine's).
    public var runs: [FlowResult]

    public init(position: Int, runs: [FlowResult]) {
        self.position = position
        self.runs = runs
    }

    private enum CodingKeys: String, CodingKey { case position, runs }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        position = try c.decodeCount(forKey: .position)
        runs = try c.decode([FlowResult].self, forKey: .runs)
    }
}
