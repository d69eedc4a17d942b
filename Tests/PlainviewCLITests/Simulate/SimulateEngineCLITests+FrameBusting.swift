import Foundation
import Testing
import TestSupport

/// A framed document sending the top window elsewhere (TestSupport's FrameBustingPages): WebKit agrees with the
/// model's iOS verdicts, Chromium with its Android verdicts, hop for hop.
extension SimulateEngineCLITests {
    @Test(arguments: [("ios", "webkit"), ("android", "chromium")])
    func frameBustingRulesMatchTheEngine(platform: String, engine: String) async throws {
        guard Self.present(engine) else { return }
        let dir = try Project.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        for (i, c) in FrameBustingPages.cases.enumerated() {
            let folder = dir.appendingPathComponent("case-\(i + 1)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data(FrameBustingPages.flow(c, platform: platform, name: "case-\(i + 1)").utf8)
                .write(to: folder.appendingPathComponent("flow.yaml"))
        }
        let r = try await Self.cli(["simulate", "--engine", "compare:\(engine)", dir.path], timeout: 300)
        let count = FrameBustingPages.cases.count
        #expect(r.status == 0, "\(r)")
        #expect(r.stdoutLines.contains("compare: \(count) flows, 0 differ (0 differences)"), "\(r)")
    }
}
