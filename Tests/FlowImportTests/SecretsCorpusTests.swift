import Foundation
import Testing
import TestSupport
@testable import FlowImport


/// The secrets corpus (Fixtures/har/secrets_corpus.har, written by generate-secrets-corpus.py): every secret in
/// the spellings real pages use. After import, none survives in any spelling, and nothing else changed.
@Suite struct SecretsCorpusTests {
    static let har = Project.path("Tests/FlowImportTests/Fixtures/har/secrets_corpus.har")

    /// Digits (and a Finnish check letter) of every card, personal and organisation number in the corpus.
    static let numbers = [
        "4111111111111111", "5555555555554444", "4012888888881881", "378282246310005", "3530111333300000",
        "6011111111111117", "5105105105105100", "4000056655665556",
        "8112189876", "199001011239", "6402271230", "7503152386", "8507099805", "15038549682", "3112991234",
        "131052308T", "5560360793", "01120389", "923663355",
    ]
    static let emails = [
        "anna@example.se", "anna.b@example.se", "kalle@example.se", "lisa@example.se", "nils@example.se",
        "eva@example.se", "erik@example.se", "olle@example.se",
    ]
    static let tokens = ["sess-7f3a9c21e5d4b6a8", "Qm9va2luZ1Nlc3Npb24xMjM0NTY", "c2Vzc2lvbi12YWx1ZS0xMjM0NTY3OA"]
    /// The payloads and signatures of the four JWTs (header, Bearer in a script, escaped dots, JSON value).
    static let jwtParts =
        ["aGVhZGVyLXVzZXI", "c2NyaXB0LXVzZXI", "ZXNjYXBlZC11c2Vy", "anNvbi11c2Vy"].map { "\($0)" }
        + [
            "eyJzdWIiOiJoZWFkZXItdXNlciIs", "eyJzdWIiOiJzY3JpcHQtdXNlciIs", "eyJzdWIiOiJlc2NhcGVkLXVzZXIiLC",
            "eyJzdWIiOiJqc29uLXVzZXIiLC",
        ]

    static func imported() throws -> (files: [(name: String, data: Data)], result: HARImport.Result) {
        let options = HARImport.Options(writer: .init(name: "corpus", source: har.path))
        let result = try HARImport.draft(har: har, name: "secrets_corpus.har", options: options)
        return (HARImport.files(result, options: options), result)
    }

    /// A file's text as a browser would read it (every layer decoded), and with separators removed.
    static func readable(_ data: Data) -> (decoded: String, joined: String) {
        let decoded = DecodedText(String(decoding: data, as: UTF8.self)).string
        let joined = String(decoded.unicodeScalars.filter { !" \u{A0}.-+".unicodeScalars.contains($0) }.map(Character.init))
        return (decoded, joined.uppercased())
    }

    @Test func nothingInTheCorpusLeaksInAnySpelling() throws {
        let (files, _) = try Self.imported()
        #expect(files.count == 3) // flow.yaml, the checkout page and the receipt (the POST answered an empty redirect)
        for file in files {
            let (decoded, joined) = Self.readable(file.data)
            let lower = decoded.lowercased()
            for n in Self.numbers { #expect(!joined.contains(n), "\(n) leaked in \(file.name)") }
            for e in Self.emails { #expect(!lower.contains(e), "\(e) leaked in \(file.name)") }
            for t in Self.tokens + Self.jwtParts { #expect(!decoded.contains(t), "\(t) leaked in \(file.name)") }
            #expect(!decoded.contains("value=\"bearer\""), "the token value 'bearer' leaked in \(file.name)")
        }
    }

    @Test func nothingElseIsChanged() throws {
        let (files, _) = try Self.imported()
        let page = String(decoding: try #require(files.first { $0.name.hasSuffix(".html") }).data, as: UTF8.self)
        for kept in [
            "<meta name=\"api-bearer\"", "<meta name=\"viewport\" content=\"width=device-width\">",
            "name=\"token_type\"", "<a href=\"/pay\">Pay</a>", "Personnummer: ", "document.cookie = \"session=",
        ] {
            #expect(page.contains(kept), "\(kept) was changed")
        }
        #expect(!page.contains("api-REDACTED"))
        let json = try #require(files.first { $0.name.hasSuffix(".json") }).data
        let object = try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any], "the receipt is no longer JSON")
        #expect(object["order"] as? Int == 1234)
        #expect(object["amount"] as? Double == 100.5)
        #expect(object["ts"] as? Int == 1_732_420_000_000)
        #expect(object["holder"] as? String == "Eva")
        // Cards written as JSON numbers stay numbers (placeholders of their own, stable per card).
        let pan = try #require(object["pan"] as? Int), ref = try #require(object["ref"] as? Int)
        #expect(pan < 0 && ref < 0 && pan != ref)
        #expect((object["card"] as? String)?.hasPrefix("REDACTED-CARD-") == true)
        #expect((object["mail"] as? String)?.hasSuffix("@example.invalid") == true)
    }

    @Test func theReportNamesEveryKindAndNothingLooksUnredacted() throws {
        let (files, result) = try Self.imported()
        let counts = try #require(result.report).counts
        for kind in [RedactionKind.cookie, .credential, .token, .card, .personalNumber, .organisationNumber, .email, .jwt] {
            #expect((counts[kind] ?? 0) > 0, "no \(kind.rawValue) reported: \(counts)")
        }
        #expect((counts[.card] ?? 0) >= 8)
        #expect((counts[.email] ?? 0) >= 8)
        #expect(HARImport.residue(in: files).isEmpty, "\(HARImport.residue(in: files))")
    }

    @Test func theSameSecretGetsTheSamePlaceholderEverywhere() throws {
        let log = try HARReader().read(contentsOf: Self.har, name: "secrets_corpus.har")
        var redactor = Redactor()
        let out = redactor.redact(log)
        // The session cookie: set by the first response, sent by every request; one placeholder throughout.
        let values = out.entries.flatMap { e in
            (e.request.headers + e.response.headers).filter { ["cookie", "set-cookie"].contains($0.name.lowercased()) }
        }.map { h in h.value.components(separatedBy: "SESSIONID=")[1].prefix { $0 != ";" } }
        #expect(values.count == 4 && Set(values).count == 1 && values[0].hasPrefix("REDACTED-COOKIE-"), "\(values)")
        // Redacting again finds nothing new: placeholders are never taken for secrets.
        var again = Redactor()
        _ = again.redact(out)
        #expect(again.report.total == 0, "\(again.report)")
    }
}
