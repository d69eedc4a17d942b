import Foundation
import Testing
import TestSupport

/// `simulate` over a suite whose flows share one large page: page files are read when a flow runs, so the
/// suite's peak memory is one flow's, not the sum of every flow's pages (before, 16 flows sharing a 50 MB page
/// peaked at 0.9 GB).
@Suite(.serialized) struct SimulatePageMemoryCLITests {
    static let pageBytes = 8_000_000

    /// `count` flows in one folder, each naming `../common/big.html` (a page of `pageBytes` with one link).
    static func suite(flows count: Int) throws -> URL {
        let dir = try Project.temporaryDirectory()
        let common = dir.appendingPathComponent("common")
        try FileManager.default.createDirectory(at: common, withIntermediateDirectories: true)
        let line = "<p>lorem ipsum dolor sit amet</p>\n"
        var page = "<html><body><a href='https://shop.example.com/complete'>Done</a>"
        page += String(repeating: line, count: pageBytes / line.utf8.count) + "</body></html>"
        try Data(page.utf8).write(to: common.appendingPathComponent("big.html"))
        for i in 0..<count {
            let flow = dir.appendingPathComponent(String(format: "f%02d", i))
            try FileManager.default.createDirectory(at: flow, withIntermediateDirectories: true)
            let text =
                SimulateCLITests.policy + """
                    pages:
                      - url: https://shop.example.com/pay
                        file: ../common/big.html
                    steps:
                      - tap: Done
                    expect: {outcome: complete}

                    """
            try Data(text.utf8).write(to: flow.appendingPathComponent("flow.yaml"))
        }
        return dir
    }

    @Test func flowsSharingALargePageDoNotHoldItOncePerFlow() async throws {
        let one = try Self.suite(flows: 1)
        let many = try Self.suite(flows: 12)
        defer {
            try? FileManager.default.removeItem(at: one)
            try? FileManager.default.removeItem(at: many)
        }
        let single = try await offPool { try ExtractLimitsCLITests.peak(["simulate", one.path]) }
        let suite = try await offPool { try ExtractLimitsCLITests.peak(["simulate", many.path]) }
        #expect(single.status == 0 && suite.status == 0)
        // Holding every flow's copy would add 11 pages; reading each flow's page when it runs adds about none.
        let added = Double(suite.bytes - single.bytes) / Double(Self.pageBytes)
        #expect(added < 2, "12 flows peaked \(added)× the page above one flow (\(suite.bytes / 1_000_000) MB)")
    }

    @Test func aMissingPageFileIsAnInputErrorNamingIt() throws {
        // The loader checks page files before any flow runs: a missing one is an input error naming it.
        let dir = try Self.suite(flows: 1)
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.removeItem(at: dir.appendingPathComponent("common/big.html"))
        let r = try CLI.run(["simulate", dir.path])
        #expect(r.status == 64, "\(r)")
        #expect(r.stderr.contains("cannot read the page file '../common/big.html'"), "\(r)")
    }
}
