import Foundation
import Testing
import TestSupport
@testable import FlowImport

/// Issue 34: redaction runs the detectors once per string (then only replaces known secrets), and the detectors'
/// quick byte tests skip expressions that cannot match. Neither may change what is redacted or reported.
@Suite struct RedactionPassesTests {
    static let fixtures = [
        "secrets_corpus", "secrets_spellings", "auto_post_3ds", "chrome_variant", "firefox_variant", "non_utf8_body",
        "redirect_chain", "meta_refresh", "base64_body",
    ]

    static func fixture(_ name: String) -> URL {
        Project.path("Tests/FlowImportTests/Fixtures/har/\(name).har")
    }

    /// The way before: learn everything, then run every detector again (a configured pattern keeps that path;
    /// this one never matches).
    static func twoFullPasses(_ log: HARLog) -> (HARLog, RedactionReport) {
        var config = RedactionConfig.default
        config.patterns = ["(?!x)x"]
        var redactor = Redactor(config: config)
        var out = log
        redactor.redact(&out)
        return (out, redactor.report)
    }

    /// One detecting pass and the known-secrets pass, on two cores where the machine has them (or, `oneCore`, on
    /// one: no scout, and the known-secrets pass in one piece).
    static func onePass(_ log: HARLog, oneCore: Bool = false) -> (HARLog, RedactionReport) {
        var redactor = Redactor()
        redactor.detectsAhead = !oneCore
        var out = log
        redactor.redact(&out)
        return (out, redactor.report)
    }

    /// A long session: 300 pages, each with a token link, a hidden field, an e-mail, a card, a personal number,
    /// a script token and a session cookie; `extra(i)` is added to page i's body.
    static func generatedSession(extra: (Int) -> String = { _ in "" }) throws -> HARLog {
        let entries = (0..<300).map { i in
            let body =
                "<html><body><a href='/p\(i + 1)?token=tok\(i)xyz9Q'>next</a><input type=hidden name=creq value='eyJ\(i)abc'>"
                + "<p>mail user\(i)@example.se, card 4111 1111 1111 1111, pnr 19800101-00\(10 + i % 80)</p>"
                + "<script>var sessionToken = 'Zq8xW2vR7tY4uP1nM6kL\(i)'; x = {\\\"code\\\": \\\"\(i)1234\\\"}</script>\(extra(i))</body></html>"
            return
                #"{"_resourceType":"document","startedDateTime":"2026-11-20T10:00:00.000Z","request":{"method":"GET","url":"https://shop.example.com/p\#(i)?session=abc\#(i)&q=a%40b.se","httpVersion":"h2","headers":[{"name":"Cookie","value":"SESSION=s\#(i)x7"}],"queryString":[],"cookies":[]},"response":{"status":200,"statusText":"OK","httpVersion":"h2","headers":[{"name":"Content-Type","value":"text/html"},{"name":"Set-Cookie","value":"SESSION=s\#(i + 1)x7; Path=/"}],"cookies":[],"content":{"size":1,"mimeType":"text/html","text":"\#(body)"},"redirectURL":""},"cache":{},"timings":{}}"#
        }
        let json =
            #"{"log":{"version":"1.2","creator":{"name":"t","version":"1"},"pages":[],"entries":["#
            + entries.joined(separator: ",") + "]}}"
        return try HARReader().read(data: Data(json.utf8))
    }

    @Test(arguments: fixtures) func oneDetectingPassRedactsAndReportsAsTwoFullPasses(_ name: String) throws {
        let log = try HARReader().read(contentsOf: Self.fixture(name))
        let (before, beforeReport) = Self.twoFullPasses(log)
        let (after, afterReport) = Self.onePass(log)
        #expect(after == before)
        #expect(afterReport.items == beforeReport.items)
        #expect(afterReport.description == beforeReport.description)
    }

    /// The byte matchers (ASCIIScanners) change nothing: with every detector on its regular expression, the
    /// fixtures and a long generated session redact and report alike.
    @Test(arguments: fixtures + ["generated"]) func byteMatchersRedactAsTheExpressions(_ name: String) throws {
        let log: HARLog
        if name == "generated" {
            log = try Self.generatedSession()
        } else {
            log = try HARReader().read(contentsOf: Self.fixture(name))
        }
        var reference = Redactor()
        reference.usesASCIIMatchers = false
        var expected = log
        reference.redact(&expected)
        let (after, afterReport) = Self.onePass(log)
        #expect(after == expected)
        #expect(afterReport.items == reference.report.items)
        // Not a comparison of nothing: the generated session and the secrets corpora are full of secrets.
        if name == "generated" { #expect(afterReport.total > 1500, "\(afterReport.total)") }
        if name.hasPrefix("secrets") { #expect(afterReport.total > 10, "\(afterReport.total)") }
    }

    /// The detecting pass on two cores (a scout running the detectors one block of entries ahead) redacts and
    /// reports as on one core, and as two full passes, on sessions long enough for many blocks: the generated
    /// one, and one whose pages repeat, across blocks, a text that is another's but for canonically equivalent
    /// spellings before a secret (`é` as one character or as `e` and a combining accent: equal Strings, findings at
    /// other offsets), a JSON body whose pairs an earlier step replaces (the detectors then get a text the scout
    /// never met), literal placeholders of this very run, and a page of its own.
    @Test(arguments: ["generated", "tricky"]) func theDetectingPassOnTwoCoresRedactsAsOnOne(_ name: String) throws {
        let log: HARLog
        if name == "generated" {
            log = try Self.generatedSession()
        } else {
            let shared: [(mime: String, text: String)] = [
                ("text/html", "<p>caf\u{E9} token=Qx7Lm2Np9Rt1</p>"),
                ("text/html", "<p>cafe\u{301} token=Qx7Lm2Np9Rt1</p>"),
                ("application/json", #"{"token": "Zz9Yy8Xx7Ww6", "note": "see token=Zz9Yy8Xx7Ww6 and a@b.se"}"#),
                ("text/html", "<p>REDACTED-TOKEN-1 and token=REDACTED-TOKEN-2, redacted1@example.invalid</p>"),
            ]
            log = Self.session(
                (0..<400).map { i in i % 5 < 4 ? shared[i % 5] : ("text/html", "<p>token=u\(i)Kq3Zr8 mail a\(i)@example.se</p>") }
            )
        }
        let (expected, oneCoreReport) = Self.onePass(log, oneCore: true)
        let (after, afterReport) = Self.onePass(log)
        let (twoPasses, twoPassesReport) = Self.twoFullPasses(log)
        // The first entry that differs, not the whole session, when one does.
        func firstDifference(_ a: HARLog, _ b: HARLog) -> Int? {
            a.entries.count != b.entries.count ? -1 : a.entries.indices.first { a.entries[$0] != b.entries[$0] }
        }
        #expect(firstDifference(after, expected) == nil)
        #expect(after.pages == expected.pages && after.notes == expected.notes)
        #expect(afterReport.items == oneCoreReport.items)
        #expect(firstDifference(after, twoPasses) == nil)
        #expect(afterReport.items == twoPassesReport.items)
        #expect(afterReport.total > 400, "\(afterReport.total)")
        if name == "tricky" {
            // Each spelling keeps its own offsets: the secret after the decomposed `é` is replaced whole.
            let decomposed = Data("<p>cafe\u{301} token=REDACTED-TOKEN-1</p>".utf8)
            #expect(after.entries[1].response.content.body == decomposed)
            #expect(after.entries[301].response.content.body == decomposed)
        }
    }

    /// The known-secrets pass on two cores: secrets learnt in one half stand bare (where no detector finds them)
    /// in both halves, so each half replaces known secrets, several to a text. The entries and the report's
    /// places, in order, are those of the pass on one core and of two full passes.
    @Test func theKnownSecretsPassOnTwoCoresRedactsAsOnOne() throws {
        let count = 2 * Redactor.knownHalfAtLeast + 60
        func secret(_ i: Int) -> String { "Kq\(i)Zr8Lm2Np9Wx" }
        let log = Self.session(
            (0..<count).map { i in
                // Page i gives token i away by name; it mentions tokens i - 1 and (i + count / 2) bare.
                let bare = [secret((i + count - 1) % count), secret((i + count / 2) % count)]
                return ("text/html", "<a href='/n?token=\(secret(i))'>next</a><p>\(bare.joined(separator: " and "))</p>")
            })
        let (expected, oneCoreReport) = Self.onePass(log, oneCore: true)
        let (after, afterReport) = Self.onePass(log)
        let (twoPasses, twoPassesReport) = Self.twoFullPasses(log)
        #expect(after == expected)
        #expect(afterReport.items == oneCoreReport.items)
        #expect(after == twoPasses)
        #expect(afterReport.items == twoPassesReport.items)
        // Bare tokens were replaced by the known-secrets pass in both halves.
        let bareLocations = Set(
            afterReport.items.filter { $0.name.isEmpty && $0.kind == .token }.map(\.location))
        #expect(bareLocations.contains("log.entries[1].response.content"))
        #expect(bareLocations.contains("log.entries[\(count - 1)].response.content"))
        #expect(
            String(decoding: after.entries[count - 1].response.content.body ?? Data(), as: UTF8.self).contains(
                secret(count - 2)) == false)
    }

    /// The scout hands entries over in blocks that cover every entry once, in order, each of at most 64 entries
    /// and ending as soon as its URLs and bodies reach 128 kB (so large pages come a few at a time).
    @Test func theScoutsBlocksCoverEveryEntryOnceWithinTheirBounds() throws {
        let large = String(repeating: "<p>a page of some size</p>", count: 8_000) // 208 kB
        let log = Self.session(
            (0..<300).map { i in ("text/html", (150..<155).contains(i) ? large : "<p>page \(i)</p>") })
        let blocks = Redactor.blocks(of: log.entries)
        #expect(blocks.first?.lowerBound == 0)
        #expect(blocks.last?.upperBound == 300)
        #expect(zip(blocks, blocks.dropFirst()).allSatisfy { $0.upperBound == $1.lowerBound })
        func bytes(_ i: Int) -> Int {
            log.entries[i].request.url.utf8.count + (log.entries[i].response.content.body?.count ?? 0)
        }
        for block in blocks {
            #expect(!block.isEmpty && block.count <= 64, "\(block)")
            // Under 128 kB before its last entry: a block ends at the entry that reaches it.
            #expect(block.dropLast().map(bytes).reduce(0, +) < 128 << 10, "\(block)")
        }
        // Each large page ends a block of its own making.
        #expect((150..<155).allSatisfy { i in blocks.contains { $0.upperBound == i + 1 } })
    }

    /// A session of one document per body (MIME type and text), in order.
    static func session(_ bodies: [(mime: String, text: String)]) -> HARLog {
        HARLog(
            entries: bodies.enumerated().map { i, body in
                HAREntry(
                    fileIndex: i, request: HARRequest(url: "https://shop.example.com/p\(i)"),
                    response: HARResponse(
                        status: 200, headers: [HARHeader(name: "Content-Type", value: body.mime)],
                        content: HARContent(mimeType: body.mime, body: Data(body.text.utf8))))
            })
    }

    /// Secrets first seen late (a cookie set by the last response, a token in the last URL) stand earlier in
    /// bodies and other URLs: the known-secrets pass replaces them there, and the report lists those places
    /// where one full pass would have, between the places of the detectors.
    @Test func secretsSeenLateAreReplacedEarlyAndReportedInOrder() throws {
        let late = "Zq8xW2vR7tY4uP1nM6kL"
        let mail = "anna.svensson@shop.se"
        func entry(_ url: String, body: String, setCookie: String = "", cookie: String = "") -> String {
            let requestHeaders = cookie.isEmpty ? "" : #"{"name":"Cookie","value":"\#(cookie)"}"#
            var responseHeaders = #"{"name":"Content-Type","value":"text/html"}"#
            if !setCookie.isEmpty { responseHeaders += #",{"name":"Set-Cookie","value":"\#(setCookie)"}"# }
            return """
                {"_resourceType":"document","startedDateTime":"2026-11-20T10:00:00.000Z",\
                "request":{"method":"GET","url":"\(url)","httpVersion":"h2","headers":[\(requestHeaders)],"queryString":[],"cookies":[]},\
                "response":{"status":200,"statusText":"OK","httpVersion":"h2","headers":[\(responseHeaders)],"cookies":[],\
                "content":{"size":1,"mimeType":"text/html","text":"\(body)"},"redirectURL":""},"cache":{},"timings":{}}
                """
        }
        let entries = [
            entry("https://shop.example.com/a?x=1", body: "<p>ref \(late) and \(mail) and \(late)</p>"),
            entry("https://shop.example.com/b?note=\(late)", body: "<p>\(late)</p>", cookie: "SID=\(late)"),
            entry("https://shop.example.com/c?token=\(late)", body: "<p>card 4111 1111 1111 1111, \(mail)</p>"),
            entry("https://shop.example.com/d", body: "<p>done \(late)</p>", setCookie: "SID=\(late); Path=/"),
        ]
        let json =
            #"{"log":{"version":"1.2","creator":{"name":"t","version":"1"},"pages":[],"entries":["#
            + entries.joined(separator: ",") + "]}}"
        let log = try HARReader().read(data: Data(json.utf8))
        let (before, beforeReport) = Self.twoFullPasses(log)
        let (after, afterReport) = Self.onePass(log)
        #expect(after == before)
        #expect(afterReport.items == beforeReport.items)
        #expect(
            afterReport.items.contains { $0.location == "log.entries[0].response.content" && $0.kind == .cookie && $0.count == 2 }
        )
        let bodies = after.entries.compactMap { $0.response.content.body.map { String(decoding: $0, as: UTF8.self) } }
        #expect(!bodies.contains { $0.contains(late) || $0.contains(mail) })
    }

    /// A secret seen again in other bytes that Swift counts as the same string (`K` and the Kelvin sign, U+212A):
    /// the dictionary of placeholders finds it, but its spellings are learnt and matched as bytes, so the new
    /// bytes are learnt too, and the known-secrets pass replaces them where no detector looks (page text).
    @Test func aSecretSeenAgainInOtherBytesIsLearntInThem() throws {
        let kelvin = "\u{212A}q8xW2vR7tY4uP1nM6", plain = "Kq8xW2vR7tY4uP1nM6"
        #expect(kelvin == plain && !kelvin.utf8.elementsEqual(plain.utf8))
        func entry(_ path: String, cookie: String, body: String) -> String {
            """
            {"_resourceType":"document","startedDateTime":"2026-11-20T10:00:00.000Z",\
            "request":{"method":"GET","url":"https://shop.example.com/\(path)","httpVersion":"h2",\
            "headers":[{"name":"Cookie","value":"SID=\(cookie)"}],"queryString":[],"cookies":[]},\
            "response":{"status":200,"statusText":"OK","httpVersion":"h2","headers":[{"name":"Content-Type","value":"text/html"}],\
            "cookies":[],"content":{"size":1,"mimeType":"text/html","text":"\(body)"},"redirectURL":""},"cache":{},"timings":{}}
            """
        }
        let entries = [
            entry("a", cookie: kelvin, body: "<p>first</p>"), entry("b", cookie: plain, body: "<p>again</p>"),
            entry("c", cookie: "x", body: "<p>ref \(plain) end</p>"),
        ]
        let json =
            #"{"log":{"version":"1.2","creator":{"name":"t","version":"1"},"pages":[],"entries":["#
            + entries.joined(separator: ",") + "]}}"
        let (after, _) = Self.onePass(try HARReader().read(data: Data(json.utf8)))
        let body = after.entries[2].response.content.body.map { String(decoding: $0, as: UTF8.self) } ?? ""
        #expect(body == "<p>ref REDACTED-COOKIE-1 end</p>", "\(body)")
    }

    /// Every line of the fixtures (and every line decoded): where an expression matches, its quick test says
    /// it may.
    @Test(arguments: fixtures) func quickTestsNeverSkipAMatch(_ name: String) throws {
        let data = try Data(contentsOf: Self.fixture(name))
        let text = String(decoding: data, as: UTF8.self)
        var lines = text.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
        lines += lines.map { DecodedText($0).string }
        for line in lines {
            let can = SecretPrefilter(line)
            func matches(_ box: RegexBox) -> Bool { !box.matches(in: line).isEmpty }
            if matches(Detectors.jwt) { #expect(can.mayHoldJWT) }
            if matches(Detectors.schemeCredential) { #expect(can.mayHoldSchemeCredential) }
            if matches(Detectors.awsAccessKey) { #expect(can.mayHoldAWSKey) }
            if matches(Detectors.cardRun) { #expect(can.longestJoinedDigits >= 13) }
            if matches(SecretResidue.digitRun) { #expect(can.longestJoinedDigits >= 12) }
            if matches(Detectors.personalNumberRun) { #expect(can.mayHoldPersonalNumber) }
            if matches(Detectors.pathSegment) { #expect(can.mayHoldPathToken) }
            if matches(Redactor.pairs) { #expect(can.hasEquals) }
            if matches(Redactor.assignments) { #expect(can.hasQuote && (can.hasColon || can.hasEquals)) }
            let ns = line as NSString
            for m in SecretResidue.cardCode.matches(in: line) where Detectors.isCardCodeName(ns.substring(with: m.range(at: 1))) {
                #expect(can.mayHoldCardCodeName)
            }
            for m in SecretResidue.authValue.matches(in: line) {
                let name = ns.substring(with: m.range(at: 1)), value = ns.substring(with: m.range(at: 2))
                guard SecretResidue.isCredentialName(name), !Detectors.isPlaceholder(value), !value.contains("REDACTED-"),
                    SecretResidue.looksRandom(value)
                else { continue }
                #expect(can.mayHoldAuthValue(line))
            }
        }
    }

    @Test func quickTestsOnShapes() {
        #expect(SecretPrefilter("card 4111 1111 1111 1111").longestJoinedDigits == 16)
        #expect(SecretPrefilter("4111\u{2009}1111\u{2009}1111\u{2009}1111").longestJoinedDigits == 16)
        #expect(SecretPrefilter("12 / 34 / 56").longestJoinedDigits == 2)
        #expect(SecretPrefilter("org 923 456 789").mayHoldPersonalNumber)
        #expect(!SecretPrefilter("4111 1111 1111 1111").mayHoldPersonalNumber)
        #expect(SecretPrefilter("Authorization: BEARER abc").mayHoldSchemeCredential)
        #expect(!SecretPrefilter("no credentials here").mayHoldSchemeCredential)
        #expect(SecretPrefilter("baſic x").mayHoldSchemeCredential) // non-ASCII: maybe
        #expect(SecretPrefilter("https://x.se/u/AbCdEfGh12345678/x").mayHoldPathToken)
        #expect(!SecretPrefilter("https://x.se/u/AbCdEfGh1234567").mayHoldPathToken)
        #expect(SecretPrefilter("x CVC2=123").mayHoldCardCodeName)
        #expect(!SecretPrefilter("x code=123").mayHoldCardCodeName)
        let session = "url: \"https://shop.example.com/p0?session=REDACTED-TOKEN-1\""
        #expect(!SecretPrefilter(session).mayHoldAuthValue(session))
        let leak = "jsessionid=A1b2C3d4E5f6G7h8J9k0"
        #expect(SecretPrefilter(leak).mayHoldAuthValue(leak))
        // Outside ASCII: punctuation (a flow file's comments) keeps the quick tests; letters, marks and spaces
        // make them answer "maybe".
        #expect(!SecretPrefilter("# the browser's “Open in …?” prompt").mayHoldCardCodeName)
        #expect(SecretPrefilter("SÄKERHETSKOD=123").mayHoldCardCodeName)
        #expect(SecretPrefilter("pru\u{0308}fziffer=123").mayHoldCardCodeName)
        let spaced = "token\u{00A0}=\u{00A0}A1b2C3d4E5f6G7h8J9k0"
        #expect(SecretPrefilter(spaced).mayHoldAuthValue(spaced))
        #expect(SecretPrefilter.hasIgnoringCase("<TextArea name=x>", "<textarea"))
        #expect(!SecretPrefilter.hasIgnoringCase("<text area>", "<textarea"))
        #expect(SecretPrefilter.has("a@b", "@") && !SecretPrefilter.has("ab", "@"))
        #expect(SecretPrefilter.has("application/json", "json") && !SecretPrefilter.has("application/jso", "json"))
    }

    /// An e-mail placeholder as a URL writes it: every `@` as `%40`, byte by byte in ASCII text and by Foundation
    /// outside it, with the same answer.
    @Test(arguments: [
        ("redacted1@example.invalid", "redacted1%40example.invalid"), ("no-at", "no-at"), ("@@", "%40%40"),
        ("", ""), ("a@b@", "a%40b%40"), ("ä@b", "ä%40b"),
    ])
    func percentEncodedAt(_ pair: (String, String)) {
        #expect(Redactor.percentEncodedAt(pair.0) == pair.1)
        #expect(Redactor.percentEncodedAt(pair.0) == pair.0.replacingOccurrences(of: "@", with: "%40"))
    }

    /// The byte answers of `has` and `hasIgnoringCase` are the Foundation answers they stand in for, in ASCII text
    /// (answered from the bytes) and outside it (a combining mark on the character, CR LF as one character).
    @Test(arguments: [
        "a@b.example", "plain text", "<TextArea name=x>", "user@mail\r\nnext", "line\r\n", "\r\n", "e\u{0301}@x",
        "<\u{0301}textarea", "FORM-DATA; name=x", "ſecret <textarea>", "ﬀorm-data <TEXTAREA", "\"k\": 1", "",
        // ſ and the Kelvin sign case-fold to s and k: a word holding those letters is Foundation's to answer.
        "claſſ=x", "\u{212A}ey: 1", "Class Key",
        // Words: in ASCII text, across CR LF, with a combining mark on their last letter, split, at either end.
        "application/json", "text/html; charset=utf-8", "jso\u{0301}n", "js\r\non", "https://x", ":/ /",
        "REDACTED-TOKEN-1", "xREDACTED-", "REDACTED", "sessionid", "sessi\u{0308}on", "json\r\n",
        // Characters canonically equivalent to an ASCII one: the Kelvin sign, the Greek question mark and varia.
        "\u{212A}", "a\u{037E}b", "x\u{1FEF}y",
    ])
    func theQuickTestsAnswerAsFoundation(text: String) {
        for c in ["@", "<", "\"", ":", "\r", "\n", "json", "://", "REDACTED-", "session", "on\r", "\r\n", "K", ";", "`"] {
            #expect(SecretPrefilter.has(text, c) == text.contains(c), "\(text.debugDescription) \(c.debugDescription)")
        }
        for word in ["<textarea", "form-data", "data", "class", "key", "Data"] {
            #expect(
                SecretPrefilter.hasIgnoringCase(text, word) == (text.range(of: word, options: .caseInsensitive) != nil),
                "\(text.debugDescription) \(word)")
        }
    }
}
