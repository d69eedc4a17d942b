import Foundation
import PlainviewConfig
import Testing
import TestSupport
@testable import FlowSimulator

/// Page files read when a flow runs (`simulate`'s loading): the same run as pages read up front, the result
/// keeping only paths, and a file gone by run time ending that flow in error, named.
@Suite struct PageFileTests {
    static let flow =
        minimalPolicy + """
            pages:
              - url: https://shop.example.com/pay
                file: page.html
            steps:
              - tap: Done
            expect: {outcome: complete}

            """

    static func folder() throws -> URL {
        let dir = try Project.temporaryFlows(["f": flow])
        try Data("<a href='https://shop.example.com/complete'>Done</a>".utf8).write(
            to: dir.appendingPathComponent("f/page.html"))
        return dir
    }

    @Test func aFlowReadingItsPagesWhenRunRunsAsOneReadUpFront() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("f/flow.yaml").path
        let eager = try FlowLoader.load(file: file)
        let lazy = try FlowLoader.load(file: file, readingPagesWhenRun: true)
        #expect(eager.pages[0].responses[0].file == nil)
        #expect(lazy.pages[0].responses[0].file?.path.hasSuffix("f/page.html") == true)
        #expect(lazy.pages[0].responses[0].header("Content-Type") == "text/html; charset=utf-8")
        #expect(lazy.pages[0].responses[0] == eager.pages[0].responses[0])
        let a = Simulator.run(eager), b = Simulator.run(lazy)
        #expect(a.passed && b.passed)
        #expect(a.branches[0].events.map(\.url) == b.branches[0].events.map(\.url))
        // The result keeps the flow as loaded: the path, not the page.
        #expect(b.flow.pages[0].responses[0].file != nil)
        #expect(try lazy.loadingPageFiles().pages[0].responses[0].file == nil)
    }

    @Test func aPageFileGoneByRunTimeEndsThatFlowInErrorNamingIt() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let lazy = try FlowLoader.load(file: dir.appendingPathComponent("f/flow.yaml").path, readingPagesWhenRun: true)
        try FileManager.default.removeItem(at: dir.appendingPathComponent("f/page.html"))
        for result in [Simulator.run(lazy), Simulator.explore(lazy)] {
            #expect(!result.passed)
            #expect(result.branches.count == 1)
            #expect(result.branches[0].outcome.kind == .error)
            #expect(result.branches[0].outcome.reason.contains("f/page.html"), "\(result.branches[0].outcome.reason)")
            #expect(
                result.branches[0].outcome.reason.contains("f/flow.yaml:7: cannot read"), "\(result.branches[0].outcome.reason)")
        }
    }

    @Test func aPageFileThatIsASymlinkToAFolderIsAnInputErrorAtLoading() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let page = dir.appendingPathComponent("f/page.html")
        try FileManager.default.removeItem(at: page)
        try FileManager.default.createSymbolicLink(at: page, withDestinationURL: dir)
        #expect(throws: ConfigError.self) {
            _ = try FlowLoader.load(file: dir.appendingPathComponent("f/flow.yaml").path, readingPagesWhenRun: true)
        }
    }
}
