import ArgumentParser
import FlowSimulator
import Foundation

/// `plainview merge-results`: the results files of a run's shards (`simulate --shard I/N --results FILE`) joined
/// into the summary, JUnit, trace and HTML report the unsplit run would have written.
struct MergeResults: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge-results",
        abstract: "Join the results files of a run's shards into the summary and reports of one unsplit run.",
        discussion: """
            FILE… are the results files of every shard of one run (plainview simulate --shard I/N --results FILE), \
            in any order, or the results file of one unsplit run. The summary, --junit, --trace and --report are \
            what plainview simulate would have written had it run the whole suite at once, flows in its order.
            Exit status as simulate's: 64 when a flow did not read in any shard, else 1 when an expectation \
            failed, else 0. Files that are not the shards of one run are refused with exit 64, naming the file: \
            another format version, another engine mode, --explore or suite, shards of different N, a shard \
            given twice or missing, a flow in two shards.
            """
    )

    @Argument(help: "Results files written by plainview simulate --results FILE, one per shard.")
    var files: [String] = []

    @OptionGroup(title: "Output") var output: SimulateOutputArguments


    @Option(help: "Write the merged results to FILE (the results file of the whole run).")
    var results: String?


    func validate() throws {
        guard !files.isEmpty else {
            throw ValidationError("expected the results files of a run's shards (plainview simulate --results FILE)")
        }
    }

    func run() async throws {
        var read: [(path: String, results: ResultsFile)] = []
        do {
            for file in files { read.append((file, try ResultsFile.read(path: file))) }
            let merged = try ResultsFile.merge(read)
            for problem in merged.problems { printError("error: \(problem.message)") }
            try output.output(results: results)
                .write(merged)
        } catch let error as ResultsFileError {
            throw inputError(error.description)
        }
    }
}
