// Timing and reporting helpers for plainview-bench. Wall-clock time on one thread; best of several rounds.
import Foundation

/// One reported figure: printed as a JSON line and as a table row.
struct Metric: Encodable {
    var name: String
    var value: Double
    var unit: String
    /// The figure it is compared with, measured in the same run (for ratios).
    var baseline: Double?
    var ratio: Double?
    /// The target from the benchmark issue, as text (`>= 500000`), and whether this run met it.
    var target: String?
    var pass: Bool?
    var note: String?
}

/// Keeps the optimizer from deleting measured work.
nonisolated(unsafe) var benchSink: Int = 0
@inline(never) func consume(_ x: Int) { benchSink &+= x }

enum Measure {
    /// This thread's CPU time in seconds (CLOCK_THREAD_CPUTIME_ID).
    static func threadCPUSeconds() -> Double { seconds(of: CLOCK_THREAD_CPUTIME_ID) }

    /// The CPU time of every thread of this process in seconds (CLOCK_PROCESS_CPUTIME_ID).
    static func processCPUSeconds() -> Double { seconds(of: CLOCK_PROCESS_CPUTIME_ID) }

    private static func seconds(of clock: clockid_t) -> Double {
        var ts = timespec()
        clock_gettime(clock, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    /// Runs `batch` (which does n operations and returns n) until `seconds` of this thread's CPU time have
    /// passed, `rounds` times; returns the best rate in operations per second: the "on one core" figure.
    /// On a shared machine the wall clock also counts the time other processes hold the core, which says
    /// nothing about the code measured; ratios are unaffected as both sides use the same clock (the Python
    /// peer uses `time.thread_time()`).
    static func cpuRate(seconds: Double, rounds: Int = 3, _ batch: () -> Int) -> Double {
        let now = threadCPUSeconds
        var best = 0.0
        for _ in 0..<rounds {
            var ops = 0
            let start = now()
            var elapsed = 0.0
            repeat {
                ops += batch()
                elapsed = now() - start
            } while elapsed < seconds
            best = max(best, Double(ops) / elapsed)
        }
        return best
    }

    static func seconds(_ d: Duration) -> Double {
        Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
    }

    static func median(_ xs: [Double]) -> Double {
        let s = xs.sorted()
        guard !s.isEmpty else { return .nan }
        return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
    }
}

/// A child process run for its wall time, with stdout/stderr discarded (for its peak memory see `peak`).
enum Child {
    struct Result {
        var status: Int32; var seconds: Double; var maxRSSBytes: Int
        /// The child's user + system CPU time.
        var cpuSeconds: Double = 0
    }

    static func run(_ executable: String, _ arguments: [String]) -> Result? {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let clock = ContinuousClock()
        let start = clock.now
        guard posix_spawn(&pid, executable, &actions, nil, argv, environ) == 0 else { return nil }
        var status: Int32 = 0
        var usage = rusage()
        guard wait4(pid, &status, 0, &usage) == pid else { return nil }
        let elapsed = Measure.seconds(clock.now - start)
        let exitStatus = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        let cpu =
            Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
            + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
        return Result(status: exitStatus, seconds: elapsed, maxRSSBytes: usage.ru_maxrss * 1024, cpuSeconds: cpu)
    }
}

extension Child {
    /// Peak resident memory of `executable` alone. ru_maxrss of a child cannot be taken from this process:
    /// posix_spawn starts the child in this process's address space (vfork), and at exec Linux records that
    /// address space's high-water mark as the child's own, so a 50 MB page held here would count against the
    /// CLI. A fresh copy of this executable, still small, spawns the measured program and reports its figure.
    static func peak(_ executable: String, _ arguments: [String]) -> Result? {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("plainview-bench-peak-\(getpid())")
        defer { try? FileManager.default.removeItem(at: out) }
        let this = Bundle.main.executablePath ?? CommandLine.arguments[0]
        guard let helper = run(this, ["--peak-rss", out.path, executable] + arguments), helper.status == 0,
            let text = try? String(contentsOf: out, encoding: .utf8)
        else { return nil }
        let fields = text.split(separator: " ")
        guard fields.count == 3, let status = Int32(fields[0]), let rss = Int(fields[1]), let seconds = Double(fields[2]) else {
            return nil
        }
        return Result(status: status, seconds: seconds, maxRSSBytes: rss)
    }

    /// The helper's side of `peak`: runs the program and writes "status maxRSSBytes seconds" to `output`.
    static func reportPeak(output: String, _ executable: String, _ arguments: [String]) -> Int32 {
        guard let r = run(executable, arguments) else { return 1 }
        let line = "\(r.status) \(r.maxRSSBytes) \(r.seconds)"
        return (try? line.write(toFile: output, atomically: true, encoding: .utf8)) == nil ? 1 : 0
    }
}

/// Prints the metrics as JSON lines on stdout and as a table on stderr.
enum Report {
    static func emit(_ m: Metric) {
        let enc = JSONEncoder()
        enc.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        if let data = try? enc.encode(m), let line = String(data: data, encoding: .utf8) {
            FileHandle.standardOutput.write(Data((line + "\n").utf8))
        }
    }

    static func table(_ metrics: [Metric], machine: String) {
        var lines = ["", "plainview-bench on \(machine)", ""]
        let header = pad("metric", 52) + pad("value", 16) + pad("unit", 10) + pad("ratio", 9) + pad("target", 12) + "ok"
        lines.append(header)
        lines.append(String(repeating: "-", count: header.count + 2))
        for m in metrics {
            let ratio = m.ratio.map { fmt($0) } ?? ""
            let ok = m.pass.map { $0 ? "yes" : "NO" } ?? ""
            lines.append(pad(m.name, 52) + pad(fmt(m.value), 16) + pad(m.unit, 10) + pad(ratio, 9) + pad(m.target ?? "", 12) + ok)
        }
        FileHandle.standardError.write(Data((lines.joined(separator: "\n") + "\n").utf8))
    }

    static func fmt(_ x: Double) -> String {
        if x.isNaN { return "n/a" }
        if abs(x) >= 1000 { return String(Int(x.rounded())) }
        if abs(x) >= 10 { return String(format: "%.1f", x) }
        return String(format: "%.3f", x)
    }

    private static func pad(_ s: String, _ n: Int) -> String {
        s.count >= n ? s + " " : s + String(repeating: " ", count: n - s.count)
    }

    static var machine: String {
        var uts = utsname()
        uname(&uts)
        let release = withUnsafeBytes(of: &uts.release) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        let machine = withUnsafeBytes(of: &uts.machine) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        let cpu =
            (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8))?
            .split(separator: "\n").first { $0.hasPrefix("model name") }?
            .split(separator: ":", maxSplits: 1).last?.trimmingCharacters(in: .whitespaces) ?? "unknown CPU"
        return "\(cpu), \(ProcessInfo.processInfo.activeProcessorCount) cores, Linux \(release) \(machine)"
    }
}
