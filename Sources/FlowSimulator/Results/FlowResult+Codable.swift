// A flow's result as the results file (`simulate --results FILE`) holds it; docs/cli.md "The results file".
import Foundation
import NavigationPolicy

extension FlowResult: Codable {
    private enum CodingKeys: String, CodingKey {
        case flow, file, description, explored, truncated, passed, branches
    }

    /// A result read back from a results file. Of its flow it keeps what the reports show (name, file,
    /// description): the flow cannot be run again from it.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let name = try c.decode(String.self, forKey: .flow)
        let placeholder = Policy(platform: .ios, paymentURL: "", completeURL: "", cancelURL: "")
        flow = Flow(
            name: name, description: try c.decode(String.self, forKey: .description),
            file: try c.decode(String.self, forKey: .file), policy: placeholder)
        explored = try c.decode(Bool.self, forKey: .explored)
        truncated = try c.decode(Bool.self, forKey: .truncated)
        branches = try c.decode([SimulationReport].self, forKey: .branches)
        guard !branches.isEmpty else {
            throw DecodingError.dataCorruptedError(
                forKey: .branches, in: c, debugDescription: "expected at least one branch (the default branch first)")
        }
        if let i = branches.firstIndex(where: { $0.flow != name }) {
            throw DecodingError.dataCorruptedError(
                forKey: .branches, in: c,
                debugDescription: "branch \(i + 1) is of flow '\(branches[i].flow)', expected '\(name)' (the flow it is under)")
        }
    }

    /// The flow's name, file and description, its branches, and `passed` for readers (recomputed when read).
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(flow.name, forKey: .flow)
        try c.encode(flow.file, forKey: .file)
        try c.encode(flow.description, forKey: .description)
        try c.encode(explored, forKey: .explored)
        try c.encode(truncated, forKey: .truncated)
        try c.encode(passed, forKey: .passed)
        try c.encode(branches, forKey: .branches)
    }
}
