// Seconds per flow in each simulator mode over the shipped Pages: the model, Chromium and WebKitGTK (engine mode). Wall
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
        var metrics = [
            Metric(
                name: "engine.model_ms_per_flow", value: model * 1000, unit: "ms",
                note: "\(flows.count) shipped flows, default branch, wall time, best of \(rounds)")
        ]
        let branches = flows.reduce(0) { $0 + Simulator.explore($1).branches.count }
        let engines: [(name: String, label: String, start: () throws -> any WebEngine, install: String)] = [
            ("chromium", "headless Chromium", { try ChromiumEngine(timeout: 60) }, "apt-get install chromium"),
            ("webkit", "WebKitGTK under Xvfb", { try WebKitEngine(timeout: 60) }, "apt-get install libwebkit2gtk-4.1-0 xvfb"),
        ]
        for e in engines {
            var engine: (any WebEngine)?
            var failed: [String] = []
            // Start-up: the engine's processes, then the first flow (Chromium starts lazily, on the first flow).
            let startup = best(1) {
                engine = try? e.start()
                if let engine { _ = Simulator.run(flows[0], engine: engine) }
            }
            guard let engine else {
                metrics.append(
                    Metric(name: "engine.\(e.name)_s_per_flow", value: .nan, unit: "s", note: "not installed (\(e.install))"))
                continue
            }
            defer { engine.shutdown() }
            let perFlow =
                best(rounds) {
                    failed = flows.filter { !Simulator.run($0, engine: engine).passed }.map(\.name)
                } / Double(flows.count)
            let explored = best(1) { for f in flows { _ = Simulator.explore(f, engine: engine) } }
            metrics.append(
                Metric(
                    name: "engine.\(e.name)_startup_and_first_flow_s", value: startup, unit: "s",
                    note: "starting \(e.label) and running \(flows[0].name)"))
            metrics.append(
                Metric(
                    name: "engine.\(e.name)_s_per_flow", value: perFlow, unit: "s", baseline: model, ratio: perFlow / model,
                    note:
                        "the same flows in \(e.label), engine already running; failing: \(failed.isEmpty ? "none" : failed.joined(separator: ", "))"
                ))
            metrics.append(
                Metric(
                    name: "engine.\(e.name)_s_per_branch_explored", value: explored / Double(max(branches, 1)), unit: "s",
                    note: "--explore over the shipped flows: \(branches) branches, a fresh web view each"))
        }
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
