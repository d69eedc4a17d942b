import Foundation
import Testing
import TestSupport

/// `--jobs N`: flows run N at a time, each in an engine of its own, and the run says exactly what a serial run says —
/// the summary, the trace and the JUnit report (apart from wall-clock times) — and a hung page still ends only its
/// own run.
extension SimulateEngineCLITests {
    /// Shipped flows of every kind: iOS and Android, app switches, an iframe challenge, a runtime navigation.
    static let jobsFlows = [
        "01-ios-card-3ds-goodlisted", "04-android-return-page", "06-ios-swish-app-switch", "07-android-intent-fallback",
        "11-android-runtime-navigation", "12-ios-card-3ds-challenge-in-iframe",
    ]

    /// The JUnit report without its wall-clock `time` attributes.
    static func timeless(_ junit: String) -> String {
        junit.replacingOccurrences(of: #" time="[0-9.]+""#, with: "", options: .regularExpression)
    }

    /// The trace without the wall-clock fields of its lines.
    static func timelessTrace(_ trace: String) -> String {
        trace.replacingOccurrences(of: #","?"wall[A-Za-z]*":[0-9.e+-]+"#, with: "", options: .regularExpression)
    }

    @Test(arguments: engines) func threeJobsSayWhatOneJobSays(engine: String) async throws {
        guard Self.present(engine) else { return }
        let dir = try Project.temporaryDirectory()
        var outputs: [(stdout: String, junit: String, trace: String)] = []
        for jobs in ["1", "3"] {
            let junit = dir.appendingPathComponent("junit-\(jobs).xml").path
            let trace = dir.appendingPathComponent("trace-\(jobs).jsonl").path
            let r = try await Self.cli(
                ["simulate", "--engine", engine, "--explore", "--jobs", jobs, "--junit", junit, "--trace", trace]
                    + Self.jobsFlows.map { Project.path("Pages/\($0)").path },
                timeout: 400)
            #expect(r.status == 0, "--jobs \(jobs): \(r)")
            outputs.append(
                (
                    r.stdout, Self.timeless(try String(contentsOfFile: junit, encoding: .utf8)),
                    Self.timelessTrace(try String(contentsOfFile: trace, encoding: .utf8))
                ))
        }
        #expect(outputs[0].stdout.contains("6 flows: 6 passed"), "\(outputs[0].stdout)")
        #expect(outputs[0].stdout == outputs[1].stdout)
        #expect(outputs[0].junit == outputs[1].junit)
        #expect(outputs[0].trace == outputs[1].trace)
        #expect(!outputs[0].trace.isEmpty)
    }

    @Test(arguments: engines) func aHungPageAmongParallelRunsEndsOnlyItsOwnRun(engine: String) async throws {
        guard Self.present(engine) else { return }
        let hung = try Self.flow(
            "hung-in-parallel", platform: "android",
            """
            pages:
              - url: https://shop.example.com/pay
                body: "<html><body><script>while (true) {}</script></body></html>"
            expect: {outcome: error, reasonContains: "no outcome within 6 s"}
            """)
        let r = try await Self.cli(
            ["simulate", "--engine", engine, "--engine-timeout", "6", "--jobs", "2", hung.path]
                + Self.jobsFlows.prefix(3).map { Project.path("Pages/\($0)").path },
            timeout: 200)
        #expect(r.status == 0, "\(r)")
        #expect(r.stdout.contains("PASS  hung-in-parallel"), "\(r)")
        #expect(r.stdout.contains("4 flows: 4 passed"), "\(r)")
    }

    @Test func jobsMustBeAtLeastOne() async throws {
        let r = try await Self.cli(["simulate", "--jobs", "0", "Pages/01-ios-card-3ds-goodlisted"])
        #expect(r.status == 64, "\(r)")
        #expect(r.stderr.contains("--jobs must be at least 1, got 0"), "\(r)")
    }
}
