import NavigationPolicy
import PlainviewSupport

// `simulate --engine compare`: where the model (static reading of the pages) and a real engine part ways, or the two
// engines do, per flow and per branch — a different outcome, or a different navigation sequence with its first
// differing hop — and how long each side took.

/// One disagreement between two runs of the same flow and branch: the model's (or the first engine's) and an engine's.
public struct EngineDifference: Sendable, Hashable {
    public var flow: String
    public var branch: String
    public var engine: String
    /// The side compared with: `model`, or the first engine when two engines are compared with each other.
    public var baseline = "model"
    /// 1-based hop where the navigation sequences first differ (nil: same sequence, or a branch only one side ran).
    public var firstHop: Int?
    /// What the baseline did / the engine did at that point (a hop, an outcome, or "no such branch").
    public var model: String
    public var engineSide: String
    public var outcomeDiffers: Bool

    public var text: String {
        var s = "\(flow) [\(branch)] \(baseline) vs \(engine): "
        if let firstHop {
            s += "hop \(firstHop): \(baseline) \(model); \(engine) \(engineSide)"
        } else {
            s += "\(baseline) \(model); \(engine) \(engineSide)"
        }
        return s
    }
}

public enum EngineComparison {
    /// A run's hops as compared: every navigation asked, as `context METHOD url [frame, trigger]`. A run of
    /// sub-frames' initial loads one after another is compared sorted: an engine loads a page's frames at once
    /// and asks about them in whichever order their requests go out, while the model takes them in document order.
    static func hops(_ r: SimulationReport) -> [String] {
        let all = r.events.filter { $0.event == .navigate }.map { e in
            (
                e.context == "os"
                    ? "os open \(e.url ?? "")"
                    : "\(e.context) \(e.method ?? "GET") \(e.url ?? "") [\(e.frame ?? "main"), \(e.trigger ?? "?")]",
                concurrent: e.context != "os" && e.frame == "sub" && e.trigger == "initial"
            )
        }
        var out: [String] = [], run: [String] = []
        for (hop, concurrent) in all {
            if concurrent { run.append(hop); continue }
            out += run.sorted(); run = []
            out.append(hop)
        }
        return out + run.sorted()
    }

    /// The differences between the model's (or `baseline`'s) and an engine's result of one flow, branch by branch
    /// (by name).
    public static func differences(
        model: FlowResult, engine: FlowResult, engineName: String, baseline: String = "model"
    ) -> [EngineDifference] {
        sideBySide(model, engine, engineName: engineName).map { d in
            var d = d
            d.baseline = baseline
            return d
        }
    }

    private static func sideBySide(_ model: FlowResult, _ engine: FlowResult, engineName: String) -> [EngineDifference] {
        var out: [EngineDifference] = []
        let flow = model.flow.name
        let engineBranches = Dictionary(engine.branches.map { ($0.branch, $0) }, uniquingKeysWith: { a, _ in a })
        let modelNames = Set(model.branches.map(\.branch))
        for m in model.branches {
            guard let e = engineBranches[m.branch] else {
                out.append(
                    EngineDifference(
                        flow: flow, branch: m.branch, engine: engineName, firstHop: nil, model: "ran it (\(m.outcome))",
                        engineSide: "never reached this branch", outcomeDiffers: true))
                continue
            }
            let a = hops(m), b = hops(e)
            let outcomeDiffers = m.outcome.kind != e.outcome.kind || m.outcome.place != e.outcome.place
            if let i = a.indices.first(where: { $0 < b.count && a[$0] != b[$0] })
                ?? (a.count == b.count ? nil : min(a.count, b.count))
            {
                out.append(
                    EngineDifference(
                        flow: flow, branch: m.branch, engine: engineName, firstHop: i + 1,
                        model: i < a.count ? a[i] : "stops (\(m.outcome))",
                        engineSide: i < b.count ? b[i] : "stops (\(e.outcome))", outcomeDiffers: outcomeDiffers))
            } else if outcomeDiffers {
                out.append(
                    EngineDifference(
                        flow: flow, branch: m.branch, engine: engineName, firstHop: nil, model: "\(m.outcome)",
                        engineSide: "\(e.outcome)", outcomeDiffers: true))
            }
        }
        for e in engine.branches where !modelNames.contains(e.branch) {
            out.append(
                EngineDifference(
                    flow: flow, branch: e.branch, engine: engineName, firstHop: nil, model: "never reached this branch",
                    engineSide: "ran it (\(e.outcome))", outcomeDiffers: true))
        }
        return out
    }

    /// The differences between the model's results and each engine's (results in the same flow order), engine
    /// by engine, flow by flow; with two engines, then the second against the first.
    public static func differences(
        model: [FlowResult], engines: [(name: String, results: [FlowResult])]
    ) -> [EngineDifference] {
        var out = engines.flatMap { run in
            zip(model, run.results).flatMap { differences(model: $0, engine: $1, engineName: run.name) }
        }
        if engines.count == 2 {
            out += zip(engines[0].results, engines[1].results).flatMap {
                differences(model: $0, engine: $1, engineName: engines[1].name, baseline: engines[0].name)
            }
        }
        return out
    }

    /// The compare report: one line per difference, then a total line, then each side's wall time (`times`).
    public static func text(_ differences: [EngineDifference], flows: Int, times: [SideTime] = []) -> String {
        let pairs = Set(differences.map { "\($0.baseline) vs \($0.engine)" })
        var lines = ["compare: " + (pairs.count == 1 ? pairs.first! : "model vs engine")]
        if differences.isEmpty { lines.append("  no difference") }
        for d in differences { lines.append("  \(d.outcomeDiffers ? "OUTCOME " : "SEQUENCE") \(d.text)") }
        let differing = Set(differences.map(\.flow)).count
        lines.append(
            "compare: \(flows) flow\(flows == 1 ? "" : "s"), \(differing) differ (\(differences.count) difference\(differences.count == 1 ? "" : "s"))"
        )
        if !times.isEmpty { lines.append("compare: times " + times.map(\.text).joined(separator: " · ")) }
        return lines.joined(separator: "\n") + "\n"
    }

    /// One side's wall time over its runs (every branch of every flow).
    public struct SideTime: Sendable, Hashable {
        public var name: String
        public var seconds: Double
        public var runs: Int

        public init(name: String, results: [FlowResult]) {
            self.name = name
            let branches = results.flatMap(\.branches)
            runs = branches.count
            let total = branches.reduce(Duration.zero) { $0 + $1.wallTime }.components
            seconds = Double(total.seconds) + Double(total.attoseconds) / 1e18
        }

        public var text: String {
            "\(name) \(Self.format(seconds)) s (\(Self.format(seconds / Double(max(runs, 1)))) s per run, \(runs) run\(runs == 1 ? "" : "s"))"
        }

        static func format(_ s: Double) -> String {
            let places = s >= 10 ? 1 : s >= 0.01 ? 2 : 4
            var p = 1.0
            for _ in 0..<places { p *= 10 }
            let r = (s * p).rounded() / p
            return "\(r)"
        }
    }

    /// The compare report as JSON Lines: one object per difference (`{"difference": {…}}`).
    public static func jsonLines(_ differences: [EngineDifference], times: [SideTime] = []) -> String {
        let timeLines =
            times.isEmpty
            ? []
            : [
                JSONWriter.line(
                    .object([
                        (
                            "times",
                            .array(
                                times.map {
                                    .object([
                                        ("side", .string($0.name)), ("milliseconds", .int(Int(($0.seconds * 1000).rounded()))),
                                        ("runs", .int($0.runs)),
                                    ])
                                })
                        )
                    ]))
            ]
        return
            (differences.map { d in
                JSONWriter.line(
                    .object([
                        (
                            "difference",
                            .object([
                                ("flow", .string(d.flow)), ("branch", .string(d.branch)), ("engine", .string(d.engine)),
                                ("outcomeDiffers", .bool(d.outcomeDiffers)), ("firstHop", .int(orNull: d.firstHop)),
                                ("model", .string(d.model)), ("engineSide", .string(d.engineSide)),
                                ("baseline", .string(d.baseline)),
                            ])
                        )
                    ]))
            } + timeLines).map { $0.hasSuffix("\n") ? $0 : $0 + "\n" }.joined()
    }
}
