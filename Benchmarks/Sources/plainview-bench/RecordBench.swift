// `plainview record` against the time the pages take to load: a generated 20-page checkout (each page ~3 kB, its
// script navigating to the next, the last to completeUrl) served over loopback HTTP by `plainview serve --pages`,
// recorded in Chromium (`record --resolve`), then the written flow replayed in Chromium (`simulate --engine
// chromium`, the pages answered from memory). Both are whole CLI processes with the engine's start, release build;
// the recording includes its own replay in the model and in the engine before it writes. Target: under 2×.
import Foundation
import PlainviewEngines

enum RecordBench {
    static let pages = 20

    static func run(quick: Bool) -> [Metric] {
        let name = "record.chain\(pages)_s"
        guard let exe = Paths.sibling("plainview") else {
            return [Metric(name: name, value: .nan, unit: "s", note: "build the CLI too: `swift build -c release`")]
        }
        guard ChromiumEngine.locate() != nil else {
            return [Metric(name: name, value: .nan, unit: "s", note: "Chromium is not installed (apt-get install chromium)")]
        }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("plainview-bench-record-\(getpid())")
        defer { try? FileManager.default.removeItem(at: dir) }
        let server = Process()
        do {
            try write(into: dir)
            server.executableURL = URL(fileURLWithPath: exe)
            server.arguments = ["serve", "--port", "0", "--pages", dir.appendingPathComponent("site").path]
            let pipe = Pipe()
            server.standardOutput = pipe
            server.standardError = FileHandle.nullDevice
            try server.run()
            guard let port = listeningPort(pipe.fileHandleForReading) else {
                server.terminate()
                return [Metric(name: name, value: .nan, unit: "s", note: "plainview serve did not say where it listens")]
            }
            defer {
                server.terminate()
                server.waitUntilExit()
            }
            let out = dir.appendingPathComponent("out").path
            let record = [
                "record", "http://shop.example.com/p1", "--policy", dir.appendingPathComponent("policy.yaml").path, "--out",
                out, "--force", "--resolve", "shop.example.com=127.0.0.1:\(port)",
            ]
            var recording: [Double] = [], replay: [Double] = []
            for _ in 0..<(quick ? 1 : 5) {
                guard let r = Child.run(exe, record), r.status == 0 else {
                    return [Metric(name: name, value: .nan, unit: "s", note: "plainview record failed")]
                }
                recording.append(r.seconds)
                guard let s = Child.run(exe, ["simulate", "--engine", "chromium", out]), s.status == 0 else {
                    return [Metric(name: name, value: .nan, unit: "s", note: "the recorded flow does not replay")]
                }
                replay.append(s.seconds)
            }
            let rec = Measure.median(recording), load = Measure.median(replay)
            return [
                Metric(
                    name: name, value: rec, unit: "s", baseline: load, ratio: rec / load, target: "ratio < 2",
                    pass: rec / load < 2,
                    note:
                        "record (session + model and engine replay + write) vs simulate --engine chromium of the written flow; median of \(recording.count)"
                )
            ]
        } catch {
            return [Metric(name: name, value: .nan, unit: "s", note: "cannot set up: \(error)")]
        }
    }

    /// The site (a flow folder `serve --pages` serves at its recorded paths) and the Android policy.
    static func write(into dir: URL) throws {
        let site = dir.appendingPathComponent("site/chain")
        try FileManager.default.createDirectory(at: site, withIntermediateDirectories: true)
        var flow = "name: chain\npolicy: ../../policy.yaml\nstart: http://shop.example.com/p1\npages:\n"
        for k in 1...pages {
            let next = k < pages ? "/p\(k + 1)" : "/complete"
            let text = String(repeating: "Step text. ", count: 300)
            try Data(
                "<!doctype html><title>Page \(k)</title><p>\(text)</p><script>window.location.href = \"\(next)\";</script>"
                    .utf8
            ).write(to: site.appendingPathComponent("p\(k).html"))
            flow += "  - url: http://shop.example.com/p\(k)\n    file: p\(k).html\n"
        }
        try Data(flow.utf8).write(to: site.appendingPathComponent("flow.yaml"))
        try Data(
            """
            platform: android
            paymentUrl: http://shop.example.com/p1
            completeUrl: http://shop.example.com/complete
            cancelUrl: http://shop.example.com/cancel
            redirectPolicy: webview

            """.utf8
        ).write(to: dir.appendingPathComponent("policy.yaml"))
    }

    /// The port of serve's `listening on http://127.0.0.1:PORT` line.
    static func listeningPort(_ handle: FileHandle) -> Int? {
        var text = ""
        while case let chunk = handle.availableData, !chunk.isEmpty {
            text += String(decoding: chunk, as: UTF8.self)
            if let line = text.split(separator: "\n").first(where: { $0.hasPrefix("listening on ") }),
                let port = line.split(separator: ":").last.flatMap({ Int($0) })
            {
                return port
            }
        }
        return nil
    }
}
