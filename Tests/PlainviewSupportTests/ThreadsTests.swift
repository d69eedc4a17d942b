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
    /// A thread's stack is the 16 MB that deep pages need, not a new thread's smaller default: the stack the C
    /// library gave the thread (`pthread_getattr_np`, a GNU function Glibc's module leaves out, so looked up by
    /// name) holds a local of the thread and is at least that large. (Reading /proc/self/maps instead is not
    /// atomic: while other tests start and end threads, a read can miss the very mapping, and it took minutes on a
    /// busy machine.)
    @Test func aThreadHasTheStackDeepWorkNeeds() {
        let stacks = Threads.each([1, 2]) { _ -> (size: Int, holdsLocal: Bool) in
            var local = 0
            let address = withUnsafeMutablePointer(to: &local) { UInt(bitPattern: $0) }
            typealias GetAttributes = @convention(c) (pthread_t, UnsafeMutablePointer<pthread_attr_t>) -> Int32
            guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "pthread_getattr_np") else { return (0, false) }
            let getAttributes = unsafeBitCast(symbol, to: GetAttributes.self)
            var attributes = pthread_attr_t()
            guard getAttributes(pthread_self(), &attributes) == 0 else { return (0, false) }
            defer { pthread_attr_destroy(&attributes) }
            var base: UnsafeMutableRawPointer?
            var size = 0
            guard pthread_attr_getstack(&attributes, &base, &size) == 0, let base else { return (0, false) }
            let low = UInt(bitPattern: base)
            return (size, low <= address && address < low + UInt(size))
        }
        #expect(stacks.allSatisfy { $0.size >= Threads.stackSize && $0.holdsLocal }, "\(stacks)")
    }
    #endif

    final class Counter: @unchecked Sendable {
        private let lock = ThreadLock()
        private var count = 0
        func add() { lock.locked { count += 1 } }
        var value: Int { lock.locked { count } }
    }
}
