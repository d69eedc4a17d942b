import Foundation
import Testing
import TestSupport

/// `plainview extract` on pathological pages: bounded time and memory, and the cut reported in the output's
/// `truncations`. Every child process is waited for off Swift's cooperative pool (`offPool`): a test blocking a
/// pool thread for seconds starves the in-process servers other suites run at the same time.
@Suite(.serialized) struct ExtractLimitsCLITests {
    struct Failure: Error, CustomStringConvertible { var description: String }

    static let base = "https://shop.example/pay"

    /// Exit status and peak resident memory of `plainview ARGS…`. The peak is taken by a small Python process
    /// that forks and waits for the CLI: a child forked or spawned by this (large) test process would count this
    /// process's own memory as its own (Linux charges the address space it starts from).
    static func peak(_ arguments: [String]) throws -> (status: Int32, bytes: Int) {
        let script = """
            import os, sys
            pid = os.fork()
            if pid == 0:
                fd = os.open("/dev/null", os.O_WRONLY)
                os.dup2(fd, 1); os.dup2(fd, 2)
                os.execv(sys.argv[1], sys.argv[1:])
            _, status, usage = os.wait4(pid, 0)
            print(os.waitstatus_to_exitcode(status), usage.ru_maxrss * 1024)
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script, CLI.executable.path] + arguments
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let fields = String(decoding: data, as: UTF8.self).split(whereSeparator: \.isWhitespace)
        guard let status = fields.first.flatMap({ Int32($0) }), let bytes = fields.last.flatMap({ Int($0) }) else {
            throw Failure(description: "python3 could not run the CLI")
        }
        return (status, bytes)
    }

    static func withFile<T>(_ bytes: [UInt8], _ body: (URL) throws -> T) throws -> T {
        let dir = try Project.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("page.html")
        try Data(bytes).write(to: file)
        return try body(file)
    }

    static func metaRefresh(urlBytes: Int) -> [UInt8] {
        Array("<html><head><meta http-equiv=refresh content=\"0;url=/".utf8)
            + [UInt8](repeating: UInt8(ascii: "a"), count: urlBytes) + Array("\"></head><body>x</body></html>".utf8)
    }

    /// What an 8 MB page dense with one kind of content adds to the process's peak over an empty page (the Swift
    /// runtime): at most 3 times the page. Findings past the per-page cap are counted, not kept; scripts are
    /// analysed a run of statements at a time and never held as tokens past their run; a million nested elements
    /// cost libxml2 its element stack and the collector 4 bytes each. Before, most of these pages added 3 to 22
    /// times their size (the README's Performance section lists each).
    @Test(arguments: DensePage.allCases)
    func densePagesAddAtMostThreeTimesTheirSize(kind: DensePage) async throws {
        let page = kind.page(bytes: 8_000_000)
        let empty = try await offPool {
            try Self.withFile(Array("<html></html>".utf8)) { try Self.peak(["extract", $0.path, "--base", Self.base]) }
        }
        let (status, bytes) = try await offPool {
            try Self.withFile(page) { try Self.peak(["extract", $0.path, "--base", Self.base]) }
        }
        #expect(status == 0 && empty.status == 0)
        let added = Double(bytes - empty.bytes) / Double(page.count)
        #expect(added <= 3, "\(kind): the page added \(added)× its size (peak \(bytes / 1_000_000) MB)")
    }

    @Test func denseNavigationsAreCutAndSaidSo() async throws {
        let page = DensePage.navigationsInManyScripts.page(bytes: 2_000_000)
        let r = try await offPool { try Self.withFile(page) { try CLI.run(["extract", $0.path, "--base", Self.base]) } }
        #expect(r.status == 0, "\(r.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        let navigations = try #require(object["scriptNavigations"] as? [[String: Any]])
        #expect(navigations.count == 25_000)
        #expect(navigations.first?["url"] as? String == "https://shop.example/p?o=0")
        #expect(navigations.first?["runOrder"] as? Int == 0)
        let truncations = try #require(object["truncations"] as? [[String: Any]])
        #expect(truncations.map { $0["kind"] as? String } == ["script-navigations"])
        let found = try #require(truncations.first?["count"] as? Int)
        #expect(found > 40_000)
        #expect(truncations.first?["limit"] as? Int == 25_000)
        #expect(truncations.first?["dropped"] as? Int == found - 25_000)
    }

    @Test func oneScriptInSegmentsFindsWhatOneUnitFinds() async throws {
        // 1.3 MB of statements (analysed in runs of about 256 kB) with a function declared in the first run and
        // called on load from the last: its navigation still counts as on load. (9,001 navigations: under the cap.)
        var page = Array("<script>function go() { location.replace('/go') }\n".utf8)
        var i = 0
        let filler = String(repeating: "x", count: 100)
        while i < 9_000 { page += Array("var v\(i) = '\(filler)'; location.href = '/p\(i)';\n".utf8); i += 1 }
        page += Array("go();</script>".utf8)
        let finished = page
        let r = try await offPool { try Self.withFile(finished) { try CLI.run(["extract", $0.path, "--base", Self.base]) } }
        #expect(r.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        let navigations = try #require(object["scriptNavigations"] as? [[String: Any]])
        #expect(navigations.count == i + 1)
        #expect(navigations.first?["url"] as? String == "https://shop.example/go")
        #expect(navigations.first?["onLoad"] as? Bool == true)
        #expect(navigations.last?["url"] as? String == "https://shop.example/p\(i - 1)")
    }

    @Test func attributeFloodIsCutAndSaidSo() async throws {
        let attributes = (0..<200_000).map { "a\($0)=1" }.joined(separator: " ")
        let page = Array("<div \(attributes)>x</div><a href='/after'>after</a>".utf8)
        let r = try await offPool {
            try Self.withFile(page) { try CLI.run(["extract", $0.path, "--base", Self.base], timeout: 60) }
        }
        #expect(r.status == 0, "\(r.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        let truncations = try #require(object["truncations"] as? [[String: Any]])
        #expect(truncations.count == 1)
        #expect(truncations.first?["kind"] as? String == "attributes")
        #expect(truncations.first?["count"] as? Int == 1)
        #expect(truncations.first?["limit"] as? Int == 1_000)
        #expect(truncations.first?["dropped"] as? Int == 199_000)
        #expect((object["links"] as? [[String: Any]])?.first?["url"] as? String == "https://shop.example/after")
    }
}
