@testable import AppSwitch
@testable import PlainviewURL
import Foundation
import Testing
import TestSupport
@testable import NavigationPolicy

@Suite("Fuzz: apple-app-site-association")
struct AASAFuzzTests {
    static let domain = "example.com"

    static let documents: [String] = {
        var docs = FuzzCorpus.jsonObjects(in: "aasa_blazingly_conformance.json", key: "aasa")
        docs += FuzzCorpus.jsonObjects(in: "aasa_blazingly_swcutil_gap_probes.json", key: "aasa")
        docs += FuzzCorpus.jsonObjects(in: "aasa_st_tech_universal_links_test.json", key: "aasa")
        return docs
    }()

    static let urls: [String] = {
        var urls: [String] = []
        for file in [
            "aasa_blazingly_conformance.json", "aasa_st_tech_universal_links_test.json", "aasa_swift_aasa_validator.json",
        ] {
            urls += FuzzCorpus.strings(in: file) { $0.hasPrefix("https://") || $0.hasPrefix("http://") }
        }
        return urls.isEmpty ? ["https://example.com/buy/1"] : urls
    }()

    static let jsonDictionary =
        FuzzMutator.jsonSyntax + [
            "\"applinks\"",
            "\"details\"", "\"components\"", "\"appIDs\"", "\"appID\"", "\"paths\"", "\"NOT /\"", "\"/\"", "\"?\"", "\"#\"",
            "\"exclude\"", "\"caseSensitive\"", "\"percentEncoded\"", "\"defaults\"", "\"substitutionVariables\"",
            "\"$(lang)\"", "\"$(region)\"", "\"$(alnum)\"", "\"$(\"", "$(", ")", "*", "?*", "\"*\"",
        ]
    static let urlDictionary = [
        "%", "%2", "%2F", "%00", "%C3%A9", "?", "#", "&", "=", "*", "/", "//", "\\", "@", ":", ":443", ":8443", "[", "]",
        "https://", "http://", "example.com", "EXAMPLE.COM.", "evil.example", "é", "𝄞", " ", "\t",
    ]

    /// (document, domain, URL) of every conformance row: mutants of a document are tried on its own URLs.
    static let cases: [[String]] =
        FuzzCorpus.caseFields(in: "aasa_blazingly_conformance.json", ["aasa", "domain", "url"])
        + FuzzCorpus.caseFields(in: "aasa_blazingly_swcutil_gap_probes.json", ["aasa", "domain", "url"])

    @Test func theSeedCorpusIsLoaded() {
        #expect(Self.cases.count > 100)
        #expect(Self.documents.count > 20)
        #expect(Self.urls.count > 20)
    }

    @Test(arguments: [UInt64(1), 2, 3])
    func mutatedDocumentsAreReadOrRejectedWithAKeyPath(seed: UInt64) {
        var fuzz = FuzzRun(seed: seed, dictionary: Self.jsonDictionary)
        let urlMutator = FuzzMutator(dictionary: Self.urlDictionary)
        var accepted = 0, matched = 0
        for _ in 0..<1000 {
            let row = fuzz.rng.pick(Self.cases)
            let bytes = fuzz.mutator.mutate(
                Array(row[0].utf8), other: Array(fuzz.rng.pick(Self.documents).utf8), rng: &fuzz.rng, maxSteps: 2)
            let text = String(decoding: bytes, as: UTF8.self)
            let aasa: AppSiteAssociation
            do {
                aasa = try AppSiteAssociation(json: bytes, domain: row[1])
                accepted += 1
            } catch {
                if error.message.isEmpty || error.keyPath.isEmpty {
                    fuzz.findings.record("error without message or key path", input: text)
                }
                continue
            }
            for _ in 0..<3 {
                let url =
                    fuzz.rng.oneIn(3)
                    ? row[2] : urlMutator.mutate(row[2], other: fuzz.rng.pick(Self.urls), rng: &fuzz.rng, maxSteps: 2)
                if Self.check(aasa, url: url, domain: row[1], document: text, &fuzz.findings) { matched += 1 }
            }
        }
        #expect(fuzz.findings.isEmpty, "\(fuzz.findings)")
        #expect(accepted > 100 && matched > 25, "accepted \(accepted), matched \(matched): too few to exercise matching")
    }

    @Test(arguments: [UInt64(11), 12, 13])
    func generatedDocumentsAreReadOrRejectedAndMatchingKeepsItsInvariants(seed: UInt64) {
        var fuzz = FuzzRun(seed: seed)
        let urlMutator = FuzzMutator(dictionary: Self.urlDictionary)
        var accepted = 0, matched = 0
        for _ in 0..<250 {
            let text = Self.generateDocument(&fuzz.rng)
            let aasa: AppSiteAssociation
            do {
                aasa = try AppSiteAssociation(json: text, domain: Self.domain)
                accepted += 1
            } catch {
                if error.message.isEmpty || error.keyPath.isEmpty {
                    fuzz.findings.record("error without message or key path", input: text)
                }
                continue
            }
            for _ in 0..<4 {
                let url =
                    fuzz.rng.oneIn(2)
                    ? Self.generateURL(&fuzz.rng)
                    : urlMutator.mutate(fuzz.rng.pick(Self.urls), other: Self.generateURL(&fuzz.rng), rng: &fuzz.rng)
                if Self.check(aasa, url: url, domain: Self.domain, document: text, &fuzz.findings) { matched += 1 }
            }
        }
        #expect(fuzz.findings.isEmpty, "\(fuzz.findings)")
        #expect(accepted > 40 && matched > 30, "accepted \(accepted), matched \(matched): too few to exercise matching")
    }

    // MARK: properties

    /// Checks the matching properties for `url`; true when some app matched it.
    @discardableResult
    static func check(_ aasa: AppSiteAssociation, url: String, domain: String, document: String, _ findings: inout FuzzFindings)
        -> Bool
    {
        let verdicts = aasa.verdicts(for: url)
        let first = aasa.app(for: url)
        let expectedFirst = aasa.appIDs.first { aasa.verdict(appID: $0, url: url) == .match }
        if first != expectedFirst { findings.record("app(for:) is not the first matching app", input: url, detail: document) }
        if let first, verdicts[first] != .match {
            findings.record("verdicts(for:) disagrees with app(for:)", input: url, detail: document)
        }
        guard let app = first else { return false }
        // A match is only ever for an https URL of the document's own host.
        let lower = url.lowercased()
        if !lower.hasPrefix("https://") || url.contains("\\") {
            findings.record("a non-https or backslash URL matched", input: url, detail: document)
        }
        // Moving the real host into the userinfo, a subdomain, the port or the path never keeps the match.
        guard let rest = Self.afterHost(url, domain: domain) else { return true }
        for variant in [
            "https://\(domain)@evil.example\(rest)", "https://\(domain).evil.example\(rest)",
            "https://evil.example\\@\(domain)\(rest)", "https://evil.example\\.\(domain)\(rest)",
            "https://evil.example#@\(domain)\(rest)", "http://\(domain)\(rest)", "https://\(domain):8443\(rest)",
            "https://evil\(domain)\(rest)", "https://\(domain)%2F@evil.example\(rest)",
        ] where aasa.verdict(appID: app, url: variant) == .match {
            findings.record("a URL for another host matched", input: variant, detail: document)
        }
        return true
    }

    /// Everything after `https://example.com` (path, query, fragment) when the URL is exactly on the domain.
    static func afterHost(_ url: String, domain: String) -> String? {
        let prefix = "https://\(domain)"
        guard url.lowercased().hasPrefix(prefix) else { return nil }
        let rest = url.dropFirst(prefix.count)
        guard rest.isEmpty || rest.hasPrefix("/") || rest.hasPrefix("?") || rest.hasPrefix("#") else { return nil }
        return String(rest)
    }

    // MARK: generators

    static func generateURL(_ rng: inout FuzzRNG) -> String {
        var url = rng.pick([
            "https://example.com", "https://EXAMPLE.com.", "https://example.com:443", "http://example.com",
            "https://user@example.com", "https://example.com@evil.example", "https://evil.example",
        ])
        for _ in 0..<rng.below(4) { url += "/" + rng.pick(["buy", "help", "en", "GB", "%2F", "a%20b", "é", "", "*", "?", "x"]) }
        if rng.oneIn(2) { url += "?" + rng.pick(["a=1", "articleNumber=1234", "a=1&a=2", "=", "&&", "%", "q=%E2%82"]) }
        if rng.oneIn(3) { url += "#" + rng.pick(["", "no_universal_links", "x", "%23"]) }
        return url
    }

    static func generateDocument(_ rng: inout FuzzRNG) -> String {
        func str(_ rng: inout FuzzRNG) -> String {
            let s = rng.pick([
                "/", "/buy/*", "*", "?", "?*", "/help/*/x", "$(lang)", "/$(lang)_$(region)/*", "$(alnum)*",
                "$(v)", "$(missing)", "$(", "$()", "NOT /x", "", "é", "%2F", "/a?b", "\\\\", "\\u0000",
            ])
            return "\"\(s)\""
        }
        func bad(_ rng: inout FuzzRNG) -> String { rng.pick(["null", "1", "true", "[]", "{}", "\"s\"", "[1]"]) }
        func component(_ rng: inout FuzzRNG) -> String {
            var keys: [String] = []
            if !rng.oneIn(4) { keys.append("\"/\": \(rng.oneIn(10) ? bad(&rng) : str(&rng))") }
            if rng.oneIn(3) {
                let q =
                    rng.oneIn(2) ? str(&rng) : "{\"a\": \(str(&rng)), \"articleNumber\": \(rng.oneIn(5) ? bad(&rng) : str(&rng))}"
                keys.append("\"?\": \(rng.oneIn(10) ? bad(&rng) : q)")
            }
            if rng.oneIn(3) { keys.append("\"#\": \(rng.oneIn(10) ? bad(&rng) : str(&rng))") }
            if rng.oneIn(3) { keys.append("\"exclude\": \(rng.oneIn(10) ? bad(&rng) : rng.pick(["true", "false"]))") }
            if rng.oneIn(4) { keys.append("\"caseSensitive\": \(rng.pick(["true", "false"]))") }
            if rng.oneIn(4) { keys.append("\"percentEncoded\": \(rng.pick(["true", "false"]))") }
            return "{" + keys.joined(separator: ", ") + "}"
        }
        var details: [String] = []
        for _ in 0..<(1 + rng.below(3)) {
            let ids =
                rng.oneIn(8) ? bad(&rng) : "[\"T.app\(rng.below(3))\"" + (rng.oneIn(2) ? ", \"T.app\(rng.below(3))\"]" : "]")
            if rng.oneIn(3) {
                let paths = (0..<rng.below(4)).map { _ in str(&rng) }.joined(separator: ", ")
                details.append("{\"appID\": \"T.app\(rng.below(3))\", \"paths\": [\(paths)]}")
            } else {
                let components = (0..<rng.below(5)).map { _ in rng.oneIn(15) ? bad(&rng) : component(&rng) }.joined(
                    separator: ", ")
                details.append(
                    "{\"appIDs\": \(ids), \"components\": [\(components)]\(rng.oneIn(4) ? ", \"defaults\": \(component(&rng))" : "")}"
                )
            }
        }
        var applinks = "\"details\": [\(details.joined(separator: ", "))]"
        if rng.oneIn(3) { applinks += ", \"substitutionVariables\": {\"v\": [\(str(&rng)), \(str(&rng))]}" }
        if rng.oneIn(4) { applinks += ", \"defaults\": \(component(&rng))" }
        return rng.oneIn(20) ? bad(&rng) : "{\"applinks\": {\(applinks)}}"
    }
}

// MARK: - App switch (Swish, BankID, ROAMpay X)
