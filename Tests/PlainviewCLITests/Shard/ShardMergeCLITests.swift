import Foundation
import Testing
import TestSupport

/// Black-box: a run split with `simulate --shard I/N --results FILE` and joined with `merge-results` prints and
/// writes what the unsplit run does: the summary, JUnit, the trace and the HTML report, in the same order, with
/// the same exit status. Only wall-clock times differ.
@Suite struct ShardMergeCLITests {
    /// JUnit with every `time` attribute (wall-clock seconds) blanked.
    static func withoutTimes(_ junit: String) -> String {
        junit.replacingOccurrences(of: #" time="[0-9.]+""#, with: #" time="""#, options: .regularExpression)
    }

    /// What one run left: its exit status, standard output and error, and the files it wrote (by option).
    struct Outputs: Equatable, CustomStringConvertible {
        var status: Int32
        var stdout: String
        var stderr: String
        var files: [String: String]
        var description: String {
            "exit \(status)\n--- stdout\n\(stdout)--- stderr\n\(stderr)"
                + files.sorted { $0.key < $1.key }.map { "--- \($0.key)\n\($0.value.prefix(2000))" }.joined()
        }
    }

    /// Runs `arguments` in `dir` with `--junit`, `--report` and `--trace` into files named after `tag`.
    static func run(_ arguments: [String], in dir: URL, tag: String) throws -> Outputs {
        let names = ["--junit": "\(tag).xml", "--report": "\(tag).html", "--trace": "\(tag).jsonl"]
        let r = try CLI.run(arguments + names.sorted { $0.key < $1.key }.flatMap { [$0.key, $0.value] }, in: dir)
        var files: [String: String] = [:]
        for (option, name) in names {
            let text = try String(contentsOf: dir.appendingPathComponent(name), encoding: .utf8)
            files[option] = option == "--junit" ? withoutTimes(text) : text
        }
        return Outputs(status: r.status, stdout: r.stdout, stderr: r.stderr, files: files)
    }

    /// The shipped Pages, copied into a fresh folder.
    static func pages() throws -> URL {
        let dir = try Project.temporaryDirectory()
        try FileManager.default.copyItem(at: Project.path("Pages"), to: dir.appendingPathComponent("Pages"))
        return dir
    }

    /// Runs `simulate ARGS` as `count` shards, each with `--results`, and returns the results files' names (in
    /// reverse shard order, as a CI job may list them).
    static func shards(_ count: Int, _ arguments: [String], in dir: URL) throws -> [String] {
        var files: [String] = []
        for i in 1...count {
            let name = "shard-\(i).json"
            let r = try CLI.run(["simulate", "--shard", "\(i)/\(count)", "--results", name] + arguments, in: dir)
            #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent(name).path), "\(r)")
            files.insert(name, at: 0)
        }
        return files
    }

    @Test(arguments: [[String](), ["--explore"]])
    func threeShardsOfTheShippedPagesMergeIntoTheUnsplitRunsReports(_ options: [String]) throws {
        let dir = try Self.pages()
        defer { try? FileManager.default.removeItem(at: dir) }
        let unsplit = try Self.run(["simulate"] + options, in: dir, tag: "unsplit")
        #expect(unsplit.status == 0, "\(unsplit)")
        let files = try Self.shards(3, options, in: dir)
        let merged = try Self.run(["merge-results"] + files, in: dir, tag: "merged")
        #expect(merged == unsplit, "--- merged\n\(merged)\n--- unsplit\n\(unsplit)")
        // The reports hold something to compare: every flow, in the unsplit run's order.
        let names = unsplit.stdout.split(separator: "\n").filter { $0.hasPrefix("PASS") }.map {
            String($0.split(separator: " ", omittingEmptySubsequences: true)[1])
        }
        #expect(names.count >= 17, "\(unsplit)")
        let suites = merged.files["--junit"]!.split(separator: "\n").filter { $0.contains("<testsuite name=") }
        #expect(suites.count == names.count)
        for (suite, name) in zip(suites, names) { #expect(suite.contains("name=\"\(name)\""), "\(suite) for \(name)") }
        #expect(merged.files["--trace"]!.split(separator: "\n").count > 100)
        #expect(merged.files["--report"]!.contains("data-flow=\"ios-card-3ds-goodlisted\""))

        // --json prints what the unsplit run's --json prints.
        let unsplitJSON = try CLI.run(["simulate", "--json"] + options, in: dir)
        let mergedJSON = try CLI.run(["merge-results", "--json"] + files, in: dir)
        #expect(mergedJSON.status == unsplitJSON.status)
        #expect(mergedJSON.stdout == unsplitJSON.stdout, "\(mergedJSON)")
        // -v prints every trace, as simulate -v does.
        let unsplitVerbose = try CLI.run(["simulate", "-v"] + options, in: dir)
        let mergedVerbose = try CLI.run(["merge-results", "-v"] + files, in: dir)
        #expect(mergedVerbose.stdout == unsplitVerbose.stdout, "\(mergedVerbose)")
    }

    @Test func inputErrorsAndFailuresMergeWithTheUnsplitExitStatus() throws {
        let policy = SimulateCLITests.policy
        let dir = try Project.temporaryFlows([
            "a-good": SimulateSuiteCLITests.completes, "b-failing": SimulateSuiteCLITests.fails,
            "c-broken": policy + "nmae: x\n", "d-good": SimulateSuiteCLITests.completes,
            "e-broken": "nonsense: [\n", "f-failing": SimulateSuiteCLITests.fails,
        ])
        defer { try? FileManager.default.removeItem(at: dir) }
        // Two paths out of sorted order, and one that names nothing (every shard reports it).
        let paths = [dir.appendingPathComponent("f-failing").path, dir.path, "no/such/flow"]
        let unsplit = try Self.run(["simulate"] + paths, in: dir, tag: "unsplit")
        #expect(unsplit.status == 64, "\(unsplit)")
        #expect(unsplit.stdout.contains("FAIL  b-failing"), "\(unsplit)")
        let files = try Self.shards(3, paths, in: dir)
        let merged = try Self.run(["merge-results"] + files, in: dir, tag: "merged")
        #expect(merged == unsplit, "--- merged\n\(merged)\n--- unsplit\n\(unsplit)")
        #expect(merged.stderr.components(separatedBy: "no/such/flow: no such file").count == 2, "\(merged)")

        // Without the broken flows: exit 1, as the unsplit run.
        let failing = [dir.appendingPathComponent("b-failing").path, dir.appendingPathComponent("a-good").path]
        let unsplitFailing = try CLI.run(["simulate"] + failing, in: dir)
        #expect(unsplitFailing.status == 1, "\(unsplitFailing)")
        let failingFiles = try Self.shards(2, failing, in: dir)
        let mergedFailing = try CLI.run(["merge-results"] + failingFiles, in: dir)
        #expect(mergedFailing.status == 1, "\(mergedFailing)")
        #expect(mergedFailing.stdout == unsplitFailing.stdout, "\(mergedFailing)")
    }

    @Test func anUnsplitRunsResultsFileMergedAloneWritesItsReportsAgain() throws {
        let dir = try Self.pages()
        defer { try? FileManager.default.removeItem(at: dir) }
        let unsplit = try Self.run(["simulate", "--results", "all.json"], in: dir, tag: "unsplit")
        let merged = try Self.run(["merge-results", "all.json", "--results", "again.json"], in: dir, tag: "merged")
        #expect(merged == unsplit, "--- merged\n\(merged)\n--- unsplit\n\(unsplit)")
        // The merged results file is the same file (a merge of merges changes nothing).
        let first = try String(contentsOf: dir.appendingPathComponent("all.json"), encoding: .utf8)
        let again = try String(contentsOf: dir.appendingPathComponent("again.json"), encoding: .utf8)
        #expect(first == again)
        #expect(first.hasPrefix("{\"engine\":\"model\",\"explore\":false,\"flows\":[{\"position\":0,"), "\(first.prefix(200))")
        #expect(first.contains("\"format\":\"plainview-results\""))
        #expect(first.hasSuffix(",\"version\":1}\n"))
    }

    /// Every engine mode: the shards' merge prints the unsplit run's summary, and an unsplit run's results file
    /// merged alone gives back that run's summary and reports exactly.
    @Test(arguments: ["chromium", "webkit", "compare"])
    func everyEngineModeMerges(_ mode: String) async throws {
        for engine in mode == "compare" ? SimulateEngineCLITests.engines : [mode] {
            guard SimulateEngineCLITests.present(engine) else { return }
        }
        let dir = try Project.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        for name in ["01-ios-card-3ds-goodlisted", "08-ios-user-cancels", "06-ios-swish-not-installed", "common"] {
            try FileManager.default.createDirectory(at: dir.appendingPathComponent("Pages"), withIntermediateDirectories: true)
            try FileManager.default.copyItem(
                at: Project.path("Pages/\(name)"), to: dir.appendingPathComponent("Pages/\(name)"))
        }
        let options = ["--engine", mode]
        let unsplit = try await offPool {
            try Self.run(["simulate", "--results", "all.json"] + options, in: dir, tag: "unsplit")
        }
        #expect(unsplit.status == 0, "\(unsplit)")
        let again = try await offPool { try Self.run(["merge-results", "all.json"], in: dir, tag: "again") }
        #expect(again == unsplit, "--- merged\n\(again)\n--- unsplit\n\(unsplit)")
        let files = try await offPool { try Self.shards(2, options, in: dir) }
        let merged = try await offPool { try CLI.run(["merge-results"] + files, in: dir) }
        #expect(merged.status == unsplit.status, "\(merged)")
        // Apart from compare's times line (wall-clock times of other runs).
        let timeless = { (out: String) in
            out.split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.hasPrefix("compare: times ") }
        }
        #expect(timeless(merged.stdout) == timeless(unsplit.stdout), "--- merged\n\(merged)\n--- unsplit\n\(unsplit)")
        if mode == "compare" {
            #expect(merged.stdout.contains("compare: times model "), "\(merged)")
            #expect(merged.stdout.contains("model:\n") && merged.stdout.contains("webkit:\n"), "\(merged)")
            #expect(merged.stdout.contains("compare: 3 flows"), "\(merged)")
        }
    }
}
