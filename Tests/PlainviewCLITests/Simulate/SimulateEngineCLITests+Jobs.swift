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

    /// A flow's branches spread over the engines: a flow of 22 branches and the same flow stopped at 9
    /// (`limits.branches`, in the middle of a level of its tree) under three engines run the branches one engine
    /// runs, with the same results, and the stopped one says where it stopped.
    @Test(arguments: engines) func oneFlowsBranchesOnThreeEnginesAreTheBranchesOfOne(engine: String) async throws {
        guard Self.present(engine) else { return }
        let dir = try Project.temporaryDirectory()
        let shipped = try String(
            contentsOf: Project.path("Pages/10-ios-roampay-card-reader/flow.yaml"), encoding: .utf8
        ).replacingOccurrences(of: "../common/", with: Project.path("Pages/common").path + "/")
        var paths: [String] = []
        for (name, limits) in [("roampay-whole", ""), ("roampay-stopped", "limits: {branches: 9}\n")] {
            let file = dir.appendingPathComponent("\(name).yaml")
            try (shipped.replacingOccurrences(of: "name: ios-roampay-card-reader", with: "name: \(name)") + limits)
                .write(to: file, atomically: true, encoding: .utf8)
            paths.append(file.path)
        }
        var outputs: [(stdout: String, trace: String)] = []
        for jobs in ["1", "3"] {
            let trace = dir.appendingPathComponent("trace-\(jobs).jsonl").path
            let r = try await Self.cli(
                ["simulate", "--engine", engine, "--explore", "--jobs", jobs, "--trace", trace] + paths, timeout: 300)
            #expect(r.status == 1, "--jobs \(jobs): \(r)")
            outputs.append((r.stdout, Self.timelessTrace(try String(contentsOfFile: trace, encoding: .utf8))))
        }
        let lines = outputs[0].stdout.split(separator: "\n")
        #expect(lines.contains { $0.hasPrefix("PASS  roampay-whole ") && $0.contains(" 22 branches: ") }, "\(outputs[0].stdout)")
        // The tree's levels hold 1, 4, 6, 7 and 4 branches: the ninth is the fourth of the third level.
        #expect(lines.contains { $0.hasPrefix("FAIL  roampay-stopped ") && $0.contains(" 9 branches: ") }, "\(outputs[0].stdout)")
        #expect(outputs[0].stdout.contains("explore stopped at 9 branches (limits.branches)"), "\(outputs[0].stdout)")
        #expect(outputs[0].stdout == outputs[1].stdout)
        #expect(outputs[0].trace == outputs[1].trace)
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
