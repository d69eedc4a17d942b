import Foundation
import Testing
import TestSupport
import PlainviewConfig
@testable import FlowImport


@Suite struct HARFlowDraftTests {
    func draft(_ name: String, taps: [String]? = nil) throws -> HARFlowDraft {
        try HARFlowBuilder.draft(from: HARFixture.read(name), taps: taps)
    }

    @Test func redirectChainBecomesPagesAndOneInferredTap() throws {
        let d = try draft("redirect_chain.har")
        #expect(d.start == "https://shop.example.com/pay?order=42")
        #expect(
            d.pages.map(\.url) == [
                "https://shop.example.com/pay?order=42", "https://psp.example.net/checkout/start",
                "https://psp.example.net/checkout/card", "https://shop.example.com/complete",
            ])
        #expect(d.pages.map { $0.responses[0].status } == [302, 301, 200, 200])
        #expect(d.pages[1].responses[0].headers == [HARHeader(name: "Location", value: "/checkout/card")])
        // The card page links to complete; the user tapped it (Referer says so).
        guard case .tap(let url, let why)? = d.steps.first else {
            Issue.record("no tap inferred: \(d.steps)")
            return
        }
        #expect(d.steps.count == 1)
        #expect(url == "https://shop.example.com/complete")
        #expect(why.contains("Referer: https://psp.example.net/checkout/card"))
        #expect(d.subresourceCount == 2)
        #expect(d.ending?.message.contains("ends at https://shop.example.com/complete") == true)
    }

    @Test func metaRefreshAndAutoPostedFormsNeedNoTap() throws {
        #expect(try draft("meta_refresh.har").steps.isEmpty)
        let threeDS = try draft("auto_post_3ds.har")
        #expect(threeDS.steps.isEmpty)
        #expect(threeDS.pages.map(\.method) == ["GET", "POST", "POST", "GET"])
    }

    @Test func aFormTheUserSubmittedIsATap() throws {
        let d = try draft("firefox_variant.har")
        #expect(d.pages.first { $0.url.hasSuffix("/widget") }?.isFrame == true)
        // The form's empty field `q` was posted as 1: the user typed it, then submitted.
        guard d.steps.count == 2, case .type(let field, let text) = d.steps[0], case .tap(let url, let why) = d.steps[1]
        else {
            Issue.record("not a type and a tap: \(d.steps)") // the 303 to /done follows by itself
            return
        }
        #expect(field == "q" && text == "1")
        #expect(url == "https://shop.example.com/submit")
        #expect(why.contains("form the user submitted"))
    }

    /// Issue 33: a Chrome recording of a card payment whose 3-D Secure challenge is posted into an iframe. Its Fetch
    /// Metadata and `_initiator` say who started each navigation: the user's three taps (one inside the ACS frame)
    /// become steps, the page's own posts and its script's top navigation do not.
    @Test func aChromeRecordingSaysWhichNavigationsTheUserMadeInAnyFrame() throws {
        let d = try draft("chrome_3ds_iframe.har")
        let taps = d.steps.compactMap { step -> String? in
            guard case .tap(let url, _) = step else { return nil }
            return url
        }
        #expect(
            taps == [
                "https://psp.example.net/card?order=7", "https://psp.example.net/card/pay",
                "https://acs.bank.example/challenge/verify",
            ])
        guard case .tap(_, let why)? = d.steps.last else { return }
        #expect(why.contains("Sec-Fetch-User: ?1") && why.contains("inside a frame") && why.contains("form the user submitted"))
        // What the user typed before each form: the card number on the PSP's page, the code in the ACS frame.
        let typed = d.steps.compactMap { step -> String? in
            guard case .type(let field, let text) = step else { return nil }
            return "\(field)=\(text)"
        }
        #expect(typed == ["pan=4111111111111111", "otp=123456"])
        #expect(d.unexplained.isEmpty, "\(d.unexplained)")
        let frames = d.pages.filter(\.isFrame).map(\.url)
        #expect(
            frames == [
                "https://acs.bank.example/challenge", "https://acs.bank.example/challenge/verify",
                "https://psp.example.net/3ds/notify",
            ])
    }

    /// A navigation the recording says the page made, which no page before it explains, is no tap: the flow says a
    /// script only a real engine runs made it.
    @Test func aPageNavigationNothingExplainsIsNotedNotTapped() throws {
        var log = try HARFixture.read("chrome_3ds_iframe.har")
        let i = try #require(log.entries.firstIndex { $0.request.url == "https://psp.example.net/3ds/notify" })
        log.entries[i].response.content.body = Data("<p>Returning…</p><script src=\"/return.js\"></script>".utf8)
        let d = try HARFlowBuilder.draft(from: log)
        #expect(d.steps.count == 5) // three taps, two of them after typing
        #expect(d.unexplained.count == 1, "\(d.unexplained)")
        let note = d.unexplained.first ?? ""
        #expect(note.hasPrefix("log.entries[10]: ") && note.contains("https://psp.example.net/3ds/done?tx=T7"), "\(note)")
        #expect(note.contains("_initiator: script") || note.contains("Sec-Fetch-Mode: navigate"), "\(note)")
        let yaml = String(
            decoding: HARFlowWriter.files(for: d, options: .init(name: "n", source: "r.har"))[0].data, as: UTF8.self)
        #expect(yaml.contains("# log.entries[10]: the recording says the page itself went to"), "\(yaml)")
    }

    @Test(
        arguments: [
            ([("Sec-Fetch-User", "?1"), ("Sec-Fetch-Mode", "navigate")], "script", "user"),
            ([("sec-fetch-mode", "navigate"), ("sec-fetch-dest", "iframe")], nil, "page"),
            ([("Sec-Fetch-Mode", "nested-navigate")], "other", "page"),
            ([], "script", "page"),
            ([], "parser", "page"),
            ([], "other", "unknown"),
            ([("Sec-Fetch-Dest", "document")], nil, "unknown"),
            ([("Sec-Fetch-User", "?0"), ("Sec-Fetch-Mode", "cors")], nil, "unknown"),
        ] as [([(String, String)], String?, String)])
    func whoStartedANavigation(headers: [(String, String)], initiator: String?, expected: String) {
        let entry = HAREntry(
            fileIndex: 0,
            request: HARRequest(
                url: "https://psp.example.net/x", headers: headers.map { HARHeader(name: $0.0, value: $0.1) }),
            response: HARResponse(status: 200), initiatorType: initiator)
        let got: String =
            switch entry.cause {
            case .user: "user"
            case .page: "page"
            case .unknown: "unknown"
            }
        #expect(got == expected)
    }

    @Test func customSchemeAttemptEndsTheRecording() throws {
        let d = try draft("chrome_variant.har")
        #expect(d.appNavigations == ["bankid:///?autostarttoken=7c40b5c9-fa74-49cf-b98c-bfe651f9a7c6&redirect=null"])
        #expect(!d.pages.contains { $0.url.hasPrefix("bankid:") })
        let end = try #require(d.ending)
        #expect(end.message.contains("navigation to bankid:"))
        #expect(end.source == "log.entries[4]")
    }

    @Test func redirectToAnAppSchemeEndsTheRecording() throws {
        let json = """
            {"log": {"entries": [
              {"startedDateTime": "2026-11-20T10:00:00Z", "request": {"method": "GET", "url": "https://shop.example.com/return",
               "headers": [{"name": "Sec-Fetch-Dest", "value": "document"}]},
               "response": {"status": 302, "headers": [{"name": "Location", "value": "shopapp://payment/done"}]}}
            ]}}
            """
        let d = try HARFlowBuilder.draft(from: HARReader().read(data: Data(json.utf8)))
        #expect(d.ending?.message.contains("redirect to shopapp://payment/done") == true)
    }

    @Test func repeatedURLsBecomeResponsesInOrder() throws {
        let json = """
            {"log": {"entries": [
              {"startedDateTime": "2026-11-20T10:00:00Z", "request": {"method": "GET", "url": "https://a.example/poll", "headers": [{"name": "Sec-Fetch-Dest", "value": "document"}]},
               "response": {"status": 200, "headers": [{"name": "Refresh", "value": "1"}], "content": {"mimeType": "text/html", "text": "wait"}}},
              {"startedDateTime": "2026-11-20T10:00:01Z", "request": {"method": "GET", "url": "https://A.example/poll#x", "headers": [{"name": "Sec-Fetch-Dest", "value": "document"}]},
               "response": {"status": 302, "headers": [{"name": "Location", "value": "/done"}]}}
            ]}}
            """
        let d = try HARFlowBuilder.draft(from: HARReader().read(data: Data(json.utf8)))
        #expect(d.pages.count == 1)
        #expect(d.pages[0].responses.map(\.status) == [200, 302])
    }

    @Test func tapsFromTheCommandLineReplaceInferredOnes() throws {
        let d = try draft("redirect_chain.har", taps: ["Done"])
        #expect(d.steps == [.tapText("Done")])
    }

    @Test func aRecordingWithoutDocumentsIsAnError() throws {
        let json =
            #"{"log": {"entries": [{"_resourceType": "script", "request": {"method": "GET", "url": "https://a.example/a.js"}, "response": {"status": 200}}]}}"#
        #expect(throws: HARFlowBuilder.BuildError.noDocuments) {
            try HARFlowBuilder.draft(from: HARReader().read(data: Data(json.utf8)))
        }
    }

    @Test(arguments: [
        ("0; url=https://a.example/x", "https://a.example/x"),
        ("5;URL='/y'", "https://a.example/y"),
        ("3", nil),
    ])
    func refreshHeader(value: String, url: String?) {
        #expect(HARFlowBuilder.refreshURL(value, base: "https://a.example/") == url)
    }
}

@Suite struct HARFlowWriterTests {
    @Test func flowFileNamesEveryPageAndItsBodyFile() throws {
        let log = try HARFixture.read("redirect_chain.har")
        let d = try HARFlowBuilder.draft(from: log)
        let files = HARFlowWriter.files(
            for: d,
            options: .init(
                name: "chain", source: "chain.har", policyPath: "../common/ios-policy.yaml",
                expect: "complete"))
        #expect(files.map(\.name) == ["flow.yaml", "01-psp.example.net-card.html", "02-shop.example.com-complete.html"])
        let yaml = String(decoding: files[0].data, as: UTF8.self)
        #expect(yaml.contains("policy: \"../common/ios-policy.yaml\"\n"))
        #expect(yaml.contains("start: \"https://shop.example.com/pay?order=42\"\n"))
        #expect(
            yaml.contains(
                "  - url: \"https://psp.example.net/checkout/start\"\n    status: 301\n    location: \"/checkout/card\"\n"))
        #expect(yaml.contains("    file: \"01-psp.example.net-card.html\"  # log.entries[2]\n"))
        #expect(yaml.contains("steps:\n"))
        #expect(yaml.contains("  - tap: {url: \"https://shop.example.com/complete\"}\n"))
        #expect(yaml.contains("expect:\n  outcome: \"complete\"\n"))
        #expect(yaml.contains("# NOT redacted"))
        #expect(files[1].data == log.entries[2].response.content.body)
    }

    /// flow.yaml is written in blocks of pages on all cores and joined: the text is the one of a single block,
    /// whatever the block size, and `files` writes the same.
    @Test func pagesWrittenInBlocksJoinIntoTheTextOfOne() throws {
        var log = try RedactionPassesTests.generatedSession()
        var redactor = Redactor()
        redactor.redact(&log)
        let draft = try HARFlowBuilder.draft(from: log)
        #expect(draft.pages.count == 300)
        let options = HARFlowWriter.Options(name: "long", source: "long.har", redaction: redactor.report)
        let pages = HARFlowWriter.pageFiles(for: draft)
        let whole = HARFlowWriter.flowFile(for: draft, pageFiles: pages, options: options, pagesPerBlock: .max)
        let yaml = String(decoding: whole, as: UTF8.self)
        #expect(yaml.components(separatedBy: "\n  - url: ").count == 301)
        #expect(yaml.contains("    file: \"300-shop.example.com-p299.html\""))
        for size in [1, 7, 64, 299, 300] {
            #expect(HARFlowWriter.flowFile(for: draft, pageFiles: pages, options: options, pagesPerBlock: size) == whole)
        }
        let files = HARFlowWriter.files(for: draft, options: options)
        #expect(files.first?.name == "flow.yaml" && files.first?.data == whole)
        #expect(files.dropFirst().map(\.name) == pages.files.map(\.name))
        #expect(pages.names.compactMap(\.first).compactMap { $0 } == pages.files.map(\.name))
    }

    @Test func draftedPolicyWhenNoneIsGiven() throws {
        let d = try HARFlowBuilder.draft(from: HARFixture.read("meta_refresh.har"))
        let yaml = String(
            decoding: HARFlowWriter.files(for: d, options: .init(name: "m", source: "m.har", platform: "android"))[0].data,
            as: UTF8.self)
        #expect(yaml.contains("policy:  # drafted"))
        #expect(yaml.contains("  platform: \"android\"\n"))
        #expect(yaml.contains("  paymentUrl: \"https://shop.example.com/android/return?order=42\""))
        #expect(yaml.contains("# expect:"))
    }

    @Test func nonUTF8BodiesAreWrittenByteForByte() throws {
        let log = try HARFixture.read("non_utf8_body.har")
        let files = HARFlowWriter.files(for: try HARFlowBuilder.draft(from: log), options: .init(name: "l", source: "l.har"))
        #expect(files.count == 2)
        #expect(files[1].data == log.entries[0].response.content.body)
        #expect(String(decoding: files[0].data, as: UTF8.self).contains("\"Content-Type\": \"text/html; charset=ISO-8859-1\""))
    }

    @Test(arguments: [
        ("plain", "\"plain\""),
        ("a \"q\" \\ b", "\"a \\\"q\\\" \\\\ b\""),
        ("line\nbreak\t#: &*", "\"line\\nbreak\\t#: &*\""),
        ("\u{7}bell åäö", "\"\\u0007bell åäö\""),
    ])
    func yamlQuoting(raw: String, quoted: String) {
        #expect(YAMLEmitter.quoted(raw) == quoted)
    }

    @Test func writingIsAtomicAndRefusesToOverwrite() throws {
        let dir = try Project.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let target = dir.appendingPathComponent("Pages/flow-a")
        try HARFlowWriter.write([("flow.yaml", Data("a".utf8)), ("p.html", Data("<p>".utf8))], to: target, force: false)
        #expect(try String(contentsOf: target.appendingPathComponent("flow.yaml"), encoding: .utf8) == "a")
        #expect(throws: HARFlowWriter.WriteError.self) {
            try HARFlowWriter.write([("flow.yaml", Data("b".utf8))], to: target, force: false)
        }
        #expect(try String(contentsOf: target.appendingPathComponent("flow.yaml"), encoding: .utf8) == "a")
        try HARFlowWriter.write([("flow.yaml", Data("c".utf8))], to: target, force: true)
        #expect(try String(contentsOf: target.appendingPathComponent("flow.yaml"), encoding: .utf8) == "c")
        #expect(!FileManager.default.fileExists(atPath: target.appendingPathComponent("p.html").path))
        // No temporary or backup folders are left behind.
        let siblings = try FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("Pages").path)
        #expect(siblings == ["flow-a"])
    }

    /// A folder written in steps (as `HARImport.run` writes it: the page files, then flow.yaml): nothing is in
    /// place before `commit`; a file that cannot be added removes what was written; `abandon` leaves nothing; an
    /// existing folder is refused before anything is written.
    @Test func aFolderWrittenInStepsAppearsOnlyWhenCommitted() throws {
        let dir = try Project.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let target = dir.appendingPathComponent("flow-c")
        let steps = try HARFlowWriter.FolderWrite(target, force: false)
        try steps.add([("01-page.html", Data("<p>".utf8))])
        try steps.add([("flow.yaml", Data("a".utf8))])
        #expect(!FileManager.default.fileExists(atPath: target.path))
        try steps.commit()
        #expect(try FileManager.default.contentsOfDirectory(atPath: target.path).sorted() == ["01-page.html", "flow.yaml"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["flow-c"])
        #expect(throws: HARFlowWriter.WriteError.self) { try HARFlowWriter.FolderWrite(target, force: false) }

        let failing = try HARFlowWriter.FolderWrite(dir.appendingPathComponent("flow-d"), force: false)
        try failing.add([("p.html", Data("a".utf8))])
        do {
            try failing.add([("p.html", Data("b".utf8))])
            Issue.record("expected an error")
        } catch {
            #expect(error.description.contains("cannot write the flow"), "\(error)")
        }
        let abandoned = try HARFlowWriter.FolderWrite(dir.appendingPathComponent("flow-e"), force: false)
        try abandoned.add([("flow.yaml", Data("a".utf8))])
        abandoned.abandon()
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["flow-c"])
    }

    /// A page file that cannot be written is an error saying why (from the system), and nothing is left.
    @Test func aFileThatCannotBeWrittenSaysWhyAndLeavesNothing() throws {
        let dir = try Project.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let target = dir.appendingPathComponent("flow-b")
        do {
            try HARFlowWriter.write([("flow.yaml", Data("a".utf8)), ("flow.yaml", Data("b".utf8))], to: target, force: false)
            Issue.record("expected an error")
        } catch {
            #expect(error.description.contains("cannot write the flow"), "\(error)")
            #expect(error.description.contains("exists"), "\(error)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).isEmpty)
    }

    @Test func aFolderThatCannotBeCreatedIsAnErrorAndLeavesNothing() throws {
        let dir = try Project.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let blocker = dir.appendingPathComponent("file")
        try Data("x".utf8).write(to: blocker)
        #expect(throws: HARFlowWriter.WriteError.self) {
            try HARFlowWriter.write([("flow.yaml", Data("a".utf8))], to: blocker.appendingPathComponent("flow"), force: false)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["file"])
    }

    @Test(arguments: [
        (1, "https://shop.example.com/pay", "text/html", "01-shop.example.com-pay.html"),
        (2, "https://shop.example.com/", "text/html", "02-shop.example.com.html"),
        (3, "https://x.example/a/b/c.aspx?x=1", "text/html", "03-x.example-c.html"),
        (4, "https://x.example/api", "application/json", "04-x.example-api.json"),
        // The URL core resolves `..` and `%2e%2e` as a browser does: the path is `/`.
        (5, "https://x.example/ÅÄÖ/../%2e%2e", "text/html", "05-x.example.html"),
        (6, "https://X.example./ÅÄÖ/p%20q", "text/html", "06-x.example-p-q.html"),
        // ASCII names are made byte by byte, others character by character: a decoded CR LF is one character
        // (one `-`), a decoded `é` is not a letter kept (a `-` left before a removed extension stays).
        (7, "https://x.example/Pay_Now%0D%0Ahere", "text/html", "07-x.example-pay-now-here.html"),
        (8, "https://x.example/Pay_Now%0A%0Ahere", "text/html", "08-x.example-pay-now--here.html"),
        (9, "https://x.example/caf%C3%A9.PHP", "text/html", "09-x.example-caf-.html"),
        (10, "https://x.example/A.B-c~d", "application/xml", "10-x.example-a.b-c-d.xml"),
    ])
    func fileNamesAreSafe(n: Int, url: String, mime: String, expected: String) {
        var used: Set<String> = []
        let name = HARFlowWriter.fileName(n, url: url, contentType: mime, used: &used)
        #expect(name == expected)
        #expect(!name.contains("/") && !name.hasPrefix("."))
    }
}
