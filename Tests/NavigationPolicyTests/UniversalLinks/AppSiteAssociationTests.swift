@testable import AppSwitch
import Foundation
import Testing
import TestSupport
@testable import NavigationPolicy

/// One AASA conformance row, normalised across the four upstream files.
struct AASAConformanceCase: Sendable, CustomTestStringConvertible {
    var file: String
    var id: Int
    var name: String
    /// The document as JSON text (`{[]}` for the invalid-JSON row).
    var document: String
    var domain: String?
    var url: String
    /// appID → expected verdict; `nil` means "parsing must fail".
    var expected: [String: AASAVerdict]?
    /// Apps to ask (the expected ones plus the document's own).
    var status: String

    var testDescription: String { "\(file)#\(id) \(name)" }

    /// The cases of a vector file that must be there and decode (a missing file stops the run with its path).
    static func required(_ file: String) -> [AASAConformanceCase] {
        do { return try load(file) } catch { fatalError("Tests/Vectors/conformance/\(file): \(error)") }
    }

    static func load(_ file: String) throws -> [AASAConformanceCase] {
        let root = try JSONSerialization.jsonObject(with: Project.requiredConformance(file)) as? [String: Any]
        let cases = root?["cases"] as? [[String: Any]] ?? []
        return try cases.map { try AASAConformanceCase(file: file, row: $0) }
    }

    init(file: String, row: [String: Any]) throws {
        self.file = file
        id = row["id"] as? Int ?? -1
        name = (row["name"] as? String) ?? (row["test"] as? String) ?? "?"
        status = row["status"] as? String ?? "oracle"
        url = row["url"] as? String ?? ""
        domain = (row["domain"] as? String) ?? "www.example.com"
        var aasa: Any
        if let doc = row["aasa"] {
            aasa = doc
        } else {
            // SwiftAASAValidator rows: one component (+ detail defaults) for a made-up app.
            var detail: [String: Any] = ["appIDs": ["TEAM.validator.app"], "components": [row["component"] ?? [:]]]
            if let defaults = row["detail_defaults"] { detail["defaults"] = defaults }
            aasa = ["applinks": ["details": [detail]]]
        }
        if let raw = aasa as? String {
            document = raw
        } else {
            document = String(decoding: try JSONSerialization.data(withJSONObject: aasa, options: [.sortedKeys]), as: UTF8.self)
        }
        func verdict(_ s: String) -> AASAVerdict {
            switch s {
            case "match": .match
            case "exclude", "block": .exclude
            default: .noMatch
            }
        }
        if let expect = row["expect"] as? String, let app = row["appId"] as? String {
            expected = [app: verdict(expect)]
        } else if let expect = row["expected"] as? String, row["component"] != nil {
            expected = ["TEAM.validator.app": verdict(expect)]
        } else if let map = row["expected"] as? [String: String] {
            expected = map.mapValues(verdict)
        } else {
            expected = nil // "error"
        }
    }
}

@Suite("AASA conformance")
struct AASAConformanceTests {
    /// Rows the conformance README says to skip (not Apple behaviour): name → reason.
    static let skipped: [String: String] = [
        "host/empty-domain-skips-the-check":
            "blazingly-aasa API convention (empty domain = no host check), not swcutil behaviour; conformance README says skip"
    ]

    static let blazingly = AASAConformanceCase.required("aasa_blazingly_conformance.json")
    static let gapProbes = AASAConformanceCase.required("aasa_blazingly_swcutil_gap_probes.json")
    static let stTech = AASAConformanceCase.required("aasa_st_tech_universal_links_test.json")
    static let validator = AASAConformanceCase.required("aasa_swift_aasa_validator.json")

    @Test func allFilesLoaded() {
        #expect(Self.blazingly.count == 140)
        #expect(Self.gapProbes.count == 16)
        #expect(Self.stTech.count == 16)
        #expect(Self.validator.count == 9)
    }

    @Test("blazingly-aasa (swcutil oracle)", arguments: blazingly)
    func blazinglyRow(_ row: AASAConformanceCase) throws { try check(row) }

    @Test("blazingly-aasa swcutil gap probes", arguments: gapProbes)
    func gapProbeRow(_ row: AASAConformanceCase) throws { try check(row) }

    @Test("st-tech universal-links-test", arguments: stTech)
    func stTechRow(_ row: AASAConformanceCase) throws { try check(row) }

    @Test("SwiftAASAValidator component matching", arguments: validator)
    func validatorRow(_ row: AASAConformanceCase) throws { try check(row) }

    func check(_ row: AASAConformanceCase) throws {
        if Self.skipped[row.name] != nil {
            // Recorded deviation: the row stays, but our API requires a domain or nil (= caller checked).
            #expect(row.status == "decided")
            return
        }
        #expect(row.status == "oracle", "a 'decided' row not in the skip list: \(row.name)")
        guard let expected = row.expected else {
            #expect(throws: AppSiteAssociationError.self) {
                _ = try AppSiteAssociation(json: row.document, domain: row.domain)
            }
            return
        }
        let aasa = try AppSiteAssociation(json: row.document, domain: row.domain)
        for (app, verdict) in expected {
            #expect(aasa.verdict(appID: app, url: row.url) == verdict, "\(app) \(row.url)")
        }
        // st-tech maps list every app with a verdict; any app not listed must get no verdict.
        if row.file.contains("st_tech") {
            #expect(aasa.verdicts(for: row.url) == expected.filter { $0.value != .noMatch })
        }
    }
}

@Suite("AASA matching and errors")
struct AppSiteAssociationTests {
    static let doc = """
        {"applinks": {"details": [
          {"appIDs": ["T.a"], "components": [{"/": "/pay/*", "exclude": true}, {"/": "/*"}]},
          {"appIDs": ["T.b"], "components": [{"/": "/pay/*"}]}
        ]}}
        """

    @Test func firstMatchingAppIsReported() throws {
        let aasa = try AppSiteAssociation(json: Self.doc, domain: "app.example.com")
        #expect(aasa.app(for: "https://app.example.com/x") == "T.a")
        // T.a excludes /pay, so T.b gets it.
        #expect(aasa.app(for: "https://app.example.com/pay/1") == "T.b")
        #expect(aasa.app(for: "https://other.example.com/x") == nil)
        #expect(aasa.appIDs == ["T.a", "T.b"])
    }

    @Test(arguments: [
        ("https://app.example.com/x", AASAVerdict.match),
        ("https://APP.example.com./x", .match),
        ("http://app.example.com/x", .noMatch), // universal links are https only
        ("https://app.example.com:8443/x", .noMatch), // non-default port
        ("https://app.example.com:443/x", .match),
        ("https://app.example.com@evil.test/x", .noMatch), // userinfo does not make the host
        ("https://evil.test@app.example.com/x", .match),
        ("https://app.example.com\\@evil.test/x", .noMatch), // backslash: fail closed
        ("https://evilapp.example.com/x", .noMatch),
        ("https://app.example.com.evil.test/x", .noMatch),
        ("app.example.com/x", .noMatch),
        ("https:///x", .noMatch),
        ("https://app.example.com/a b", .noMatch), // raw space: not a URL
    ])
    func hostAndSchemeChecks(url: String, expected: AASAVerdict) throws {
        let aasa = try AppSiteAssociation(json: Self.doc, domain: "app.example.com")
        #expect(aasa.verdict(appID: "T.a", url: url) == expected)
    }

    @Test(arguments: [
        ("/x", AASAVerdict.match), ("/internal", .exclude), ("/internal/a", .exclude), ("/internalx", .match),
    ])
    func legacyConvenience(path: String, expected: AASAVerdict) {
        let aasa = AppSiteAssociation(appID: "BankID", paths: ["NOT /internal/*", "/*"], domain: "app.bankid.com")
        #expect(aasa.verdict(appID: "BankID", url: "https://app.bankid.com" + path) == expected)
        #expect(aasa.verdict(appID: "Other", url: "https://app.bankid.com" + path) == .noMatch)
    }

    @Test func legacyPathsIgnoreQueryAndFragment() {
        let aasa = AppSiteAssociation(appID: "A", paths: ["/buy/?"], domain: nil)
        #expect(aasa.verdict(appID: "A", url: "https://x.test/buy/1?q=2#f") == .match)
        #expect(aasa.verdict(appID: "A", url: "https://x.test/buy/12") == .noMatch)
    }

    @Test(arguments: [
        ("{[]}", "$"),
        ("[]", "$"),
        ("{\"applinks\": []}", "applinks"),
        ("{\"applinks\": {\"details\": 3}}", "applinks.details"),
        ("{\"applinks\": {\"details\": [{\"appIDs\": \"T.a\", \"components\": []}]}}", "applinks.details[0].appIDs"),
        ("{\"applinks\": {\"details\": [{\"appIDs\": [1], \"components\": []}]}}", "applinks.details[0].appIDs[0]"),
        ("{\"applinks\": {\"details\": [{\"appIDs\": [\"T\"], \"components\": {}}]}}", "applinks.details[0].components"),
        (
            "{\"applinks\": {\"details\": [{\"appIDs\": [\"T\"], \"components\": [{\"/\": 5}]}]}}",
            "applinks.details[0].components[0][\"/\"]"
        ),
        (
            "{\"applinks\": {\"details\": [{\"appIDs\": [\"T\"], \"components\": [{\"?\": 5}]}]}}",
            "applinks.details[0].components[0][\"?\"]"
        ),
        (
            "{\"applinks\": {\"details\": [{\"appIDs\": [\"T\"], \"components\": [{\"exclude\": \"yes\"}]}]}}",
            "applinks.details[0].components[0].exclude"
        ),
        ("{\"applinks\": {\"details\": [{\"appIDs\": [\"T\"], \"components\": [\"/x\"]}]}}", "applinks.details[0].components[0]"),
        ("{\"applinks\": {\"details\": [{\"appID\": \"T\", \"paths\": \"/*\"}]}}", "applinks.details[0].paths"),
        ("{\"applinks\": {\"defaults\": {\"caseSensitive\": 1}, \"details\": []}}", "applinks.defaults.caseSensitive"),
        ("{\"applinks\": {\"substitutionVariables\": {\"v\": \"a\"}, \"details\": []}}", "applinks.substitutionVariables[\"v\"]"),
        ("", "$"),
    ])
    func badDocumentsNameTheKey(json: String, keyPath: String) {
        #expect {
            _ = try AppSiteAssociation(json: json, domain: "x.test")
        } throws: { error in
            guard let e = error as? AppSiteAssociationError else { return false }
            return e.keyPath == keyPath && e.description.contains("expected")
        }
    }

    @Test func deeplyNestedJSONIsAnErrorNotACrash() {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(throws: AppSiteAssociationError.self) { _ = try AppSiteAssociation(json: deep) }
    }

    @Test func hugeURLsAndPatternsAreDecided() throws {
        let aasa = try AppSiteAssociation(
            json: """
                {"applinks": {"details": [{"appIDs": ["T"], "components": [{"/": "/\(String(repeating: "*a", count: 200))*b"}]}]}}
                """)
        let long = "https://x.test/" + String(repeating: "a", count: 100_000)
        #expect(aasa.verdict(appID: "T", url: long) == .noMatch)
        #expect(aasa.verdict(appID: "T", url: long + "b") == .match)
    }

    @Test func unknownSubstitutionVariableMatchesNothing() throws {
        let aasa = try AppSiteAssociation(
            json: #"{"applinks": {"details": [{"appIDs": ["T"], "components": [{"/": "/$(nope)/*"}]}]}}"#)
        #expect(aasa.verdict(appID: "T", url: "https://x.test/a/b") == .noMatch)
        #expect(aasa.verdict(appID: "T", url: "https://x.test/$(nope)/b") == .noMatch)
    }

    @Test func bytesAndStringAgree() throws {
        let a = try AppSiteAssociation(json: Self.doc)
        let b = try AppSiteAssociation(json: Array(Self.doc.utf8))
        #expect(a == b)
    }

    /// The fast wildcard matcher (flat patterns) and the Pike VM (patterns with `$(…)` alternatives) agree.
    @Test func bothMatchersAgree() {
        let patterns = ["*", "?", "?*", "a*", "*a", "a*b", "*a*b*", "a?c", "??", "a**b", "*?*", "", "ab", "*ab*ab", "a?*?b"]
        let texts = ["", "a", "b", "ab", "ba", "abc", "aab", "abab", "aabb", "acb", "abcab", "xxab", "ababab"]
        for p in patterns {
            for cs in [true, false] {
                let flat = AASAPattern(p, caseSensitive: cs, variables: [:])
                let vm = AASAPattern("$(v)!", caseSensitive: cs, variables: ["v": [p]])
                #expect(flat.flat != nil && vm.flat == nil)
                for t in texts + texts.map({ $0.uppercased() }) {
                    #expect(flat.matches(t) == vm.matches(t + "!"), "pattern \(p) text \(t) caseSensitive \(cs)")
                }
            }
        }
    }
}
