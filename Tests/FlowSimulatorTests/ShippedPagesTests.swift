import Foundation
import Testing
import TestSupport
@testable import FlowSimulator

/// Every shipped flow under Pages/ is a regression test: its expectations hold in a normal run and on every
/// explored branch.
@Suite struct ShippedPagesTests {
    static let flowFiles: [String] = (try? FlowLoader.discover([Project.path("Pages").path])) ?? []

    static func name(_ file: String) -> String { ((file as NSString).deletingLastPathComponent as NSString).lastPathComponent }

    @Test func theIssueFlowsAreAllShipped() {
        #expect(Self.flowFiles.count >= 8)
    }

    @Test(arguments: flowFiles.map(name))
    func normalRunMeetsItsExpectations(_ folder: String) throws {
        let flow = try FlowLoader.load(file: Project.path("Pages/\(folder)/flow.yaml").path)
        let result = Simulator.run(flow)
        #expect(result.passed, "\(result.failures)\n\(result.branches[0].events.map(\.text).joined(separator: "\n"))")
    }

    @Test(arguments: flowFiles.map(name))
    func everyExploredBranchMeetsItsExpectations(_ folder: String) throws {
        let flow = try FlowLoader.load(file: Project.path("Pages/\(folder)/flow.yaml").path)
        let result = Simulator.explore(flow)
        #expect(result.passed, "\(result.failures)")
        #expect(!result.truncated)
    }

    @Test func theReturnLadderReturnsOnEveryBranchButTheUserDecliningOrTheBankAppMissing() throws {
        let flow = try FlowLoader.load(file: Project.path("Pages/03-ios-return-ladder-2a/flow.yaml").path)
        let result = Simulator.explore(flow)
        for b in result.branches {
            let excused =
                b.choices.contains { $0.hasPrefix("prompt-declined") || $0.hasPrefix("app-missing:Bank") }
                || b.choices.filter { $0 == "universal-link-fails:app.bank.example" }.count == 2
            #expect(excused || b.outcome.kind == .complete, "\(b.branch): \(b.outcome)")
        }
        // Case 2b is among them: both of the app's universal links fail and the custom scheme brings it back.
        #expect(
            result.branches.contains {
                $0.outcome.kind == .complete && $0.choices.filter { $0 == "universal-link-fails:shop.example.com" }.count == 2
            })
    }

    @Test func theCookieFailureNamesTheCookieAndWhereItWasSet() throws {
        let flow = try FlowLoader.load(file: Project.path("Pages/05-ios-bankid-cookie-in-webview/flow.yaml").path)
        let r = Simulator.run(flow).branches[0]
        #expect(r.outcome.kind == .stuck && r.outcome.place == "browser")
        #expect(r.outcome.reason.contains("cookie 'acs_session' was set in the web view"))
    }

    @Test func theAndroidReturnPageLaunchesTheAppWithViewPaymentOrder() throws {
        let flow = try FlowLoader.load(file: Project.path("Pages/04-android-return-page-blocked/flow.yaml").path)
        let r = Simulator.run(flow).branches[0]
        // Chrome blocked the automatic redirect; the user's tap launched the app by its intent.
        #expect(r.events.contains { $0.event == .note && ($0.reason ?? "").contains("needs a user tap") })
        #expect(r.events.contains { $0.event == .launch && $0.app == "Shop" && $0.via == "intent" })
        #expect(r.outcome.kind == .complete)
    }

    @Test func aFlowRunsManyTimesInProcessForBenchmarks() throws {
        let flow = try FlowLoader.load(file: Project.path("Pages/02-ios-3ds-not-goodlisted/flow.yaml").path)
        let b = Simulator.benchmark(flow, runs: 20)
        #expect(b.runs == 20)
        #expect(b.navigations == 20 * Simulator.runBranch(flow).navigationCount)
    }
}
