import FlowSimulator
import Testing
import TestSupport

/// `--engine compare`'s report, checked on model runs (the engine runs are in the CLI tests): two runs that agree
/// report nothing; two that part ways report the first differing hop and whether the outcome differs.
@Suite struct EngineComparisonTests {
    static func result(_ folder: String, explore: Bool = false) throws -> FlowResult {
        let flow = try #require(try FlowLoader.load([Project.path("Pages/\(folder)").path]).first)
        return explore ? Simulator.explore(flow) : Simulator.run(flow)
    }

    @Test func identicalRunsHaveNoDifference() throws {
        let a = try Self.result("06-ios-swish-app-switch", explore: true)
        #expect(EngineComparison.differences(model: a, engine: a, engineName: "chromium").isEmpty)
    }

    @Test func runsThatPartWaysReportTheFirstDifferingHopAndTheOutcome() throws {
        // Both start on the same payment menu and go through the same 3-D Secure page; the second user cancels there.
        let installed = try Self.result("01-ios-card-3ds-goodlisted")
        let missing = try Self.result("08-ios-user-cancels")
        let d = EngineComparison.differences(model: installed, engine: missing, engineName: "chromium")
        #expect(d.count == 1)
        #expect(d.first?.outcomeDiffers == true)
        #expect(d.first?.branch == "default")
        let hop = try #require(d.first?.firstHop)
        #expect(hop > 1)
        #expect(d.first?.model.hasPrefix("os open ") == true || d.first?.model.hasPrefix("webview ") == true)
        #expect(EngineComparison.text(d, flows: 1).hasSuffix("compare: 1 flow, 1 differ (1 difference)\n"))
    }

    @Test func aBranchOnlyOneSideRanIsADifference() throws {
        let explored = try Self.result("06-ios-swish-app-switch", explore: true)
        var fewer = explored
        fewer.branches = [explored.branches[0]]
        let d = EngineComparison.differences(model: explored, engine: fewer, engineName: "chromium")
        #expect(d.count == explored.branches.count - 1)
        #expect(d.allSatisfy { $0.engineSide == "never reached this branch" })
    }
}
