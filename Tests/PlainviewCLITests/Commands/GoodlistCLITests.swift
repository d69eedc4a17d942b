import Foundation
import Testing
import TestSupport

@Suite struct GoodlistCLITests {
    static let p = "issuer=X added=2026-01-10 verified=2026-06-01 why=w source=s"

    func tempDir() throws -> URL { try Project.temporaryDirectory() }
    func write(_ text: String, _ name: String, in dir: URL) throws -> String {
        let url = dir.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url.path
    }

    // MARK: lint

    @Test func shippedListPassesLint() throws {
        let r = try CLI.run(["goodlist", "lint", "Goodlist", "--today", "2026-11-22"])
        #expect(r.status == 0, "\(r)")
        #expect(r.stdout.isEmpty, "\(r)")
        #expect(r.stderr.contains("0 errors, 0 warnings"), "\(r)")
    }

    /// Given no list, every goodlist command uses the list built into plainview, as decide and simulate do, in any
    /// folder; `plainview:3ds` names it wherever a list is expected.
    @Test func withoutAListEachCommandUsesTheBuiltInList() throws {
        let dir = try tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let lint = try CLI.run(["goodlist", "lint", "--today", "2026-11-22"], in: dir)
        #expect(lint.status == 0, "\(lint)")
        #expect(lint.stderr.contains("1 file, 12 entries: 0 errors, 0 warnings"), "\(lint)")
        let check = try CLI.run(["goodlist", "check", "https://ecom.payex.com/checkout", "https://evilpayex.com/"], in: dir)
        #expect(check.status == 1, "\(check)")
        #expect(
            check.stdoutLines == [
                "allowed: https://ecom.payex.com/checkout (host ecom.payex.com) by '**.payex.com' at Goodlist/3ds.goodlist:12",
                "not allowed: https://evilpayex.com/ (host evilpayex.com): no goodlist entry admits it",
            ], "\(check)")
        let named = try CLI.run(["goodlist", "check", "--goodlist", "plainview:3ds", "https://ecom.payex.com/checkout"], in: dir)
        #expect(named.status == 0, "\(named)")
        let mine = try write("acs.mybank.example \(Self.p)\n", "mine.goodlist", in: dir)
        let both = try CLI.run(
            [
                "goodlist", "check", "--goodlist", "plainview:3ds", "--goodlist", mine,
                "https://ecom.payex.com/", "https://acs.mybank.example/",
            ], in: dir)
        #expect(both.status == 0, "\(both)")
        let diff = try CLI.run(["goodlist", "diff", "plainview:3ds", mine], in: dir)
        #expect(diff.status == 0, "\(diff)")
        #expect(diff.stdoutLines.contains { $0.hasPrefix("+ widens  acs.mybank.example") }, "\(diff)")
        #expect(diff.stdoutLines.contains { $0.hasPrefix("- narrows **.payex.com (Goodlist/3ds.goodlist:12)") }, "\(diff)")
    }

    @Test func fixRefusesTheBuiltInList() throws {
        for args in [["goodlist", "lint", "--fix"], ["goodlist", "lint", "--fix", "plainview:3ds"]] {
            let r = try CLI.run(args)
            #expect(r.status == 64, "\(r)")
            #expect(r.stderr.contains("name the files to fix"), "\(r)")
        }
    }

    @Test func aMisspelledBuiltInNameIsAnInputError() throws {
        let r = try CLI.run(["goodlist", "check", "--goodlist", "plainview:3d", "https://a.example/"])
        #expect(r.status == 64, "\(r)")
        #expect(r.stderr.contains("plainview:3d"), "\(r)")
        #expect(r.stderr.contains("plainview:3ds for the built-in list"), "\(r)")
    }

    @Test func lintReportsEachProblemWithFileAndLineAndExitsOne() throws {
        let dir = try tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let f = try write(
            """
            # bad
            https://acs.bank.example/ \(Self.p)
            **.co.uk \(Self.p)
            ACS.Bank.example \(Self.p)
            **.payex.com \(Self.p)
            a.payex.com \(Self.p)
            a.payex.com \(Self.p)
            nothing.example
            old.example issuer=X added=2020-01-01 why=w source=s

            """, "bad.goodlist", in: dir)
        let r = try CLI.run(["goodlist", "lint", f, "--today", "2026-11-22"])
        #expect(r.status == 1, "\(r)")
        #expect(
            r.stdoutLines == [
                "\(f):2: error: invalid host pattern 'https://acs.bank.example/': it has a scheme ('https:'); write the host only: 'acs.bank.example' [invalid-pattern]",
                "\(f):3: error: '**.co.uk' is a wildcard over the public suffix 'co.uk': it admits every site registered under it; list the bank's own hosts instead [public-suffix]",
                "\(f):4: error: 'ACS.Bank.example' has upper-case letters; write 'acs.bank.example' (lint --fix does it) [not-canonical]",
                "\(f):6: error: 'a.payex.com' is shadowed by the broader '**.payex.com' at \(f):5, which already admits every host it admits; remove it or narrow the broader entry [shadowed]",
                "\(f):7: error: 'a.payex.com' duplicates 'a.payex.com' at \(f):6; remove one (keep the provenance you trust) [duplicate]",
                "\(f):8: error: 'nothing.example' has no provenance for: added=YYYY-MM-DD, why=…, source=…, issuer or vendor (write key=value after the pattern; see Goodlist/README.md) [missing-provenance]",
                "\(f):9: warning: 'old.example' never verified (added 2020-01-01), 2517 days ago (more than 365): check it still works in a web view and set verified=2026-11-22 [stale]",
            ], "\(r)")
        #expect(r.stderr.contains("6 errors, 1 warning"), "\(r)")
    }

    @Test func warningsAloneExitZeroAndMaxAgeIsConfigurable() throws {
        let dir = try tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let f = try write("a.example issuer=X added=2026-01-01 why=w source=s\n", "a.goodlist", in: dir)
        let strict = try CLI.run(["goodlist", "lint", f, "--today", "2026-11-22", "--max-age", "30"])
        #expect(strict.status == 0, "\(strict)")
        #expect(strict.stdout.contains("[stale]"))
        let lax = try CLI.run(["goodlist", "lint", f, "--today", "2026-11-22", "--max-age", "400"])
        #expect(lax.stdout.isEmpty, "\(lax)")
    }

    @Test func lintFixRewritesInPlaceAndReportsWhatIsLeft() throws {
        let dir = try tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let f = try write("**.PayEx.COM. \(Self.p)\r\n**.payex.com \(Self.p)\r\n*.com \(Self.p)\r\n", "l.goodlist", in: dir)
        let r = try CLI.run(["goodlist", "lint", "--fix", f, "--today", "2026-11-22"])
        #expect(r.status == 1, "\(r)") // *.com needs a person
        #expect(
            r.stdoutLines == [
                "\(f):1: fixed: wrote '**.payex.com' for '**.PayEx.COM.'",
                "\(f):2: fixed: removed '**.payex.com', a duplicate of line 1 with nothing of its own",
                "\(f):2: error: '*.com' is a wildcard over the public suffix 'com': it admits every site registered under it; list the bank's own hosts instead [public-suffix]",
            ], "\(r)")
        #expect(
            try String(contentsOf: URL(fileURLWithPath: f), encoding: .utf8) == "**.payex.com \(Self.p)\r\n*.com \(Self.p)\r\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["l.goodlist"])
        // A second run has nothing left to fix.
        let again = try CLI.run(["goodlist", "lint", "--fix", f, "--today", "2026-11-22"])
        #expect(!again.stdout.contains("fixed:"), "\(again)")
    }

    @Test func lintInputErrorsExit64WithThePath() throws {
        let dir = try tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let missing = dir.appendingPathComponent("missing.goodlist").path
        let r = try CLI.run(["goodlist", "lint", missing])
        #expect(r.status == 64, "\(r)")
        #expect(r.stderr.contains(missing), "\(r)")
        let bin = try write("a.example\n\u{0}\u{1}", "bin.goodlist", in: dir)
        let b = try CLI.run(["goodlist", "lint", bin])
        #expect(b.status == 64, "\(b)")
        #expect(b.stderr.contains("\(bin):2: binary data"), "\(b)")
        let psl = try CLI.run(["goodlist", "lint", "Goodlist", "--public-suffix-list", "/nonexistent.dat"])
        #expect(psl.status == 64, "\(psl)")
        #expect(psl.stderr.contains("/nonexistent.dat"), "\(psl)")
        let absent = try CLI.run(
            ["goodlist", "lint", "Goodlist"], environment: ["PLAINVIEW_PUBLIC_SUFFIX_LIST": "/nonexistent/psl.dat"])
        #expect(absent.status == 64, "\(absent)")
        let usage = try CLI.run(["goodlist", "lint", "Goodlist", "--max-age", "-3"])
        #expect(usage.status == 64, "\(usage)")
    }

    // MARK: check

    @Test func checkSaysAllowedAndByWhichEntry() throws {
        let r = try CLI.run(["goodlist", "check", "https://ecom.payex.com/pay?x=1", "HTTPS://ACS.3DSecure.no.:443/"])
        #expect(r.status == 0, "\(r)")
        #expect(
            r.stdoutLines == [
                "allowed: https://ecom.payex.com/pay?x=1 (host ecom.payex.com) by '**.payex.com' at Goodlist/3ds.goodlist:12",
                "allowed: HTTPS://ACS.3DSecure.no.:443/ (host acs.3dsecure.no) by '*.3dsecure.no' at Goodlist/3ds.goodlist:14",
            ], "\(r)")
    }

    @Test(arguments: [
        ("https://evilpayex.com/", "evilpayex.com"),
        ("https://payex.com.evil.com/", "payex.com.evil.com"),
        ("https://payex.com@evil.com/", "evil.com"),
        ("https://evil.com\\@payex.com/", "evil.com"),
        ("https://evil.com\\.payex.com/", "evil.com"),
        ("https://evil.com#@payex.com", "evil.com"),
        ("https://evil.com?@payex.com", "evil.com"),
        ("https://a.b.3dsecure.no/", "a.b.3dsecure.no"),
    ])
    func checkRejectsBypasses(_ url: String, _ host: String) throws {
        let r = try CLI.run(["goodlist", "check", url])
        #expect(r.status == 1, "\(r)")
        #expect(r.stdout == "not allowed: \(url) (host \(host)): no goodlist entry admits it\n", "\(r)")
    }

    @Test func checkJSONAndInvalidURLs() throws {
        let r = try CLI.run(["goodlist", "check", "--json", "https://x.op.fi/", "javascript:alert(1)", "https://evil.example/"])
        #expect(r.status == 1, "\(r)")
        let objects = try r.stdoutLines.map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] ?? [:] }
        #expect(objects.count == 3)
        #expect(objects[0]["allowed"] as? Bool == true)
        #expect(objects[0]["pattern"] as? String == "*.op.fi")
        #expect(objects[0]["file"] as? String == "Goodlist/3ds.goodlist")
        #expect(objects[0]["line"] as? Int == 19)
        #expect(objects[1]["allowed"] as? Bool == false)
        #expect((objects[1]["error"] as? String)?.contains("not an http(s) URL") == true)
        #expect(objects[2]["host"] as? String == "evil.example")
        #expect(objects[2]["pattern"] is NSNull)
    }

    @Test func checkWithAnSDKFormatList() throws {
        let r = try CLI.run([
            "goodlist", "check", "--goodlist", Project.reference("swedbank-ios-good_redirects.txt").path,
            "https://evilpayex.com/", "https://payex.com/",
        ])
        #expect(r.status == 1, "\(r)")
        #expect(r.stdoutLines.count == 2)
        #expect(r.stdoutLines[0].hasPrefix("not allowed: https://evilpayex.com/"))
        #expect(r.stdoutLines[1].hasSuffix("swedbank-ios-good_redirects.txt:2"))
    }

    @Test func checkWithAnInvalidListExits64() throws {
        let dir = try tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let f = try write("ok.example\nhttps://bad.example/\n", "l.goodlist", in: dir)
        let r = try CLI.run(["goodlist", "check", "--goodlist", f, "ok.example"])
        #expect(r.status == 64, "\(r)")
        #expect(r.stderr.contains("\(f):2: invalid host pattern 'https://bad.example/'"), "\(r)")
    }

    // MARK: diff

    @Test func diffShowsWhatWidensAndNarrows() throws {
        let dir = try tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let old = try write("*.payex.com\nacs1.luottokunta.fi\n*.op.fi\n", "old.goodlist", in: dir)
        let new = try write("# moved and reworded\n*.OP.fi \(Self.p)\n**.payex.com \(Self.p)\n", "new.goodlist", in: dir)
        let r = try CLI.run(["goodlist", "diff", old, new])
        #expect(r.status == 0, "\(r)")
        #expect(
            r.stdoutLines == [
                "+ widens  **.payex.com (\(new):3): newly allows any host two or more labels below payex.com (e.g. a.b.payex.com); already allowed in part by '*.payex.com' at \(old):1",
                "- narrows acs1.luottokunta.fi (\(old):2): no longer allows acs1.luottokunta.fi",
            ], "\(r)")
        #expect(r.stderr.contains("1 pattern widens, 1 narrows"), "\(r)")
        let fail = try CLI.run(["goodlist", "diff", "--fail-on-widen", old, new])
        #expect(fail.status == 1, "\(fail)")
        let json = try CLI.run(["goodlist", "diff", "--json", old, new])
        let first = try JSONSerialization.jsonObject(with: Data(json.stdoutLines[0].utf8)) as? [String: Any]
        #expect(first?["change"] as? String == "widens")
        #expect(first?["pattern"] as? String == "**.payex.com")
    }

    @Test func diffOfTheSameLanguageIsEmpty() throws {
        let dir = try tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let ref = Project.reference("swedbank-ios-good_redirects.txt").path
        let r = try CLI.run(["goodlist", "diff", "--fail-on-widen", ref, "Goodlist"])
        #expect(r.status == 0, "\(r)")
        #expect(r.stdout.isEmpty, "\(r)")
        #expect(r.stderr.contains("no change in allowed hosts"), "\(r)")
    }

    @Test func diffInputErrorsExit64() throws {
        let r = try CLI.run(["goodlist", "diff", "/nonexistent/a", "Goodlist"])
        #expect(r.status == 64, "\(r)")
        #expect(r.stderr.contains("/nonexistent/a"), "\(r)")
    }
}

@Suite struct GoodlistLearnCLITests {
    static let trace = """
        {"flow":"card-3ds","branch":"default","step":6,"time":10,"event":"decide","context":"webview","url":"https://acs.newbank.example/creq","action":"open-browser","target":"https://ecom.payex.com/checkout","rule":"web.picky-page","reason":"not on the goodlist"}
        {"flow":"card-3ds","branch":"default","step":9,"time":20,"event":"outcome","context":"browser","action":"stuck","reason":"no page is shown"}
        {"flow":"ok","branch":"default","step":3,"time":5,"event":"decide","context":"webview","url":"https://x.payex.com/","action":"open-browser","rule":"web.picky-page","reason":"…"}

        """

    @Test func learnPrintsCandidateEntriesWithEvidence() throws {
        let dir = try Project.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let t = dir.appendingPathComponent("t.jsonl").path
        try Data(Self.trace.utf8).write(to: URL(fileURLWithPath: t))
        let r = try CLI.run(["goodlist", "learn", t, "--today", "2026-11-22"])
        #expect(r.status == 0, "\(r)")
        #expect(
            r.stdoutLines == [
                "# acs.newbank.example: left the web view 1 time (picky-page rule); flow stuck 1 time",
                "#   left: card-3ds step 6 (\(t):1), stuck: card-3ds step 9 (\(t):2)",
                "acs.newbank.example added=2026-11-22 why=\"seen in simulated flows: left the web view 1 time (picky-page rule); flow stuck 1 time\" source=\"plainview goodlist learn \(t)\"",
            ], "\(r)")
        #expect(r.stderr.contains("already allowed: x.payex.com"), "\(r)")

        let json = try CLI.run(["goodlist", "learn", "--json", "--goodlist", dir.path + "/none.goodlist", t])
        #expect(json.status == 64, "a missing --goodlist is an input error: \(json)")
        let j = try CLI.run(["goodlist", "learn", "--json", t])
        let obj = try JSONSerialization.jsonObject(with: Data(j.stdoutLines[0].utf8)) as? [String: Any]
        #expect(obj?["host"] as? String == "acs.newbank.example")
        #expect(obj?["left"] as? Int == 1)
        #expect(obj?["stuck"] as? Int == 1)
        #expect((obj?["evidence"] as? [[String: Any]])?.first?["step"] as? Int == 6)
    }

    /// The shipped flows, explored: every host that sends a flow to the browser there works through the browser or
    /// leads to an app switch, so learning from them proposes nothing (a proposal would break a working flow).
    @Test func learningFromTheShippedFlowsProposesNoHostThatWorksThroughTheBrowser() throws {
        let dir = try Project.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let t = dir.appendingPathComponent("pages.jsonl").path
        let sim = try CLI.run(["simulate", "--explore", "--trace", t, "Pages"])
        #expect(sim.status == 0, "\(sim)")
        let r = try CLI.run(["goodlist", "learn", t])
        #expect(r.status == 0, "\(r)")
        #expect(r.stdout.isEmpty, "\(r)")
        #expect(r.stderr.contains("kept out acs.bank.example: ios-3ds-not-goodlisted ends complete through the browser"), "\(r)")
        #expect(r.stderr.contains("0 candidates from"), "\(r)")
    }

    @Test func learnRejectsTextTraces() throws {
        let dir = try Project.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let t = dir.appendingPathComponent("t.txt").path
        try Data("  0.0s webview   decide → allow\n".utf8).write(to: URL(fileURLWithPath: t))
        let r = try CLI.run(["goodlist", "learn", t])
        #expect(r.status == 64, "\(r)")
        #expect(r.stderr.contains("\(t):1: not a JSON object"), "\(r)")
    }
}
