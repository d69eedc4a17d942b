import Foundation
import PlainviewConfig
import Testing
import TestSupport
@testable import FlowImport
import PlainviewURL


/// The secrets planted in Fixtures/har/auto_post_3ds.har; none may survive redaction, in any spelling.
let plantedSecrets = [
    "9f8e7d6c5b4a3921", // SESSION cookie
    "S3SS10N-7d1e2f3a4b5c", // sessionId in a URL and a JSON body
    "eJxVUk1vgjAYvvsrGu8KBQwzzZhxiRkHNkjkEO0bcmgnvvBGQvNdKsQnPjUwSz4MXlIOgP", // PaReq
    "md-7f3a9c21e5", // MD
    "eJzVWNmyokgQfZ9fAAXAyOPWfT9", // PaRes
    "tk_live_51HxYzAbCdEf", // token in Location, URL and a link
    "anna.svensson", // e-mail (page title, body, JSON)
    "4111 1111 1111 1111", "4111111111111111", // card number in page text
    "19811218-9876", "8112189876", // Swedish personal number
    "eyJhbGciOiJIUzI1NiJ9", // bearer token
    "ak_93jf83jf93jf", // apiKey in an inline script
]

@Suite struct RedactionTests {
    /// A `Cookie` header is split into its pairs (ASCII on its bytes, other text in general): every value is
    /// replaced, names, spaces, empty pairs and pairs without `=` stay as written, a quoted value keeps its quotes.
    @Test(arguments: [
        ("a=1; b=2", "a=REDACTED-COOKIE-1; b=REDACTED-COOKIE-2"),
        ("  sid=\"abc\";;flag; x=y=z", "  sid=\"REDACTED-COOKIE-1\";;flag; x=REDACTED-COOKIE-2"),
        ("=anon; k=; \"=\"", "=REDACTED-COOKIE-1; k=; \"=REDACTED-COOKIE-2"),
        ("a=1\r\n; b=2", "a=REDACTED-COOKIE-1; b=REDACTED-COOKIE-2"),
        ("namn=värde; b=2;  é=x", "namn=REDACTED-COOKIE-1; b=REDACTED-COOKIE-2;  é=REDACTED-COOKIE-3"),
        ("a=1; a=1", "a=REDACTED-COOKIE-1; a=REDACTED-COOKIE-1"),
    ])
    func cookieHeader(value: String, redacted: String) {
        var r = Redactor()
        #expect(r.redactHeader(name: "Cookie", value: value, at: "h") == redacted)
    }

    func redacted(
        _ name: String, config: RedactionConfig = .default,
        keepBodies: Bool = true
    ) throws -> (HARLog, HARLog, RedactionReport) {
        let log = try HARFixture.read(name, options: .init(keepSubresourceBodies: keepBodies))
        var redactor = Redactor(config: config)
        let out = redactor.redact(log)
        return (log, out, redactor.report)
    }

    @Test func noPlantedSecretSurvivesAnywhereInTheRedactedRecording() throws {
        let (original, out, report) = try redacted("auto_post_3ds.har")
        let before = String(decoding: try original.jsonData(), as: UTF8.self)
        let after = String(decoding: try out.jsonData(), as: UTF8.self)
        for secret in plantedSecrets {
            #expect(before.contains(secret) || ["8112189876", "4111111111111111"].contains(secret), "fixture lost \(secret)")
            #expect(!after.contains(secret), "\(secret) survived")
            #expect(
                !after.contains(PercentEncoding.encode(secret, keeping: PercentEncoding.isUnreserved)),
                "\(secret) survived percent-encoded")
        }
        // The report never holds a secret either.
        for secret in plantedSecrets { #expect(!report.description.contains(secret)) }
        let counts = report.counts
        for kind in [RedactionKind.cookie, .credential, .token, .card, .personalNumber, .email] {
            #expect((counts[kind] ?? 0) > 0, "nothing of kind \(kind)")
        }
        #expect(counts[.pattern] == nil)
    }

    @Test func placeholdersAreStableSoTheFlowStillConnects() throws {
        let (_, out, _) = try redacted("auto_post_3ds.har")
        let nav = out.navigationEntries
        // The redirect's Location is exactly the next request's URL.
        #expect(nav[2].response.location == nav[3].request.url)
        #expect(nav[3].request.url.hasPrefix("https://shop.example.com/complete?order=42&token=REDACTED-TOKEN-"))
        // The cookie set by the first page is the cookie sent later.
        let set = try #require(nav[0].response.setCookies.first)
        let sessionPlaceholder = String(set.dropFirst("SESSION=".count).prefix { $0 != ";" })
        #expect(sessionPlaceholder.hasPrefix("REDACTED-COOKIE-"))
        #expect(set.hasSuffix("; Path=/; Secure; HttpOnly"))
        #expect(nav[3].request.headers.first(named: "Cookie") == "lang=REDACTED-COOKIE-1; \("SESSION=" + sessionPlaceholder)")
        // The auto-posted form's PaReq is what the POST carried; TermUrl (a URL) stays usable.
        let page = String(decoding: try #require(nav[0].response.content.body), as: UTF8.self)
        let params = try #require(nav[1].request.postData).params
        let pareq = try #require(params.first { $0.name == "PaReq" }).value
        #expect(pareq.hasPrefix("REDACTED-TOKEN-"))
        #expect(page.contains("name=\"PaReq\" value=\"\(pareq)\""))
        #expect(nav[1].request.postData?.text?.contains("PaReq=\(pareq)&") == true)
        #expect(page.contains("value=\"https://psp.example.net/3ds/return\""))
        #expect(page.contains("action=\"https://acs.bank.example/3ds/challenge\""))
        // MD in the merchant's form, the POST, the ACS's form and the POST back: one placeholder.
        let md = try #require(params.first { $0.name == "MD" }).value
        let acsPage = String(decoding: try #require(nav[1].response.content.body), as: UTF8.self)
        #expect(acsPage.contains("value=\"\(md)\""))
        #expect(nav[2].request.postData?.params.first { $0.name == "MD" }?.value == md)
        // The e-mail is one placeholder in the page title and the body.
        #expect(out.pages[0].title == "Pay for order 42 (redacted1@example.invalid)")
        let last = String(decoding: try #require(nav[3].response.content.body), as: UTF8.self)
        #expect(last.contains("redacted1@example.invalid"))
        #expect(last.contains("\"orderId\": 42")) // not a secret name
    }

    /// A secret written as a UUID (BankID's `autostarttoken`) gets a UUID placeholder, the same wherever it appears,
    /// because the BankID app refuses a launch URL whose token is not one; the strict check knows it as a placeholder.
    @Test func aUUIDSecretKeepsItsShape() throws {
        let token = "7c40b5c9-fa74-49cf-b98c-bfe651f9a7c6"
        let launch = "bankid:///?autostarttoken=\(token)&redirect=null"
        let page = HAREntry(
            fileIndex: 0, request: HARRequest(url: "https://psp.example.net/bankid?tx=B1"),
            response: HARResponse(
                status: 200, content: HARContent(mimeType: "text/html", body: Data("<a href=\"\(launch)\">Open BankID</a>".utf8)))
        )
        let attempt = HAREntry(fileIndex: 1, request: HARRequest(url: launch), response: HARResponse(status: 0))
        var redactor = Redactor(config: .default)
        let out = redactor.redact(HARLog(entries: [page, attempt]))
        let body = String(decoding: out.entries[0].response.content.body ?? Data(), as: UTF8.self)
        let placeholder = "00000000-0000-4000-8000-000000000001"
        #expect(
            body == "<a href=\"bankid:///?autostarttoken=\(placeholder)&amp;redirect=null\">Open BankID</a>"
                || body == "<a href=\"bankid:///?autostarttoken=\(placeholder)&redirect=null\">Open BankID</a>", "\(body)")
        #expect(out.entries[1].request.url == "bankid:///?autostarttoken=\(placeholder)&redirect=null")
        #expect(SecretResidue.scan(body + "\n" + out.entries[1].request.url, file: "t").isEmpty)
        #expect(!redactor.report.description.contains(token))
    }

    @Test func redactionIsDeterministic() throws {
        let (_, a, ra) = try redacted("auto_post_3ds.har")
        let (_, b, rb) = try redacted("auto_post_3ds.har")
        #expect(try a.jsonData() == b.jsonData())
        #expect(ra == rb)
    }

    @Test func authorizationKeepsItsScheme() throws {
        let (_, out, _) = try redacted("auto_post_3ds.har")
        let xhr = try #require(out.entries.first { $0.role == .subresource })
        #expect(xhr.request.headers.first(named: "Authorization") == "Bearer REDACTED-CREDENTIAL-1")
    }

    @Test func latin1BodiesAreRedactedInTheirOwnEncoding() throws {
        let (_, out, report) = try redacted("non_utf8_body.har")
        let body = try #require(out.entries[0].response.content.body)
        #expect(String(validating: body, as: UTF8.self) == nil) // still ISO-8859-1
        let text = try #require(String(data: body, encoding: .isoLatin1))
        #expect(text.contains("Åsa Öberg, redacted1@example.invalid"))
        #expect(!text.contains("asa.oberg"))
        #expect(report.counts[.email] == 1)
        // The PNG is left byte for byte.
        #expect(
            out.entries[1].response.content.body
                == (try HARFixture.read("non_utf8_body.har", options: .init(keepSubresourceBodies: true))).entries[1].response
                .content.body)
    }

    @Test func reportSaysWhatAndWhere() throws {
        let (_, _, report) = try redacted("auto_post_3ds.har")
        let text = report.description
        #expect(text.hasPrefix("redacted "))
        #expect(text.contains("log.entries[0].request.headers.Cookie: cookie SESSION → REDACTED-COOKIE-"))
        #expect(text.contains("log.entries[3].response.headers.Location: token token → REDACTED-TOKEN-"))
        #expect(report.items.allSatisfy { $0.count >= 1 && !$0.placeholder.isEmpty })
    }

    /// The report keeps places as numbers and interned strings: what goes in comes out, the same place recorded
    /// again (even after other entries) adds to its count, and odd locations and placeholders survive whole.
    @Test func reportPlacesComeBackAsRecordedAndMerge() {
        var report = RedactionReport()
        let places: [(RedactionKind, String, String, String)] = [
            (.cookie, "log.entries[0].request.headers.Cookie", "SESSION", "REDACTED-COOKIE-1"),
            (.token, "log.entries[12].request.url", "token", "REDACTED-TOKEN-2"),
            (.email, "log.entries[12].response.content", "", "redacted3@example.invalid"),
            (.email, "log.entries[12].response.content", "", "redacted3%40example.invalid"),
            (.token, "log.entries[007].x", "n", "REDACTED-TOKEN-07"), // leading zeros: kept as written
            (.pattern, "page.html", "patterns[0]", "REDACTED-MATCH-#1-2"),
            (.card, "log.entries[12", "", "-990000004"),
            // Shapes met before, told apart by the bytes around the number: another number, another ending.
            (.token, "log.entries[13].request.url", "token", "REDACTED-TOKEN-4"),
            (.token, "log.entries[13].request.url", "token", "REDACTED-TOKEN-5x"),
            (.card, "log.entries[13].request.url", "", "12345"),
            (.cookie, "log.entries[0].request.headers.Cookie", "SESSION", "REDACTED-COOKIE-1"), // again, later
        ]
        for (kind, location, name, placeholder) in places {
            report.record(kind, at: location, name: name, placeholder: placeholder)
        }
        report.record(.token, at: "log.entries[12].request.url", name: "token", placeholder: "REDACTED-TOKEN-2", count: 3)
        let items = report.items
        #expect(items.count == places.count - 1)
        for (item, place) in zip(items, places) {
            #expect(item.kind == place.0)
            #expect(item.location == place.1)
            #expect(item.name == place.2)
            #expect(item.placeholder == place.3)
        }
        #expect(items[0].count == 2)
        #expect(items[1].count == 4)
        #expect(report.total == places.count + 3)
        #expect(report.distinctSecrets == places.count - 1)
        #expect(report.summary(places: 1).contains("(the first 1 of 10 places)"))
    }

    /// Reports are equal when their places are, however they were recorded (what speeds up recording is not compared).
    @Test func reportsWithTheSamePlacesAreEqual() {
        var once = RedactionReport(), again = RedactionReport()
        let cookie = "log.entries[0].request.headers.Cookie", url = "log.entries[1].request.url"
        once.record(.cookie, at: cookie, name: "SESSION", placeholder: "REDACTED-COOKIE-1", count: 2)
        once.record(.token, at: url, name: "token", placeholder: "REDACTED-TOKEN-2")
        again.record(.cookie, at: cookie, name: "SESSION", placeholder: "REDACTED-COOKIE-1")
        again.record(.token, at: url, name: "token", placeholder: "REDACTED-TOKEN-2")
        #expect(once != again)
        again.record(.cookie, at: cookie, name: "SESSION", placeholder: "REDACTED-COOKIE-1")
        #expect(once == again)
        #expect(Set([once, again]).count == 1)
    }

    @Test func noRedactNeededMeansNothingChanges() throws {
        let (original, out, report) = try redacted("redirect_chain.har")
        #expect(try original.jsonData() == out.jsonData())
        #expect(report.items.isEmpty)
        #expect(report.description == "redacted nothing")
    }

    @Test func keepListAndSwitchesAreHonoured() throws {
        var config = RedactionConfig()
        config.keep = ["MD"]
        config.emails = false
        let (_, out, _) = try redacted("auto_post_3ds.har", config: config)
        let json = String(decoding: try out.jsonData(), as: UTF8.self)
        #expect(json.contains("md-7f3a9c21e5"))
        #expect(json.contains("anna.svensson@example.se"))
        #expect(!json.contains("tk_live_51HxYzAbCdEf"))
    }

    @Test func configuredPatternsRedactTheirFirstGroup() {
        var config = RedactionConfig()
        config.patterns = [#"order-ref: ([A-Z0-9]{8})"#]
        var r = Redactor(config: config)
        let out = r.redactText("<p>order-ref: AB12CD34</p>", at: "x", as: .html)
        #expect(out == "<p>order-ref: REDACTED-MATCH-1</p>")
        #expect(r.report.counts[.pattern] == 1)
    }

    @Test(arguments: [
        // text, context, what must be gone, what must remain
        ("https://a.example/cb?code=abc123&state=xyz789&lang=sv", Redactor.TextContext.url, ["abc123", "xyz789"], ["lang=sv"]),
        (
            "https://a.example/r?returnUrl=https%3A%2F%2Fshop.example%2Fdone%3Ftoken%3Dsecr3tvalue%26x%3D1", .url,
            ["secr3tvalue"], ["returnUrl=https%3A%2F%2Fshop.example%2Fdone%3Ftoken%3D", "%26x%3D1"]
        ),
        ("<a href=\"/next?a=1&amp;session_id=zz99yy88\">go</a>", .html, ["zz99yy88"], ["a=1&amp;session_id="]),
        ("<meta name=\"csrf-token\" content=\"Qk9PTS1jc3JmLXRva2Vu\">", .html, ["Qk9PTS1jc3JmLXRva2Vu"], ["name=\"csrf-token\""]),
        ("<div data-session-id='x1y2z3w4'>", .html, ["x1y2z3w4"], ["data-session-id="]),
        ("<input value=\"s3cr3tcreq\" type=hidden name=creq>", .html, ["s3cr3tcreq"], ["name=creq"]),
        (
            "{\"access_token\": \"at-123456\", \"expires_in\": 3600, \"pin\": 1234}", .json, ["at-123456", "1234"],
            ["\"expires_in\": 3600"]
        ),
        ("password=hunter2&user=bob", .form, ["hunter2"], ["user=bob"]),
        ("Card: 4111-1111-1111-1111 ok", .plain, ["4111-1111-1111-1111"], ["Card: REDACTED-CARD-1 ok"]),
        ("Call 4111 1111 1111 1112 now", .plain, [], ["4111 1111 1111 1112"]), // not Luhn-valid
        ("ts=1700000000000", .plain, [], ["ts=1700000000000"]), // 13 digits, not Luhn-valid
        ("pnr 198112189876 and 811218+9876", .plain, ["198112189876", "811218+9876"], ["pnr REDACTED-PNR-"]),
        ("samordning 701063-2391", .plain, ["701063-2391"], []),
        ("fødselsnummer 15078610090", .plain, ["15078610090"], []),
        ("hetu 131052-308T", .plain, ["131052-308T"], []),
        ("cpr 010203-1234", .plain, ["010203-1234"], []),
        ("order 2026-11-20 id 12345678901", .plain, [], ["2026-11-20", "12345678901"]),
        ("mailto:Anna.Svensson+shop@Example.SE", .plain, ["Anna.Svensson"], ["mailto:redacted1@example.invalid"]),
        ("/u?email=anna%40example.se&x=1", .url, ["anna%40example.se"], ["redacted1%40example.invalid"]),
        ("<img src=\"icon@2x.png\">", .html, [], ["icon@2x.png"]),
        (
            "<textarea name=\"creq\" hidden>\n eyJtZXNzYWdlVHlwZSI6IkNSZXEifQ \n</textarea>", .html,
            ["eyJtZXNzYWdlVHlwZSI6IkNSZXEifQ"], ["<textarea name=\"creq\" hidden>REDACTED-TOKEN-1</textarea>"]
        ),
        ("https://shop:pa55w0rd@api.example/x", .url, ["pa55w0rd"], ["https://shop:REDACTED-CREDENTIAL-1@api.example/x"]),
        (
            "--b\r\nContent-Disposition: form-data; name=\"otp\"\r\n\r\n918273\r\n--b\r\nContent-Disposition: form-data; name=\"lang\"\r\n\r\nsv\r\n--b--",
            .plain, ["918273"], ["name=\"lang\"\r\n\r\nsv\r\n"]
        ),
    ])
    func detectors(text: String, context: Redactor.TextContext, gone: [String], kept: [String]) {
        var r = Redactor()
        let out = r.redactText(text, at: "t", as: context)
        for g in gone { #expect(!out.contains(g), "\(g) survived in \(out)") }
        for k in kept { #expect(out.contains(k), "\(k) missing in \(out)") }
    }

    @Test func secretFoundByNameIsReplacedWhereverElseItAppears() {
        var r = Redactor()
        // Learn from a URL, then see it in a script with no telling name.
        _ = r.redactText("https://a.example/?sid=Zx81Yy72Qq", at: "u", as: .url)
        let out = r.redactText("<script>start('Zx81Yy72Qq')</script>", at: "b", as: .html)
        #expect(out == "<script>start('REDACTED-TOKEN-1')</script>")
    }

    @Test func thePolicysOwnURLValuesAreKept() {
        var config = RedactionConfig()
        config.keepQueryValues(ofURLsIn: "paymentUrl: https://shop.example.com/pay?order=42&token=T0k3nPayment1\n")
        var r = Redactor(config: config)
        let url = "https://shop.example.com/pay?order=42&token=T0k3nPayment1"
        #expect(r.redactText(url, at: "u", as: .url) == url)
        #expect(
            r.redactText("https://x.example/?token=0therT0k3n", at: "u", as: .url) == "https://x.example/?token=REDACTED-TOKEN-1")
    }

    @Test func shortValuesAreOnlyReplacedWhereFoundByName() {
        var r = Redactor()
        let url = r.redactText("https://a.example/?code=42", at: "u", as: .url)
        #expect(url == "https://a.example/?code=REDACTED-TOKEN-1")
        #expect(r.redactText("<p>42 items</p>", at: "b", as: .html) == "<p>42 items</p>")
    }

    @Test(arguments: [
        ("token", "access_token", true), ("token", "csrfToken", true), ("token", "X-Auth-Token", true),
        ("key", "api_key", true), ("key", "keyword", false), ("sid", "side", false), ("sid", "SID", true),
        ("*session*", "JSESSIONID", true), ("pareq", "PaReq", true), ("md", "MD", true), ("md", "mdx", false),
        ("*sessid*", "PHPSESSID", true), ("code", "countryCode", true), ("code", "codec", false),
        ("a*b*c", "axxbyyc", true), ("a*b*c", "axxbyy", false),
    ])
    func namePatterns(pattern: String, name: String, matches: Bool) {
        #expect(NamePattern(pattern).matches(name) == matches)
    }

    @Test(arguments: [
        ("4111111111111111", true), ("4111 1111 1111 1111", true), ("5555-5555-5555-4444", true),
        ("378282246310005", true), ("4111111111111112", false), ("0000000000000000", false), ("411111111111", false),
    ])
    func cards(text: String, valid: Bool) {
        #expect(Detectors.isCardNumber(text) == valid)
        #expect(Detectors.isCardNumber(characters: text) == valid)
    }

    /// The byte test of ASCII candidates gives the Character test's verdict: on generated runs of digit groups
    /// (one digit to seven, a Luhn-valid last digit half of the time) joined by one or two kinds of separator,
    /// with a separator sometimes leading or trailing; both verdicts occur.
    @Test func cardTestOnBytesAgreesWithTheCharacterTest() {
        var rng = FuzzRNG(seed: 0xCA2D)
        let separators: [UInt8] = Array(" -./+_\t,a".utf8)
        var verdicts: Set<Bool> = []
        for _ in 0..<20_000 {
            var digits: [UInt8] = []
            var text: [UInt8] = rng.oneIn(8) ? [rng.pick(separators)] : []
            let first = rng.pick(separators), second = rng.oneIn(6) ? rng.pick(separators) : first
            for g in 0..<(1 + rng.below(6)) {
                if g > 0 { text.append(rng.oneIn(4) ? second : first) }
                for _ in 0..<(1 + rng.below(7)) {
                    let d = UInt8(rng.below(10))
                    digits.append(d)
                    text.append(0x30 + d)
                }
            }
            if rng.oneIn(2), let last = text.lastIndex(where: { $0 >= 0x30 && $0 <= 0x39 }) {
                // The check digit that makes the run Luhn-valid.
                let body = digits.dropLast().reversed().enumerated().map { i, d in
                    let x = Int(d) * (i % 2 == 0 ? 2 : 1)
                    return x > 9 ? x - 9 : x
                }
                text[last] = 0x30 + UInt8((10 - body.reduce(0, +) % 10) % 10)
            }
            if rng.oneIn(8) { text.append(rng.pick(separators)) }
            let candidate = String(decoding: text, as: UTF8.self)
            let fast = Detectors.isCardNumber(ascii: text)
            #expect(fast == Detectors.isCardNumber(characters: candidate), "\(candidate)")
            verdicts.insert(fast)
        }
        #expect(verdicts == [true, false])
    }

    @Test(arguments: [
        ("811218-9876", true), ("19811218-9876", true), ("8112189876", true), ("811218+9876", true),
        ("811218-9875", false), ("811318-9876", false), ("15078610090", true), ("15078610091", false),
        ("131052-308T", true), ("131052-308U", false), ("010203-1234", true), ("320203-1234", false),
    ])
    func personalNumbers(text: String, valid: Bool) {
        #expect(Detectors.isPersonalNumber(text) == valid)
    }
}

@Suite struct RedactionConfigTests {
    @Test func fileListsAddToTheDefaults() throws {
        let c = try RedactionConfig.parse(
            "names: [orderRef]\nkeep: [state]\nemails: false\nminimumGlobalLength: 8\n", file: "r.yaml")
        #expect(c.names.contains("orderRef") && c.names.contains("token"))
        #expect(c.keep == ["state"])
        #expect(!c.emails && c.cards)
        #expect(c.minimumGlobalLength == 8)
    }

    @Test func replaceDefaultsStartsFromNothing() throws {
        let c = try RedactionConfig.parse(#"{"replaceDefaults": true, "names": ["only"]}"#, file: "r.json")
        #expect(c.names == ["only"])
        #expect(c.headers.isEmpty)
    }

    @Test(arguments: [
        ("nmes: [x]", "nmes", "unknown key"),
        ("names: 3", "names", "list of strings"),
        ("names: [1]", "names[0]", "expected a string"),
        ("cards: maybe", "cards", "true or false"),
        ("patterns: ['(']", "patterns[0]", "regular expression"),
        ("minimumGlobalLength: 0", "minimumGlobalLength", "≥ 1"),
    ])
    func badConfigNamesTheKey(text: String, key: String, mentions: String) {
        do {
            _ = try RedactionConfig.parse(text, file: "r.yaml")
            Issue.record("no error for \(text)")
        } catch {
            #expect(error.key == key, "\(error)")
            #expect(error.message.contains(mentions), "\(error)")
            #expect(error.description.hasPrefix("r.yaml:1: \(key): "), "\(error)")
        }
    }

    @Test func notAMappingIsAnError() {
        let list = #expect(throws: ConfigError.self) { try RedactionConfig.parse("- a\n- b\n", file: "r.yaml") }
        #expect(list?.line == 1)
        #expect(list?.message.hasPrefix("expected a mapping with keys") == true, "\(String(describing: list))")
        let broken = #expect(throws: ConfigError.self) { try RedactionConfig.parse("names: [", file: "r.yaml") }
        #expect(broken?.file == "r.yaml")
        #expect(broken?.message.hasPrefix("invalid YAML/JSON: ") == true, "\(String(describing: broken))")
    }
}
