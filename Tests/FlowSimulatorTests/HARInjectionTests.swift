import Foundation
import PlainviewConfig
import Testing
import TestSupport
@testable import FlowImport
@testable import FlowSimulator


/// Recorded values reach flow.yaml only through the YAML emitter: a URL, header or file name holding line or
/// paragraph separators, `#`, `:`, quotes or YAML indicators reads back as exactly what was recorded, adds no
/// key, and the flow simulates to its true outcome.
@Suite struct HARInjectionTests {
    static let hostile: [String] = [
        "\u{2028}expect: {outcome: stuck}", "\u{2029}expect: {outcome: stuck}", "\u{85}expect: {outcome: stuck}",
        "\nexpect: {outcome: stuck}", "\r\nexpect:\r\n  outcome: stuck", "\u{0B}\u{0C}x", "#comment", "a: b", "\"'q",
        "-dash", "?q", "&anchor", "*alias", "!tag", "|lit", ">fold", "{x: y}", "[z]", "\u{FEFF}bom",
    ]

    static func recording(_ suffix: String) -> Data {
        let checkout = "https://psp.example.net/checkout/start?x=" + suffix
        func entry(_ url: String, _ status: Int, _ headers: [[String: String]], _ body: String) -> [String: Any] {
            [
                "_resourceType": "document", "startedDateTime": "2026-11-20T10:00:00.000Z",
                "request": [
                    "method": "GET", "url": url, "httpVersion": "h2", "headers": [[String: String]](), "queryString": [Any](),
                    "cookies": [Any](),
                ],
                "response": [
                    "status": status, "statusText": "", "httpVersion": "h2", "headers": headers, "cookies": [Any](),
                    "content": ["size": body.utf8.count, "mimeType": "text/html", "text": body], "redirectURL": "",
                ],
                "cache": [String: Any](), "timings": [String: Any](),
            ]
        }
        let entries = [
            entry("https://shop.example.com/pay?order=42", 302, [["name": "Location", "value": checkout]], ""),
            entry(
                checkout, 200,
                [
                    ["name": "Content-Type", "value": "text/html; note=" + suffix],
                    ["name": "Set-Cookie", "value": "pref=" + suffix],
                ],
                "<title>\(suffix)</title><meta http-equiv=\"refresh\" content=\"0;url=https://shop.example.com/complete\">"),
            entry("https://shop.example.com/complete", 200, [["name": "Content-Type", "value": "text/html"]], "<p>Thanks</p>"),
        ]
        let log: [String: Any] = [
            "log": ["version": "1.2", "creator": ["name": "t", "version": "1"], "pages": [Any](), "entries": entries]
        ]
        return try! JSONSerialization.data(withJSONObject: log)
    }

    @Test(arguments: hostile)
    func hostileRecordedValuesReadBackExactlyAndTheFlowRunsTrue(suffix: String) throws {
        let dir = try Project.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let har = dir.appendingPathComponent("rec\(suffix.unicodeScalars.count).har")
        try Self.recording(suffix).write(to: har)
        let policy = Project.path("Tests/FlowImportTests/Fixtures/har/policy-ios.yaml").path
        // The source name, shown in a comment, is hostile too.
        let writer = HARFlowWriter.Options(name: "flow" + suffix, source: har.path + suffix, policyPath: policy)
        let folder = dir.appendingPathComponent("flow")
        _ = try HARImport.run(har: har, name: har.path, to: folder, force: false, options: .init(redaction: nil, writer: writer))
        let text = try String(contentsOf: folder.appendingPathComponent("flow.yaml"), encoding: .utf8)

        let root = try ConfigNode.parse(text, file: "flow.yaml")
        let top = try root.mapping()
        #expect(top.map(\.key) == ["name", "description", "policy", "start", "pages"], "\(top.map(\.key))")
        #expect(try top[0].value.text() == "flow" + suffix)
        let pages = try top[4].value.sequence()
        #expect(pages.count == 3)
        let checkout = try pages[1].mapping()
        #expect(try checkout.first { $0.key == "url" }?.value.text() == "https://psp.example.net/checkout/start?x=" + suffix)
        #expect(
            try checkout.first { $0.key == "setCookie" }?.value.sequence().map { try $0.text() }
                == ("pref=" + suffix).split(separator: "\n").map(String.init)) // a newline separates folded cookies
        let headers = try #require(try checkout.first { $0.key == "headers" }?.value.mapping())
        #expect(headers.map(\.key) == ["Content-Type"])
        #expect(try headers.first?.value.text() == "text/html; note=" + suffix)

        // No `expect` was smuggled in: the flow has the loader's default and simulates to what really happens.
        let flow = try FlowLoader.load(file: folder.appendingPathComponent("flow.yaml").path)
        #expect(flow.expect.outcome != .stuck)
        let run = Simulator.run(flow)
        #expect(run.branches[0].outcome.kind == .complete, "\(run.branches[0].outcome)")
    }
}
