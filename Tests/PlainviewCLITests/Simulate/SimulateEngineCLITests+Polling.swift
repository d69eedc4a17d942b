import Foundation
import Testing
import TestSupport

/// A page polling its server by `fetch` while the user is away in BankID (TestSupport's PollingPages): back in the
/// app, the page still polls and reaches the complete URL, in Chromium and in WebKit alike, by every way of polling
/// and launching. WebKit once stopped the polling when the launch was BankID's universal link: the driver let the
/// https navigation through to refuse it at its proxy, and WebKit had stopped the page's `fetch` in flight by then.
extension SimulateEngineCLITests {
    @Test func aPagePollingItsServerCompletesAfterTheAppSwitchInBothEngines() async throws {
        guard Self.present("chromium"), Self.present("webkit") else { return }
        var names: [String] = []
        var folders: [String] = []
        for poll in PollingPages.polls {
            for launch in PollingPages.launches {
                let name = "poll-\(poll.name)-\(launch.name)"
                names.append(name)
                folders.append(try Self.flow(name, PollingPages.flow(poll: poll.script, launch: launch.url)).path)
            }
        }
        let r = try await Self.cli(["simulate", "--engine", "compare"] + folders, timeout: 300)
        // Every expectation holds: the model predicts `stuck` (it does not run code after a network answer), and each
        // engine completes in 3 hops with BankID opened.
        #expect(r.status == 0, "\(r)")
        for name in names {
            let passes = r.stdoutLines.filter {
                $0.hasPrefix("PASS  \(name) ") && $0.hasSuffix("complete in web view · 3 hops · apps: BankID")
            }
            #expect(passes.count == 2, "\(name): \(r)")
        }
        // The engines agree with each other, hop for hop: the only differences are the model's.
        let differences = r.stdoutLines.filter { $0.hasPrefix("  OUTCOME") || $0.hasPrefix("  SEQUENCE") }
        #expect(differences.count == 2 * names.count, "\(r)")
        #expect(!differences.contains { $0.contains("chromium vs webkit") }, "\(r)")
    }
}

extension SimulateEngineCLITests {
    /// The status answer marked `afterApp: BankID` is served only once the user completed in BankID: explored, the
    /// default branch completes in both engines, and where BankID is missing the page polls a pending status for
    /// good (`stuck`), where the recorded sequence alone would have said done.
    @Test func aStatusWaitingForTheAppStaysPendingWhereTheAppIsMissingInBothEngines() async throws {
        guard Self.present("chromium"), Self.present("webkit") else { return }
        let poll = PollingPages.polls[0], launch = PollingPages.launches[1]
        let folder = try Self.flow("poll-after-app", PollingPages.flow(poll: poll.script, launch: launch.url, afterApp: true))
        for engine in ["chromium", "webkit"] {
            let r = try await Self.cli(["simulate", "--engine", engine, "--explore", folder.path], timeout: 300)
            #expect(r.status == 0, "\(engine): \(r)")
            #expect(
                r.stdoutLines.contains { $0.contains("ok   default: complete in web view · 3 hops · apps: BankID") },
                "\(engine): \(r)")
            #expect(r.stdoutLines.contains { $0.contains("ok   app-missing:BankID: stuck in web view") }, "\(engine): \(r)")
        }
    }
}
