// Inputs the fuzzers (the *FuzzTests.swift suites, Benchmarks/fuzz) found, kept as plain regression cases.
@testable import AppSwitch
@testable import PlainviewURL
import Foundation
import Testing
@testable import NavigationPolicy

@Suite("Fuzz regressions: Android intents")
struct IntentFuzzRegressionTests {
    /// `launchFlags` with the top bit set: Android's `toUri` writes `0x80000001`, which `Integer.decode`
    /// (and so `parseUri`, and this parser) rejects. Written `-0x7fffffff`, it parses back.
    @Test(arguments: [
        "intent:#Intent;launchFlags=-0x7fffffff;end", "intent:#Intent;launchFlags=-1;end",
        "intent://h/#Intent;scheme=https;launchFlags=-2147483648;end",
    ])
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
    @Test(arguments: [
        "androm/blah#Intent;component=.exfoo:/.Bap;end", "intent:#Intent;component=a:b/.C;end",
        "intent:#Intent;component=a/b:c;end", "intent:#Intent;component=p.q/p.q.R;end",
    ])
    func componentsRoundTrip(_ uri: String) throws {
        let intent = try AndroidIntent.parse(uri)
        let written = intent.toURI()
        #expect(try AndroidIntent.parse(written) == intent, "toURI = \(written), component \(intent.component ?? "nil")")
    }

    /// Found by a 10-minute `Benchmarks/fuzz/run.sh 600 intent` run (kept in Benchmarks/fuzz/seeds/intent).
    @Test func dataWithNULsAndAHashRoundTrips() throws {
        let uri =
            "intent:\u{05B6}ntent;S.browaction=l=000;l.\u{0}#InteNt;2.0\u{0}\u{0}=+005j%25=\u{0}a\u{1}\u{0}\u{0}\u{0}\u{0}\u{0}\u{0}t=10.;end"
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
        let uri =
            "intent://" + String(repeating: "a", count: 1_000_000) + "#Intent;scheme=https;"
            + String(repeating: "S.k=v;", count: 100_000) + "end"
        let intent = try AndroidIntent.parse(uri)
        #expect(intent.extras["k"] == .string("v"))
        #expect(intent.data?.utf8.count == 1_000_008)
    }
}
