import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@testable import PlainviewSupport

/// The engine pool and the import's parallel pieces rely on two promises: every item runs on a thread of its own
/// at the same time (`each`), and the results come back in the items' order however the threads finish (`map`).
@Suite struct ThreadsTests {
    @Test(arguments: [1, 2, 3, 8])
    func anOrderedMapGivesTheSerialResultsOnAnyNumberOfThreads(threads: Int) {
        // Pieces of very different sizes, so the threads finish them out of order.
        let work: (Int) -> [Int] = { i in (0..<(i % 7 == 0 ? 5_000 : 3)).map { $0 &* i } }
        let serial = (0..<500).map(work)
        #expect(Threads.map(500, threads: threads, work) == serial)
        #expect(Threads.map(0, threads: threads, work).isEmpty)
        #expect(Threads.map(1, threads: threads, work) == [work(0)])
        #expect(Threads.map(-3, threads: threads, work).isEmpty) // never a trap on a negative count
    }

    /// Four items that each wait until all four have started see all four only if all four run at once (run one
    /// after another, each gives up after its wait and says so: the test fails, it does not hang).
    @Test func eachItemRunsOnAThreadOfItsOwnAllAtOnce() {
        let arrived = Counter()
        let results = Threads.each(Array(0..<4)) { _ -> Bool in
            arrived.add()
            let deadline = ContinuousClock.now + .seconds(20)
            while arrived.value < 4, ContinuousClock.now < deadline { sched_yield() }
            return arrived.value == 4
        }
        #expect(results == [true, true, true, true])
    }

    /// A pipeline consumes every product in order, each the one made for its index, on the calling thread, while
    /// the products are made on another thread; the maker stays at most `ahead` products ahead, and does run ahead
    /// of a slow consumer (so both stages do run at once). Product i may be made once product i - ahead - 1 is
    /// taken; `taken` counts the consumer's starts, which may trail the takes by one.
    @Test(arguments: [1, 2, 4])
    func aPipelineConsumesInOrderWithTheMakerAtMostAheadBy(ahead: Int) {
        let caller = pthread_self()
        let taken = Counter(), overran = Counter(), ranAhead = Counter(), madeOnCaller = Counter()
        var order: [Int] = []
        Threads.pipeline(
            200, ahead: ahead,
            produce: { i -> [Int] in
                if pthread_equal(pthread_self(), caller) != 0 { madeOnCaller.add() }
                let waiting = i - taken.value
                if waiting > ahead + 1 { overran.add() }
                if waiting >= ahead { ranAhead.add() }
                return (0..<(i % 5 + 1)).map { $0 &* i }
            },
            consume: { i, product in
                taken.add()
                if i % 10 == 0 { usleep(2_000) } // a slow consumer now and then: the maker gets ahead
                #expect(product == (0..<(i % 5 + 1)).map { $0 &* i })
                #expect(pthread_equal(pthread_self(), caller) != 0)
                order.append(i)
            })
        #expect(order == Array(0..<200))
        #expect(overran.value == 0)
        #expect(ranAhead.value > 0)
        #expect(madeOnCaller.value == 0)
        // No pieces and one piece: nothing, and the one made and consumed in turn.
        var seen: [Int] = []
        Threads.pipeline(0, produce: { $0 }, consume: { i, _ in seen.append(i) })
        Threads.pipeline(1, produce: { $0 + 7 }, consume: { _, p in seen.append(p) })
        #expect(seen == [7])
    }

    #if os(Linux)
    /// A thread's stack is the 16 MB that deep pages need, not a new thread's smaller default: the mapping that
    /// holds a local of the thread (from /proc/self/maps) is at least that large.
    @Test func aThreadHasTheStackDeepWorkNeeds() {
        let sizes = Threads.each([1, 2]) { _ -> Int in
            var local = 0
            let address = withUnsafeMutablePointer(to: &local) { UInt(bitPattern: $0) }
            let maps = (try? String(contentsOfFile: "/proc/self/maps", encoding: .utf8)) ?? ""
            for line in maps.split(separator: "\n") {
                let bounds = line.prefix { $0 != " " }.split(separator: "-").compactMap { UInt($0, radix: 16) }
                if bounds.count == 2, bounds[0] <= address, address < bounds[1] { return Int(bounds[1] - bounds[0]) }
            }
            return 0
        }
        #expect(sizes.allSatisfy { $0 >= Threads.stackSize }, "\(sizes)")
    }
    #endif

    final class Counter: @unchecked Sendable {
        private let lock = ThreadLock()
        private var count = 0
        func add() { lock.locked { count += 1 } }
        var value: Int { lock.locked { count } }
    }
}
