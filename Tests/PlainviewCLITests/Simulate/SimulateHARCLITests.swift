import Foundation
import Testing
import TestSupport

/// `plainview simulate FILE.har --policy …`: a recording replayed through the policy, black-box.
@Suite struct SimulateHARCLITests {
    static func fixture(_ name: String) -> String { ImportCLITests.fixture(name) }
    /// The merchant's policy for a recording: the 3-D Secure shop's completeUrl carries its order token.
    static func policy(_ har: String) -> String {
        fixture(har == "auto_post_3ds.har" ? "policy-ios-3ds.yaml" : "policy-ios.yaml")
    }

    /// The outcome and hops of the single run in `simulate --json` output.
    static func outcome(_ r: CLIResult) -> (String, Int)? {
        guard let line = r.stdoutLines.first, let data = line.data(using: .utf8),
            let obj = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let branches = obj["branches"] as? [[String: Any]], let b = branches.first,
            let outcome = b["outcome"] as? String, let hops = b["hops"] as? Int
        else { return nil }
        return (outcome, hops)
    }

    @Test(arguments: ["auto_post_3ds.har", "redirect_chain.har"])
    func recordingCompletesInTheWebView(name: String) throws {
        let r = try CLI.run(["simulate", Self.fixture(name), "--policy", Self.policy(name), "--expect", "complete"])
        #expect(r.status == 0, "\(r)")
        #expect(r.stdout.contains("PASS"), "\(r)")
        #expect(r.stdout.contains("complete"), "\(r)")
        for secret in plantedSecretsForCLI { #expect(!r.stdout.contains(secret), "\(secret) printed") }
    }

    @Test(arguments: ["auto_post_3ds.har", "redirect_chain.har"])
    func aMismatchedExpectationExitsOne(name: String) throws {
        let r = try CLI.run(["simulate", Self.fixture(name), "--policy", Self.policy(name), "--expect", "canceled"])
        #expect(r.status == 1, "\(r)")
        #expect(r.stdout.contains("expected canceled"), "\(r)")
        #expect(r.stdout.contains("FAIL"), "\(r)")
    }

    @Test func defaultExpectationIsComplete() throws {
        let r = try CLI.run([
            "simulate", Self.fixture("auto_post_3ds.har"), "--policy", Self.policy("auto_post_3ds.har"), "--json",
        ])
        #expect(r.status == 0, "\(r)")
        let (outcome, _) = try #require(Self.outcome(r), "\(r)")
        #expect(outcome == "complete")
    }

    @Test func importThenSimulateGivesTheSameRunAsReplayingTheHAR() throws {
        let dir = try Project.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        for (name, extra) in [
            ("auto_post_3ds.har", [String]()), ("redirect_chain.har", []),
            ("auto_post_3ds.har", ["--no-redact"]),
        ] {
            let folder = dir.appendingPathComponent(UUID().uuidString)
            let imp = try CLI.run(
                ["import", Self.fixture(name), "--out", folder.path, "--policy", Self.policy(name), "--expect", "complete"]
                    + extra)
            #expect(imp.status == 0, "\(imp)")
            let viaFolder = try CLI.run(["simulate", folder.path, "--json"])
            let viaHAR = try CLI.run(["simulate", Self.fixture(name), "--policy", Self.policy(name), "--json"] + extra)
            #expect(viaFolder.status == 0, "\(viaFolder)")
            #expect(viaHAR.status == 0, "\(viaHAR)")
            let a = try #require(Self.outcome(viaFolder), "\(viaFolder)")
            let b = try #require(Self.outcome(viaHAR), "\(viaHAR)")
            #expect(a.0 == "complete", "\(name)")
            #expect(a.0 == b.0 && a.1 == b.1, "\(name): folder \(a) vs HAR \(b)")
        }
    }

    @Test(arguments: ["auto_post_3ds.har", "redirect_chain.har"])
    func redactedAndUnredactedReplaysEndTheSame(name: String) throws {
        let red = try CLI.run(["simulate", Self.fixture(name), "--policy", Self.policy(name), "--json"])
        let raw = try CLI.run(["simulate", Self.fixture(name), "--policy", Self.policy(name), "--json", "--no-redact"])
        let a = try #require(Self.outcome(red), "\(red)")
        let b = try #require(Self.outcome(raw), "\(raw)")
        #expect(a.0 == "complete" && red.status == 0, "\(red)")
        #expect(a.0 == b.0 && a.1 == b.1, "\(name): redacted \(a) vs raw \(b)")
    }

    @Test func traceSaysWhereTheRecordingEnds() throws {
        // A recording cut short: a tap on a link that does not exist leaves the run stuck, and the trace says
        // where the recording ended and what a HAR cannot hold.
        let dir = try Project.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let trace = dir.appendingPathComponent("t.jsonl")
        let t = try CLI.run([
            "simulate", Self.fixture("redirect_chain.har"), "--policy", Self.policy("redirect_chain.har"), "--expect", "complete",
            "--tap", "No such link", "--trace", trace.path, "-v",
        ])
        #expect(t.status == 1, "\(t)")
        #expect(t.stdout.contains("recording ends:"), "\(t)")
        let lines = try String(contentsOf: trace, encoding: .utf8)
        #expect(lines.contains("\"event\":\"note\""), "\(lines)")
        #expect(lines.contains("recording ends:"), "\(lines)")
        // The note comes just before the outcome.
        let events = lines.split(separator: "\n")
        let last = try #require(events.last)
        let beforeLast = try #require(events.dropLast().last)
        #expect(last.contains("\"event\":\"outcome\""), "\(lines)")
        #expect(beforeLast.contains("recording ends:"), "\(lines)")
    }

    @Test func aCompleteRunHasNoRecordingEndsNote() throws {
        let r = try CLI.run(["simulate", Self.fixture("auto_post_3ds.har"), "--policy", Self.policy("auto_post_3ds.har"), "-v"])
        #expect(r.status == 0, "\(r)")
        #expect(!r.stdout.contains("recording ends:"), "\(r)")
    }

    @Test(arguments: [
        (["simulate", "Tests/FlowImportTests/Fixtures/har/redirect_chain.har"], "--policy"),
        (
            ["simulate", "Tests/FlowImportTests/Fixtures/har/redirect_chain.har", "--policy", "no-such-policy.yaml"],
            "no-such-policy.yaml"
        ),
        (
            [
                "simulate", "Tests/FlowImportTests/Fixtures/har/redirect_chain.har", "--policy",
                "Tests/FlowImportTests/Fixtures/har/policy-ios.yaml", "--expect", "maybe",
            ], "--expect"
        ),
        (
            [
                "simulate", "Tests/FlowImportTests/Fixtures/har/no-such.har", "--policy",
                "Tests/FlowImportTests/Fixtures/har/policy-ios.yaml",
            ], "no-such.har"
        ),
        (["simulate", "Pages", "--expect", "complete"], ".har files only"),
    ])
    /// The options `simulate` checks for HAR replay; HAR reading errors are tested in-process (HARReaderTests).
    func badInputExits64(arguments: [String], mentions: String) throws {
        let r = try CLI.run(arguments)
        #expect(r.status == 64, "\(r)")
        #expect(r.stderr.contains(mentions), "\(r)")
    }
}

let plantedSecretsForCLI = ["9f8e7d6c5b4a3921", "S3SS10N-7d1e2f3a4b5c", "tk_live_51HxYzAbCdEf", "md-7f3a9c21e5", "anna.svensson"]
