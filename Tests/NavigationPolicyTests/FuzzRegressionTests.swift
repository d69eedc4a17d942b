// Inputs the fuzzers (FuzzTests.swift, Benchmarks/fuzz) found, kept as plain regression cases.
@testable import AppSwitch
@testable import PlainviewURL
import Foundation
import Testing
@testable import NavigationPolicy

@Suite("Fuzz regressions: Android intents")
struct IntentFuzzRegressionTests {
    /// `launchFlags` with the top bit set: Android's `toUri` writes `0x80000001`, which `Integer.decode`
    /// (and so `parseUri`, and this parser) rejects. Written `-0x7fffffff`, it parses back.
    @Test(arguments: ["intent:#Intent;launchFlags=-0x7fffffff;end", "intent:#Intent;launchFlags=-1;end",
                      "intent://h/#Intent;scheme=https;launchFlags=-2147483648;end"])
    func negativeLaunchFlagsRoundTrip(_ uri: String) throws {
        let intent = try AndroidIntent.parse(uri)
        #expect(intent.flags > Int(Int32.max))
        let written = intent.toURI()
        #expect(written.contains("launchFlags=-0x"))
        #expect(try AndroidIntent.parse(written) == intent)
    }

    /// A VIEW intent without data used to come out as `intent:`, which parses back with data `intent:`;
    /// data holding `#Intent;` used to be re-read as the intent part and fail.
    @Test(arguments: [
        "", "android-app:javascript:/", "intent:#Intent;end",
        "intent:#Intent;scheme=mailto;package=com.myapp;l.long=1000https://mozilla.org#Intent;end;",
        "inte#Intent;schntle.org/db?123#Intent;scheme=z39.50r;end",
        "intent:a#Intent;b#Intent;end",
    ])
    func intentsWithNothingButDataRoundTrip(_ uri: String) throws {
        let intent = try AndroidIntent.parse(uri)
        let written = intent.toURI()
        #expect(try AndroidIntent.parse(written) == intent, "toURI = \(written)")
    }

    /// Found by `Benchmarks/fuzz/run.sh 60 intent` (kept in Benchmarks/fuzz/seeds/intent): a component
    /// whose package holds `:` did not come back from `toURI()` as it went in.
    @Test(arguments: ["androm/blah#Intent;component=.exfoo:/.Bap;end", "intent:#Intent;component=a:b/.C;end",
                      "intent:#Intent;component=a/b:c;end", "intent:#Intent;component=p.q/p.q.R;end"])
    func componentsRoundTrip(_ uri: String) throws {
        let intent = try AndroidIntent.parse(uri)
        let written = intent.toURI()
        #expect(try AndroidIntent.parse(written) == intent, "toURI = \(written), component \(intent.component ?? "nil")")
    }

    /// Found by a 10-minute `Benchmarks/fuzz/run.sh 600 intent` run (kept in Benchmarks/fuzz/seeds/intent).
    @Test func dataWithNULsAndAHashRoundTrips() throws {
        let uri = "intent:\u{05B6}ntent;S.browaction=l=000;l.\u{0}#InteNt;2.0\u{0}\u{0}=+005j%25=\u{0}a\u{1}\u{0}\u{0}\u{0}\u{0}\u{0}\u{0}t=10.;end"
        let intent = try AndroidIntent.parse(uri)
        let written = intent.toURI()
        let back = try AndroidIntent.parse(written)
        #expect(back == intent, "toURI = \(written.debugDescription)\nwas  \(intent)\nback \(back)")
    }

    @Test func aBareViewIntentIsWrittenWithAnEmptyIntentPart() {
        var intent = AndroidIntent()
        intent.action = AndroidIntent.actionView
        #expect(intent.toURI() == "intent:#Intent;end")
    }

    /// `SEL;scheme=;` gives the selector data `:`; Android writes its (empty) scheme back as `scheme=;`.
    @Test func anEmptySelectorSchemeIsWrittenBack() throws {
        let intent = try AndroidIntent.parse("x:#Intent;SEL;scheme=;end")
        #expect(intent.selector?.intent.data == ":")
        #expect(intent.toURI() == "intent:#Intent;scheme=x;SEL;scheme=;end")
        #expect(try AndroidIntent.parse(intent.toURI()) == intent)
    }

    /// Found by libFuzzer: a selector `scheme=` value holding `:` gives selector data `a:b:`; `toUri` writes
    /// only its scheme (`Uri.getScheme()`, the text before the first `:`), as Android does. Not a round trip,
    /// by design; the outer intent still round-trips.
    @Test func aSelectorSchemeWithAColonKeepsOnlyItsScheme() throws {
        let intent = try AndroidIntent.parse("intent://example.com#Intent;scheme=http;SEL;scheme=a:b;end")
        #expect(intent.selector?.intent.data == "a:b:")
        #expect(intent.toURI() == "intent://example.com#Intent;scheme=http;SEL;scheme=a;end")
        let back = try AndroidIntent.parse(intent.toURI())
        #expect(back.selector?.intent.data == "a:")
        #expect(back.data == intent.data)
    }

    /// A megabyte-long URI with 100,000 items is read (linear, no recursion).
    @Test func aVeryLongURIIsRead() throws {
        let uri = "intent://" + String(repeating: "a", count: 1_000_000) + "#Intent;scheme=https;"
            + String(repeating: "S.k=v;", count: 100_000) + "end"
        let intent = try AndroidIntent.parse(uri)
        #expect(intent.extras["k"] == .string("v"))
        #expect(intent.data?.utf8.count == 1_000_008)
    }
}

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
        let json = #"{"applinks": {"details": "# + String(repeating: "[", count: depth) + String(repeating: "]", count: depth) + "}}"
        do {
            _ = try AppSiteAssociation(json: json, domain: "example.com")
            Issue.record("nesting \(depth) deep was accepted")
        } catch {
            #expect(error.message.contains("line 1, column 536: nested more than 512 levels deep"), "\(error)")
        }
    }
}

@Suite("Fuzz regressions: app switch")
struct AppSwitchFuzzRegressionTests {
    /// Nesting deeper than the platform decoder allows is an error, not a stack overflow.
    @Test(arguments: [1000, 100_000])
    func deeplyNestedTransactionResponseIsAnError(depth: Int) {
        let json = #"{"transactions": [{"emvData": "# + String(repeating: "[", count: depth) + String(repeating: "]", count: depth) + "}]}"
        let error = appSwitchError { try ROAMpayResponse.decode(json: Data(json.utf8)) }
        #expect(error?.field == "transactionResponse")
        #expect(error?.description.contains("nested more than 512 levels deep") == true, "\(String(describing: error))")
    }

    /// 512 levels is what the platform decoder reads: the syntax checker agrees with it at the limit.
    @Test func nestingUpToTheDecodersLimitIsRead() throws {
        let inner = 512 - 3  // {, [ and { around emvData
        let json = #"{"transactions": [{"emvData": "# + String(repeating: "[", count: inner) + String(repeating: "]", count: inner) + "}]}"
        #expect(JSONSyntax.firstError(in: Array(json.utf8)) == nil)
        #expect(try ROAMpayResponse.decode(json: Data(json.utf8)).transactions.count == 1)
        let deeper = #"{"transactions": [{"emvData": "# + String(repeating: "[", count: inner + 1) + String(repeating: "]", count: inner + 1) + "}]}"
        #expect(JSONSyntax.firstError(in: Array(deeper.utf8)) != nil)
        #expect(throws: AppSwitchError.self) { try ROAMpayResponse.decode(json: Data(deeper.utf8)) }
    }
}

@Suite("Fuzz regressions: URL parsing")
struct URLFuzzRegressionTests {
    /// WHATWG "file slash state": two slashes introduce the (here empty) host; the third starts the path.
    /// The parser took every slash, so `file:///st/path` got the host `st`, and the href of `file:/st/path`
    /// (`file:///st/path`) parsed back to a different URL; `file:///http:/` did not parse at all.
    @Test(arguments: [
        ("file:///st/path", "file:///st/path"), ("file:/st/path", "file:///st/path"), ("file:non-\\b", "file:///non-/b"),
        ("file:http:/", "file:///http:/"), ("file:////x", "file:////x"), ("file://host/p", "file://host/p"),
        ("file://localhost/p", "file:///p"),
    ])
    func fileURLsKeepAnEmptyHostBeforeAThirdSlash(input: String, href: String) throws {
        let url = try #require(WebURL(input))
        #expect(url.href == href)
        #expect(WebURL(url.href)?.href == href)
    }
}
