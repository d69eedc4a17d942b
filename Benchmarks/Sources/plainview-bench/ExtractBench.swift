// Extraction throughput against the bare libxml2 parse of the same bytes, and against Python lxml
// doing the same extraction on the same corpus (Benchmarks/lxml_peer.py), measured side by side.
import Foundation
import PageScan
import TestSupport

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

        let scanCorpus = {
            var acc = 0
            for p in pages {
                if let r = try? PageScanner.scan(
                    p.bytes, contentType: "text/html; charset=utf-8", documentURL: CorpusFiles.documentURL)
                {
                    acc &+= r.links.count &+ r.forms.count
                }
            }
            consume(acc)
            return 1
        }
        guard extraction else {
            out.append(lxmlMetric(scanRate: Measure.cpuRate(seconds: seconds, scanCorpus) * mb, seconds: seconds))
            out.append(peakMemoryMetric())
            return out
        }
        // The scan and its floor alternate, round by round, so a burst of load elsewhere hits both.
        var scanRate = 0.0, floorRate = 0.0
        for _ in 0..<4 {
            floorRate = max(
                floorRate,
                Measure.cpuRate(seconds: seconds / 2, rounds: 1) {
                    for p in pages { PageScanner.parseWithEmptyCallbacks(p.bytes) }
                    return 1
                } * mb)
            scanRate = max(scanRate, Measure.cpuRate(seconds: seconds / 2, rounds: 1, scanCorpus) * mb)
        }
        let treeRate =
            Measure.cpuRate(seconds: seconds) {
                for p in pages { PageScanner.parseOnly(p.bytes) }
                return 1
            } * mb
        let corpus = "corpus: \(pages.count) generated checkout/3DS pages, 2 kB to 5 MB, \(totalBytes) bytes"
        let ratio = scanRate / floorRate
        out.append(
            Metric(
                name: "extract.mb_per_s_over_libxml2_sax_floor", value: scanRate, unit: "MB/s",
                baseline: floorRate, ratio: ratio, target: ">= 0.77", pass: ratio >= 0.77,
                note: "floor: libxml2's HTML SAX parse with empty callbacks, in memory; \(corpus)"))
        out.append(
            Metric(
                name: "extract.mb_per_s_over_libxml2_tree_parse", value: scanRate, unit: "MB/s",
                baseline: treeRate, ratio: scanRate / treeRate,
                note: "second baseline: libxml2 building its tree (htmlParseDocument, xmlFreeDoc); \(corpus)"))
        for p in pages {
            let r =
                Measure.cpuRate(seconds: seconds / 2, rounds: 2) {
                    consume(
                        (try? PageScanner.scan(p.bytes, contentType: nil, documentURL: CorpusFiles.documentURL))?.links.count ?? 0
                    )
                    return 1
                } * Double(p.bytes.count) / 1_000_000
            out.append(Metric(name: "extract.mb_per_s.\(p.name)", value: r, unit: "MB/s"))
        }
        out.append(processMetric(quick: seconds < 1))
        if lxml {
            out.append(lxmlMetric(scanRate: scanRate, seconds: seconds))
            out.append(peakMemoryMetric())
        }
        return out
    }

    /// Whole processes on the 5 MB page: `plainview extract FILE` against a C program that reads the file and
    /// runs libxml2's SAX parse with empty callbacks (compiled here with `cc`), as CPU time (user + system,
    /// from the child's rusage), the least of several alternating runs.
    static func processMetric(quick: Bool) -> Metric {
        let name = "extract.process_5mb_page_over_c_sax_floor"
        guard let exe = Paths.sibling("plainview") else {
            return Metric(
                name: name, value: .nan, unit: "ms", note: "build the CLI too: `swift build -c release` at the repository root")
        }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("plainview-bench-floor-\(getpid())")
        defer { try? FileManager.default.removeItem(at: dir) }
        let page = dir.appendingPathComponent("page-5000000.html")
        let floor = dir.appendingPathComponent("sax-floor")
        do {
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            try Data(Corpus.checkoutPage(bytes: 5_000_000, variant: 4)).write(to: page)
            try Data(FloorProgram.source.utf8).write(to: dir.appendingPathComponent("sax-floor.c"))
        } catch {
            return Metric(name: name, value: .nan, unit: "ms", note: "cannot write the page: \(error)")
        }
        let compile = "cc -O2 -o '\(floor.path)' '\(dir.path)/sax-floor.c' $(pkg-config --cflags --libs libxml-2.0)"
        guard let built = Child.run("/bin/sh", ["-c", compile]), built.status == 0 else {
            return Metric(
                name: name, value: .nan, unit: "ms", note: "cannot build the C floor (needs cc, pkg-config, libxml2-dev)")
        }
        let extract = ["extract", page.path, "--base", CorpusFiles.documentURL]
        _ = Child.run(exe, extract) // warm the page cache
        var best = (plainview: Double.infinity, floor: Double.infinity)
        var status: Int32 = 0
        for _ in 0..<(quick ? 5 : 15) {
            guard let c = Child.run(floor.path, [page.path]), let p = Child.run(exe, extract) else { break }
            status = max(status, max(c.status, p.status))
            best = (min(best.plainview, p.cpuSeconds), min(best.floor, c.cpuSeconds))
        }
        let ratio = best.floor / best.plainview
        return Metric(
            name: name, value: best.plainview * 1000, unit: "ms", baseline: best.floor * 1000, ratio: ratio,
            target: ">= 0.6", pass: status == 0 && ratio >= 0.6,
            note:
                "CPU time (user + system) of the whole process, least of \(quick ? 5 : 15) runs each; ratio is floor ÷ plainview (throughput); exit \(status)"
        )
    }

    /// The in-process profile target: one scan of FILE (or with `floor`, the empty-callback parse), for
    /// `valgrind --tool=callgrind`, whose instruction counts repeat where times on a shared machine do not.
    static func profileOnce(_ path: String, floor: Bool, repeats: Int) -> Int32 {
        guard let data = FileManager.default.contents(atPath: path) else { return 66 }
        let bytes = [UInt8](data)
        for _ in 0..<repeats {
            if floor {
                PageScanner.parseWithEmptyCallbacks(bytes)
            } else {
                consume(
                    (try? PageScanner.scan(bytes, contentType: "text/html; charset=utf-8", documentURL: CorpusFiles.documentURL))?
                        .links.count ?? 0)
            }
        }
        return 0
    }
}

/// The whole-process floor: read a file, run libxml2's HTML SAX parser over it with empty callbacks and the
/// options PageScan uses.
enum FloorProgram {
    static let source = """
        #include <stdio.h>
        #include <stdlib.h>
        #include <libxml/HTMLparser.h>
        static void start(void *c, const xmlChar *n, const xmlChar **a) { (void)c; (void)n; (void)a; }
        static void end(void *c, const xmlChar *n) { (void)c; (void)n; }
        static void text(void *c, const xmlChar *t, int len) { (void)c; (void)t; (void)len; }
        int main(int argc, char **argv) {
            if (argc != 2) return 64;
            FILE *f = fopen(argv[1], "rb");
            if (!f) return 66;
            if (fseek(f, 0, SEEK_END) != 0) return 74;
            long n = ftell(f);
            if (n < 0 || fseek(f, 0, SEEK_SET) != 0) return 74;
            char *buf = malloc((size_t)n + 1);
            if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n) return 74;
            fclose(f);
            htmlParserCtxtPtr ctxt = htmlCreateMemoryParserCtxt(buf, (int)n);
            if (!ctxt) return 71;
            htmlSAXHandler sax = {0};
            sax.startElement = start; sax.endElement = end; sax.characters = text; sax.cdataBlock = text;
            *ctxt->sax = sax;
            ctxt->userData = NULL;
            htmlCtxtUseOptions(ctxt, HTML_PARSE_RECOVER | HTML_PARSE_NONET | HTML_PARSE_NOERROR
                                     | HTML_PARSE_NOWARNING | HTML_PARSE_NOIMPLIED);
            htmlParseDocument(ctxt);
            htmlFreeParserCtxt(ctxt);
            free(buf);
            return 0;
        }

        """
}

extension ExtractBench {
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
            return Metric(
                name: name, value: .nan, unit: "MB/s",
                note:
                    "Python peer not measured: `pip install lxml`, then run again (\(String(decoding: data, as: UTF8.self).prefix(200)))"
            )
        }
        let ratio = scanRate / peer.mb_per_s
        return Metric(
            name: name, value: scanRate, unit: "MB/s", baseline: peer.mb_per_s, ratio: ratio,
            target: ">= 1.0", pass: ratio >= 1.0,
            note: "peer: lxml \(peer.lxml) on libxml2 \(peer.libxml2), same corpus, same extraction")
    }

    /// Peak resident memory of `plainview extract` on a generated 50 MB page, as a multiple of the page size.
    static func peakMemoryMetric() -> Metric {
        let name = "extract.peak_memory_50mb_page_over_page_size"
        guard let exe = Paths.sibling("plainview") else {
            return Metric(
                name: name, value: .nan, unit: "x", note: "build the CLI too: `swift build -c release` at the repository root")
        }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("plainview-bench-50mb-\(getpid()).html")
        defer { try? FileManager.default.removeItem(at: file) }
        let page = Corpus.checkoutPage(bytes: 50_000_000, variant: 9)
        guard (try? Data(page).write(to: file)) != nil,
            let r = Child.peak(exe, ["extract", file.path, "--base", CorpusFiles.documentURL])
        else {
            return Metric(name: name, value: .nan, unit: "x", note: "could not run \(exe)")
        }
        let ratio = Double(r.maxRSSBytes) / Double(page.count)
        return Metric(
            name: name, value: Double(r.maxRSSBytes) / 1_000_000, unit: "MB", baseline: Double(page.count) / 1_000_000,
            ratio: ratio, target: "<= 3", pass: r.status == 0 && ratio <= 3,
            note: "whole `plainview extract` process incl. JSON output; exit \(r.status)")
    }
}

enum Paths {
    /// The repository root, from this source file's location (Benchmarks/Sources/plainview-bench/).
    static let repoRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// A Plainview executable: `PLAINVIEW_BIN` for `plainview`, else one built beside this one, else the root
    /// package's release build (`swift build -c release` at the repository root: `.build/release/NAME`).
    static func sibling(_ name: String) -> String? {
        if name == "plainview", let override = ProcessInfo.processInfo.environment["PLAINVIEW_BIN"],
            Program.isRunnable(override)
        {
            return override
        }
        let exe = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        let candidates = [
            exe.deletingLastPathComponent().appendingPathComponent(name).path,
            repoRoot.appendingPathComponent(".build/release/\(name)").path,
        ]
        return candidates.first { Program.isRunnable($0) }
    }
}
