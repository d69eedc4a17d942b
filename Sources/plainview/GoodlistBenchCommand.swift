import ArgumentParser
import Foundation
#if canImport(Glibc)
import Glibc
#endif
import NavigationPolicy

/// Informal timing of `Goodlist.match(host:)` at several list sizes (the real benchmark lives elsewhere).
struct GoodlistBenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measure goodlist match time at several list sizes (informal).",
        shouldDisplay: false
    )

    @Option(help: "List sizes.")
    var sizes: [Int] = [12, 10_000, 100_000]

    @Option(help: "Lookups per size.")
    var lookups: Int = 200_000

    func validate() throws {
        if sizes.contains(where: { $0 < 1 }) || lookups < 1 { throw ValidationError("sizes and lookups must be positive") }
    }

    func run() async throws {
        var baseline: Double?
        for size in sizes {
            let list = Goodlist.synthetic(count: size)
            let hosts = Goodlist.syntheticHosts(count: 4096, listSize: size)
            var admitted = 0
            for h in hosts where list.match(host: h) != nil { admitted += 1 }  // warm up
            // CPU time of this process: wall time is meaningless on a shared machine.
            let start = cpuSeconds()
            var hits = 0
            for k in 0..<lookups where list.match(host: hosts[k & 4095]) != nil { hits += 1 }
            let seconds = max(cpuSeconds() - start, 1e-9)
            let perMatch = seconds / Double(lookups) * 1e9
            let ratio = baseline.map { perMatch / $0 } ?? 1
            if baseline == nil { baseline = perMatch }
            printOut("cpu entries=\(size) lookups=\(lookups) admitted=\(hits) ns/match=\(Int(perMatch)) matches/s=\(Int(Double(lookups) / seconds)) ratio=\(String(format: "%.2f", ratio))")
        }
    }
}

private func cpuSeconds() -> Double {
    var t = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t)
    return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
}
