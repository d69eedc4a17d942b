// `simulate --engine`: which web view renders the flows — the model (static reading), a real engine, or both
// compared. The engines live in PlainviewEngines; this file only picks one and runs the flows through it.
import ArgumentParser
import FlowSimulator
import PlainviewEngines

enum EngineMode: String, CaseIterable, ExpressibleByArgument {
    case model, chromium, compare
}

struct EngineRunOutput {
    var results: [FlowResult]
    /// Compare only: the model's results and the difference report.
    var modelResults: [FlowResult] = []
    var comparison: String?
    var comparisonJSON: String?
}

enum EngineRun {
    /// Runs `flows` (explored or not) in `mode`. A missing engine is an input error (exit 64) naming its package.
    static func run(_ flows: [Flow], mode: EngineMode, explore: Bool, timeout: Double) throws -> EngineRunOutput {
        let model = { (flow: Flow) in explore ? Simulator.explore(flow) : Simulator.run(flow) }
        guard mode != .model else { return EngineRunOutput(results: flows.map(model)) }
        let engine: ChromiumEngine
        do {
            engine = try ChromiumEngine(timeout: timeout)
        } catch {
            throw inputError(error.message)
        }
        defer { engine.shutdown() }
        let results = flows.map { explore ? Simulator.explore($0, engine: engine) : Simulator.run($0, engine: engine) }
        guard mode == .compare else { return EngineRunOutput(results: results) }
        let modelResults = flows.map(model)
        let differences = zip(modelResults, results).flatMap {
            EngineComparison.differences(model: $0, engine: $1, engineName: engine.name)
        }
        return EngineRunOutput(results: results, modelResults: modelResults,
                               comparison: EngineComparison.text(differences, flows: flows.count),
                               comparisonJSON: EngineComparison.jsonLines(differences))
    }
}
