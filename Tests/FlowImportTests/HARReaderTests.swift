import Foundation
import Testing
import TestSupport
@testable import FlowImport


/// The hand-written HARs in Fixtures/har.
enum HARFixture {
    static func url(_ name: String) -> URL { Project.path("Tests/FlowImportTests/Fixtures/har/\(name)") }
    static func read(_ name: String, options: HARReader.Options = .init()) throws -> HARLog {
        try HARReader(options: options).read(contentsOf: url(name), name: name)
    }
    static func error(_ name: String) -> HARError? {
        do {
            _ = try read(name)
            return nil
        } catch {
            return error as? HARError
        }
    }
    static func error(data: String) -> HARError? {
        do {
            _ = try HARReader().read(data: Data(data.utf8))
            return nil
        } catch {
            return error
        }
    }
}

@Suite struct HARReaderTests {
    @Test func redirectChainKeepsDocumentsInOrderAndDropsSubresources() throws {
        let log = try HARFixture.read("redirect_chain.har")
        #expect(log.version == "1.2")
        #expect(log.creator == "WebInspector")
        #expect(log.pages.map(\.id) == ["page_1"])
        #expect(log.entries.count == 6)
        let nav = log.navigationEntries
        #expect(
            nav.map(\.request.url) == [
                "https://shop.example.com/pay?order=42",
                "https://psp.example.net/checkout/start",
                "https://psp.example.net/checkout/card",
                "https://shop.example.com/complete",
            ])
        #expect(nav.map(\.response.status) == [302, 301, 200, 200])
        #expect(nav[0].response.location == "https://psp.example.net/checkout/start")
        #expect(nav[1].response.location == "/checkout/card") // relative Location kept as written
        #expect(nav[0].pageref == "page_1")
        #expect(nav[3].request.headers.first(named: "referer") == "https://psp.example.net/checkout/card")
        #expect(nav[2].response.content.body.map { String(decoding: $0, as: UTF8.self) }?.contains("Done") == true)
        // A redirecting image is still a subresource; its body and the script's body are not kept.
        let subs = log.entries.filter { $0.role == .subresource }
        #expect(subs.map(\.resourceType) == ["script", "image"])
        #expect(subs.allSatisfy { $0.response.content.body == nil })
    }

    @Test func subresourceBodiesAreKeptOnRequest() throws {
        let log = try HARFixture.read("redirect_chain.har", options: .init(keepSubresourceBodies: true))
        let script = try #require(log.entries.first { $0.resourceType == "script" })
        #expect(script.response.content.body == Data("console.log('a large script');".utf8))
    }

    @Test func metaRefreshPageAndRefreshHeaderAreRead() throws {
        let log = try HARFixture.read("meta_refresh.har")
        #expect(log.navigationEntries.count == 2)
        let first = log.entries[0]
        let body = String(decoding: try #require(first.response.content.body), as: UTF8.self)
        #expect(body.contains("http-equiv=\"refresh\""))
        #expect(log.entries[1].response.refreshHeader == "2; url=https://shop.example.com/complete")
        #expect(log.entries[1].request.headers.first(named: "Referer") == "https://shop.example.com/android/return?order=42")
    }

    @Test func autoPostedFormsAreDocumentNavigationsWithTheirFields() throws {
        let log = try HARFixture.read("auto_post_3ds.har")
        let nav = log.navigationEntries
        #expect(nav.map(\.request.method) == ["GET", "POST", "POST", "GET"])
        #expect(nav[1].isFormSubmission)
        #expect(!nav[0].isFormSubmission)
        let fields = try #require(nav[1].request.postData).formFields
        #expect(fields.map(\.name) == ["PaReq", "MD", "TermUrl"])
        #expect(nav[2].request.postData?.formFields.map(\.name) == ["PaRes", "MD"])
        // The tracking XHR is a subresource.
        #expect(log.entries.filter { $0.role == .subresource }.map(\.resourceType) == ["xhr"])
        #expect(nav[2].response.location == "https://shop.example.com/complete?order=42&token=tk_live_51HxYzAbCdEf")
        #expect(nav[0].response.setCookies == ["SESSION=9f8e7d6c5b4a3921; Path=/; Secure; HttpOnly"])
    }

    @Test func formTextIsParsedWhenParamsAreAbsent() {
        let post = HARPostData(mimeType: "application/x-www-form-urlencoded", text: "a=1&b=x+y&c=%2F%zz&d")
        #expect(
            post.formFields == [
                HARHeader(name: "a", value: "1"), HARHeader(name: "b", value: "x y"),
                HARHeader(name: "c", value: "/%zz"), HARHeader(name: "d", value: ""),
            ])
        #expect(HARPostData(mimeType: "application/json", text: "{\"a\":1}").formFields.isEmpty)
    }

    @Test func base64BodiesAreDecoded() throws {
        let log = try HARFixture.read("base64_body.har")
        let body = try #require(log.entries.first?.response.content.body)
        let text = try #require(String(validating: body, as: UTF8.self))
        #expect(text.contains("Tack för köpet ✓"))
        #expect(log.entries[0].response.content.encoding == "base64")
    }

    @Test func nonUTF8BodiesKeepTheirBytes() throws {
        let log = try HARFixture.read("non_utf8_body.har")
        #expect(log.entries.map(\.role) == [.document, .subresource])
        let body = try #require(log.entries[0].response.content.body)
        #expect(String(validating: body, as: UTF8.self) == nil) // ISO-8859-1 bytes, untouched
        #expect(body.contains(0xF6)) // ö in Latin-1
        #expect(log.entries[0].response.content.charset == "iso-8859-1")
        #expect(log.entries[0].resourceType == "inferred:accept")
        // Times with offsets: +01:00.
        #expect(log.entries[0].startedAt == ISO8601Time.parse("2026-11-20T09:00:00Z"))
    }

    @Test func chromeFieldsTellFramesAndFetchesFromDocuments() throws {
        let log = try HARFixture.read("chrome_variant.har")
        #expect(log.entries.map(\.role) == [.document, .frame, .subresource, .subresource, .document])
        #expect(
            log.entries.map(\.resourceType) == ["document", "document", "fetch", "inferred:sec-fetch-dest=image", "document"])
        #expect(log.entries[1].initiatorType == "parser")
        // The custom-scheme attempt Chrome recorded (status 0) is kept: it is where the app switch happens.
        #expect(log.entries[4].response.status == 0)
        #expect(log.entries[4].request.url.hasPrefix("bankid:"))
    }

    @Test func firefoxEntriesAreClassifiedFromFetchMetadata() throws {
        let log = try HARFixture.read("firefox_variant.har")
        #expect(log.creator == "Firefox")
        #expect(log.entries.map(\.role) == [.document, .frame, .subresource, .subresource, .document, .document])
        #expect(log.navigationEntries.map(\.request.url).last == "https://shop.example.com/done")
        #expect(log.entries[4].isFormSubmission)
        #expect(log.entries[4].response.location == "https://shop.example.com/done")
        #expect(log.notes.isEmpty)
    }

    @Test(arguments: [
        // (declared type, headers, status, mime) → role
        ("subdocument", [String: String](), 200, "text/html", HARRole.frame),
        ("img", [:], 200, "text/html", .subresource),
        ("beacon", [:], 204, "", .subresource),
        ("main_frame", [:], 200, "", .document),
        ("other", ["Sec-Fetch-Dest": "document"], 200, "", .document),
        ("document", ["Sec-Fetch-Dest": "iframe"], 200, "text/html", .frame),
        ("", ["Sec-Fetch-Mode": "navigate"], 200, "", .document),
        ("", ["Sec-Fetch-Mode": "nested-navigate"], 200, "", .frame),
        ("", ["Sec-Fetch-Mode": "cors"], 200, "text/html", .subresource),
        ("", ["X-Requested-With": "XMLHttpRequest"], 200, "text/html", .subresource),
        // Android's WebView sends X-Requested-With: <package> on navigations too.
        ("", ["X-Requested-With": "com.example.shop", "Accept": "text/html"], 200, "text/html", .document),
        ("", ["Accept": "application/json"], 200, "application/json", .subresource),
        ("", [:], 200, "text/html; charset=utf-8", .document),
        ("", [:], 200, "image/png", .subresource),
        ("", [:], 302, "", .document),
    ])
    func classification(declared: String, headers: [String: String], status: Int, mime: String, role: HARRole) {
        let request = HARRequest(url: "https://a.example/", headers: headers.map { HARHeader(name: $0.key, value: $0.value) })
        let response = HARResponse(status: status, content: HARContent(mimeType: mime))
        let (_, got) = HARClassifier.classify(declared: declared.isEmpty ? nil : declared, request: request, response: response)
        #expect(got == role)
    }

    @Test func outOfOrderEntriesAreSortedStablyWithANote() throws {
        let log = try HARFixture.read("out_of_order.har")
        #expect(log.version == "1.1")
        // second-a and second-b share a time and keep their file order; "undated" keeps its place after third? no:
        // it takes the time of the entry before it in the file (second-b), so it stays right after second-b.
        #expect(
            log.entries.map { URL(string: $0.request.url)!.path } == ["/first", "/second-a", "/second-b", "/undated", "/third"])
        #expect(log.entries[0].request.method == "GET") // "get" upper-cased
        #expect(log.entries[0].response.status == 302) // "302" as a string, best effort
        #expect(log.notes.contains { $0.path == "log.entries[4].startedDateTime" })
        #expect(log.notes.contains { $0.message.contains("not in time order") })
    }

    @Test func undocumentedRedirectTakesTheRoleOfItsTarget() throws {
        // A 302 with no type, no Fetch Metadata and no Accept, leading to an image: a subresource.
        let json = """
            {"log": {"entries": [
              {"startedDateTime": "2026-11-20T10:00:00Z", "request": {"method": "GET", "url": "https://t.example/px"},
               "response": {"status": 302, "headers": [{"name": "Location", "value": "/px.gif"}]}},
              {"startedDateTime": "2026-11-20T10:00:01Z", "request": {"method": "GET", "url": "https://t.example/px.gif"},
               "response": {"status": 200, "content": {"mimeType": "image/gif"}}},
              {"startedDateTime": "2026-11-20T10:00:02Z", "request": {"method": "GET", "url": "https://t.example/go"},
               "response": {"status": 302, "headers": [{"name": "Location", "value": "shopapp://done"}]}}
            ]}}
            """
        let log = try HARReader().read(data: Data(json.utf8))
        #expect(log.entries.map(\.role) == [.subresource, .subresource, .document])
    }
}

@Suite struct HARReaderBadInputTests {
    @Test func truncatedFileIsAnErrorWithLineAndColumn() throws {
        let error = try #require(HARFixture.error("truncated.har"))
        #expect(error.code == .invalidJSON)
        #expect(error.file == "truncated.har")
        #expect(error.line != nil && error.column != nil)
        #expect(error.message.contains("ends"))
        #expect(error.description.hasPrefix("truncated.har:"))
    }

    @Test func missingStatusNamesTheEntryPath() throws {
        let error = try #require(HARFixture.error("missing_status.har"))
        #expect(error.code == .missingField)
        #expect(error.path == "log.entries[1].response.status")
        #expect(error.description.contains("missing_status.har: log.entries[1].response.status: missing; expected"))
    }

    @Test func fileThatIsNotUTF8IsAnErrorAtTheByte() throws {
        let error = try #require(HARFixture.error("not_utf8_file.har"))
        #expect(error.code == .invalidJSON)
        #expect(error.line == 2)
        #expect(error.message.contains("not UTF-8"))
        #expect(error.path == "log.entries[0].request.url")
    }

    @Test func invalidTextInFieldsThatAreNotReadIsIgnored() throws {
        // Best effort: JSONDecoder checks strings lazily, and so do we: a broken string in a field the replay
        // never reads (here a Chrome extension field) does not reject the recording.
        let json =
            #"{"log": {"entries": [{"_junk": "\ud800", "request": {"method": "GET", "url": "https://a.example/"}, "response": {"status": 200}}]}}"#
        let log = try HARReader().read(data: Data(json.utf8))
        #expect(log.entries.count == 1)
    }

    @Test(arguments: [
        ("", HARError.Code.invalidJSON, "", "empty"),
        ("[1, 2]", .notHAR, "", "top level"),
        ("{\"entries\": []}", .notHAR, "log", "missing"),
        ("{\"log\": {}}", .notHAR, "log.entries", "missing"),
        ("{\"log\": {\"entries\": {}}}", .notHAR, "log.entries", "array"),
        ("{\"log\": {\"entries\": [7]}}", .invalidValue, "log.entries[0]", "entry object"),
        ("{\"log\": {\"entries\": [{\"response\": {\"status\": 200}}]}}", .missingField, "log.entries[0].request", "missing"),
        (
            "{\"log\": {\"entries\": [{\"request\": {\"url\": \"https://a/\"}, \"response\": {\"status\": 200}}]}}",
            .missingField, "log.entries[0].request.method", "missing"
        ),
        (
            "{\"log\": {\"entries\": [{\"request\": {\"method\": \"GET\"}, \"response\": {\"status\": 200}}]}}", .missingField,
            "log.entries[0].request.url", "missing"
        ),
        (
            "{\"log\": {\"entries\": [{\"request\": {\"method\": \"GET\", \"url\": \"\"}, \"response\": {\"status\": 200}}]}}",
            .invalidValue, "log.entries[0].request.url", "non-empty"
        ),
        (
            "{\"log\": {\"entries\": [{\"request\": {\"method\": \"GET\", \"url\": \"https://a/\"}}]}}", .missingField,
            "log.entries[0].response", "missing"
        ),
        (
            "{\"log\": {\"entries\": [{\"request\": {\"method\": \"GET\", \"url\": \"https://a/\"}, \"response\": {\"status\": \"OK\"}}]}}",
            .invalidValue, "log.entries[0].response.status", "number"
        ),
        (
            "{\"log\": {\"entries\": [{\"request\": {\"method\": \"GET\", \"url\": \"https://a/\"}, \"response\": {\"status\": 200, \"content\": {\"mimeType\": \"text/html\", \"encoding\": \"base64\", \"text\": \"@@@\"}}}]}}",
            .invalidValue, "log.entries[0].response.content.text", "base64"
        ),
        (
            "{\"log\": {\"entries\": [{\"request\": {\"method\": \"GET\", \"url\": \"https://a/\\ud800x\"}, \"response\": {\"status\": 200}}]}}",
            .invalidJSON, "log.entries[0].request.url", "surrogate"
        ),
        (
            "{\"log\": {\"entries\": [{\"request\": {\"method\": \"GET\", \"url\": \"https://a/\"}, \"response\": {\"status\": 200, \"content\": {\"mimeType\": \"text/html\", \"text\": \"\\udc00\"}}}]}}",
            .invalidJSON, "log.entries[0].response.content.text", "surrogate"
        ),
        ("{\"log\": {\"entries\": [}", .invalidJSON, "", "expected a value"),
        ("{\"log\": {\"entries\": []}} x", .invalidJSON, "", "after the end"),
        ("{\"log\": {\"entries\": [\"abc", .invalidJSON, "", "ends inside a string"),
    ])
    func badInputIsAClearError(json: String, code: HARError.Code, path: String, mentions: String) throws {
        let error = try #require(HARFixture.error(data: json), "no error for \(json)")
        #expect(error.code == code, "\(error)")
        #expect(error.path == path, "\(error)")
        #expect(error.message.contains(mentions), "\(error)")
    }

    @Test func deeplyNestedGarbageDoesNotOverflowTheProbe() throws {
        let json = String(repeating: "[", count: 200_000)
        let error = try #require(HARFixture.error(data: json))
        #expect(error.code == .invalidJSON || error.code == .notHAR)
    }

    @Test func optionalFieldsOfTheWrongTypeAreIgnored() throws {
        let json = """
            {"log": {"version": 1.2, "creator": "me", "pages": "none", "entries": [
              {"startedDateTime": 5, "pageref": ["x"], "request": {"method": "GET", "url": "https://a.example/", "headers": "none",
               "postData": 3}, "response": {"status": 200, "headers": [{"value": "nameless"}, {"name": "Content-Type", "value": "text/html"}],
               "content": "text"}}
            ]}}
            """
        let log = try HARReader().read(data: Data(json.utf8))
        #expect(log.entries.count == 1)
        #expect(log.entries[0].response.headers == [HARHeader(name: "Content-Type", value: "text/html")])
        #expect(log.entries[0].role == .document)
        #expect(log.entries[0].response.content.body == nil)
    }

    @Test func missingFileIsUnreadable() {
        #expect(throws: HARError.self) { try HARReader().read(contentsOf: URL(fileURLWithPath: "/nonexistent/x.har")) }
    }

    @Test(arguments: [
        ("2026-11-20T10:00:00Z", 1_795_168_800.0),
        ("2026-11-20T10:00:00.250Z", 1_795_168_800.25),
        ("2026-11-20T11:00:00+01:00", 1_795_168_800.0),
        ("2026-11-20T11:00:00.000+0100", 1_795_168_800.0),
        ("2026-11-20 10:00:00", 1_795_168_800.0),
        ("1970-01-01T00:00:00Z", 0.0),
    ])
    func isoTimes(text: String, seconds: Double) {
        #expect(ISO8601Time.parse(text) == seconds)
    }

    @Test(arguments: [
        "", "yesterday", "2026-13-01T00:00:00Z", "2026-11-20T10:00Z", "2026-11-20T10:00:00.Z", "2026-11-20T10:00:00Zjunk",
    ])
    func badTimesAreNil(text: String) {
        #expect(ISO8601Time.parse(text) == nil)
    }
}

@Suite struct HARWriterTests {
    @Test(arguments: ["redirect_chain.har", "non_utf8_body.har", "auto_post_3ds.har", "firefox_variant.har"])
    func writtenHARReadsBackTheSame(name: String) throws {
        let log = try HARFixture.read(name, options: .init(keepSubresourceBodies: true))
        let again = try HARReader(options: .init(keepSubresourceBodies: true)).read(data: log.jsonData())
        #expect(again.entries.map(\.request) == log.entries.map(\.request))
        #expect(again.entries.map(\.response.status) == log.entries.map(\.response.status))
        #expect(again.entries.map(\.response.headers) == log.entries.map(\.response.headers))
        #expect(again.entries.map(\.response.content.body) == log.entries.map(\.response.content.body))
        #expect(again.entries.map(\.role) == log.entries.map(\.role))
        #expect(again.pages == log.pages)
    }
}
