// Extraction throughput against the bare libxml2 parse of the same bytes, and against Python lxml
// doing the same extraction on the same corpus (Benchmarks/lxml_peer.py), measured side by side.
import Foundation
import PageScan

enum CorpusFiles {
    static let documentURL = "https://acs.3dsecure.no/3ds/challenge"

    static var pages: [(name: String, bytes: [UInt8])] {
        Corpus.pageSizes.enumerated().map { i, size in ("page-\(size).html", Corpus.checkoutPage(bytes: size, variant: i)) }
    }

    /// The whole corpus: the pages in `dir`, the generated flows in `dir/flows`.
    static func write(to dir: URL) throws {
        try writePages(to: dir)
        try writeFlows(to: dir.appendingPathComponent("flows"))
    }

    /// The extraction pages only (what the Python peer reads).
    static func writePages(to dir: URL) throws {
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        for page in pages {
            try Data(page.bytes).write(to: dir.appendingPathComponent(page.name), options: .atomic)
        }
    }

    /// The generated flows, one folder each (a `Pages/`-style tree).
    static func writeFlows(to dir: URL, count: Int = Corpus.generatedFlowCount) throws {
        for i in 0..<count {
            let flow = Corpus.generatedFlow(i)
            let folder = dir.appendingPathComponent(flow.name)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            for (name, text) in flow.files {
                try Data(text.utf8).write(to: folder.appendingPathComponent(name), options: .atomic)
            }
        }
    }
}

enum ExtractBench {
    static func run(seconds: Double, extraction: Bool, lxml: Bool) -> [Metric] {
        let pages = CorpusFiles.pages
        let totalBytes = pages.reduce(0) { $0 + $1.bytes.count }
        let mb = Double(totalBytes) / 1_000_000
        var out: [Metric] = []

        let scanRate = Measure.cpuRate(seconds: seconds) {
            var acc = 0
            for p in pages {
                if let r = try? PageScanner.scan(p.bytes, contentType: "text/html; charset=utf-8", documentURL: CorpusFiles.documentURL) {
                    acc &+= r.links.count &+ r.forms.count
                }
            }
            consume(acc)
            return 1
        } * mb
        if extraction {
            let parseRate = Measure.cpuRate(seconds: seconds) {
                for p in pages { PageScanner.parseOnly(p.bytes) }
                return 1
            } * mb
            let ratio = scanRate / parseRate
            out.append(Metric(name: "extract.mb_per_s_over_bare_libxml2_parse", value: scanRate, unit: "MB/s",
                              baseline: parseRate, ratio: ratio, target: ">= 0.77", pass: ratio >= 0.77,
                              note: "corpus: \(pages.count) generated checkout/3DS pages, 2 kB to 5 MB, \(totalBytes) bytes"))
            for p in pages {
                let r = Measure.cpuRate(seconds: seconds / 2, rounds: 2) {
                    consume((try? PageScanner.scan(p.bytes, contentType: nil, documentURL: CorpusFiles.documentURL))?.links.count ?? 0)
                    return 1
                } * Double(p.bytes.count) / 1_000_000
                out.append(Metric(name: "extract.mb_per_s.\(p.name)", value: r, unit: "MB/s"))
            }
        }
        if lxml {
            out.append(lxmlMetric(scanRate: scanRate, seconds: seconds))
            out.append(peakMemoryMetric())
        }
        return out
    }

    /// Runs the Python peer on the same corpus and compares throughputs.
    static func lxmlMetric(scanRate: Double, seconds: Double) -> Metric {
        let name = "extract.throughput_over_python_lxml"
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("plainview-bench-corpus-\(getpid())")
        defer { try? FileManager.default.removeItem(at: dir) }
        do { try CorpusFiles.writePages(to: dir) } catch {
            return Metric(name: name, value: .nan, unit: "MB/s", note: "could not write the corpus: \(error)")
        }
        let script = Paths.repoRoot.appendingPathComponent("Benchmarks/lxml_peer.py").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script, dir.path, "--seconds", String(seconds)]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch {
            return Metric(name: name, value: .nan, unit: "MB/s", note: "python3 not runnable: \(error)")
        }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        struct Peer: Decodable { var mb_per_s: Double; var lxml: String; var libxml2: String }
        guard process.terminationStatus == 0, let peer = try? JSONDecoder().decode(Peer.self, from: data) else {
            return Metric(name: name, value: .nan, unit: "MB/s",
                          note: "Python peer not measured: `pip install lxml`, then run again (\(String(decoding: data, as: UTF8.self).prefix(200)))")
        }
        let ratio = scanRate / peer.mb_per_s
        return Metric(name: name, value: scanRate, unit: "MB/s", baseline: peer.mb_per_s, ratio: ratio,
                      target: ">= 1.0", pass: ratio >= 1.0,
                      note: "peer: lxml \(peer.lxml) on libxml2 \(peer.libxml2), same corpus, same extraction")
    }

    /// Peak resident memory of `plainview extract` on a generated 50 MB page, as a multiple of the page size.
    static func peakMemoryMetric() -> Metric {
        let name = "extract.peak_memory_50mb_page_over_page_size"
        guard let exe = Paths.sibling("plainview") else {
            return Metric(name: name, value: .nan, unit: "x", note: "build the CLI too: `swift build -c release`")
        }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("plainview-bench-50mb-\(getpid()).html")
        defer { try? FileManager.default.removeItem(at: file) }
        let page = Corpus.checkoutPage(bytes: 50_000_000, variant: 9)
        guard (try? Data(page).write(to: file)) != nil,
              let r = Child.peak(exe, ["extract", file.path, "--base", CorpusFiles.documentURL]) else {
            return Metric(name: name, value: .nan, unit: "x", note: "could not run \(exe)")
        }
        let ratio = Double(r.maxRSSBytes) / Double(page.count)
        return Metric(name: name, value: Double(r.maxRSSBytes) / 1_000_000, unit: "MB", baseline: Double(page.count) / 1_000_000,
                      ratio: ratio, target: "<= 3", pass: r.status == 0 && ratio <= 3,
                      note: "whole `plainview extract` process incl. JSON output; exit \(r.status)")
    }
}

enum Paths {
    /// The repository root, from this source file's location.
    static let repoRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// An executable built beside this one (`.build/release/NAME`); `PLAINVIEW_BIN` overrides it for `plainview`.
    static func sibling(_ name: String) -> String? {
        if name == "plainview", let override = ProcessInfo.processInfo.environment["PLAINVIEW_BIN"],
           FileManager.default.isExecutableFile(atPath: override) {
            return override
        }
        let exe = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        let path = exe.deletingLastPathComponent().appendingPathComponent(name).path
        return FileManager.default.isExecutableFile(atPath: path) ? path : nil
    }
}
