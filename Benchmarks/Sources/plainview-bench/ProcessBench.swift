// Whole-process cost of the CLI: `plainview decide` for one URL, release build.
import Foundation

enum ProcessBench {
    static func run(quick: Bool) -> [Metric] {
        let name = "cli.decide_one_url_process_ms"
        guard let exe = Paths.sibling("plainview") else {
            return [
                Metric(
                    name: name, value: .nan, unit: "ms",
                    note: "build the CLI too: `swift build -c release` at the repository root")
            ]
        }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("plainview-bench-\(getpid())")
        defer { try? FileManager.default.removeItem(at: dir) }
        let policy = dir.appendingPathComponent("policy.yaml")
        let yaml = """
            platform: ios
            paymentUrl: \(Corpus.paymentURL)
            completeUrl: \(Corpus.completeURL)
            cancelUrl: \(Corpus.cancelURL)
            goodlist: ["**.payex.com", "*.3dsecure.no"]

            """
        do {
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            try Data(yaml.utf8).write(to: policy)
        } catch {
            return [Metric(name: name, value: .nan, unit: "ms", note: "cannot write a policy file: \(error)")]
        }
        let args = ["decide", "--policy", policy.path, "https://acs.3dsecure.no/challenge"]
        _ = Child.run(exe, args) // warm the page cache
        var times: [Double] = []
        var status: Int32 = 0
        for _ in 0..<(quick ? 5 : 25) {
            guard let r = Child.run(exe, args) else { break }
            status = r.status
            times.append(r.seconds * 1000)
        }
        let median = Measure.median(times)
        return [
            Metric(
                name: name, value: median, unit: "ms", target: "<= 50", pass: status == 0 && median <= 50,
                note: "median of \(times.count) runs, spawn to exit; exit \(status)")
        ]
    }
}
