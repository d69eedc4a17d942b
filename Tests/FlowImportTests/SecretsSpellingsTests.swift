import Foundation
import Testing
import TestSupport
@testable import FlowImport

/// Issue 29: secrets in spellings an adversarial review found leaking (Fixtures/har/secrets_spellings.har, written
/// by generate-secrets-spellings.py). Imported with `--strict`, none survives in any written file or in the
/// redacted recording; each spelling alone is redacted, and flagged by the residue check when not redacted;
/// ordinary data around them stays as it was.
@Suite struct SecretsSpellingsTests {
    static let har = Project.path("Tests/FlowImportTests/Fixtures/har/secrets_spellings.har")

    /// Luhn-valid card numbers, each planted in one spelling: `+` (GET form), `%2B`, `_`, `/`, TAB (raw and
    /// `%09`), U+2009 (raw, `&thinsp;`, `%E2%80%89`), and `+`-grouped under `kortnummer`.
    static let cards = [
        "5200107665130878", "4929173600485317", "4012883771065429", "5522456130982749", "4556701120933869",
        "371449635398431", "6011552100389125", "3530118430921778", "2223004817265399", "4716983255014627",
        "5300627194841058", "4165980027338710", "6011842755093415",
    ]
    /// Card security codes under other names (name as a browser decodes it, value) in query, form, JSON and HTML.
    static let codes = [
        ("cvc2", "4417"), ("säkerhetskod", "618"), ("säkerhetskod", "529"), ("prüfziffer", "3816"),
        ("kontrollsiffror", "0427"), ("prüfziffer", "5093"), ("säkerhetskod", "719"), ("cvc2", "9264"),
        ("säkerhetskod", "731"), ("kontrollsiffror", "385"), ("prüfziffer", "842"), ("prüfziffer", "147"),
    ]
    static let jweRSA =
        "eyJhbGciOiJSU0EtT0FFUCIsImVuYyI6IkEyNTZHQ00ifQ.HkiRAqN-RDuPFSXHN7iYOsA6v9hk-Gw9-B2N3nqjKgweSJECo35EOw."
        + "37FOsyqAq8PmMKPJ.tsM4w79Eh4J05eYOtOs7ADUqR0G4V5MEo1iZ7OnyGB-2wzjDv0SHgnTl5g606zsA.f_maqAUhBrw_02aDSqVpHg"
    static let jweDir =
        "eyJhbGciOiJkaXIiLCJlbmMiOiJBMjU2R0NNIn0..LpObwXIfQNZWvo5n."
        + "wlLr3IkbjWR0wl3-dqKqMifPFCeKtsZmrq6rQoI240vCUuvciRuNZHTCXf52oqoy.CRoV4Ny52Y55rVauKjke1g"
    static let amzToken =
        "NSOokfXORGitYYiHgAnZvvWNn/dkpOoWlOlIlDiFsUg1I6iR9c5EaK1hiIeACdm+9Y2f92Sk6haU6UiUOIWxSDUjqJH1zkRo"
    static let signatures = [
        "527070bd99966bb69b930ab6b81574a9838a74e4f2e71d5eb63524c78e177c80",
        "99b0bd042cd7918d6390c2f3916280d02190c2e3fe6cc41978a99afca5ce252d",
    ]
    /// AWS keys, signatures and session token; session ids in URL paths; tokens in Set-Cookie attributes.
    static let tokens =
        ["AKIAIOSFODNN7EXAMPLE", "AKIAJ3EXAMPLEKEY7Q2Z", amzToken] + signatures + [
            "1A2B3C4D5E6F7A8B9C0D1E2F3A4B5C6D", "3f2a9c8e7d6b5a4c3f2e1d0c9b8a7f6e", "9b2e4c1a-7f3d-4e8b-a6c5-2d1f0e9b8a7c",
            "eyJzZXNzIjoiY29va2llLXBhdGgtMSJ9", "Zk9xQ2h1bmtUb2tlbjQ4Mjc1OTE",
        ]
    static var plantedCount: Int { cards.count + codes.count + tokens.count + 2 }

    /// Ordinary data beside the secrets: written as it was.
    static let kept = [
        "amount=12500", "order=20261120001", "date=2026-11-20", "id=42", "Path=/; HttpOnly", "Path=/; Max-Age=86400",
        "/checkout;jsessionid=", "/pay?card=", "https://shop.example.com/session/", "/s/", "/receipt",
        "Order 20261120001, 12500 kr, 2026-11-20, 2026/11/20", "/products/blue-shirt-xl-2024", "/static/app.3f2a9c8e.js",
        "/orders/ORD2026112000042", "/checkout/shipping-address/confirm", "X-Amz-Algorithm=AWS4-HMAC-SHA256",
        "X-Amz-Date=20261120T100000Z", "X-Amz-Expires=900", "X-Amz-SignedHeaders=host", "Path=/t/", "Path=/session/",
    ]

    /// The planted secrets still readable in `text` (decoded as a browser reads it), by a short description.
    static func leaks(in text: String) -> [String] {
        let decoded = DecodedText(text).string.precomposedStringWithCanonicalMapping
        let separators = Set(" \u{A0}\u{2007}\u{2009}\u{202F}\t.-+_/".unicodeScalars)
        let joined = String(String.UnicodeScalarView(decoded.unicodeScalars.filter { !separators.contains($0) }))
        var out: [String] = []
        for card in cards where joined.contains(card) { out.append("card \(card)") }
        let lower = decoded.lowercased()
        for (name, value) in codes {
            // The value as a whole number within 40 characters after, or 30 before, any spelling of its name.
            var from = lower.startIndex
            while let r = lower.range(of: name, range: from..<lower.endIndex) {
                let around = String(lower[..<r.lowerBound].suffix(30)) + " " + String(lower[r.upperBound...].prefix(40))
                if around.range(of: "(?<![0-9a-z])\(value)(?![0-9a-z])", options: .regularExpression) != nil {
                    out.append("\(name) \(value)")
                    break
                }
                from = r.upperBound
            }
        }
        for token in tokens where decoded.contains(token) || decoded.contains(token.prefix(16)) {
            out.append("token \(token.prefix(12))…")
        }
        for (label, jwe) in [("JWE RSA-OAEP", jweRSA), ("JWE dir", jweDir)] {
            let parts = jwe.split(separator: ".").filter { $0.count >= 8 }.dropFirst()
            if parts.contains(where: { decoded.contains($0) }) { out.append(label) }
        }
        return out
    }

    @Test func theCorpusImportsUnderStrictAndNoPlantedSecretLeaks() throws {
        let raw = try String(contentsOf: Self.har, encoding: .utf8)
        #expect(Self.leaks(in: raw).count == Self.plantedCount, "the fixture holds only \(Self.leaks(in: raw))")
        let dir = try Project.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let folder = dir.appendingPathComponent("spellings")
        let options = HARImport.Options(writer: .init(name: "spellings", source: Self.har.path), strict: true)
        let result: HARImport.Result
        do {
            result = try HARImport.run(har: Self.har, name: "secrets_spellings.har", to: folder, force: false, options: options)
        } catch {
            Issue.record("import --strict failed: \(error)")
            return
        }
        #expect(result.residue.isEmpty)
        #expect(result.fileNames.count >= 4, "\(result.fileNames)")
        var written = ""
        for name in result.fileNames {
            let text = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
            let leaked = Self.leaks(in: text)
            #expect(leaked.isEmpty, "\(leaked.count) leak(s) in \(name): \(leaked)")
            written += text + "\n"
        }
        for k in Self.kept { #expect(written.contains(k), "\(k) was changed") }
    }

    @Test func noPlantedSecretLeaksAnywhereInTheRedactedRecording() throws {
        let log = try HARReader().read(contentsOf: Self.har, name: "secrets_spellings.har")
        var redactor = Redactor()
        let out = redactor.redact(log)
        let text = String(decoding: try out.jsonData(), as: UTF8.self)
        let leaked = Self.leaks(in: text)
        #expect(leaked.isEmpty, "\(leaked.count) of \(Self.plantedCount) planted secrets leak: \(leaked)")
        // The POST's form body keeps its ordinary fields.
        let form = try #require(out.entries[2].request.postData?.text)
        #expect(form.hasSuffix("&amount=12500"), "\(form)")
        // The receipt is still JSON; its ordinary values are untouched.
        let receipt = try #require(out.entries[3].response.content.body)
        let object = try #require(try JSONSerialization.jsonObject(with: receipt) as? [String: Any])
        #expect(object["order"] as? Int == 20_261_120_001)
        #expect(object["amount"] as? Int == 12500)
        #expect(object["date"] as? String == "2026-11-20")
        #expect((object["säkerhetskod"] as? Int).map { $0 < 0 } == true, "a number stays a number")
        // The Location and the next URL still connect (one placeholder for the session id in both).
        let location = try #require(out.entries[2].response.location)
        #expect(out.entries[3].request.url == "https://shop.example.com" + location)
    }

    /// One spelling each: (text, context).
    static let spellings: [(String, Redactor.TextContext, String)] = [
        ("https://shop.example.com/pay?card=5200+1076+6513+0878&amount=12500", .url, "&amount=12500"),
        ("https://shop.example.com/pay?card=4929%2B1736%2B0048%2B5317", .url, ""),
        ("ref=4012_8837_7106_5429&amount=12500", .form, "&amount=12500"),
        ("<p>Kort: 3714/496353/98431</p>", .html, "</p>"),
        ("{\"card\": \"5522/4561/3098/2749\"}", .json, ""),
        ("<p>Kort: 4556\t7011\t2093\t3869</p>", .html, ""),
        ("https://shop.example.com/pay?n=6011%095521%090038%099125", .url, ""),
        ("<p>Kort: 3530\u{2009}1184\u{2009}3092\u{2009}1778</p>", .html, ""),
        ("<p>Kort: 2223&thinsp;0048&thinsp;1726&thinsp;5399</p>", .html, ""),
        ("https://shop.example.com/pay?t=4716%E2%80%899832%E2%80%895501%E2%80%894627", .url, ""),
        ("kortnummer=5300+6271+9484+1058&amount=12500", .form, "&amount=12500"),
        ("https://shop.example.com/pay?cvc2=4417&amount=12500", .url, "&amount=12500"),
        ("https://shop.example.com/pay?s%C3%A4kerhetskod=618", .url, ""),
        ("kontrollsiffror=0427&Pr%C3%BCfziffer=5093&s%C3%A4kerhetskod=719", .form, ""),
        ("sa%CC%88kerhetskod=719", .form, ""),
        ("<input type=\"hidden\" name=\"säkerhetskod\" value=\"529\">", .html, ""),
        ("<input value=\"3816\" name=\"Prüfziffer\">", .html, ""),
        ("{\"cvc2\": \"9264\", \"säkerhetskod\": 731, \"kontrollsiffror\": \"385\", \"Prüfziffer\": \"842\"}", .json, ""),
        ("{\"pr\\u00fcfziffer\": \"147\"}", .json, ""),
        (
            "https://b.s3.amazonaws.com/r?X-Amz-Credential=AKIAIOSFODNN7EXAMPLE%2F20130524%2Fus-east-1%2Fs3%2Faws4_request", .url,
            "?X-Amz-Credential="
        ),
        ("https://b.s3.amazonaws.com/r?X-Amz-Signature=\(signatures[0])", .url, ""),
        ("https://b.s3.amazonaws.com/r?X-Amz-Security-Token=\(amzToken.replacingOccurrences(of: "+", with: "%2B"))", .url, ""),
        ("https://shop.example.com/checkout;jsessionid=1A2B3C4D5E6F7A8B9C0D1E2F3A4B5C6D/pay", .url, "/pay"),
        ("https://shop.example.com/session/3f2a9c8e7d6b5a4c3f2e1d0c9b8a7f6e/pay", .url, "/pay"),
        ("<a href=\"/s/9b2e4c1a-7f3d-4e8b-a6c5-2d1f0e9b8a7c/receipt\">", .html, "/receipt\">"),
        ("<p>\(jweRSA)</p>", .html, ""),
        ("https://shop.example.com/pay?ctx=\(jweDir)", .url, ""),
    ]

    @Test(arguments: spellings)
    func eachSpellingIsRedacted(text: String, context: Redactor.TextContext, kept: String) {
        var r = Redactor()
        let out = r.redactText(text, at: "t", as: context)
        #expect(kept.isEmpty || out.contains(kept), "\(kept) was lost: \(out)")
        #expect(Self.leaks(in: out).isEmpty, "\(Self.leaks(in: out)) in \(out)")
        #expect(SecretResidue.scan(out, file: "t").isEmpty, "\(SecretResidue.scan(out, file: "t")) in \(out)")
    }

    @Test(arguments: spellings)
    func eachSpellingIsFlaggedByTheResidueCheckWhenNotRedacted(text: String, context: Redactor.TextContext, kept: String) {
        let found = SecretResidue.scan(text, file: "page.html")
        #expect(!found.isEmpty, "--strict would let \(text) through")
        // Findings name the place, the rule and the length, never the value.
        for f in found { #expect(f.description.hasPrefix("page.html:1: "), "\(f)") }
    }

    /// Set-Cookie attributes: the tokens in `Path` go, `Path=/` stays.
    @Test(arguments: [
        "tk=1; Path=/t/eyJzZXNzIjoiY29va2llLXBhdGgtMSJ9; Secure",
        "sp=1; Path=/session/Zk9xQ2h1bmtUb2tlbjQ4Mjc1OTE; HttpOnly",
    ])
    func setCookieAttributesAreRedacted(header: String) {
        #expect(!SecretResidue.scan(header.replacingOccurrences(of: "=1;", with: "=REDACTED-COOKIE-1;"), file: "f").isEmpty)
        var r = Redactor()
        let out = r.redactHeader(name: "Set-Cookie", value: header, at: "h")
        #expect(Self.leaks(in: out).isEmpty, "\(out)")
        #expect(out.hasSuffix("; Secure") || out.hasSuffix("; HttpOnly"), "\(out)")
        #expect(out.contains("; Path=/"), "\(out)")
        #expect(SecretResidue.scan(out, file: "f").isEmpty, "\(out)")
        let plain = r.redactHeader(name: "Set-Cookie", value: "lang=sv; Path=/; Max-Age=86400", at: "h")
        #expect(plain.hasSuffix("; Path=/; Max-Age=86400"), "\(plain)")
    }

    /// Ordinary data: neither redacted nor flagged.
    @Test(arguments: [
        ("https://shop.example.com/pay?amount=12500&order=20261120001&date=2026-11-20&id=42", Redactor.TextContext.url),
        ("https://shop.example.com/products/blue-shirt-xl-2024", .url),
        ("https://shop.example.com/orders/ORD2026112000042/confirm", .url),
        ("https://shop.example.com/checkout/shipping-address/confirm", .url),
        ("<script src=\"/static/app.3f2a9c8e.js\"></script>", .html),
        ("<p>Order 20261120001, 12500 kr, 2026-11-20, 2026/11/20, 10:15</p>", .html),
        ("<p>Paket 2026/11/20/0042, sum 1250+2500+3750</p>", .html),
        ("https://b.s3.amazonaws.com/r?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Date=20261120T100000Z&X-Amz-Expires=900", .url),
        ("qty=4417&size=618&kontroll=ok", .form),
        ("{\"order\": 20261120001, \"amount\": 12500, \"quantity\": 731}", .json),
        ("https://shop.example.com/s/about/team", .url),
        ("# Imported from /tmp/plainview-test-86C4C350-1485-4B6A-B376-9B267D0FA046/account.har", .plain),
    ])
    func ordinaryDataIsKept(text: String, context: Redactor.TextContext) {
        var r = Redactor()
        #expect(r.redactText(text, at: "t", as: context) == text)
        #expect(SecretResidue.scan(text, file: "t").isEmpty, "\(SecretResidue.scan(text, file: "t"))")
    }
}
