import ArgumentParser
import FlowSimulator
import Foundation
import PlainviewConfig

struct Simulate: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "simulate",
        abstract: "Replay recorded flows through the policy on a simulated device.",
        discussion: """
        PATH is a flow folder (holding flow.yaml), a flow file, or a folder of flows (default: Pages/).
        Exit status: 0 every expectation met, 1 an expectation failed, 64 bad input.
        The flow-file format is described in Pages/README.md.
        A PATH ending in .har is a recording (HAR 1.2/1.1): it is drafted like `plainview import` (redacted by
        default) into a flow with --policy, --env, --expect (default: complete) and --tap, and run in memory.
        """
    )

    @Argument(help: "Flow folders, flow files or folders of flows (default: Pages/).")
    var paths: [String] = []

    @Flag(help: "Run every branch of the world's uncertain points (universal links, installed apps, prompts, blocked redirects).")
    var explore = false

    @Option(help: "Write every event of every run as JSON Lines to FILE.")
    var trace: String?

    @Option(help: "Write a JUnit XML report to FILE.")
    var junit: String?

    @Flag(help: "Print one JSON object per flow instead of the text summary.")
    var json = false

    @Flag(name: .shortAndLong, help: "Print the trace of every run, not only of failing ones.")
    var verbose = false

    @Option(help: "The web view: model (static reading of the pages), chromium (a real engine), or compare (both, with their differences).")
    var engine: EngineMode = .model

    @Option(name: .customLong("engine-timeout"), help: "Real seconds one run may take in a real engine before it ends in error.")
    var engineTimeout: Double = 60

    @OptionGroup(title: "HAR replay") var har: HARReplayArguments

    func validate() throws { try har.validate(paths: paths) }

    func run() async throws {
        let loaded: LoadedFlows
        do {
            loaded = try LoadedFlows.load(paths.isEmpty ? ["Pages"] : paths, har: har.options())
        } catch let error as HARImport.Failure {
            throw inputError(error.description)
        }
        let run = try EngineRun.run(loaded.flows, mode: engine, explore: explore, timeout: engineTimeout)
        let results = loaded.annotate(run.results)
        if let comparison = run.comparison {
            let model = loaded.annotate(run.modelResults)
            print(json ? Reporting.json(model) : "model:\n" + Reporting.text(model, verbose: verbose), terminator: "")
            print(json ? Reporting.json(results) : "chromium:\n" + Reporting.text(results, verbose: verbose), terminator: "")
            print(json ? run.comparisonJSON ?? "" : comparison, terminator: "")
        } else {
            print(json ? Reporting.json(results) : Reporting.text(results, verbose: verbose), terminator: "")
        }
        do {
            if let trace { try Reporting.writeAtomically(Reporting.traceJSONLines(results), to: trace) }
            if let junit { try Reporting.writeAtomically(Reporting.junit(results), to: junit) }
        } catch {
            throw inputError("cannot write the report: \(error.localizedDescription)")
        }
        if (results + run.modelResults).contains(where: { !$0.passed }) { throw Exit.expectationFailed }
    }
}
