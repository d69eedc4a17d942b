// The one place that spreads work over threads and gathers the results: the engine pool (one thread per engine)
// and the import's independent pieces (the residue check of every written file, the drafting's page checks, the
// check beside the writing when nothing waits on it), and the two stages of redaction's detecting pass (`pipeline`:
// the detectors one block ahead, the numbering in order).
// Results always come back in the items' order (and a pipeline consumes them in order), so a parallel run's output
// is the serial run's, whatever the timing. (A single background task, such as the WebKit driver's reader, starts its own thread.) POSIX threads,
// so this module stays free of Foundation.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

package enum Threads {
    /// Each thread's stack: 16 MB, as deep pages need on the main thread (a new thread's default can be far less).
    package static let stackSize = 16 << 20

    /// `body` for each item on a thread of its own, all at once; the results in the items' order once all have
    /// ended. An item whose thread cannot be started runs on the calling thread, after the others have started.
    package static func each<T, R>(_ items: [T], _ body: (T) -> R) -> [R] {
        withoutActuallyEscaping(body) { body in
            let slots = ResultSlots<R>(count: items.count)
            var started: [pthread_t] = []
            var inline: [Int] = []
            for i in items.indices {
                let item = items[i]
                let work = ThreadWork { slots.set(i, body(item)) }
                if let thread = start(work) { started.append(thread) } else { inline.append(i) }
            }
            for i in inline { slots.set(i, body(items[i])) }
            for thread in started { pthread_join(thread, nil) }
            return slots.values
        }
    }

    /// `body(i)` for every `i` in `0..<count` on up to `threads` threads, the calling thread one of them, each
    /// taking the next index not yet taken (pieces of very different sizes still share out evenly); the results in
    /// index order. One thread, or one piece, runs on the calling thread alone. The calling thread works too, so
    /// fewer threads start (each new thread gets a heap of its own from the C allocator, more memory in use).
    package static func map<R>(_ count: Int, threads: Int, _ body: (Int) -> R) -> [R] {
        guard count > 0 else { return [] } // no pieces (a negative count too): nothing to run
        let workers = max(1, min(threads, count))
        guard workers > 1 else { return (0..<count).map(body) }
        let queue = IndexQueue(order: Array(0..<count))
        let slots = ResultSlots<R>(count: count)
        func work() { while let i = queue.next() { slots.set(i, body(i)) } }
        withoutActuallyEscaping(work) { work in
            let started = (1..<workers).compactMap { _ in start(ThreadWork(work)) }
            work()
            for thread in started { pthread_join(thread, nil) }
        }
        return slots.values
    }

    /// `produce(i)` for every `i` in `0..<count`, in order, on a thread of its own, while the calling thread runs
    /// `consume(i, product)` in order, each as soon as its product is made; the producer stays at most `ahead`
    /// products ahead (what waits is held in memory). Two stages of one pass over many pieces, each stage on its
    /// own core. One piece, or no thread to start, makes and consumes each piece in turn on the calling thread.
    package static func pipeline<P>(_ count: Int, ahead: Int = 2, produce: (Int) -> P, consume: (Int, P) -> Void) {
        guard count > 1 else {
            if count == 1 { consume(0, produce(0)) }
            return
        }
        withoutActuallyEscaping(produce) { produce in
            let handoff = Handoff<P>(ahead: max(1, ahead))
            guard let thread = start(ThreadWork { for i in 0..<count { handoff.put(i, produce(i)) } }) else {
                for i in 0..<count { consume(i, produce(i)) }
                return
            }
            for i in 0..<count { consume(i, handoff.take(i)) }
            pthread_join(thread, nil)
        }
    }

    /// Starts a joinable thread running `work`; nil when the system will not start one.
    private static func start(_ work: ThreadWork) -> pthread_t? {
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setstacksize(&attributes, stackSize)
        let context = Unmanaged.passRetained(work).toOpaque()
        #if canImport(Glibc)
        var thread = pthread_t()
        #else
        var thread: pthread_t?
        #endif
        let status = pthread_create(
            &thread, &attributes,
            { context in
                #if canImport(Glibc)
                let work = Unmanaged<ThreadWork>.fromOpaque(context!).takeRetainedValue()
                #else
                let work = Unmanaged<ThreadWork>.fromOpaque(context).takeRetainedValue()
                #endif
                work.run()
                return nil
            }, context)
        guard status == 0 else {
            Unmanaged<ThreadWork>.fromOpaque(context).release()
            return nil
        }
        #if canImport(Glibc)
        return thread
        #else
        return thread!
        #endif
    }
}

/// What one thread runs (handed over to it; nothing else calls it).
private final class ThreadWork: @unchecked Sendable {
    let run: () -> Void
    init(_ run: @escaping () -> Void) { self.run = run }
}

/// A lock of its own place in memory (a `pthread_mutex_t` must not move).
package final class ThreadLock: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    package init() { pthread_mutex_init(mutex, nil) }
    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }
    package func locked<T>(_ body: () throws -> T) rethrows -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }
}

/// The next index to work on, for whichever thread is free, in the given order.
package final class IndexQueue: @unchecked Sendable {
    private let lock = ThreadLock()
    private var taken = 0
    private let order: [Int]
    package init(order: [Int]) { self.order = order }

    package func next() -> Int? {
        lock.locked {
            guard taken < order.count else { return nil }
            taken += 1
            return order[taken - 1]
        }
    }
}

/// One result per index, each written once by the thread that made it.
package final class ResultSlots<R>: @unchecked Sendable {
    private let lock = ThreadLock()
    private var slots: [R?]
    package init(count: Int) { slots = Array(repeating: nil, count: count) }

    package func set(_ i: Int, _ value: R) { lock.locked { slots[i] = value } }

    /// Every slot's value (all are set once the threads have ended).
    package var values: [R] { lock.locked { slots.map { $0! } } }
}

/// Products handed from one thread to another in order (Threads.pipeline): the maker waits while it is `ahead`
/// products ahead, the taker while the product it asks for is not made yet.
private final class Handoff<P>: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let changed = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private var ready: [Int: P] = [:]
    private var made = 0
    private var taken = 0
    private let ahead: Int

    init(ahead: Int) {
        self.ahead = ahead
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(changed, nil)
    }

    deinit {
        pthread_cond_destroy(changed)
        pthread_mutex_destroy(mutex)
        changed.deallocate()
        mutex.deallocate()
    }

    func put(_ i: Int, _ product: P) {
        pthread_mutex_lock(mutex)
        while made - taken >= ahead { pthread_cond_wait(changed, mutex) }
        ready[i] = product
        made += 1
        pthread_cond_broadcast(changed)
        pthread_mutex_unlock(mutex)
    }

    func take(_ i: Int) -> P {
        pthread_mutex_lock(mutex)
        while ready.index(forKey: i) == nil { pthread_cond_wait(changed, mutex) }
        let product = ready.removeValue(forKey: i)!
        taken += 1
        pthread_cond_broadcast(changed)
        pthread_mutex_unlock(mutex)
        return product
    }
}
