import ArgumentParser
import FlowSimulator
import Foundation
import NavigationPolicy
import PlainviewConfig

struct Simulate: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "simulate",
        abstract: "Replay recorded flows through the policy on a simulated device.",
        discussion: """
            PATH is a flow folder (holding flow.yaml), a flow file, or a folder of flows (default: Pages/).
            Exit status: 64 when any input was bad (a flow that does not read is reported and the others still run), \
            else 1 when an expectation failed, else 0.
            The flow-file format is described in Pages/README.md.
            A PATH ending in .har is a recording (HAR 1.2/1.1): it is drafted like `plainview import` (redacted by
            default) into a flow with --policy, --env, --expect (default: complete) and --tap, and run in memory.
            Split across CI machines: each runs --shard I/N --results FILE, and plainview merge-results FILE… writes \
            the summary and reports of the whole run.
            """
    )

    @Argument(help: "Flow folders, flow files or folders of flows (default: Pages/).")
    var paths: [String] = []

    @OptionGroup(title: "Output") var output: SimulateOutputArguments

    @Flag(help: "Run every branch of the world's uncertain points (universal links, installed apps, prompts, blocked redirects).")
    var explore = false


    @Option(
        help:
            "Write every flow's results (verdicts, branches, traces, timings, input errors, engine mode, shard) to FILE as JSON, for `plainview merge-results`."
    )
    var results: String?

    @Option(
        help: "Run only part I of N of the flows, split by sorted flow path (a CI matrix: 1/4 … 4/4).",
        transform: { text in
            do { return try FlowShard(parsing: text) } catch { throw ValidationError("\(error)") }
        })
    var shard: FlowShard?


    @Option(
        help:
            "The web view: model (static reading of the pages), chromium or webkit (a real engine), compare (the model and both engines, with their differences and times), or compare:chromium / compare:webkit (the model and one engine)."
    )
    var engine: EngineMode = .model

    @Option(name: .customLong("engine-timeout"), help: "Real seconds one run may take in a real engine before it ends in error.")
    var engineTimeout: Double = 60

    @Option(
        help: ArgumentHelp(
            "Engine mode: run up to N flows (explored: branches) at once, each in an engine of its own (default: the number of cores for Chromium, twice that for WebKit, which waits on real time).",
            valueName: "N"))
    var jobs: Int?

    @Option(
        name: .customLong("host-handler"),
        help: ArgumentHelp(
            "Run every flow with the host app handling its web view this way instead of as its environment says: plainview (the policy), none, guide, in-app-browser, cordova or allow-list (docs/environment.md).",
            valueName: "HANDLER"),
        transform: { text in
            guard let handler = HostHandler(rawValue: text) else {
                throw ValidationError(
                    "--host-handler: expected one of \(HostHandler.allCases.map(\.rawValue).joined(separator: ", ")), found '\(text)'"
                )
            }
            return handler
        })
    var hostHandler: HostHandler?

    @OptionGroup(title: "HAR replay") var har: HARReplayArguments

    func validate() throws {
        if let jobs, jobs < 1 { throw ValidationError("--jobs must be at least 1, got \(jobs)") }
        try har.validate(paths: paths)
    }

    func run() async throws {
        var loaded = LoadedFlows.loadEach(paths.isEmpty ? ["Pages"] : paths, har: try har.options(), shard: shard)
        if let hostHandler {
            for i in loaded.flows.indices { loaded.flows[i].webView.handler = hostHandler }
        }
        for problem in loaded.problems { printError("error: \(problem.message)") }
        let run = try EngineRun.run(loaded.flows, mode: engine, explore: explore, timeout: engineTimeout, jobs: jobs)
        let ran = ResultsFile(
            plainview: Plainview.version, engine: engine.rawValue, explore: explore, shard: shard,
            paths: paths.isEmpty ? ["Pages"] : paths, loaded: loaded, sections: run.sections(engine))
        try output.output(results: results)
            .write(ran)
    }
}
