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
    /// Runs `flows` (explored or not) in `mode`, up to `jobs` flows (explored: branches) at once in each engine (each
    /// on an engine of its own; the results in the flows' order; nil: each engine's `defaultJobs`). A missing engine is an input error
    /// (exit 64) naming its package.
    static func run(_ flows: [Flow], mode: EngineMode, explore: Bool, timeout: Double, jobs: Int? = 1) throws
        -> EngineRunOutput
    {
        let model = { (flow: Flow) in explore ? Simulator.explore(flow) : Simulator.run(flow) }
        guard mode != .model else { return EngineRunOutput(results: flows.map(model)) }
        // Compare runs every engine; an engine that cannot run is an input error in every mode.
        let pools: [EnginePool]
        // The model's results: compare shows them, and explored they weigh the flows (EnginePool.explore).
        let modelResults = mode.compares || explore ? flows.map(model) : []
        // Never more engines than runs that can use them: flows, or explored, the branches the model finds.
        let runs = explore ? modelResults.reduce(0) { $0 + $1.branches.count } : flows.count
        let chromiumJobs = max(1, min(jobs ?? ChromiumEngine.defaultJobs(), runs))
        let webkitJobs = max(1, min(jobs ?? WebKitEngine.defaultJobs(), runs))
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
        let ran = pools.map { pool in
            (
                name: pool.name,
                results: explore
                    ? pool.explore(flows, model: modelResults)
                    : pool.map(flows) { Simulator.run($0, engine: $1) }
            )
        }
        guard mode.compares else { return EngineRunOutput(results: ran[0].results) }
        return EngineRunOutput(results: ran.flatMap(\.results), engineResults: ran, modelResults: modelResults)
    }
}
