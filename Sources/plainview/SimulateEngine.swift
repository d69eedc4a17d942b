// `simulate --engine`: which web view renders the flows — the model (static reading), a real engine, or both
// compared. The engines live in PlainviewEngines; this file only picks one and runs the flows through it.
import ArgumentParser
import FlowSimulator
import PlainviewEngines

enum EngineMode: String, CaseIterable, ExpressibleByArgument {
    case model, chromium, webkit, compare
    /// The model against one engine only.
    case compareChromium = "compare:chromium", compareWebkit = "compare:webkit"

    var compares: Bool { self == .compare || self == .compareChromium || self == .compareWebkit }
}

struct EngineRunOutput {
    /// The engine's results (compare: every engine's, one after the other).
    var results: [FlowResult]
    /// Compare only: each engine's results by name, and the model's results.
    var engineResults: [(name: String, results: [FlowResult])] = []
    var modelResults: [FlowResult] = []
}

enum EngineRun {
    /// Runs `flows` (explored or not) in `mode`, up to `jobs` flows at once in each engine (each on an engine of its
    /// own; the results in the flows' order; nil: each engine's `defaultJobs`). A missing engine is an input error
    /// (exit 64) naming its package.
    static func run(_ flows: [Flow], mode: EngineMode, explore: Bool, timeout: Double, jobs: Int? = 1) throws
        -> EngineRunOutput
    {
        let model = { (flow: Flow) in explore ? Simulator.explore(flow) : Simulator.run(flow) }
        guard mode != .model else { return EngineRunOutput(results: flows.map(model)) }
        // Compare runs every engine; an engine that cannot run is an input error in every mode.
        let pools: [EnginePool]
        // Never more engines than flows.
        let chromiumJobs = max(1, min(jobs ?? ChromiumEngine.defaultJobs(), flows.count))
        let webkitJobs = max(1, min(jobs ?? WebKitEngine.defaultJobs(), flows.count))
        do throws(EngineFailure) {
            let chromium = { @Sendable () throws(EngineFailure) -> any WebEngine in try ChromiumEngine(timeout: timeout) }
            let webkit = { @Sendable () throws(EngineFailure) -> any WebEngine in try WebKitEngine(timeout: timeout) }
            switch mode {
            case .chromium, .compareChromium: pools = [try EnginePool(jobs: chromiumJobs, make: chromium)]
            case .webkit, .compareWebkit: pools = [try EnginePool(jobs: webkitJobs, make: webkit)]
            default:
                pools = [
                    try EnginePool(jobs: chromiumJobs, make: chromium), try EnginePool(jobs: webkitJobs, make: webkit),
                ]
            }
        } catch {
            throw inputError(error.message)
        }
        defer { pools.forEach { $0.shutdown() } }
        let modelResults = mode.compares ? flows.map(model) : []
        let runs = pools.map { pool in
            (
                name: pool.name,
                results: explore
                    ? pool.explore(flows, model: mode.compares ? modelResults : nil)
                    : pool.map(flows) { Simulator.run($0, engine: $1) }
            )
        }
        guard mode.compares else { return EngineRunOutput(results: runs[0].results) }
        return EngineRunOutput(results: runs.flatMap(\.results), engineResults: runs, modelResults: modelResults)
    }
}
