// Running flows: one run, every branch (explore), and checking the expectations.
import Foundation
import NavigationPolicy

public enum Simulator {
    /// Runs the flow once, with default choices (and the flow's `assume:`), and checks its expectations.
    public static func run(_ flow: Flow) -> FlowResult { run(flow, engine: nil) }

    /// The same with `engine` as the host app's web view (engine mode; nil: the model).
    public static func run(_ flow: Flow, engine: (any WebEngine)?) -> FlowResult {
        // Page files are read for this run only: the result keeps the flow as loaded (paths, not pages).
        let loaded: Flow
        do { loaded = try flow.loadingPageFiles() } catch { return unreadable(flow, error, explored: false) }
        var report = runBranchWithPoints(loaded, script: [:], exploring: false, engine: engine).0
        report.failures = check(flow.expect, report, explored: false, engine: engine != nil)
        return FlowResult(flow: flow, explored: false, branches: [report], truncated: false)
    }

    /// The result of a flow whose page file could not be read when it was to run: one branch ending in error.
    static func unreadable(_ flow: Flow, _ error: PageFileError, explored: Bool) -> FlowResult {
        let outcome = Outcome(.error, place: "webview", reason: error.description)
        let report = SimulationReport(
            flow: flow.name, branch: "default", choices: [], outcome: outcome, navigationCount: 0, appsOpened: [],
            events: [], virtualTime: 0, failures: ["the flow did not run: \(error.description)"])
        return FlowResult(flow: flow, explored: explored, branches: [report], truncated: false)
    }

    /// Runs every branch of the flow's uncertain points (bounded by `flow.limits`) and checks each.
    public static func explore(_ flow: Flow) -> FlowResult { explore(flow, decider: nil) }

    /// The same with every branch in a fresh web view of `engine` (engine mode; nil: the model).
    public static func explore(_ flow: Flow, engine: (any WebEngine)?) -> FlowResult {
        explore(flow, decider: nil, engine: engine)
    }

    /// A branch of an explore that may start now: call it with an engine no other run is using meanwhile.
    public struct BranchRun: Sendable {
        let body: @Sendable (any WebEngine) -> Void
        public func callAsFunction(_ engine: any WebEngine) { body(engine) }
    }

    /// Runs an explore's branches: calls `next` on as many threads as there are engines to spread them over, and
    /// each run it returns on an engine that no other run is using at the time, until `next` returns nil (it
    /// waits while no branch can start but some are running); returns once every thread has ended. `EnginePool`
    /// drives with several engines.
    public typealias BranchDriver = (_ next: @escaping @Sendable () -> BranchRun?) -> Void

    /// `explore(flow, engine:)` with the branches spread over the engines `drive` lends: the same branches and
    /// results as one engine gives, whatever order they ran in. A branch starts as soon as it is known and an engine
    /// is free, without waiting for the rest of its level (BranchFrontier).
    public static func explore(_ lazyFlow: Flow, drive: BranchDriver) -> FlowResult {
        explore(lazyFlow, engine: true) { flow, frontier in
            drive {
                frontier.next().map { branch in
                    BranchRun { engine in
                        let (report, points) = runBranchWithPoints(flow, script: branch.script, exploring: true, engine: engine)
                        frontier.finish(branch, report: report, points: points)
                    }
                }
            }
        }
    }

    static func explore(
        _ lazyFlow: Flow, decider: ((any SystemServices) -> any NavigationDeciding)?,
        engine: (any WebEngine)? = nil
    ) -> FlowResult {
        explore(lazyFlow, engine: engine != nil) { flow, frontier in
            while let branch = frontier.next() {
                let (report, points) = runBranchWithPoints(
                    flow, script: branch.script, exploring: true, decider: decider, engine: engine)
                frontier.finish(branch, report: report, points: points)
            }
        }
    }

    /// Explores the tree of branches: `runAll` runs the branches `frontier` hands out, and records each one's report
    /// and the points it met there, until it hands out no more. The branches run are the first `limits.branches`
    /// in breadth-first order (a level's branches in the order of their parents, then of the answers), which is the
    /// order one engine would run them in one at a time.
    static func explore(_ lazyFlow: Flow, engine: Bool, runAll: (Flow, BranchFrontier) -> Void) -> FlowResult {
        let flow: Flow
        do { flow = try lazyFlow.loadingPageFiles() } catch { return unreadable(lazyFlow, error, explored: true) }
        let frontier = BranchFrontier(limit: flow.limits.branches)
        runAll(flow, frontier)
        let explored = frontier.result
        var reports = explored.reports
        let truncated = explored.truncated
        // Canonical order: the default branch, then by the number of non-default choices, then by name.
        reports.sort { a, b in
            (a.choices.count, a.branch) < (b.choices.count, b.branch)
        }
        for i in reports.indices {
            reports[i].failures = check(flow.expect, reports[i], explored: true, engine: engine)
        }
        var result = FlowResult(flow: lazyFlow, explored: true, branches: reports, truncated: truncated)
        if truncated, var first = result.branches.first {
            first.failures.append("explore stopped at \(flow.limits.branches) branches (limits.branches)")
            result.branches[0] = first
        }
        return result
    }

    /// Runs `flow` `runs` times (default branch, in process) and counts the navigations: for benchmarks.
    public static func benchmark(_ flow: Flow, runs: Int) -> (runs: Int, navigations: Int) {
        var navigations = 0
        for _ in 0..<max(0, runs) { navigations += runBranch(flow).navigationCount }
        return (max(0, runs), navigations)
    }

    /// One run with the given choice script; no expectation check. For benchmarks and tests.
    public static func runBranch(_ flow: Flow, script: [ChoiceKey: Int] = [:], exploring: Bool = false) -> SimulationReport {
        runBranchWithPoints(flow, script: script, exploring: exploring).0
    }

    static func runBranchWithPoints(
        _ flow: Flow, script: [ChoiceKey: Int], exploring: Bool,
        decider: ((any SystemServices) -> any NavigationDeciding)? = nil,
        engine: (any WebEngine)? = nil
    ) -> (SimulationReport, [ChoicePoint]) {
        let started = ContinuousClock.now
        let oracle = ChoiceOracle(script: script, exploring: exploring, depth: flow.limits.depth)
        var session: (any EngineSession)?
        var failure: EngineFailure?
        if let engine {
            do { session = try engine.open(flow) } catch { failure = error }
        }
        let world = World(flow: flow, oracle: oracle, decider: decider, engine: session, engineName: engine?.name ?? "model")
        if let failure, let engine {
            world.emit(.start, context: "webview", url: flow.start, app: flow.hostApp)
            world.finish(.error, place: .host, reason: "\(engine.name) could not start: \(failure.message)")
        } else {
            world.run()
        }
        session?.close()
        let events = world.finalEvents()
        let outcome = world.outcome ?? Outcome(.error, place: "webview", reason: "the run ended without an outcome")
        let report = SimulationReport(
            flow: flow.name, branch: events.first?.branch ?? "default", choices: world.branchLabels, outcome: outcome,
            navigationCount: world.navigationCount, appsOpened: world.appsOpened, events: events,
            virtualTime: events.last?.time ?? 0, wallTime: ContinuousClock.now - started, failures: [])
        return (report, oracle.points)
    }

    /// The expectations `report` does not meet. A normal run checks `outcome`, `hops`, `endsIn`, `appsOpened` and
    /// `reasonContains`. An explored branch (explore ignores `assume:`, so its default branch may differ from the
    /// normal run) checks `everyBranch` and the `branches` allowances; without `everyBranch`, only `error` fails.
    static func check(_ e: Expectations, _ r: SimulationReport, explored: Bool, engine: Bool = false) -> [String] {
        var failures: [String] = []
        if !engine, let m = e.modelOutcome {
            return r.outcome.kind == m ? [] : ["expected \(m.rawValue) from the model (modelOutcome), got \(r.outcome)"]
        }
        if explored {
            if let allowance = e.branches.first(where: { matches($0.when, r.choices) }) {
                if r.outcome.kind != allowance.outcome {
                    failures.append(
                        "expected \(allowance.outcome.rawValue) (allowed for \(allowance.when.joined(separator: ", "))), got \(r.outcome)"
                    )
                }
            } else if let every = e.everyBranch {
                if r.outcome.kind != every { failures.append("expected \(every.rawValue) on every branch, got \(r.outcome)") }
            } else if r.outcome.kind == .error {
                failures.append("the branch ended in error: \(r.outcome.reason)")
            }
            return failures
        }
        if let o = e.outcome, r.outcome.kind != o {
            failures.append("expected \(o.rawValue), got \(r.outcome)")
        }
        if let h = e.hops, r.navigationCount != h {
            failures.append("expected \(h) hops, got \(r.navigationCount)")
        }
        if let place = e.endsIn, normalizePlace(place) != r.outcome.place {
            failures.append("expected to end in \(place), ended in \(Outcome.placeName(r.outcome.place))")
        }
        if let apps = e.appsOpened, apps != r.appsOpened {
            failures.append("expected apps opened \(apps), got \(r.appsOpened)")
        }
        if let text = e.reasonContains, !r.outcome.reason.lowercased().contains(text.lowercased()) {
            failures.append("expected the reason to mention '\(text)', got: \(r.outcome.reason)")
        }
        return failures
    }

    /// `webview` / `web view` / `browser` / `app NAME` / `NAME` → the outcome's place form.
    static func normalizePlace(_ s: String) -> String {
        let t = s.trimmingCharacters(in: .whitespaces)
        switch t.lowercased() {
        case "webview", "web view", "web-view": return "webview"
        case "browser", "safari", "chrome": return "browser"
        default:
            return t.lowercased().hasPrefix("app ") ? "app " + t.dropFirst(4).trimmingCharacters(in: .whitespaces) : "app " + t
        }
    }

    /// Every `when` label matches a different one of the branch's choices (`label` alone matches
    /// `label:anything`; a label given twice needs two such choices, e.g. two failed universal links).
    static func matches(_ when: [String], _ choices: [String]) -> Bool {
        var left = choices
        for w in when {
            guard let i = left.firstIndex(where: { $0 == w || $0.hasPrefix(w + ":") }) else { return false }
            left.remove(at: i)
        }
        return true
    }
}
