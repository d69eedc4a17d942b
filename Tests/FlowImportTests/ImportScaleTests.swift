import Foundation
import Testing
import TestSupport
@testable import FlowImport


/// A sanity bound, not a measurement (the figures are plainview-bench's `--only import`): recordings large
/// enough that a quadratic import would take minutes finish well within a generous limit, even in a debug build
/// on a busy machine.
@Suite struct ImportScaleTests {
    static func har(_ entries: [String]) -> Data {
        Data(
            (#"{"log":{"version":"1.2","creator":{"name":"t","version":"1"},"pages":[],"entries":["#
                + entries.joined(separator: ",") + "]}}").utf8)
    }

    static func entry(_ url: String, _ responseHeaders: String, _ body: String) -> String {
        #"{"_resourceType":"document","startedDateTime":"2026-11-20T10:00:00.000Z","request":{"method":"GET","url":"\#(url)","httpVersion":"h2","headers":[],"queryString":[],"cookies":[]},"response":{"status":200,"statusText":"","httpVersion":"h2","headers":[\#(responseHeaders)],"cookies":[],"content":{"size":1,"mimeType":"text/html","text":"\#(body)"},"redirectURL":""},"cache":{},"timings":{}}"#
    }

    static func importSeconds(_ data: Data) throws -> (Double, HARImport.Result) {
        let dir = try Project.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("large.har")
        try data.write(to: file)
        let clock = ContinuousClock()
        let start = clock.now
        let options = HARImport.Options(writer: .init(name: "large", source: file.path))
        let result = try HARImport.draft(har: file, name: "large.har", options: options)
        _ = HARImport.residue(in: HARImport.files(result, options: options))
        let d = clock.now - start
        return (Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18, result)
    }

    @Test func fortyThousandCookiesInOneResponse() throws {
        let n = 40_000
        let cookies = (0..<n).map { #"{"name":"Set-Cookie","value":"c\#($0)=v\#(String(format: "%012d", $0)); Path=/"}"# }
        let (seconds, result) = try Self.importSeconds(
            Self.har([Self.entry("https://shop.example.com/", cookies.joined(separator: ","), "<p>x</p>")]))
        #expect(result.report?.counts[.cookie] == n)
        #expect(seconds < 120, "\(n) cookies took \(seconds) s")
    }

    @Test func threeThousandDocuments() throws {
        let n = 3_000
        let entries = (0..<n).map { i in
            Self.entry(
                "https://shop.example.com/p\(i)?session=abc\(String(format: "%08d", i))",
                #"{"name":"Content-Type","value":"text/html"}"#,
                "<a href='/p\(i + 1)?token=tok\(String(format: "%08d", i))xyz'>next</a><p>user\(i)@example.com</p>")
        }
        let (seconds, result) = try Self.importSeconds(Self.har(entries))
        #expect(result.draft.pages.count == n)
        #expect(result.report?.counts[.email] == n)
        #expect(seconds < 180, "\(n) documents took \(seconds) s")
    }
}
