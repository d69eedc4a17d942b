// `simulate --jobs N` in engine mode: N engines of one kind, each driven by a thread of its own, take the flows
// from one queue; explored, a flow's branches are spread over the engines too. Each engine is its
// own browser (Chromium) or driver process with its own Xvfb (WebKit), so a crash or a hang restarts only that
// engine and ends only the run it was in, and a session's code is the same as in a serial run. The results come
// back in the flows' order whatever order they finished in.
import FlowSimulator
import Foundation
import PlainviewSupport

public final class EnginePool {
    /// The engines' name (`chromium`, `webkit`).
    public let name: String
    private let engines: [any WebEngine]

    /// Starts `jobs` engines made by `make`, at the same time (start-up is paid once, not once per engine). Fails
    /// with the first engine's failure when any cannot start, having shut down the ones that did.
    public init(jobs: Int, make: @escaping @Sendable () throws(EngineFailure) -> any WebEngine) throws(EngineFailure) {
        let made = Threads.each(Array(0..<max(1, jobs))) { _ -> Result<Box, EngineFailure> in
            do throws(EngineFailure) { return .success(Box(try make())) } catch { return .failure(error) }
        }
        var engines: [any WebEngine] = []
        var failure: EngineFailure?
        for result in made {
            switch result {
            case .success(let box): engines.append(box.engine)
            case .failure(let error): failure = failure ?? error
            }
        }
        if let failure {
            engines.forEach { $0.shutdown() }
            throw failure
        }
        self.engines = engines
        name = engines[0].name
    }

    deinit { shutdown() }

    /// The number of engines (the most runs at once).
    public var jobs: Int { engines.count }

    /// `run(flow, engine)` for every flow, up to `jobs` at once, each engine running one flow at a time, the flows
    /// started in their order; the results in the order of `flows`.
    public func map(_ flows: [Flow], _ run: @escaping @Sendable (Flow, any WebEngine) -> FlowResult) -> [FlowResult] {
        let queue = IndexQueue(order: Array(flows.indices))
        let results = ResultSlots<FlowResult>(count: flows.count)
        let workers = engines.prefix(max(1, min(engines.count, flows.count))).map(Box.init)
        _ = Threads.each(workers) { worker in
            while let i = queue.next() { results.set(i, run(flows[i], worker.engine)) }
            return true
        }
        return results.values
    }

    /// `--explore` in these engines: every flow's branches, the results in the order of `flows`.
    ///
    /// With one engine, the flows and their branches run one at a time. With more, up to `jobs` flows are
    /// explored at once, and a flow's branches are spread over whichever engines are free: a branch starts as soon
    /// as it is known (`Simulator.explore(_:drive:)`), so one flow of 22 branches uses every engine too. The flows
    /// with the most branches in the model start first; `model` is the flows' model results when the caller has
    /// them (compare does), else they are computed here (a few milliseconds a flow).
    public func explore(_ flows: [Flow], model: [FlowResult]? = nil) -> [FlowResult] {
        guard jobs > 1 else { return map(flows) { Simulator.explore($0, engine: $1) } }
        let weights = (model ?? flows.map { Simulator.explore($0) }).map(\.branches.count)
        let queue = IndexQueue(order: Self.startOrder(count: flows.count, weights: weights))
        let results = ResultSlots<FlowResult>(count: flows.count)
        let lender = EngineLender(engines)
        let jobs = jobs
        _ = Threads.each(Array(0..<min(jobs, flows.count))) { _ in
            while let i = queue.next() {
                results.set(
                    i,
                    Simulator.explore(flows[i]) { next in
                        let threads = Self.branchThreads(jobs: jobs, expected: i < weights.count ? weights[i] : jobs)
                        _ = Threads.each(Array(0..<threads)) { _ in
                            while let run = next() { lender.with { run($0) } }
                            return true
                        }
                    })
            }
            return true
        }
        return results.values
    }

    /// How many threads run one flow's branches: one per engine, but no more than the branches the model
    /// expects (at least one; a branch the engine finds beyond them waits for a free thread of its flow).
    static func branchThreads(jobs: Int, expected: Int) -> Int { max(1, min(jobs, expected)) }

    /// The flows' indices, heaviest first (ties, and flows without a weight, in their order).
    static func startOrder(count: Int, weights: [Int]?) -> [Int] {
        guard let weights, weights.count == count else { return Array(0..<count) }
        return (0..<count).sorted { (-weights[$0], $0) < (-weights[$1], $1) }
    }

    /// Ends every engine's processes.
    public func shutdown() { engines.forEach { $0.shutdown() } }
}

/// An engine handed to the thread that drives it; only that thread uses it until it ends.
private struct Box: @unchecked Sendable {
    let engine: any WebEngine
    init(_ engine: any WebEngine) { self.engine = engine }
}

/// The engines not running a branch now: a run borrows one, waiting until one is free, and gives it back when it
/// ends, so no two runs ever share an engine.
private final class EngineLender: @unchecked Sendable {
    private let condition = NSCondition()
    private var free: [any WebEngine]
    init(_ engines: [any WebEngine]) { free = engines }

    func with(_ body: (any WebEngine) -> Void) {
        condition.lock()
        while free.isEmpty { condition.wait() }
        let engine = free.removeLast()
        condition.unlock()
        body(engine)
        condition.lock()
        free.append(engine)
        condition.signal()
        condition.unlock()
    }
}
