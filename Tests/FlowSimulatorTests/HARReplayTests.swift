import Foundation
import PlainviewConfig
import Testing
import TestSupport
@testable import FlowSimulator
import FlowImport

/// `simulate FILE.har`: the recording becomes a flow in memory, read by the flow loader as an imported folder is.
@Suite struct HARReplayTests {
    static let folder = "Tests/FlowImportTests/Fixtures/har"
    static func path(_ name: String) -> String { Project.path("\(folder)/\(name)").path }
    static let options = HARReplayOptions(policy: path("policy-ios-3ds.yaml"), expect: .complete)

    @Test func aRecordingReplaysInMemoryAndMeetsItsExpectation() throws {
        let loaded = try LoadedFlows.load([Self.path("auto_post_3ds.har")], har: Self.options)
        let flow = try #require(loaded.flows.first)
        #expect(loaded.flows.count == 1)
        #expect(flow.name == "auto_post_3ds")
        #expect(flow.file == Self.path("auto_post_3ds.har"))
        #expect(flow.expect.outcome == .complete)
        // The page bodies came from memory: every recorded page has its HTML.
        #expect(!flow.pages.isEmpty && flow.pages.allSatisfy { $0.responses.allSatisfy { !$0.body.isEmpty || $0.status != 200 } })
        let result = Simulator.run(flow)
        #expect(result.passed, "\(result.failures)")
    }

    /// A Chrome recording of a card payment with its 3-D Secure challenge in an iframe replays to completeUrl: the
    /// user's tap inside the ACS frame is a step, the page's own posts and top navigation are not.
    @Test func aChromeRecordingWithAChallengeInAnIframeReplays() throws {
        let options = HARReplayOptions(policy: Self.path("policy-ios.yaml"), expect: .complete)
        let flow = try #require(try LoadedFlows.load([Self.path("chrome_3ds_iframe.har")], har: options).flows.first)
        let result = Simulator.run(flow)
        #expect(result.passed, "\(result.failures)")
        let texts = result.branches[0].events.map(\.text)
        #expect(
            texts.contains { $0.contains("POST https://acs.bank.example/challenge/verify") && $0.contains("sub, form, tap") },
            "\(texts)")
        #expect(
            texts.contains { $0.contains("GET https://psp.example.net/3ds/done?tx=T7") && $0.contains("main, script") },
            "\(texts)")
    }

    @Test func replayAndImportGiveTheSameFlow() throws {
        let dir = try Project.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let har = Self.path("redirect_chain.har")
        let options = HARReplayOptions(policy: Self.path("policy-ios.yaml"), expect: .complete)
        let replayed = try #require(try LoadedFlows.load([har], har: options).flows.first)
        let writer = HARFlowWriter.Options(name: "redirect_chain", source: har, policyPath: options.policy, expect: "complete")
        var redaction = RedactionConfig.default
        redaction.keepQueryValues(ofURLsIn: try String(contentsOfFile: options.policy, encoding: .utf8))
        _ = try HARImport.run(
            har: URL(fileURLWithPath: har), name: har, to: dir.appendingPathComponent("f"), force: false,
            options: .init(redaction: redaction, writer: writer))
        let imported = try FlowLoader.load(file: dir.appendingPathComponent("f/flow.yaml").path)
        #expect(replayed.pages.map(\.url) == imported.pages.map(\.url))
        #expect(replayed.pages.map(\.responses) == imported.pages.map(\.responses))
        #expect(replayed.steps == imported.steps)
        #expect(Simulator.run(replayed).branches[0].events.map(\.text) == Simulator.run(imported).branches[0].events.map(\.text))
    }

    @Test func aRecordingWithoutAPolicyIsAnErrorNamingIt() {
        #expect {
            _ = try LoadedFlows.load([Self.path("redirect_chain.har")], har: nil)
        } throws: { error in
            guard let failure = error as? HARImport.Failure, case .config(let e) = failure else { return false }
            return e.description.contains("redirect_chain.har") && e.description.contains("policy")
        }
    }
}
