// Seconds per flow in each simulator mode over the shipped Pages: the model, and Chromium (engine mode). Wall
// time (an engine is another process), default branch, the engine already started; plus the engine's start-up.
import FlowSimulator
import Foundation
import PlainviewEngines

enum EngineBench {
    static func run(quick: Bool) -> [Metric] {
        let pages = Paths.repoRoot.appendingPathComponent("Pages").path
        let flows: [Flow]
        do { flows = try FlowLoader.load([pages]) } catch {
            return [Metric(name: "engine.model_ms_per_flow", value: .nan, unit: "ms", note: "cannot load \(pages): \(error)")]
        }
        let rounds = quick ? 1 : 3
        let model = best(rounds) { for f in flows { _ = Simulator.run(f) } } / Double(flows.count)
        // The model takes well under a millisecond: shown in ms (the same wall time, in seconds, is the ratio's baseline).
        var metrics = [Metric(name: "engine.model_ms_per_flow", value: model * 1000, unit: "ms", note: "\(flows.count) shipped flows, default branch, wall time, best of \(rounds)")]
        guard let engine = try? ChromiumEngine(timeout: 60) else {
            metrics.append(Metric(name: "engine.chromium_s_per_flow", value: .nan, unit: "s", note: "Chromium is not installed (apt-get install chromium)"))
            return metrics
        }
        defer { engine.shutdown() }
        var failed: [String] = []
        let startup = best(1) { _ = Simulator.run(flows[0], engine: engine) }
        let chromium = best(rounds) {
            failed = flows.filter { !Simulator.run($0, engine: engine).passed }.map(\.name)
        } / Double(flows.count)
        let explored = best(1) { for f in flows { _ = Simulator.explore(f, engine: engine) } }
        let branches = flows.reduce(0) { $0 + Simulator.explore($1).branches.count }
        metrics.append(Metric(name: "engine.chromium_startup_and_first_flow_s", value: startup, unit: "s",
                              note: "starting headless Chromium and running \(flows[0].name)"))
        metrics.append(Metric(name: "engine.chromium_s_per_flow", value: chromium, unit: "s", baseline: model, ratio: chromium / model,
                              note: "the same flows in Chromium, browser already running; failing: \(failed.isEmpty ? "none" : failed.joined(separator: ", "))"))
        metrics.append(Metric(name: "engine.chromium_s_per_branch_explored", value: explored / Double(max(branches, 1)), unit: "s",
                              note: "--explore over the shipped flows: \(branches) branches, a fresh browser context each"))
        return metrics
    }

    /// The best wall time of `rounds` runs of `body`, in seconds.
    static func best(_ rounds: Int, _ body: () -> Void) -> Double {
        var times: [Double] = []
        for _ in 0..<max(rounds, 1) {
            let start = ContinuousClock.now
            body()
            times.append(Measure.seconds(ContinuousClock.now - start))
        }
        return times.min() ?? .nan
    }
}
