// `plainview merge-results`: the results files of a run's shards joined into the results of the unsplit run,
// refusing files that are not the shards of one run.
import Foundation

extension ResultsFile {
    /// Joins `files` (each named by its path) into the results one unsplit run would have: the flows and input
    /// problems back in suite order. Refuses, naming the file and what is wrong: a file of another engine mode,
    /// explore setting or suite; an unsplit run beside others; shards of different N; a shard given twice or
    /// missing; a flow in two files.
    public static func merge(_ files: [(path: String, results: ResultsFile)]) throws(ResultsFileError) -> ResultsFile {
        guard let (firstPath, first) = files.first else {
            throw ResultsFileError(file: nil, "no results files: expected one per shard (plainview simulate --results FILE)")
        }
        let one = "merge the shards of one run"
        for (path, f) in files.dropFirst() {
            guard f.engine == first.engine else {
                throw ResultsFileError(
                    file: path, key: "engine",
                    "engine mode \(f.engine), but \(firstPath) ran engine mode \(first.engine): \(one) (mixed engine modes)")
            }
            guard f.explore == first.explore else {
                throw ResultsFileError(
                    file: path, key: "explore",
                    "ran \(f.explore ? "with" : "without") --explore, but \(firstPath) ran \(first.explore ? "with" : "without") it: \(one)"
                )
            }
            guard f.paths == first.paths, f.suiteSize == first.suiteSize else {
                func suite(_ r: ResultsFile) -> String {
                    "\(r.paths.joined(separator: " ")) (\(r.suiteSize) flow\(r.suiteSize == 1 ? "" : "s"))"
                }
                throw ResultsFileError(
                    file: path, key: f.paths == first.paths ? "suiteSize" : "paths",
                    "ran the suite \(suite(f)), but \(firstPath) ran \(suite(first)): \(one), on one checkout")
            }
        }
        try checkShards(files)
        var owner: [Int: (path: String, what: String)] = [:]
        for (path, f) in files {
            let items =
                f.flows.map { ($0.position, "flow '\($0.runs[0].flow.name)' (\($0.runs[0].flow.file))") }
                + f.problems.compactMap { p in p.position.map { ($0, "input error for \(p.path)") } }
            for (position, what) in items {
                if let other = owner[position] {
                    throw ResultsFileError(
                        file: path,
                        "\(what) is also in \(other.path): a flow belongs to one shard (duplicate flow across shards)")
                }
                owner[position] = (path, what)
            }
        }
        guard owner.count == first.suiteSize else {
            // Positions are below suiteSize and each taken once, so the first few missing ones lie below count + 10.
            let missing = (0..<min(first.suiteSize, owner.count + 10)).filter { owner[$0] == nil }.prefix(10)
            throw ResultsFileError(
                file: nil,
                "the files hold \(owner.count) of the suite's \(first.suiteSize) flows; none holds the flow at position\(missing.count == 1 ? "" : "s") \(missing.map(String.init).joined(separator: ", "))\(first.suiteSize - owner.count > missing.count ? ", …" : ""): \(one)"
            )
        }
        let problems = files.flatMap { $0.results.problems.filter { $0.position != nil } }
        return ResultsFile(
            plainview: first.plainview, engine: first.engine, runs: first.runs, explore: first.explore, shard: nil,
            paths: first.paths, suiteSize: first.suiteSize,
            // A PATH that names nothing is found by every shard alike: once, first, as the unsplit run reports it.
            problems: first.problems.filter { $0.position == nil } + problems.sorted { $0.position! < $1.position! },
            flows: files.flatMap(\.results.flows).sorted { $0.position < $1.position })
    }

    /// One unsplit run alone, or every shard 1/N … N/N of one N exactly once.
    private static func checkShards(_ files: [(path: String, results: ResultsFile)]) throws(ResultsFileError) {
        if files.count > 1, let (path, _) = files.first(where: { $0.results.shard == nil }) {
            throw ResultsFileError(
                file: path, key: "shard",
                "an unsplit run (no --shard) beside \(files.count - 1) other file\(files.count == 2 ? "" : "s"): merge it alone, or merge only the shards of one split run"
            )
        }
        guard let firstShard = files[0].results.shard else { return }
        var given: [Int: String] = [:]
        for (path, f) in files {
            let shard = f.shard!
            guard shard.count == firstShard.count else {
                throw ResultsFileError(
                    file: path, key: "shard",
                    "shard \(shard), but \(files[0].path) is shard \(firstShard): shards of different N (every shard of one run has the same N)"
                )
            }
            if let other = given[shard.index] {
                throw ResultsFileError(
                    file: path, key: "shard", "shard \(shard) again (\(other) is shard \(shard) too): give each shard once")
            }
            given[shard.index] = path
        }
        guard given.count == firstShard.count else {
            // Each of the given shards is one of 1…N, so the first few missing ones lie below given + 10.
            let missing = (1...min(firstShard.count, given.count + 10)).filter { given[$0] == nil }.prefix(10)
            let have = given.sorted { $0.key < $1.key }.map { "\($0.key)/\(firstShard.count) (\($0.value))" }
            throw ResultsFileError(
                file: nil,
                "missing shard\(firstShard.count - given.count == 1 ? "" : "s") \(missing.map { "\($0)/\(firstShard.count)" }.joined(separator: ", "))\(firstShard.count - given.count > missing.count ? ", …" : ""): given \(have.joined(separator: ", ")); merge every shard's results file"
            )
        }
    }
}
