import Foundation
import Testing
import TestSupport
@testable import FlowSimulator
import FlowImport

/// The results file (`simulate --results FILE`) and the merge of shards, in process.
@Suite struct ShardResultsTests {
    @Test func aShardsPositionsAreItsPathsPlacesInTheSuiteInSortedOrder() throws {
        let paths = ["b", "a", "c", "a"]
        #expect(try FlowShard(parsing: "1/2").positions(paths) == [1, 0])
        #expect(try FlowShard(parsing: "2/2").positions(paths) == [3, 2])
        #expect(try FlowShard(parsing: "1/2").select(paths) == ["a", "b"])
        #expect(try FlowShard(parsing: "1/1").positions(paths) == [1, 3, 0, 2])
    }

    @Test func aShardNamesARecordingAsTheUnsplitRunDoes() throws {
        let dir = try Project.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let har = HARReplayTests.path("auto_post_3ds.har")
        var paths: [String] = []
        for folder in ["a", "b"] {
            let sub = dir.appendingPathComponent(folder)
            try FileManager.default.createDirectory(at: sub, withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: har, toPath: sub.appendingPathComponent("checkout.har").path)
            paths.append(sub.appendingPathComponent("checkout.har").path)
        }
        let unsplit = LoadedFlows.loadEach(paths, har: HARReplayTests.options)
        #expect(unsplit.flows.map(\.name) == ["checkout", "checkout-2"])
        #expect(unsplit.positions == [0, 1])
        let second = LoadedFlows.loadEach(paths, har: HARReplayTests.options, shard: try FlowShard(parsing: "2/2"))
        #expect(second.flows.map(\.name) == ["checkout-2"])
        #expect(second.positions == [1])
        #expect(second.suiteSize == 2)
    }

    /// A run written and read back renders the same summary, JUnit, HTML report and trace.
    @Test func aResultsFileReadBackRendersTheSameReports() throws {
        let loaded = LoadedFlows.loadEach(
            [Project.path("Pages/03-ios-return-ladder-2b").path, Project.path("Pages/06-ios-swish-app-switch").path],
            har: nil)
        let results = loaded.flows.map { Simulator.explore($0) }
        let written = ResultsFile(
            plainview: "0.0.0", engine: "model", explore: true, shard: nil, paths: ["Pages"], loaded: loaded,
            sections: [("model", results)])
        let read = try ResultsFile.decode(try written.encoded(), file: "r.json")
        let back = read.reported
        #expect(back.count == 2)
        #expect(Reporting.text(back, verbose: true) == Reporting.text(results, verbose: true))
        #expect(Reporting.junit(back) == Reporting.junit(results))
        #expect(Reporting.html(back) == Reporting.html(results))
        #expect(Reporting.traceJSONLines(back) == Reporting.traceJSONLines(results))
        #expect(Reporting.json(back) == Reporting.json(results))
        #expect(zip(back, results).allSatisfy { a, b in zip(a.branches, b.branches).allSatisfy { $0.wallTime == $1.wallTime } })
        #expect(try read.encoded() == written.encoded())
    }

    @Test func mergedShardsAreInSuiteOrderWithAPathThatNamesNothingOnce() throws {
        let loaded = LoadedFlows.loadEach([Project.path("Pages").path, "no/such/flow"], har: nil)
        let full = loaded.flows.map { Simulator.run($0) }
        var shards: [(path: String, results: ResultsFile)] = []
        for i in [2, 1, 3] {
            let shard = try FlowShard(parsing: "\(i)/3")
            let part = LoadedFlows.loadEach([Project.path("Pages").path, "no/such/flow"], har: nil, shard: shard)
            let file = ResultsFile(
                plainview: "0.0.0", engine: "model", explore: false, shard: shard, paths: ["Pages", "no/such/flow"],
                loaded: part, sections: [("model", part.flows.map { Simulator.run($0) })])
            shards.append(("shard-\(i).json", try ResultsFile.decode(try file.encoded(), file: "shard-\(i).json")))
        }
        let merged = try ResultsFile.merge(shards)
        #expect(merged.shard == nil)
        #expect(merged.reported.map(\.flow.name) == full.map(\.flow.name))
        #expect(merged.problems.map(\.message) == loaded.problems.map(\.message))
        #expect(merged.problems.count == 1)
        #expect(merged.flows.map(\.position) == Array(0..<full.count))
    }
}
