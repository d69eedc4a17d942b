@testable import AppSwitch
@testable import PlainviewURL
import Foundation
import Testing
@testable import NavigationPolicy

@Suite("Fuzz regressions: apple-app-site-association")
struct AASAFuzzRegressionTests {
    static func document(variableValues: Int, uses: Int) -> String {
        let values = (0..<variableValues).map { "\"v\($0)\"" }.joined(separator: ",")
        let pattern = String(repeating: "$(v)", count: uses)
        return """
            {"applinks": {"substitutionVariables": {"v": [\(values)]},
              "details": [{"appIDs": ["T.app"], "components": [{"/": "/ok/*"}, {"/": "\(pattern)"}]}]}}
            """
    }

    /// A variable with many values used many times compiles to values × uses alternatives: 1,500 × 1,500
    /// (a 17 kB document) took 10 s and 700 MB. Such a document is refused, naming the pattern.
    @Test func aQuadraticSubstitutionBlowUpIsRefused() {
        do {
            _ = try AppSiteAssociation(json: Self.document(variableValues: 3000, uses: 3000), domain: "example.com")
            Issue.record("a document expanding to millions of pattern characters was accepted")
        } catch {
            #expect(error.keyPath == #"applinks.details[0].components[1]["/"]"#)
            #expect(error.message.contains("$(…) substitutions"))
        }
    }

    @Test func manyUsesOfLangAreRefusedToo() {
        let pattern = String(repeating: "$(lang)", count: 2000)
        let json = #"{"applinks": {"details": [{"appID": "T.app", "paths": ["\#(pattern)"]}]}}"#
        #expect(throws: AppSiteAssociationError.self) { try AppSiteAssociation(json: json, domain: "example.com") }
    }

    @Test func ordinarySubstitutionsStayWithinTheLimit() throws {
        let aasa = try AppSiteAssociation(json: Self.document(variableValues: 20, uses: 3), domain: "example.com")
        #expect(aasa.verdict(appID: "T.app", url: "https://example.com/v1v2v19") == .match)
        #expect(aasa.verdict(appID: "T.app", url: "https://example.com/v1v2v20") == .noMatch)
        let lang = #"{"applinks": {"details": [{"appIDs": ["T.app"], "components": [{"/": "/$(lang)_$(region)/*"}]}]}}"#
        let byLocale = try AppSiteAssociation(json: lang, domain: "example.com")
        #expect(byLocale.verdict(appID: "T.app", url: "https://example.com/en_GB/shop") == .match)
    }

    /// Nesting deeper than the platform decoder allows is an error, not a stack overflow.
    @Test(arguments: [1000, 100_000])
    func deepNestingIsAnError(depth: Int) {
        let json =
            #"{"applinks": {"details": "# + String(repeating: "[", count: depth) + String(repeating: "]", count: depth) + "}}"
        do {
            _ = try AppSiteAssociation(json: json, domain: "example.com")
            Issue.record("nesting \(depth) deep was accepted")
        } catch {
            #expect(error.message.contains("line 1, column 536: nested more than 512 levels deep"), "\(error)")
        }
    }
}
