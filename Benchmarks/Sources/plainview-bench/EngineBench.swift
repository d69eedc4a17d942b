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
        let engines:
            [(
                name: String, label: String, start: @Sendable () throws(EngineFailure) -> any WebEngine, install: String,
                jobs: Int, jobsNote: String
            )] = [
                (
                    "chromium", "headless Chromium", { () throws(EngineFailure) in try ChromiumEngine(timeout: 60) },
                    "apt-get install \(ChromiumEngine.debianPackage)", ChromiumEngine.defaultJobs(), "the cores"
                ),
                (
                    "webkit", "WebKitGTK under Xvfb", { () throws(EngineFailure) in try WebKitEngine(timeout: 60) },
                    "apt-get install \(WebKitEngine.debianPackages.joined(separator: " "))", WebKitEngine.defaultJobs(),
                    "twice the cores"
                ),
            ]
        for e in engines {
            let jobs = e.jobs
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
            var serialVerdicts: [String] = []
            let explored = best(1) { serialVerdicts = verdicts(flows.map { Simulator.explore($0, engine: engine) }) }
            // One flow alone: the shipped flow with the most branches in the model.
            let heaviest = flows.max { Simulator.explore($0).branches.count < Simulator.explore($1).branches.count }!
            var oneSerialVerdicts: [String] = []
            let oneSerial = best(1) { oneSerialVerdicts = verdicts([Simulator.explore(heaviest, engine: engine)]) }
            engine.shutdown()
            // `simulate --jobs N --explore`: N engines started together, the flows taken from one queue, the ones
            // with the most branches in the model first, and each flow's branches spread over the free engines,
            // each as soon as it is known (`EnginePool.explore`, as the CLI runs it).
            func pooled(_ n: Int, _ subject: [Flow]) -> (seconds: Double, verdicts: [String]) {
                var found: [String] = []
                let seconds = best(1) {
                    guard let pool = try? EnginePool(jobs: n, make: e.start) else { return }
                    found = verdicts(pool.explore(subject))
                    pool.shutdown()
                }
                return (seconds, found)
            }
            let (parallel, parallelVerdicts) = pooled(jobs, flows)
            let (oneParallel, oneParallelVerdicts) = pooled(jobs, [heaviest])
            // The counts around the default, for the docs' table of why it is the default: from 2 up to one more than
            // the cores (or the default, if larger).
            let cores = ProcessInfo.processInfo.activeProcessorCount
            let others = (2...max(jobs, cores + 1)).filter { $0 != jobs }.map { ($0, pooled($0, flows)) }
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
            metrics.append(
                Metric(
                    name: "engine.\(e.name)_explore_s_serial", value: explored, unit: "s",
                    note: "--explore over the shipped flows, one engine, one flow at a time"))
            metrics.append(
                Metric(
                    name: "engine.\(e.name)_explore_s_jobs_\(jobs)", value: parallel, unit: "s", baseline: explored,
                    ratio: parallel / explored, target: "<= 0.6x serial",
                    pass: parallel <= 0.6 * explored && parallelVerdicts == serialVerdicts,
                    note:
                        "--jobs \(jobs) (the default: \(e.jobsNote)), engine start-up included; verdicts "
                        + (parallelVerdicts == serialVerdicts ? "identical to the serial run's" : "DIFFER from the serial run's"))
            )
            for (n, run) in others {
                metrics.append(
                    Metric(
                        name: "engine.\(e.name)_explore_s_jobs_\(n)", value: run.seconds, unit: "s", baseline: explored,
                        ratio: run.seconds / explored,
                        note:
                            "--jobs \(n) (not the default), engine start-up included; verdicts "
                            + (run.verdicts == serialVerdicts ? "identical to the serial run's" : "DIFFER from the serial run's"))
                )
            }
            let heaviestBranches = Simulator.explore(heaviest).branches.count
            metrics.append(
                Metric(
                    name: "engine.\(e.name)_one_flow_explore_s_serial", value: oneSerial, unit: "s",
                    note: "--explore of \(heaviest.name) alone (\(heaviestBranches) branches), one engine"))
            metrics.append(
                Metric(
                    name: "engine.\(e.name)_one_flow_explore_s_jobs_\(jobs)", value: oneParallel, unit: "s",
                    baseline: oneSerial, ratio: oneParallel / oneSerial,
                    note:
                        "the same flow with --jobs \(jobs): its branches spread over the engines as they are found, "
                        + "engine start-up included; verdicts "
                        + (oneParallelVerdicts == oneSerialVerdicts ? "identical" : "DIFFER")))
            if e.name == "chromium", let browser = browserExplore(flows) {
                metrics.append(
                    Metric(
                        name: "engine.chromium_browser_explore_s_serial", value: browser.seconds, unit: "s",
                        baseline: explored, ratio: browser.seconds / explored,
                        note:
                            "the same serial explore in the Chromium browser (`chromium`) instead of the engine found; "
                            + "verdicts "
                            + (browser.verdicts == serialVerdicts ? "identical" : "DIFFER")))
            }
        }
        return metrics
    }

    /// The serial explore of `flows` in the desktop Chromium browser (nil: not installed), the engine the
    /// headless shell replaced: docs/engine-mode.md says both work and how much slower the browser is.
    static func browserExplore(_ flows: [Flow]) -> (seconds: Double, verdicts: [String])? {
        guard let engine = try? ChromiumEngine(timeout: 60, executable: "chromium") else { return nil }
        defer { engine.shutdown() }
        guard engine.executable != ChromiumEngine.locate() else { return nil }
        var found: [String] = []
        let seconds = best(1) { found = verdicts(flows.map { Simulator.explore($0, engine: engine) }) }
        return (seconds, found)
    }

    /// Every branch's flow, name, outcome and hops, in order: what must not change with `--jobs`.
    static func verdicts(_ results: [FlowResult]) -> [String] {
        results.flatMap { r in
            r.branches.map { "\(r.flow.name) \($0.branch) \($0.outcome.kind.rawValue) \($0.navigationCount)" }
        }
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
