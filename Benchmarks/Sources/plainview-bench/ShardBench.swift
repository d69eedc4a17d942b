// What splitting a run costs: the shipped Pages as one `plainview simulate` process against 3 shard processes
// (`--shard I/3 --results FILE`) and the `merge-results` that joins them, every process writing JUnit, the HTML
// report and the trace as the unsplit run does. Release build of the CLI, wall clock of whole processes. The same
// with `--engine chromium`, where each flow takes a real browser's time, when Chromium is installed.
import Foundation
import PlainviewEngines

enum ShardBench {
    static func run(quick: Bool) -> [Metric] {
        let model =
            measure([], suffix: "", rounds: quick ? 3 : 11) + measure(["--explore"], suffix: ".explore", rounds: quick ? 3 : 11)
        guard ChromiumEngine.locate() != nil else {
            return model + [
                Metric(
                    name: "shard.unsplit_pages_ms.chromium", value: .nan, unit: "ms",
                    note: "Chromium is not installed (apt-get install chromium)")
            ]
        }
        return model + measure(["--engine", "chromium"], suffix: ".chromium", rounds: quick ? 1 : 3)
    }

    /// Median over `rounds` of: one unsplit run; 3 shards one after the other plus the merge (the machine time
    /// a split run costs); the slowest shard plus the merge (the wall time with the shards on 3 machines at
    /// once); the merge alone. `suffix` ends the metrics' names.
    static func measure(_ options: [String], suffix: String, rounds: Int) -> [Metric] {
        let name = "shard.unsplit_pages_ms\(suffix)"
        guard let exe = Paths.sibling("plainview") else {
            return [
                Metric(
                    name: name, value: .nan, unit: "ms",
                    note: "build the CLI too: `swift build -c release` at the repository root")
            ]
        }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("plainview-bench-shard-\(getpid())")
        defer { try? FileManager.default.removeItem(at: dir) }
        do { try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true) } catch {
            return [Metric(name: name, value: .nan, unit: "ms", note: "cannot make \(dir.path): \(error)")]
        }
        let pages = Paths.repoRoot.appendingPathComponent("Pages").path
        func reports(_ tag: String) -> [String] {
            ["--junit", "\(tag).xml", "--report", "\(tag).html", "--trace", "\(tag).jsonl"].map {
                $0.hasPrefix("--") ? $0 : dir.appendingPathComponent($0).path
            }
        }
        let shardFiles = (1...3).map { dir.appendingPathComponent("shard-\($0).json").path }
        let unsplitArgs = ["simulate", pages] + options + reports("unsplit")
        let shardArgs = (1...3).map { ["simulate", pages, "--shard", "\($0)/3", "--results", shardFiles[$0 - 1]] + options }
        let mergeArgs = ["merge-results"] + shardFiles + reports("merged")
        _ = Child.run(exe, unsplitArgs) // warm the page cache
        var unsplit: [Double] = [], total: [Double] = [], critical: [Double] = [], merge: [Double] = []
        var statuses: Set<Int32> = []
        for _ in 0..<rounds {
            guard let u = Child.run(exe, unsplitArgs) else { break }
            let shards = shardArgs.compactMap { Child.run(exe, $0) }
            guard shards.count == 3, let m = Child.run(exe, mergeArgs) else { break }
            statuses.formUnion([u.status, m.status] + shards.map(\.status))
            unsplit.append(u.seconds * 1000)
            merge.append(m.seconds * 1000)
            total.append((shards.reduce(0) { $0 + $1.seconds } + m.seconds) * 1000)
            critical.append(((shards.map(\.seconds).max() ?? 0) + m.seconds) * 1000)
        }
        let base = Measure.median(unsplit)
        let ok = statuses == [0]
        let exits = "exit \(statuses.sorted().map(String.init).joined(separator: ", "))"
        let flows = "the shipped Pages" + (options.isEmpty ? "" : " with \(options.joined(separator: " "))")
        func ratio(_ name: String, _ values: [Double], _ note: String) -> Metric {
            let v = Measure.median(values)
            return Metric(
                name: name, value: v, unit: "ms", baseline: base, ratio: v / base, pass: ok ? nil : false,
                note: "\(note); median of \(values.count); \(exits)")
        }
        return [
            Metric(
                name: name, value: base, unit: "ms", pass: ok ? nil : false,
                note: "one simulate process, \(flows), with --junit, --report, --trace; median of \(unsplit.count); \(exits)"),
            ratio(
                "shard.three_shards_plus_merge_ms\(suffix)", total,
                "3 shard processes (--results) + merge-results (--junit, --report, --trace), one after the other: the machine time"
            ),
            ratio(
                "shard.slowest_shard_plus_merge_ms\(suffix)", critical,
                "the slowest of the 3 shards + the merge: the wall time with the shards on 3 machines at once"),
            ratio("shard.merge_ms\(suffix)", merge, "merge-results of the 3 shards' files alone"),
        ]
    }
}
