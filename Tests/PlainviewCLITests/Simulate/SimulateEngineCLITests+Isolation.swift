import Foundation
import Testing
import TestSupport

/// Engine runs kept apart and told apart: what one flow's page leaves loading never reaches the next flow, a page's
/// frames are not steps of a loop, a large page that navigates from its last script completes, and a web process
/// that dies ends its run in error. (In the serialized engine suite: the crash test kills WebKit's web process.)
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
        #expect(!r.stdout.contains("frames.example/f1"), "a later flow was given the first flow's frame requests: \(r)")
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
        let r = try await Self.cli(["simulate", "--engine", engine, flow.path], timeout: 240)
        #expect(r.status == 0, "\(r)")
        #expect(r.stdout.contains("PASS  large-page"), "\(r)")
    }

    /// WebKit's web process dies while the page spins: the run ends in error saying so (not stuck), and the next
    /// flow runs in a fresh view.
    @Test func aWebProcessThatDiesEndsItsRunInErrorNamingIt() async throws {
        guard Self.present("webkit") else { return }
        let spinning = try Self.flow(
            "web-process-dies",
            """
            pages:
              - url: https://shop.example.com/pay
                body: "<html><body><script>while (true) {}</script></body></html>"
            expect: {outcome: error, reasonContains: "web process"}
            """)
        let killer = Thread {
            let deadline = Date().addingTimeInterval(60)
            while Date() < deadline {
                let procs = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
                for pid in procs.compactMap({ Int32($0) }) {
                    guard let cmd = try? String(contentsOfFile: "/proc/\(pid)/cmdline", encoding: .utf8),
                        cmd.contains("WebKitWebProcess")
                    else { continue }
                    Thread.sleep(forTimeInterval: 3) // the page is loaded and spinning by now
                    kill(pid, SIGKILL)
                    return
                }
                Thread.sleep(forTimeInterval: 0.05)
            }
        }
        killer.start()
        let r = try await Self.cli(
            [
                "simulate", "--engine", "webkit", "--engine-timeout", "40", spinning.path,
                Project.path("Pages/01-ios-card-3ds-goodlisted").path,
            ], timeout: 120)
        #expect(r.status == 0, "\(r)")
        #expect(r.stdout.contains("PASS  web-process-dies"), "\(r)")
        #expect(r.stdout.contains("PASS  ios-card-3ds-goodlisted"), "\(r)")
    }
}
