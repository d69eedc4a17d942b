// `plainview simulate --results FILE`: one run's results as one JSON file, which `plainview merge-results` joins
// with the other shards' files into the summary and reports one unsplit run writes. The format is versioned
// (`version`) and documented in docs/cli.md ("The results file"); reading it is in ResultsFile+Reading.swift,
// merging in ResultsFile+Merge.swift.
import Foundation

/// Everything the summary and the reports of a run are made from: every flow's runs (verdicts, branches,
/// traces, timings), the input problems, the engine mode, and the part of the suite the run ran.
public struct ResultsFile: Sendable {
    /// The value of `format`, which names the file's kind.
    public static let format = "plainview-results"
    /// The format version this code writes and reads.
    public static let version = 1

    /// The plainview release that wrote the file (`0.5.0`), for messages.
    public var plainview: String
    /// The engine mode: `model`, `chromium`, `webkit`, `compare`, `compare:chromium` or `compare:webkit`.
    public var engine: String
    /// The runs each flow holds, in order: the mode's engine (`model`, `chromium`, `webkit`), or with compare the
    /// model's and then each engine's (`model`, `chromium`, `webkit`).
    public var runs: [String]
    /// True when the run explored every branch (`--explore`).
    public var explore: Bool
    /// The part of the suite this run ran (`--shard I/N`); nil for an unsplit run and for a merge.
    public var shard: FlowShard?
    /// The paths the run was given (`Pages` when none).
    public var paths: [String]
    /// How many flow files and recordings the paths name in all (every shard's, not only this one's).
    public var suiteSize: Int
    /// The inputs that did not read, in the order the run reported them.
    public var problems: [FlowInputProblem]
    /// The flows run, in the order the run ran them.
    public var flows: [RecordedFlow]

    public init(
        plainview: String, engine: String, runs: [String], explore: Bool, shard: FlowShard?, paths: [String],
        suiteSize: Int, problems: [FlowInputProblem], flows: [RecordedFlow]
    ) {
        self.plainview = plainview
        self.engine = engine
        self.runs = runs
        self.explore = explore
        self.shard = shard
        self.paths = paths
        self.suiteSize = suiteSize
        self.problems = problems
        self.flows = flows
    }

    /// A run of `loaded` as `simulate` did it: `sections` holds each run's results in the order of
    /// `loaded.flows` (one section, or with compare the model's and then each engine's). Results of replayed
    /// recordings get their `LoadedFlows.annotate` note.
    public init(
        plainview: String, engine: String, explore: Bool, shard: FlowShard?, paths: [String], loaded: LoadedFlows,
        sections: [(name: String, results: [FlowResult])]
    ) {
        precondition(
            sections.allSatisfy { $0.results.count == loaded.flows.count }, "every run holds one result per flow, in order")
        let annotated = sections.map { loaded.annotate($0.results) }
        // Flows not loaded by `loadEach` (no positions) are the whole suite, in their order.
        let positioned = loaded.positions.count == loaded.flows.count
        self.init(
            plainview: plainview, engine: engine, runs: sections.map(\.name), explore: explore, shard: shard,
            paths: paths, suiteSize: positioned ? loaded.suiteSize : loaded.flows.count, problems: loaded.problems,
            flows: loaded.flows.indices.map { i in
                RecordedFlow(position: positioned ? loaded.positions[i] : i, runs: annotated.map { $0[i] })
            })
    }

    /// True for `--engine compare`: the first run is the model's, the others are engines compared with it.
    public var isComparison: Bool { engine.hasPrefix("compare") }

    /// Every flow's result in run `index` of `runs`, in the order of `flows`.
    public func results(run index: Int) -> [FlowResult] { flows.map { $0.runs[index] } }

    /// The results the report files hold: the one run's, or with compare every engine's, one engine after the other.
    public var reported: [FlowResult] {
        isComparison ? runs.indices.dropFirst().flatMap { results(run: $0) } : results(run: 0)
    }

    /// True when some run of some flow did not meet its expectations.
    public var failed: Bool { flows.contains { $0.runs.contains { !$0.passed } } }

    /// The file's text: one JSON document on one line, keys sorted, then a line break.
    public func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self) + Data("\n".utf8)
    }
}
