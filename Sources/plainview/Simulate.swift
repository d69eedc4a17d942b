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

    @OptionGroup(title: "HAR replay") var har: HARReplayArguments

    func validate() throws { try har.validate(paths: paths) }

    func run() async throws {
        let loaded: LoadedFlows
        do {
            loaded = try LoadedFlows.load(paths.isEmpty ? ["Pages"] : paths, har: har.options())
        } catch let error as HARImport.Failure {
            throw inputError(error.description)
        }
        let results = loaded.annotate(loaded.flows.map { explore ? Simulator.explore($0) : Simulator.run($0) })
        print(json ? Reporting.json(results) : Reporting.text(results, verbose: verbose), terminator: "")
        do {
            if let trace { try Reporting.writeAtomically(Reporting.traceJSONLines(results), to: trace) }
            if let junit { try Reporting.writeAtomically(Reporting.junit(results), to: junit) }
        } catch {
            throw inputError("cannot write the report: \(error.localizedDescription)")
        }
        if results.contains(where: { !$0.passed }) { throw Exit.expectationFailed }
    }
}
