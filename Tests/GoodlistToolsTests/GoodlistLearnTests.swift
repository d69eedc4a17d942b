import Foundation
import Testing
import NavigationPolicy
import PlainviewConfig
import GoodlistTools

/// A trace in the simulator's JSON Lines shape (FlowSimulator `TraceEvent.jsonLine`): two flows leave the web
/// view at acs.newbank.example (one of them through the payment page), one gets stuck after leaving at
/// idp.otherbank.example, one stays inside (goodlisted), and one uses the minimal `decision` shape.
let learnTrace = """
    {"flow":"card-3ds","branch":"default","step":1,"time":0,"event":"start","context":"webview","url":"https://shop.example.com/pay"}
    {"flow":"card-3ds","branch":"default","step":5,"time":10,"event":"navigate","context":"webview","url":"https://acs.newbank.example/creq","frame":"main","trigger":"form","gesture":false,"method":"POST"}
    {"flow":"card-3ds","branch":"default","step":6,"time":10,"event":"decide","context":"webview","url":"https://acs.newbank.example/creq","action":"open-browser","target":"https://ecom.payex.com/checkout","rule":"web.picky-page","reason":"acs.newbank.example is not on the goodlist"}
    {"flow":"card-3ds","branch":"default","step":9,"time":20,"event":"outcome","context":"browser","action":"complete","reason":"done"}

    {"flow":"card-3ds","branch":"timeout","step":6,"time":10,"event":"decide","context":"webview","url":"https://ACS.NewBank.example./creq","action":"open-browser","target":"https://acs.newbank.example/creq","rule":"web.picky-page-from-payment","reason":"…"}
    {"flow":"bankid","branch":"default","step":4,"time":10,"event":"decide","context":"webview","url":"https://idp.otherbank.example/login","action":"open-browser","target":"https://x","rule":"web.picky-page","reason":"…"}
    {"flow":"bankid","branch":"default","step":8,"time":30,"event":"outcome","context":"browser","action":"stuck","reason":"no page is shown"}
    {"flow":"ok","branch":"default","step":3,"time":5,"event":"decide","context":"webview","url":"https://acs4.sparebank1.no/acs","action":"allow","rule":"web.goodlist","reason":"on the goodlist"}
    {"event":"decision","flow":"minimal","step":2,"url":"https://acs.newbank.example/x","rule":"web.picky-page"}
    {"flow":"stuck-inside","branch":"default","step":2,"time":5,"event":"decide","context":"webview","url":"https://slow.bank.example/","action":"allow","rule":"web.redirect-webview","reason":"…"}
    {"flow":"stuck-inside","branch":"default","step":3,"time":5,"event":"outcome","context":"webview","action":"stuck","reason":"no page is shown"}
    {"flow":"goodlisted-picky","branch":"default","step":3,"time":5,"event":"decide","context":"webview","url":"https://x.payex.com/","action":"open-browser","rule":"web.picky-page","reason":"…"}
    {"flow":"declined","branch":"default","step":2,"time":5,"event":"decide","context":"webview","url":"https://first.bank.example/","action":"allow","rule":"web.redirect-webview","reason":"…"}
    {"flow":"declined","branch":"default","step":4,"time":6,"event":"decide","context":"webview","url":"https://idp.otherbank.example/app","action":"open-browser","target":"https://x","rule":"web.picky-page","reason":"…"}
    {"flow":"declined","branch":"default","step":7,"time":9,"event":"outcome","context":"os","action":"stuck","reason":"the user declined the prompt to open BankID"}

    """

@Suite struct GoodlistLearnTests {
    @Test func collectsHostsWhoseRuleMadeARunStuckWithCountsAndEvidence() throws {
        var learner = GoodlistLearner()
        try learner.read(Array(learnTrace.utf8), file: "t.jsonl")
        let known = Goodlist(patterns: ["**.payex.com", "acs4.sparebank1.no"])
        let c = learner.candidates(excluding: known)
        // acs.newbank.example: card-3ds completes through the browser after leaving there, so it works as it is.
        // slow.bank.example got stuck inside the web view, and the declined prompt is no goodlist matter: neither is
        // evidence. idp.otherbank.example: the bankid run left there and got stuck in the browser.
        #expect(c.map(\.host) == ["idp.otherbank.example"])
        #expect(c.map(\.leftCount) == [1])
        #expect(c.map(\.stuckCount) == [1])
        #expect(learner.keptOut.map(\.host) == ["acs.newbank.example"])
        #expect(
            learner.keptOut.first?.why
                == "card-3ds ends complete through the browser after leaving the web view there (t.jsonl:4)")
        #expect(
            learner.skipped == [
                "t.jsonl:12: stuck-inside got stuck without leaving the web view by the picky-page rule",
                "t.jsonl:16: declined got stuck in os, not in the browser the picky-page rule opened at idp.otherbank.example",
            ])
        #expect(c[0].evidence.map(\.summary) == ["bankid step 4 (t.jsonl:7)", "bankid step 8 (t.jsonl:8)"])
        #expect(c[0].evidence.map(\.kind) == [.left, .stuck])
        #expect(c[0].evidence[1].detail == "no page is shown")
        #expect(learner.alreadyAllowed(by: known) == ["x.payex.com"])
    }

    /// The report behind this rule: explored branches of a BankID flow got stuck at a bank's host because BankID
    /// was missing or its universal link failed, and a learned entry turned the working flow into the cookie
    /// failure. Such branches are no evidence, and a host an app switch follows from is kept out.
    @Test func strandedBranchesAndAppSwitchesAreNoEvidence() throws {
        let trace = """
            {"flow":"bankid","branch":"default","step":4,"event":"decide","url":"https://idp.bank.example/login","rule":"web.picky-page"}
            {"flow":"bankid","branch":"default","step":6,"event":"launch","context":"os","url":"bankid:///?autostarttoken=x","app":"BankID"}
            {"flow":"bankid","branch":"default","step":9,"event":"outcome","context":"app ShopApp","action":"complete"}
            {"flow":"bankid","branch":"installed:BankID=no","step":4,"event":"decide","url":"https://idp.bank.example/login","rule":"web.picky-page"}
            {"flow":"bankid","branch":"installed:BankID=no","step":7,"event":"outcome","context":"browser","action":"stuck","reason":"BankID is not installed"}
            {"flow":"card","branch":"default","step":4,"event":"decide","url":"https://acs.other.example/c","rule":"web.picky-page"}
            {"flow":"card","branch":"default","step":6,"event":"outcome","context":"browser","action":"stuck","reason":"the browser shows …"}
            {"flow":"card","branch":"universal-link:fails","step":4,"event":"decide","url":"https://acs.other.example/c","rule":"web.picky-page"}
            {"flow":"card","branch":"universal-link:fails","step":6,"event":"outcome","context":"browser","action":"stuck","reason":"…"}
            """
        var learner = GoodlistLearner()
        try learner.read(Array(trace.utf8), file: "b.jsonl")
        #expect(learner.candidates().map(\.host) == ["acs.other.example"])
        #expect(learner.candidates().first?.evidence.map(\.summary) == ["card step 4 (b.jsonl:6)", "card step 6 (b.jsonl:7)"])
        #expect(learner.keptOut.map(\.host) == ["idp.bank.example"])
        #expect(learner.keptOut.first?.why.contains("switches to an app from the browser") == true)
        #expect(learner.skipped.contains { $0.hasPrefix("b.jsonl:5: bankid got stuck on branch installed:BankID=no") })
        #expect(learner.skipped.contains { $0.hasPrefix("b.jsonl:9: card got stuck on branch universal-link:fails") })
    }

    @Test func candidateLinesParseAndNeedAPersonToPassLint() throws {
        var learner = GoodlistLearner()
        try learner.read(Array(learnTrace.utf8), file: "t.jsonl")
        let first = try #require(learner.candidates().first)
        let lines = first.goodlistLines(today: GoodlistDate("2026-11-22")!, sources: ["t.jsonl"])
        #expect(lines[0] == "# idp.otherbank.example: left the web view 1 time (picky-page rule); flow stuck 1 time")
        let src = try GoodlistSource.parse(text: lines.joined(separator: "\n"), file: "cand")
        let entry = try #require(src.entries.first?.entry)
        #expect(entry.problems.isEmpty)
        #expect(entry.provenance["added"] == "2026-11-22")
        #expect(entry.provenance["source"] == "plainview goodlist learn t.jsonl")
        let problems = GoodlistLinter(suffixes: miniSuffixes, today: GoodlistDate("2026-11-22")!).lint([src])
        #expect(problems.map(\.code) == [.missingProvenance])
        #expect(problems.first?.message.contains("issuer or vendor") == true)
    }

    @Test func notJSONIsAnErrorWithItsLine() {
        var learner = GoodlistLearner()
        do {
            try learner.read(Array("{\"event\":\"start\"}\n  0.0s webview navigate GET https://x\n".utf8), file: "t.txt")
            Issue.record("accepted text")
        } catch {
            #expect(error.file == "t.txt")
            #expect(error.line == 2)
            #expect(error.message.contains("JSON Lines"))
        }
    }

    @Test func eventsWithoutUsableURLsAreSkippedNotFatal() throws {
        var learner = GoodlistLearner()
        try learner.read(
            Array(
                """
                {"event":"decide","flow":"f","rule":"web.picky-page"}
                {"event":"decide","flow":"f","url":"javascript:alert(1)","rule":"web.picky-page"}
                {"event":"outcome","flow":"g","action":"stuck"}
                """.utf8), file: "t")
        #expect(learner.candidates().isEmpty)
        #expect(
            learner.skipped == [
                "t:1: a decide event without a url",
                "t:2: javascript:alert(1) has no http(s) host a goodlist entry could name",
                "t:3: g got stuck without leaving the web view by the picky-page rule",
            ])
    }
}
