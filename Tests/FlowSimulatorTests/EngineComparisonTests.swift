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

    /// A page with two cross-origin frames: the model asks about their initial loads in document order.
    static func twoFrames() throws -> FlowResult {
        let folder = try TestFlow.folder(
            "two-frames",
            TestFlow.frames(
                "<iframe src='https://ads.example.net/banner'></iframe><iframe src='https://acs.bank.example/step1'></iframe>"))
        return Simulator.run(try #require(try FlowLoader.load([folder.path]).first))
    }

    /// The indices of the run's navigate events.
    static func navigations(_ r: SimulationReport) -> [Int] { r.events.indices.filter { r.events[$0].event == .navigate } }

    @Test func framesThatLoadAtOnceMayBeAskedAboutInEitherOrder() throws {
        // An engine starts a page's frames together and their requests go out in either order (WebKit under load
        // asked about the second frame first): the same hops, in another order within the run of initial loads.
        let model = try Self.twoFrames()
        let nav = Self.navigations(model.branches[0])
        let frames = nav.filter {
            model.branches[0].events[$0].frame == "sub" && model.branches[0].events[$0].trigger == "initial"
        }
        try #require(frames.count == 2)
        var engine = model
        engine.branches[0].events.swapAt(frames[0], frames[1])
        #expect(EngineComparison.differences(model: model, engine: engine, engineName: "webkit").isEmpty)

        // Any other change of order is a difference: a frame's initial load swapped with the main document's load.
        var other = model
        other.branches[0].events.swapAt(nav[0], frames[0])
        let d = EngineComparison.differences(model: model, engine: other, engineName: "webkit")
        #expect(d.map(\.firstHop) == [1])
    }
}
