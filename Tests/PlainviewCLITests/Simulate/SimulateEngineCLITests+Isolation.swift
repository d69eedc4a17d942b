import Foundation
import Testing
import TestSupport

/// Engine runs kept apart and told apart: what one flow's page leaves loading never reaches the next flow, a page's
/// frames are not steps of a loop, a large page that navigates from its last script completes, and a hung web
/// process ends its run in error.
extension SimulateEngineCLITests {
    /// `count` iframes from https://frames.example/fN, then a Done link.
    static func framesPage(_ count: Int) -> String {
        (0..<count).map { "<iframe src='https://frames.example/f\($0)'></iframe>" }.joined()
            + "<a href='https://shop.example.com/done'>Done</a>"
    }

    @Test(arguments: engines) func aThousandFramesLeftLoadingNeverReachTheNextFlows(engine: String) async throws {
        guard Self.present(engine) else { return }
        // The frames are not recorded: the run ends in error at the first, with 999 requests still under way.
        let leftLoading = try Self.flow(
            "frames-left-loading",
            """
            pages:
              - url: https://shop.example.com/pay
                body: "\(Self.framesPage(1_000))"
            expect: {outcome: error, reasonContains: "no recorded response for GET https://frames.example/f"}
            """)
        let normal = """
            pages:
              - url: https://shop.example.com/pay
                body: "<a href='https://shop.example.com/done'>Done</a>"
            steps:
              - tap: Done
            expect: {outcome: complete, hops: 2}
            """
        let first = try Self.flow("after-1", normal), second = try Self.flow("after-2", normal)
        let r = try await Self.cli(["simulate", "--engine", engine, leftLoading.path, first.path, second.path], timeout: 240)
        #expect(r.status == 0, "\(r)")
        for name in ["frames-left-loading", "after-1", "after-2"] { #expect(r.stdout.contains("PASS  \(name)"), "\(r)") }
        // The first flow ends at whichever frame the engine asked for first; the later flows never see a frame request.
        let later = r.stdout.split(separator: "\n").drop { !$0.hasPrefix("PASS  after-1") && !$0.hasPrefix("FAIL  after-1") }
        #expect(!later.isEmpty, "\(r)")
        #expect(!later.contains { $0.contains("frames.example") }, "a later flow was given the first flow's frame requests: \(r)")
    }

    @Test(arguments: engines) func aPageWithTwoHundredFramesCompletesWithoutHittingTheStepBound(engine: String) async throws {
        guard Self.present(engine) else { return }
        let frames = (0..<200).map { "  - url: https://frames.example/f\($0)\n    body: \"frame \($0)\"\n" }.joined()
        let flow = try Self.flow(
            "two-hundred-frames",
            """
            pages:
              - url: https://shop.example.com/pay
                body: "\(Self.framesPage(200))"
            \(frames)steps:
              - tap: Done
            expect: {outcome: complete}
            """)
        let r = try await Self.cli(["simulate", "--engine", engine, flow.path], timeout: 240)
        #expect(r.status == 0, "\(r)")
        #expect(!r.stdout.contains("step bound"), "\(r)")
    }

    @Test(arguments: engines) func aTenMegabytePageWhoseLastScriptNavigatesCompletes(engine: String) async throws {
        guard Self.present(engine) else { return }
        let flow = try Self.flow(
            "large-page",
            """
            pages:
              - url: https://shop.example.com/pay
                file: page.html
            expect: {outcome: complete, hops: 2}
            """)
        let line = "<p>lorem ipsum dolor sit amet</p>\n"
        let page =
            "<html><body>" + String(repeating: line, count: 10_000_000 / line.utf8.count)
            + "<script>location.href = 'https://shop.example.com/done'</script></body></html>"
        try Data(page.utf8).write(to: flow.appendingPathComponent("page.html"))
        // A generous bound: under the whole suite on two cores, parsing 10 MB can take WebKit most of a minute.
        let r = try await Self.cli(["simulate", "--engine", engine, "--engine-timeout", "240", flow.path], timeout: 400)
        #expect(r.status == 0, "\(r)")
        #expect(r.stdout.contains("PASS  large-page"), "\(r)")
    }

    /// A page whose script never returns, under the default time bound: WebKit's quiet is not taken for idle
    /// (`stuck`) until the page answers, so the run ends in `error` saying the web process is hung, long before the
    /// 60 s bound, and the next flow runs in a fresh engine.
    @Test func aHungWebProcessEndsItsRunInErrorNotStuck() async throws {
        guard Self.present("webkit") else { return }
        let spinning = try Self.flow(
            "hung-web-process",
            """
            pages:
              - url: https://shop.example.com/pay
                body: "<html><body><script>while (true) {}</script></body></html>"
            expect: {outcome: error, reasonContains: "web process is hung"}
            """)
        let started = Date()
        let r = try await Self.cli(
            ["simulate", "--engine", "webkit", spinning.path, Project.path("Pages/01-ios-card-3ds-goodlisted").path],
            timeout: 120)
        #expect(r.status == 0, "\(r)")
        #expect(r.stdout.contains("PASS  hung-web-process"), "\(r)")
        #expect(r.stdout.contains("PASS  ios-card-3ds-goodlisted"), "\(r)")
        #expect(Date().timeIntervalSince(started) < 50, "the hung page was noticed by its silence, not at the 60 s bound")
    }
}
