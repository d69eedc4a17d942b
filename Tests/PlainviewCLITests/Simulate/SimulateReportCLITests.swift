import Foundation
import Testing
import TestSupport

/// Black-box: `plainview simulate --report FILE.html`, read as text and rendered by a real browser.
@Suite struct SimulateReportCLITests {
    /// Headless Chromium (Debian's `chromium`), when installed.
    static let chromium: URL? = Program.find("chromium") ?? Program.find("chromium-browser")

    /// Runs the shipped Pages explored with `--report`; the report's text.
    static func shippedReport(in dir: URL) throws -> (path: String, html: String) {
        let path = dir.appendingPathComponent("report.html").path
        let r = try CLI.run(["simulate", "--explore", "--report", path])
        #expect(r.status == 0, "\(r)")
        return (path, try String(contentsOfFile: path, encoding: .utf8))
    }

    static func count(_ needle: String, in haystack: String) -> Int {
        haystack.components(separatedBy: needle).count - 1
    }

    @Test func theReportIsOneSelfContainedPageWithEveryFlowBranchDecisionAndOutcome() throws {
        let dir = try Project.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (_, html) = try Self.shippedReport(in: dir)
        #expect(html.hasPrefix("<!DOCTYPE html>"))
        // Nothing is fetched: no scripts, no style sheets, no images, no frames.
        for tag in ["<script", "<link", "<img", "<iframe", " src=", "@import", "url("] { #expect(!html.contains(tag), "\(tag)") }
        let flows = try FileManager.default.contentsOfDirectory(atPath: Project.path("Pages").path).filter {
            $0.first?.isNumber == true
        }
        #expect(Self.count("<details class=\"flow ", in: html) == flows.count)
        #expect(html.contains("data-flow=\"ios-card-3ds-goodlisted\""))
        #expect(html.contains("data-branch=\"app-missing:Swish\""))
        #expect(
            html.contains("data-lane=\"webview\"") && html.contains("data-lane=\"browser\"") && html.contains("data-lane=\"os\""))
        #expect(html.contains("data-lane=\"app BankID\""))
        #expect(html.contains("<code class=\"rule\">web.picky-page</code>"))
        #expect(html.contains("data-outcome=\"stuck\""))
        #expect(html.contains("<ol class=\"pages\">"))
    }

    @Test func everythingFromTheFlowIsEscaped() throws {
        let dir = try Project.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let flow = dir.appendingPathComponent("x")
        try FileManager.default.createDirectory(at: flow, withIntermediateDirectories: true)
        try Data(
            """
            name: "<script>alert('name')</script>"
            description: "a & b <b>bold</b> \\"quoted\\""
            policy:
              paymentUrl: https://shop.example.com/pay?a=1&b=<2>
              completeUrl: https://shop.example.com/complete
              cancelUrl: https://shop.example.com/cancel
            pages:
              - url: https://shop.example.com/pay?a=1&b=<2>
                location: "https://shop.example.com/complete?x=\\"><img src=x onerror=alert(1)>"
            """.utf8
        ).write(to: flow.appendingPathComponent("flow.yaml"))
        let report = dir.appendingPathComponent("r.html").path
        let r = try CLI.run(["simulate", "--report", report, flow.path])
        #expect(r.status == 0, "\(r)")
        let html = try String(contentsOfFile: report, encoding: .utf8)
        #expect(!html.contains("<script"))
        #expect(!html.contains("<img"))
        #expect(!html.contains("<b>bold"))
        #expect(html.contains("&lt;script&gt;alert(&#39;name&#39;)&lt;/script&gt;"))
        #expect(html.contains("a &amp; b &lt;b&gt;bold&lt;/b&gt; &quot;quoted&quot;"))
    }

    @Test func aFlowThatDoesNotReadIsListedInTheReport() throws {
        let dir = try Project.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let bad = dir.appendingPathComponent("bad")
        try FileManager.default.createDirectory(at: bad, withIntermediateDirectories: true)
        try Data("nmae: <x>\n".utf8).write(to: bad.appendingPathComponent("flow.yaml"))
        let report = dir.appendingPathComponent("r.html").path
        let r = try CLI.run(["simulate", "--report", report, dir.path, "Pages/08-ios-user-cancels"])
        #expect(r.status == 64, "\(r)")
        let html = try String(contentsOfFile: report, encoding: .utf8)
        #expect(html.contains("<li class=\"input-error\" data-file=\"\(bad.path)/flow.yaml\">"))
        #expect(html.contains("data-flow=\"ios-user-cancels\""))
    }

    @Test(
        "headless Chromium renders the report: every flow, its branches and the lanes are in the DOM",
        .enabled(if: chromium != nil || Program.isCI, "chromium is not installed (apt-get install chromium)"))
    func chromiumRendersTheReport() throws {
        let browser = try #require(Self.chromium, "CI=true: chromium is required (.ci/run installs it)")
        let dir = try Project.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (path, html) = try Self.shippedReport(in: dir)
        let profile = dir.appendingPathComponent("profile").path
        let r = try Program.run(
            browser,
            [
                "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--user-data-dir=\(profile)",
                "--dump-dom", URL(fileURLWithPath: path).absoluteString,
            ], timeout: 120)
        #expect(r.status == 0, "\(r.stderr.suffix(2000))")
        let dom = r.stdout
        // The DOM Chromium built from the file (its serialisation, not the file's text): the flows, lanes, branches.
        let flows = Self.count("<details class=\"flow ", in: html)
        #expect(flows >= 15)
        #expect(Self.count("<details class=\"flow ", in: dom) == flows, "\(dom.prefix(500))")
        #expect(Self.count("class=\"branch ", in: dom) == Self.count("class=\"branch ", in: html))
        #expect(Self.count("class=\"lane-head\"", in: dom) == Self.count("class=\"lane-head\"", in: html))
        #expect(dom.contains("<span class=\"count\" id=\"flow-count\">\(flows)</span>"))
        #expect(dom.contains("data-flow=\"ios-swish-app-switch\""))
        #expect(dom.contains("</html>"))
    }
}
