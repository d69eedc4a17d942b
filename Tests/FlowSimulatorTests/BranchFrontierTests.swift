import Foundation
import Testing

@testable import FlowSimulator

/// The branches an explore runs on several engines at once, where a branch starts without waiting for its level:
/// for every limit, the same branches as one engine running them in breadth-first order, and the same "stopped"
/// answer.
@Suite struct BranchFrontierTests {
    /// A tree of 30 branches, where a run meets different points depending on the answers
    /// it was given: `a` (3 answers) always; then `b` (2) if a=1; `c` (2) and `d` (3) if a=2; `e` (2) if b=1;
    /// `f` (3) and `g` (2) if c=1 or d=2.
    static func points(_ script: [ChoiceKey: Int]) -> [ChoicePoint] {
        func answer(_ key: String) -> Int { script[ChoiceKey(key)] ?? 0 }
        func point(_ key: String, _ count: Int) -> ChoicePoint {
            ChoicePoint(key: ChoiceKey(key), alternatives: (0..<count).map { "\(key)\($0)" }, chosen: answer(key))
        }
        var met = [point("a", 3)]
        if answer("a") == 1 { met.append(point("b", 2)) }
        if answer("a") == 2 { met += [point("c", 2), point("d", 3)] }
        if answer("b") == 1 { met.append(point("e", 2)) }
        if answer("c") == 1 || answer("d") == 2 { met += [point("f", 3), point("g", 2)] }
        return met
    }

    static func name(_ script: [ChoiceKey: Int]) -> String {
        script.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ",")
    }

    static func report(_ script: [ChoiceKey: Int]) -> SimulationReport {
        SimulationReport(
            flow: "tree", branch: name(script), choices: [], outcome: Outcome(.complete, place: "webview", reason: ""),
            navigationCount: 0, appsOpened: [], events: [], virtualTime: 0, failures: [])
    }

    /// Explores the tree with `limit`, on `engines` threads that each run whatever branch the frontier hands out,
    /// taking a random short time per run so that branches end out of order: the branches kept, and whether the
    /// explore stopped at the limit.
    static func explore(limit: Int, engines: Int) -> (branches: Set<String>, truncated: Bool) {
        let frontier = BranchFrontier(limit: limit)
        let group = DispatchGroup()
        for _ in 0..<engines {
            group.enter()
            Thread {
                while let branch = frontier.next() {
                    usleep(UInt32.random(in: 0...3000))
                    frontier.finish(branch, report: report(branch.script), points: points(branch.script))
                }
                group.leave()
            }.start()
        }
        group.wait()
        let (reports, truncated) = frontier.result
        return (Set(reports.map(\.branch)), truncated)
    }

    /// The reference: the tree walked with a first-in first-out queue, one branch at a time (how explore ran
    /// before engines ran in parallel), stopped after `limit` runs; the branches in the order run, and whether any
    /// were left.
    static func breadthFirst(limit: Int) -> (order: [String], truncated: Bool) {
        var queue: [[ChoiceKey: Int]] = [[:]]
        var order: [String] = []
        while !queue.isEmpty {
            if order.count == limit { return (order, true) }
            let script = queue.removeFirst()
            order.append(name(script))
            var prefix = script
            for p in points(script) where script[p.key] == nil {
                for alt in p.alternatives.indices where alt != p.chosen {
                    var child = prefix
                    child[p.key] = alt
                    queue.append(child)
                }
                prefix[p.key] = p.chosen
            }
        }
        return (order, false)
    }

    @Test func oneEngineRunsTheTreeBreadthFirst() {
        let frontier = BranchFrontier(limit: 100)
        var ran: [String] = []
        while let branch = frontier.next() {
            ran.append(Self.name(branch.script))
            frontier.finish(branch, report: Self.report(branch.script), points: Self.points(branch.script))
        }
        let all = Self.breadthFirst(limit: 1000).order
        #expect(all.count == 30)
        #expect(ran == all)
        #expect(frontier.result.truncated == false)
    }

    @Test(arguments: [1, 2, 3, 4])
    func severalEnginesRunTheBranchesOfOne(engines: Int) {
        let total = Self.breadthFirst(limit: 1000).order.count
        for limit in 1...(total + 1) {
            let serial = Self.breadthFirst(limit: limit)
            for _ in 0..<3 {
                let got = Self.explore(limit: limit, engines: engines)
                #expect(got.branches == Set(serial.order), "limit \(limit), \(engines) engines")
                #expect(got.truncated == serial.truncated, "limit \(limit), \(engines) engines")
            }
        }
    }
}
