import FlowSimulator
import Foundation
import PlainviewConfig
import Testing
import TestSupport

@Suite struct SimulateCLITests {
    static let policy = """
        policy:
          platform: ios
          paymentUrl: https://shop.example.com/pay
          completeUrl: https://shop.example.com/complete
          cancelUrl: https://shop.example.com/cancel

        """

    /// Writes `flows` (folder name → flow.yaml text) into a fresh folder.
    func folder(_ flows: [String: String]) throws -> URL { try Project.temporaryFlows(flows) }

    @Test func theShippedPagesPassWithASummaryLinePerFlowAndATotal() throws {
        let r = try CLI.run(["simulate"])
        #expect(r.status == 0, "\(r)")
        let lines = r.stdoutLines
        #expect(lines.count >= 9)
        #expect(lines.dropLast().allSatisfy { $0.hasPrefix("PASS  ") })
        #expect(lines.contains { $0.contains("ios-card-3ds-goodlisted") && $0.contains("complete in web view") })
        #expect(lines.last?.hasSuffix("passed, 0 failed") == true)
    }

    /// Pages/ copied into an empty folder (the way a team starts its own suite) runs as it does in the repository:
    /// nothing in it names a file outside the folder, and the goodlist is the built-in one by name.
    @Test func theShippedPagesRunWhenCopiedToAnEmptyFolder() throws {
        let dir = try Project.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.copyItem(at: Project.path("Pages"), to: dir.appendingPathComponent("Pages"))
        let copied = try CLI.run(["simulate", "--explore"], in: dir)
        let here = try CLI.run(["simulate", "--explore"])
        #expect(copied.status == 0, "\(copied)")
        #expect(copied.stderr.isEmpty, "\(copied)")
        #expect(copied.stdout == here.stdout)
        #expect(copied.stdoutLines.last?.hasSuffix("passed, 0 failed (170 branches)") == true, "\(copied)")
    }

    @Test func exploreListsEveryBranch() throws {
        let r = try CLI.run(["simulate", "--explore", "Pages/03-ios-return-ladder-2b"])
        #expect(r.status == 0, "\(r)")
        #expect(r.stdout.contains("universal-link-fails:shop.example.com, universal-link-fails:shop.example.com"))
        #expect(r.stdout.contains("prompt-declined:Shop"))
        #expect(r.stdoutLines.last?.contains("branches)") == true)
    }

    @Test func aFailedExpectationExitsOneAndShowsTheTrace() throws {
        let dir = try folder([
            "nowhere": Self.policy + """
                pages:
                  - url: https://shop.example.com/pay
                    location: https://unrecorded.example/x
                expect:
                  outcome: complete
                """
        ])
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try CLI.run(["simulate", dir.path])
        #expect(r.status == 1, "\(r)")
        #expect(r.stdout.contains("FAIL  nowhere"))
        #expect(r.stdout.contains("✗ expected complete, got "))
        #expect(r.stdout.contains("navigate"))
        #expect(r.stdout.contains("1 flow: 0 passed, 1 failed"))
    }

    @Test func aLoopingFlowIsStoppedAndReportedAsLoop() throws {
        let dir = try folder([
            "loop": Self.policy + """
                pages:
                  - url: https://shop.example.com/pay
                    location: https://shop.example.com/a
                  - url: https://shop.example.com/a
                    location: https://shop.example.com/b
                  - url: https://shop.example.com/b
                    location: https://shop.example.com/a
                expect:
                  outcome: loop
                """
        ])
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try CLI.run(["simulate", "--json", dir.appendingPathComponent("loop").path])
        #expect(r.status == 0, "\(r)")
        #expect(r.stdout.contains("\"outcome\":\"loop\""))
        #expect(r.stdout.contains("\"passed\":true"))
    }

    /// Black-box: a bad flow file is exit 64, `error: FILE:LINE: KEY: message` on stderr, an ERROR line on stdout.
    @Test func aBadFlowFileExits64NamingFileLineAndKey() throws {
        let dir = try folder(["bad": Self.policy + "nmae: x\n"])
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try CLI.run(["simulate", dir.path])
        #expect(r.status == 64, "\(r)")
        #expect(r.stderr.hasPrefix("error: \(dir.path)/bad/flow.yaml:6: nmae: unknown key 'nmae'"), "\(r)")
        #expect(
            r.stdoutLines.first
                == "ERROR \(dir.path)/bad/flow.yaml  input error: \(dir.path)/bad/flow.yaml:6: nmae: unknown key 'nmae'; expected one of name, description, policy, environment, hostApp, start, pages, steps, assume, expect, limits, hooks, helpers, userAgent",
            "\(r)")
        #expect(r.stdoutLines.last == "0 flows: 0 passed, 0 failed, 1 input error", "\(r)")
    }

    /// The rows `simulate` rejects, in-process against the loader it calls (FlowLoader over a folder of flows).
    @Test(
        arguments: [
            ("nmae: x\n", 6, "nmae", "unknown key 'nmae'"),
            (
                "pages:\n  - url: https://a.example/\n    file: nope.html\n", 8, "pages[0].file",
                "cannot read the page file 'nope.html'"
            ),
            ("start: ftp://x\n", 6, "start", "expected an absolute http(s) URL, got 'ftp://x'"),
        ] as [(String, Int, String, String)])
    func badFlowFilesNameFileLineAndKey(_ extra: String, _ line: Int, _ key: String, _ message: String) throws {
        let dir = try folder(["bad": Self.policy + extra])
        defer { try? FileManager.default.removeItem(at: dir) }
        let error = #expect(throws: ConfigError.self) { try FlowLoader.load([dir.path]) }
        #expect(error?.file == dir.appendingPathComponent("bad/flow.yaml").path, "\(String(describing: error))")
        #expect(error?.line == line, "\(String(describing: error))")
        #expect(error?.key == key, "\(String(describing: error))")
        #expect(error?.message.hasPrefix(message) == true, "\(String(describing: error))")
    }

    @Test func aMissingPathExits64() throws {
        let r = try CLI.run(["simulate", "no/such/flows"])
        #expect(r.status == 64)
        #expect(r.stderr.contains("no/such/flows: no such file or folder"))
    }

    @Test func traceAndJUnitFilesAreWritten() throws {
        let dir = try Project.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let trace = dir.appendingPathComponent("trace.jsonl").path, junit = dir.appendingPathComponent("report.xml").path
        let r = try CLI.run([
            "simulate", "--explore", "--trace", trace, "--junit", junit, "Pages/01-ios-card-3ds-goodlisted",
            "Pages/05-ios-bankid-cookie-in-webview",
        ])
        #expect(r.status == 0, "\(r)")
        let lines = try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n")
        #expect(!lines.isEmpty)
        for line in lines {
            let obj = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            for key in ["flow", "branch", "step", "event", "context"] { #expect(obj?[key] != nil, "\(key) missing in \(line)") }
        }
        let decides = try lines.compactMap { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
            .filter { $0["event"] as? String == "decide" }
        #expect(
            !decides.isEmpty
                && decides.allSatisfy { $0["url"] != nil && $0["action"] != nil && $0["rule"] != nil && $0["reason"] != nil })
        let xml = try String(contentsOfFile: junit, encoding: .utf8)
        #expect(xml.hasPrefix("<?xml"))
        #expect(xml.contains("<testsuite name=\"ios-card-3ds-goodlisted\""))
        #expect(xml.contains("<testcase classname=\"plainview.simulate.ios-bankid-cookie-in-webview\""))
        #expect(!xml.contains("<failure"))
    }
}
