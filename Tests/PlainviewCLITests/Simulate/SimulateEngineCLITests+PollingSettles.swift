import Foundation
import Testing
import TestSupport

/// A page that polls its server from load and whose status stays "not done" (TestSupport's PollingPages) has
/// settled: the user's `tap:` step happens in Chromium and in WebKit alike, by every way of polling, and the model
/// agrees. WebKit once never settled on it: every poll request and every timer of a `setTimeout` loop counted as
/// activity, so the run ended in error at the engine timeout (Chromium reached the tap only when a virtual-time
/// budget happened to pass between two polls). A status that turns done after many polls still completes by
/// itself: a changed answer is activity, and a page that polls waits the horizon.
extension SimulateEngineCLITests {
    @Test func aPagePollingFromLoadSettlesSoThatTheUserTapsInBothEngines() async throws {
        guard Self.present("chromium"), Self.present("webkit") else { return }
        var taps: [(name: String, result: String)] = []
        var lates: [String] = []
        var folders: [String] = []
        for poll in PollingPages.polls {
            for tap in PollingPages.taps {
                let name = "poll-\(poll.name)-tap-\(tap.name)"
                taps.append((name, tap.name == "link" ? "complete in web view · 2 hops" : "· 2 hops · apps: BankID"))
                folders.append(try Self.flow(name, PollingPages.tapFlow(poll: poll.script, tap: tap)).path)
            }
            let name = "poll-\(poll.name)-late"
            lates.append(name)
            folders.append(try Self.flow(name, PollingPages.lateFlow(poll: poll.script, pending: 15)).path)
        }
        let r = try await Self.cli(["simulate", "--engine", "compare"] + folders, timeout: 300)
        // Every expectation holds in every mode: the tap's outcome (complete, or stuck back from BankID with the page
        // still polling), and the late status's complete URL (the model predicts `stuck` there).
        #expect(r.status == 0, "\(r)")
        for (name, result) in taps {
            let passes = r.stdoutLines.filter { $0.hasPrefix("PASS  \(name) ") && $0.hasSuffix(result) }
            #expect(passes.count == 3, "\(name): \(r)")
        }
        for name in lates {
            let passes = r.stdoutLines.filter { $0.hasPrefix("PASS  \(name) ") && $0.hasSuffix("complete in web view · 2 hops") }
            #expect(passes.count == 2, "\(name): \(r)")
        }
        // The engines agree with each other and, on the taps, with the model: the only differences are the model's
        // on the late status.
        let differences = r.stdoutLines.filter { $0.hasPrefix("  OUTCOME") || $0.hasPrefix("  SEQUENCE") }
        #expect(differences.count == 2 * lates.count, "\(r)")
        #expect(!differences.contains { $0.contains("chromium vs webkit") }, "\(r)")
        #expect(differences.allSatisfy { line in lates.contains { line.contains(" \($0) ") } }, "\(r)")
    }
}
