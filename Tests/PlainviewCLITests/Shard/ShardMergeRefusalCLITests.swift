import Foundation
import Testing
import TestSupport

/// Black-box: `merge-results` refuses, with exit 64 and a message naming the file and what is wrong, files that
/// are not the shards of one run, and writes nothing then.
@Suite struct ShardMergeRefusalCLITests {
    /// Four flows run as shards 1/3, 2/3 and 3/3 (`shard-1.json` …) in a fresh folder.
    static func shardedRun() throws -> URL {
        let completes = SimulateSuiteCLITests.completes
        let dir = try Project.temporaryFlows(["a": completes, "b": completes, "c": completes, "d": completes])
        for i in 1...3 {
            let r = try CLI.run(["simulate", "--shard", "\(i)/3", "--results", "shard-\(i).json", dir.path], in: dir)
            #expect(r.status == 0, "\(r)")
        }
        return dir
    }

    /// Rewrites the JSON file `name` in `dir` through `edit`.
    static func edit(_ name: String, in dir: URL, _ edit: (inout [String: Any]) throws -> Void) throws {
        let url = dir.appendingPathComponent(name)
        var object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        try edit(&object)
        try JSONSerialization.data(withJSONObject: object).write(to: url)
    }

    /// Runs `merge-results FILES --junit merged.xml` in `dir`: exit 64, `message` on standard error, no JUnit written.
    static func refuses(_ files: [String], in dir: URL, _ message: String, sourceLocation: SourceLocation = #_sourceLocation)
        throws
    {
        let r = try CLI.run(["merge-results", "--junit", "merged.xml"] + files, in: dir)
        #expect(r.status == 64, "\(r)", sourceLocation: sourceLocation)
        #expect(r.stderr.contains("error: " + message), "\(r)", sourceLocation: sourceLocation)
        #expect(r.stdout.isEmpty, "\(r)", sourceLocation: sourceLocation)
        #expect(
            !FileManager.default.fileExists(atPath: dir.appendingPathComponent("merged.xml").path),
            sourceLocation: sourceLocation)
    }

    static let all = ["shard-1.json", "shard-2.json", "shard-3.json"]

    @Test func theShardsOfOneRunMerge() throws {
        let dir = try Self.shardedRun()
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try CLI.run(["merge-results"] + Self.all, in: dir)
        #expect(r.status == 0, "\(r)")
        #expect(r.stdoutLines.last == "4 flows: 4 passed, 0 failed", "\(r)")
    }

    @Test func aFileOfAnotherFormatVersionIsRefused() throws {
        let dir = try Self.shardedRun()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Self.edit("shard-2.json", in: dir) {
            $0["version"] = 2
            $0["plainview"] = "9.0.0"
        }
        try Self.refuses(
            Self.all, in: dir,
            "shard-2.json: version: results format version 2 (written by plainview 9.0.0); this plainview reads version 1")
    }

    @Test func filesThatAreNotResultsFilesAreRefused() throws {
        let dir = try Self.shardedRun()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data("{\"flows\": []}".utf8).write(to: dir.appendingPathComponent("other.json"))
        try Self.refuses(
            ["shard-1.json", "other.json"], in: dir,
            "other.json: format: expected \"plainview-results\" (expected a results file written by plainview simulate --results FILE), found no format key"
        )
        try Data("{\"format\": \"plainview-results\", \"version\": 1,\n  \"flows\": [}".utf8)
            .write(to: dir.appendingPathComponent("broken.json"))
        try Self.refuses(["broken.json"], in: dir, "broken.json: not JSON: line 2, column ")
        try Self.refuses(["shard-1.json", "missing.json"], in: dir, "missing.json: no such file; expected a results file")
        try Self.refuses(["."], in: dir, ".: a folder; expected a results file")
        let noFiles = try CLI.run(["merge-results"], in: dir)
        #expect(noFiles.status == 64, "\(noFiles)")
        #expect(noFiles.stderr.contains("expected the results files of a run's shards"), "\(noFiles)")
    }

    @Test func aBadValueIsRefusedNamingItsKey() throws {
        let dir = try Self.shardedRun()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Self.edit("shard-3.json", in: dir) { file in
            var flows = try #require(file["flows"] as? [[String: Any]])
            var runs = try #require(flows[0]["runs"] as? [[String: Any]])
            var branches = try #require(runs[0]["branches"] as? [[String: Any]])
            branches[0]["outcome"] = ["kind": "finished", "place": "webview", "reason": ""]
            runs[0]["branches"] = branches
            flows[0]["runs"] = runs
            file["flows"] = flows
        }
        try Self.refuses(
            Self.all, in: dir,
            "shard-3.json: flows[0].runs[0].branches[0].outcome.kind: expected one of complete, canceled, stuck, loop, error")
        try Self.edit("shard-3.json", in: dir) { $0["suiteSize"] = "four" }
        try Self.refuses(Self.all, in: dir, "shard-3.json: suiteSize: expected a whole number")
        try Self.edit("shard-3.json", in: dir) { $0.removeValue(forKey: "suiteSize") }
        try Self.refuses(Self.all, in: dir, "shard-3.json: suiteSize: missing: expected this key")
    }

    @Test func aFlowInTwoShardsIsRefused() throws {
        let dir = try Self.shardedRun()
        defer { try? FileManager.default.removeItem(at: dir) }
        var first: [String: Any] = [:]
        try Self.edit("shard-1.json", in: dir) { first = try #require(($0["flows"] as? [[String: Any]])?.first) }
        try Self.edit("shard-2.json", in: dir) { $0["flows"] = ($0["flows"] as? [[String: Any]] ?? []) + [first] }
        try Self.refuses(
            Self.all, in: dir,
            "shard-2.json: flow 'a' (\(dir.path)/a/flow.yaml) is also in shard-1.json: a flow belongs to one shard (duplicate flow across shards)"
        )
    }

    @Test func aFlowInNoShardIsRefused() throws {
        let dir = try Self.shardedRun()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Self.edit("shard-2.json", in: dir) { $0["flows"] = [Any]() }
        try Self.refuses(
            Self.all, in: dir,
            "the files hold 3 of the suite's 4 flows; none holds the flow at position 1: merge the shards of one run")
    }

    @Test func aShardGivenTwiceIsRefused() throws {
        let dir = try Self.shardedRun()
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.copyItem(
            at: dir.appendingPathComponent("shard-2.json"), to: dir.appendingPathComponent("again.json"))
        try Self.refuses(
            Self.all + ["again.json"], in: dir,
            "again.json: shard: shard 2/3 again (shard-2.json is shard 2/3 too): give each shard once")
    }

    @Test func shardsOfDifferentNAreRefused() throws {
        let dir = try Self.shardedRun()
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try CLI.run(["simulate", "--shard", "2/2", "--results", "half-2.json", dir.path], in: dir)
        #expect(r.status == 0, "\(r)")
        try Self.refuses(
            ["shard-1.json", "half-2.json"], in: dir,
            "half-2.json: shard: shard 2/2, but shard-1.json is shard 1/3: shards of different N (every shard of one run has the same N)"
        )
    }

    @Test func missingShardsAreRefusedNamingThem() throws {
        let dir = try Self.shardedRun()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Self.refuses(
            ["shard-3.json", "shard-1.json"], in: dir,
            "missing shard 2/3: given 1/3 (shard-1.json), 3/3 (shard-3.json); merge every shard's results file")
        try Self.refuses(
            ["shard-2.json"], in: dir, "missing shards 1/3, 3/3: given 2/3 (shard-2.json); merge every shard's results file")
    }

    @Test func mixedEngineModesAreRefused() throws {
        let dir = try Self.shardedRun()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Self.edit("shard-2.json", in: dir) {
            $0["engine"] = "webkit"
            $0["runs"] = ["webkit"]
        }
        try Self.refuses(
            Self.all, in: dir,
            "shard-2.json: engine: engine mode webkit, but shard-1.json ran engine mode model: merge the shards of one run (mixed engine modes)"
        )
    }

    @Test func shardsOfAnotherRunAreRefused() throws {
        let dir = try Self.shardedRun()
        defer { try? FileManager.default.removeItem(at: dir) }
        let explored = try CLI.run(["simulate", "--explore", "--shard", "2/3", "--results", "explored.json", dir.path], in: dir)
        #expect(explored.status == 0, "\(explored)")
        try Self.refuses(
            ["shard-1.json", "explored.json", "shard-3.json"], in: dir,
            "explored.json: explore: ran with --explore, but shard-1.json ran without it: merge the shards of one run")
        let other = try CLI.run(
            ["simulate", "--shard", "2/3", "--results", "other.json", dir.appendingPathComponent("a").path], in: dir)
        #expect(other.status == 0, "\(other)")
        try Self.refuses(["shard-1.json", "other.json", "shard-3.json"], in: dir, "other.json: paths: ran the suite ")
        let unsplit = try CLI.run(["simulate", "--results", "unsplit.json", dir.path], in: dir)
        #expect(unsplit.status == 0, "\(unsplit)")
        try Self.refuses(
            ["shard-1.json", "unsplit.json"], in: dir,
            "unsplit.json: shard: an unsplit run (no --shard) beside 1 other file: merge it alone, or merge only the shards of one split run"
        )
    }
}
