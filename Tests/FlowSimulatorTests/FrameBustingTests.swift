import Foundation
import Testing
import TestSupport

@testable import FlowSimulator

/// A frame not same-origin with the top document, without user activation, cannot send the top window to another
/// site (World+FrameBusting): on iOS (WebKit) not through a redirect either; on Android (Chromium) a frame the user
/// tapped in keeps its activation across its own navigations. SimulateEngineCLITests+FrameBusting runs the same
/// pages (TestSupport's FrameBustingPages) in both engines.
@Suite struct FrameBustingTests {
    @Test(arguments: FrameBustingPages.cases.indices)
    func aCrossOriginFrameMovesTheTopWindowOnlyWithinItsSite(_ i: Int) throws {
        let c = FrameBustingPages.cases[i]
        for platform in ["ios", "android"] {
            let flow = try FlowLoader.parse(
                FrameBustingPages.flow(c, platform: platform), file: "flow.yaml", folder: Project.root.path)
            let result = Simulator.run(flow)
            let report = result.branches[0]
            #expect(result.passed, "\(c.name) on \(platform): \(report.outcome)")
            if report.outcome.kind == .stuck {
                let rule = platform == "ios" ? "ThirdPartyIframeRedirectBlocking" : "frame-busting intervention"
                #expect(report.outcome.reason.contains(rule), "\(c.name) on \(platform): \(report.outcome)")
            }
        }
    }
}
