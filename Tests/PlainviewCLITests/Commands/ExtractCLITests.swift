import Foundation
import PageScan
import Testing
import TestSupport

/// `plainview extract (FILE|-) --base URL [--content-type TYPE]`, run as a black box.
@Suite struct ExtractCLITests {
    static let page = """
        <html><head><meta http-equiv="refresh" content="0;url=intent://example.com/perform-payment#Intent;scheme=https;package=com.example.app;end;"></head>
        <body><a href="/help" target="_blank">Help &amp; support</a>
        <form action="https://acs.example/creq" method="post"><input type="hidden" name="creq" value="abc"></form>
        <script>document.forms[0].submit(); window.webkit.messageHandlers.completed.postMessage("ok")</script>
        <iframe src="/frame"></iframe></body></html>
        """

    func withPage<T>(_ html: String, _ body: (URL) throws -> T) throws -> T {
        let dir = try Project.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("page.html")
        try Data(html.utf8).write(to: file)
        return try body(file)
    }

    func json(_ r: CLIResult) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
    }

    @Test func extractsEveryKindFromAFile() throws {
        let r = try withPage(Self.page) { try CLI.run(["extract", $0.path, "--base", "https://shop.example/pay"]) }
        #expect(r.status == 0, "\(r)")
        #expect(r.stderr.isEmpty, "\(r)")
        let o = try json(r)
        #expect(Set(o.keys) == ["refresh", "links", "forms", "frames", "scriptNavigations", "hooks", "truncations"])
        #expect((o["truncations"] as? [Any])?.isEmpty == true)
        let refresh = try #require(o["refresh"] as? [String: Any])
        #expect(
            refresh["url"] as? String == "intent://example.com/perform-payment#Intent;scheme=https;package=com.example.app;end;")
        #expect(refresh["delay"] as? Int == 0)
        let links = try #require(o["links"] as? [[String: Any]])
        #expect(links.first?["url"] as? String == "https://shop.example/help")
        #expect(links.first?["text"] as? String == "Help & support")
        let forms = try #require(o["forms"] as? [[String: Any]])
        #expect(forms.first?["autoSubmit"] as? Bool == true)
        #expect(forms.first?["method"] as? String == "POST")
        let frames = try #require(o["frames"] as? [[String: Any]])
        #expect(frames.first?["url"] as? String == "https://shop.example/frame")
        let hooks = try #require(o["hooks"] as? [[String: Any]])
        #expect(hooks.first?["name"] as? String == "completed")
    }

    /// The streamed output is the scan result, every field of every item (decoded back, it is equal), in
    /// Foundation's pretty layout with sorted keys.
    @Test func outputIsTheWholeScanResult() throws {
        let html =
            Self.page + """
                <iframe src="/f2" name="pay"></iframe><a href='/q?a=1&amp;b="2"' target=w>tab\there \u{1}"q"\\</a>
                <form action="/p" target="win" method=get><input name=n value="v&amp;w"></form>
                <a href="javascript:void(0)" onclick="location.replace('/r')">x</a>
                <script>Android.pay("1"); window.open("/w")</script>
                """
        let base = "https://shop.example/pay"
        let r = try withPage(html) { try CLI.run(["extract", $0.path, "--base", base]) }
        #expect(r.status == 0, "\(r)")
        let expected = try PageScanner.scan(Array(html.utf8), documentURL: base)
        #expect(!expected.links.isEmpty && !expected.frames.isEmpty && !expected.hooks.isEmpty)
        #expect(expected.frames.contains { $0.name != nil } && expected.forms.contains { $0.target != nil })
        let decoded = try JSONDecoder().decode(PageScanResult.self, from: Data(r.stdout.utf8))
        #expect(decoded == expected)
        #expect(r.stdout.hasPrefix("{\n  \"forms\" : [\n    {\n      \"action\" : "), "\(r.stdout.prefix(80))")
        #expect(r.stdout.contains("\"frames\" : [\n"))
        #expect(r.stdout.hasSuffix("\n}\n"))
    }

    /// The streamed output is Foundation's pretty, sorted-keys layout byte for byte, except that an empty array
    /// is `[]` (Foundation writes it across two lines).
    @Test func outputIsFoundationsLayout() throws {
        let html = Self.page + "<iframe src='/f2' name='pay'></iframe><a href='/q?a=1&amp;b=2' target=w>Q &amp; \"A\"</a>"
        let base = "https://shop.example/pay"
        let r = try withPage(html) { try CLI.run(["extract", $0.path, "--base", base]) }
        #expect(r.status == 0, "\(r)")
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let result = try PageScanner.scan(Array(html.utf8), documentURL: base)
        #expect(!result.links.isEmpty && result.refresh != nil && !result.frames.isEmpty)
        var expected = String(decoding: try encoder.encode(result), as: UTF8.self) + "\n"
        expected = expected.replacingOccurrences(of: #"\[\n\s*\]"#, with: "[]", options: .regularExpression)
        #expect(r.stdout == expected)
    }

    @Test func readsStandardInput() throws {
        let r = try CLI.run(["extract", "-", "--base", "https://shop.example/"], stdin: Data("<a href='x'>x</a>".utf8))
        #expect(r.status == 0, "\(r)")
        let links = try #require(try json(r)["links"] as? [[String: Any]])
        #expect(links.first?["url"] as? String == "https://shop.example/x")
    }

    @Test func noRefreshIsNull() throws {
        let r = try CLI.run(["extract", "-", "--base", "https://shop.example/"], stdin: Data("<p>nothing</p>".utf8))
        #expect(r.status == 0, "\(r)")
        #expect(r.stdout.contains("\"refresh\" : null"))
        #expect(r.stdout.contains("\"links\" : []"), "empty lists print as []: \(r.stdout)")
        #expect(try json(r)["links"] as? [Any] != nil)
    }

    @Test func contentTypeCharsetIsUsed() throws {
        let bytes = Data("<a href='/k'>K".utf8) + Data([0xF6]) + Data("p</a>".utf8)
        let r = try CLI.run(
            ["extract", "-", "--base", "https://shop.example/", "--content-type", "text/html; charset=iso-8859-1"], stdin: bytes)
        #expect(r.status == 0, "\(r)")
        let links = try #require(try json(r)["links"] as? [[String: Any]])
        #expect(links.first?["text"] as? String == "Köp")
    }

    @Test func androidInterfaceOptionNamesTheObjects() throws {
        let r = try CLI.run(
            ["extract", "-", "--base", "https://shop.example/", "--android-interface", "bridge"],
            stdin: Data("<script>bridge.done(1); callbacks.completed()</script>".utf8))
        #expect(r.status == 0, "\(r)")
        let hooks = try #require(try json(r)["hooks"] as? [[String: Any]])
        #expect(hooks.map { $0["name"] as? String } == ["bridge.done"])
    }

    @Test func brokenPageIsScannedQuietly() throws {
        let html = "<html><body><div><a href='/x'>x<table><tr><td><form><input name=a></div></span>\0\u{FF}<a href=>"
        let r = try CLI.run(["extract", "-", "--base", "https://shop.example/"], stdin: Data(html.utf8))
        #expect(r.status == 0, "\(r)")
        #expect(r.stderr.isEmpty, "libxml2 must not print: \(r.stderr)")
    }

    @Test func missingFileIsAnInputErrorNamingThePath() throws {
        let r = try CLI.run(["extract", "/no/such/dir/page.html", "--base", "https://shop.example/"])
        #expect(r.status == 64, "\(r)")
        #expect(r.stderr.contains("/no/such/dir/page.html"))
        #expect(r.stdout.isEmpty)
    }

    @Test func directoryIsAnInputError() throws {
        let dir = try Project.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try CLI.run(["extract", dir.path, "--base", "https://shop.example/"])
        #expect(r.status == 64, "\(r)")
        #expect(r.stderr.contains(dir.path))
    }

    @Test(arguments: ["not a url", "/relative/path", "https://", ""])
    func badBaseIsAnInputError(_ base: String) throws {
        let r = try CLI.run(["extract", "-", "--base", base], stdin: Data("<a href=x>".utf8))
        #expect(r.status == 64, "\(r)")
        #expect(r.stderr.contains("--base"))
    }

    @Test func missingBaseIsAUsageError() throws {
        let r = try CLI.run(["extract", "-"], stdin: Data())
        #expect(r.status == 64, "\(r)")
        #expect(r.stderr.contains("--base"))
    }
}
