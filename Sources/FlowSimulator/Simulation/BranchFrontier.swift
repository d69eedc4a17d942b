// The branches of one explore: those found so far, which have run, and which may start now. Shared by the runs of
// one flow, on one engine or on several at once.
//
// The branches run are the first `limit` of the tree in breadth-first order: a level's branches in the order of
// their parents, then of the answers. That is the order one engine runs them in, one at a time. With several
// engines a branch may start before the ones ahead of it have ended (it does not wait for its level to finish),
// as long as fewer than `limit` known branches come before it. Only on a flow whose tree is larger than `limit` can
// a run be wasted: a branch that started among the first `limit` known, and that branches found later push out.
//
// Why the set is the serial one: a branch is known once its parent has run, and a parent always comes before its
// children. When nothing can start and nothing is running, every branch still waiting has `limit` or more known
// branches before it, so it is not among the first `limit`, and neither is anything below it. Every branch among
// the first `limit` has therefore run, and the tree has more than `limit` branches exactly when more than `limit`
// are known.
import Foundation

final class BranchFrontier: @unchecked Sendable {
    /// A branch: the answers it gives by choice key.
    struct Branch: Sendable {
        let id: Int
        let script: [ChoiceKey: Int]
    }

    private struct Node {
        /// The answer index taken at each level from the root (the root, the default branch, is `[]`): ordered by
        /// length, then element by element, this is the breadth-first order.
        let path: [Int]
        let script: [ChoiceKey: Int]
        var state: State
    }

    private enum State {
        case waiting, running
        case done(SimulationReport)
    }

    private let condition = NSCondition()
    private let limit: Int
    /// Every branch known, by id.
    private var nodes: [Node] = [Node(path: [], script: [:], state: .waiting)]
    /// The ids in breadth-first order.
    private var order: [Int] = [0]
    /// No branch before this place in `order` is waiting (the search for the next one starts here).
    private var scanFrom = 0
    private var running = 0

    init(limit: Int) { self.limit = limit }

    /// The next branch to run: the first waiting one in breadth-first order, if fewer than `limit` known branches
    /// come before it. Waits while none can start but some are running (their children may be next); nil when the
    /// explore is over.
    func next() -> Branch? {
        condition.lock()
        defer { condition.unlock() }
        while true {
            while scanFrom < order.count, !isWaiting(order[scanFrom]) { scanFrom += 1 }
            if scanFrom < min(limit, order.count) {
                let id = order[scanFrom]
                nodes[id].state = .running
                running += 1
                return Branch(id: id, script: nodes[id].script)
            }
            if running == 0 { return nil }
            condition.wait()
        }
    }

    /// Records the run of `branch`: its report, and the points it met. Every answer of a point its script does not
    /// give, other than the one taken, is a new branch (with the points met before it at the answers taken); a
    /// branch is a set of answers by key, so the branches found do not depend on the order of the questions.
    func finish(_ branch: Branch, report: SimulationReport, points: [ChoicePoint]) {
        condition.lock()
        defer { condition.unlock() }
        let parent = nodes[branch.id]
        var children: [Int] = []
        var prefix = parent.script
        for p in points where parent.script[p.key] == nil {
            for alt in p.alternatives.indices where alt != p.chosen {
                var child = prefix
                child[p.key] = alt
                children.append(nodes.count)
                nodes.append(Node(path: parent.path + [children.count - 1], script: child, state: .waiting))
            }
            prefix[p.key] = p.chosen
        }
        nodes[branch.id].state = .done(report)
        running -= 1
        // A parent's children are next to each other in the order: put them where the first one goes.
        if let first = children.first {
            let at = insertionPoint(of: nodes[first].path)
            order.insert(contentsOf: children, at: at)
            scanFrom = min(scanFrom, at)
        }
        condition.broadcast()
    }

    /// The reports of the first `limit` branches (all have run once `next()` returned nil), and whether the tree
    /// had more.
    var result: (reports: [SimulationReport], truncated: Bool) {
        condition.lock()
        defer { condition.unlock() }
        let reports = order.prefix(limit).compactMap { id -> SimulationReport? in
            if case .done(let report) = nodes[id].state { report } else { nil }
        }
        return (reports, order.count > limit)
    }

    private func isWaiting(_ id: Int) -> Bool {
        if case .waiting = nodes[id].state { true } else { false }
    }

    /// Where a branch with `path` goes in `order` (binary search).
    private func insertionPoint(of path: [Int]) -> Int {
        var low = 0
        var high = order.count
        while low < high {
            let mid = (low + high) / 2
            if Self.precedes(nodes[order[mid]].path, path) { low = mid + 1 } else { high = mid }
        }
        return low
    }

    /// Breadth-first order: the shallower first, then the first answer that differs.
    static func precedes(_ a: [Int], _ b: [Int]) -> Bool {
        a.count != b.count ? a.count < b.count : a.lexicographicallyPrecedes(b)
    }
}
