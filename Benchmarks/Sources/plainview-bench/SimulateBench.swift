// Simulated navigations per second over the shipped Pages and over generated checkout chains, and the time to
// explore every branch of the shipped Pages.
import FlowSimulator
import Foundation

enum SimulateBench {
    static func run(seconds: Double) -> [Metric] {
        let pages = Paths.repoRoot.appendingPathComponent("Pages").path
        let flows: [Flow]
        do { flows = try FlowLoader.load([pages]) } catch {
            return [Metric(name: "simulate.navigations_per_s", value: .nan, unit: "1/s", note: "cannot load \(pages): \(error)")]
        }
        let rate = navigationsPerSecond(flows, seconds: seconds)
        let generatedDir = FileManager.default.temporaryDirectory.appendingPathComponent("plainview-bench-flows-\(getpid())")
        defer { try? FileManager.default.removeItem(at: generatedDir) }
        var generated: Metric
        do {
            try CorpusFiles.writeFlows(to: generatedDir)
            let chains = try FlowLoader.load([generatedDir.path])
            let failing = chains.filter { Simulator.runBranch($0).outcome.kind != .complete }.map(\.name)
            let chainRate = navigationsPerSecond(chains, seconds: seconds)
            generated = Metric(
                name: "simulate.navigations_per_s.generated", value: chainRate, unit: "1/s", target: ">= 5000",
                pass: chainRate >= 5000 && failing.isEmpty,
                note:
                    "\(chains.count) generated checkout chains of 5–40 hops; not completing: \(failing.isEmpty ? "none" : failing.joined(separator: ", "))"
            )
        } catch {
            generated = Metric(
                name: "simulate.navigations_per_s.generated", value: .nan, unit: "1/s",
                note: "cannot generate the flows: \(error)")
        }
        // Every branch of every shipped flow, once, as `plainview simulate --explore` does (thread CPU time).
        var times: [Double] = []
        var branches = 0
        for _ in 0..<3 {
            let start = Measure.threadCPUSeconds()
            branches = flows.reduce(0) { $0 + Simulator.explore($1).branches.count }
            times.append((Measure.threadCPUSeconds() - start) * 1000)
        }
        let exploreMS = times.min() ?? .nan
        return [reportMetric()] + [
            Metric(
                name: "simulate.navigations_per_s", value: rate, unit: "1/s", target: ">= 5000", pass: rate >= 5000,
                note: "default branch of the \(flows.count) shipped flows, in process, one thread"),
            generated,
            Metric(
                name: "simulate.explore_all_pages_ms", value: exploreMS, unit: "ms", target: "< 2000", pass: exploreMS < 2000,
                note: "\(flows.count) flows, \(branches) branches; best of 3"),
        ]
    }

    /// `simulate --report` on 1,000 generated flows: the time to write the HTML report of their runs (wall clock,
    /// best of 3), with the time to load and run them for scale.
    static func reportMetric() -> Metric {
        let count = 1000
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("plainview-bench-report-\(getpid())")
        defer { try? FileManager.default.removeItem(at: dir) }
        do {
            try CorpusFiles.writeFlows(to: dir, count: count)
        } catch {
            return Metric(
                name: "simulate.report_html_ms_1000_flows", value: .nan, unit: "ms", note: "cannot generate the flows: \(error)")
        }
        let clock = ContinuousClock()
        var loaded: LoadedFlows?
        let loadTime = clock.measure { loaded = LoadedFlows.loadEach([dir.path], har: nil) }
        guard let loaded else { return Metric(name: "simulate.report_html_ms_1000_flows", value: .nan, unit: "ms") }
        var results: [FlowResult] = []
        let runTime = clock.measure { results = loaded.flows.map(Simulator.run) }
        var html = ""
        var times: [Double] = []
        for _ in 0..<3 {
            let t = clock.measure { html = Reporting.html(results, problems: loaded.problems) }
            times.append(Double(t.components.seconds) * 1000 + Double(t.components.attoseconds) / 1e15)
        }
        func ms(_ d: Duration) -> String {
            String(format: "%.0f ms", Double(d.components.seconds) * 1000 + Double(d.components.attoseconds) / 1e15)
        }
        let best = times.min() ?? .nan
        let events = results.reduce(0) { $0 + $1.branches.reduce(0) { $0 + $1.events.count } }
        return Metric(
            name: "simulate.report_html_ms_1000_flows", value: best, unit: "ms", target: "< 2000",
            pass: best < 2000 && results.count == count,
            note:
                "\(results.count) generated flows (\(loaded.problems.count) unreadable), \(events) events, report \(html.utf8.count / 1_000_000) MB; loading took \(ms(loadTime)), running \(ms(runTime)); wall clock, best of 3"
        )
    }

    /// Navigations per second (thread CPU time) running the default branch of every flow.
    static func navigationsPerSecond(_ flows: [Flow], seconds: Double) -> Double {
        Measure.cpuRate(seconds: seconds) {
            var navigations = 0
            for flow in flows { navigations += Simulator.runBranch(flow).navigationCount }
            return navigations
        }
    }
}
