import PlainviewURL
import Foundation
import Testing
import NavigationPolicy
import PlainviewConfig
import TestSupport
import GoodlistTools

/// The IDN row needs IDNA from the policy helper's HostName.normalize; before it lands the IDN line is an
/// invalid pattern (no punycode to suggest), after it a fixable non-canonical one.

/// A small Public Suffix List with the rule kinds that matter.
let miniSuffixes = PublicSuffixRules(
    text: """
        // ===BEGIN ICANN DOMAINS===
        com
        uk
        co.uk
        *.ck
        !www.ck
        no
        // ===BEGIN PRIVATE DOMAINS===
        github.io
        """)

@Suite struct GoodlistLintTests {
    static let good = "issuer=X added=2026-01-10 verified=2026-06-01 why=w source=s"

    /// A deliberately bad list: every line has exactly the problems named in `expected`.
    static let badList = """
        # deliberately bad list
        **.payex.com \(good)
        https://acs.bank.example/ \(good)
        acs.bank.example:443 \(good)
        acs .bank.example \(good)
        a.*.bank.example \(good)
        *.com \(good)
        **.co.uk \(good)
        **.github.io \(good)
        ACS.Upper.example \(good)
        acs.trailing.example. \(good)
        acs1.bank2.example \(good)
        acs1.bank2.example \(good)
        x.payex.com \(good)
        nothing.example
        old.example issuer=X added=2020-01-01 why=w source=s
        bad.example issuer=X added=2024-02-30 why=w source=s
        typo.example \(good) verfied=2025-01-01
        bücher.example \(good)
        open.example issuer="X why=w
        *.payex.com \(good)
        *.foo.ck \(good)
        www.ck \(good)
        """

    static let expected: [(Int, GoodlistProblem.Code)] = [
        (3, .invalidPattern), (4, .invalidPattern), (5, .syntax), (6, .invalidPattern),
        (7, .publicSuffix), (8, .publicSuffix), (9, .publicSuffix),
        (10, .notCanonical), (11, .notCanonical),
        (13, .duplicate), (14, .shadowed),
        (15, .missingProvenance), (16, .stale), (17, .badDate), (18, .unknownKey),
        (19, .notCanonical),
        (20, .missingProvenance), (20, .syntax),
        (21, .shadowed), (22, .publicSuffix),
    ]

    func lint(_ text: String, file: String = "bad.goodlist", suffixes: PublicSuffixRules = miniSuffixes) throws
        -> [GoodlistProblem]
    {
        let src = try GoodlistSource.parse(text: text, file: file)
        return GoodlistLinter(suffixes: suffixes, maxAgeDays: 365, today: GoodlistDate("2026-11-22")!).lint([src])
    }

    @Test func badListReportsEachProblemOnceWithItsLine() throws {
        let problems = try lint(Self.badList)
        let got = problems.map { "\($0.line):\($0.code.rawValue)" }
        let want = Self.expected.map { "\($0.0):\($0.1.rawValue)" }
        #expect(got == want, "\(problems.map(\.description).joined(separator: "\n"))")
        #expect(problems.allSatisfy { $0.file == "bad.goodlist" })
        // Severity: warnings for age and unknown keys only.
        #expect(Set(problems.filter { $0.severity == .warning }.map(\.code)) == [.stale, .unknownKey])
    }

    @Test func messagesSayWhatToWrite() throws {
        let problems = try lint(Self.badList)
        func message(_ line: Int) -> String { problems.first { $0.line == line }?.message ?? "" }
        #expect(message(3).contains("'acs.bank.example'"))
        #expect(message(4).contains("port"))
        #expect(message(6).contains("'*'"))
        #expect(message(7).contains("public suffix 'com'"))
        #expect(message(10).contains("write 'acs.upper.example'"))
        #expect(message(11).contains("trailing dot"))
        #expect(message(13).contains("bad.goodlist:12"))
        #expect(message(14).contains("'**.payex.com' at bad.goodlist:2"))
        #expect(message(15).contains("added=YYYY-MM-DD"))
        #expect(message(16).contains("never verified (added 2020-01-01)"))
        #expect(message(17).contains("added=2024-02-30 is not a date"))
        #expect(message(18).contains("'verfied'"))
        #expect(message(21).contains("'**.payex.com'"))
    }

    @Test
    func idnMessageGivesThePunycode() throws {
        let problems = try lint("bücher.example \(Self.good)\n")
        #expect(problems.map(\.code) == [.notCanonical])
        #expect(problems.first?.message.contains("write 'xn--bcher-kva.example'") == true)
    }

    @Test(arguments: [
        (
            "BÜCHER.example",
            "'BÜCHER.example' has an internationalised name not written in punycode and upper-case letters; write 'xn--bcher-kva.example' (lint --fix does it)"
        ),
        ("acs.bank.example.", "'acs.bank.example.' has a trailing dot; write 'acs.bank.example' (lint --fix does it)"),
    ])
    func canonicalFormMessageReads(_ written: String, _ message: String) throws {
        let problems = try lint("\(written) vendor=X added=2026-01-01 verified=2026-01-01 why=w source=s\n")
        #expect(problems.filter { $0.code == .notCanonical }.map(\.message) == [message])
    }

    @Test func duplicatesAndShadowingAcrossFiles() throws {
        let a = try GoodlistSource.parse(text: "**.payex.com \(Self.good)\n", file: "a.goodlist")
        let b = try GoodlistSource.parse(text: "# b\nPAYEX.com \(Self.good)\n**.payex.com \(Self.good)\n", file: "b.goodlist")
        let problems = GoodlistLinter(suffixes: miniSuffixes, today: GoodlistDate("2026-11-22")!).lint([a, b])
        #expect(
            problems.map { "\($0.file):\($0.line):\($0.code.rawValue)" }
                == ["b.goodlist:2:not-canonical", "b.goodlist:2:shadowed", "b.goodlist:3:duplicate"])
    }

    @Test func cleanListHasNoProblems() throws {
        #expect(
            try lint("# ok\n**.payex.com \(Self.good)\n*.op.fi vendor=\"OP\" added=2026-01-01 why=\"a b\" source=s\n").isEmpty)
    }

    @Test func ageWarningFollowsMaxAge() throws {
        let src = try GoodlistSource.parse(
            text: "a.example issuer=X added=2025-01-01 verified=2026-10-01 why=w source=s\n", file: "f")
        let today = GoodlistDate("2026-11-22")!
        #expect(GoodlistLinter(suffixes: miniSuffixes, maxAgeDays: 60, today: today).lint([src]).isEmpty)
        let strict = GoodlistLinter(suffixes: miniSuffixes, maxAgeDays: 30, today: today).lint([src])
        #expect(strict.map(\.code) == [.stale])
        #expect(strict.first?.message.contains("last verified 2026-10-01, 52 days ago") == true)
    }

    @Test func shippedListPassesLint() throws {
        let suffixes = try PublicSuffixList.load()
        let sources = try GoodlistFiles.readSources([Project.path("Goodlist").path])
        #expect(!sources.isEmpty)
        #expect(sources.reduce(0) { $0 + $1.entries.count } >= 12)
        let problems = GoodlistLinter(suffixes: suffixes, maxAgeDays: 365, today: GoodlistDate("2026-11-22")!).lint(sources)
        #expect(problems.isEmpty, "\(problems.map(\.description).joined(separator: "\n"))")
    }

    @Test func shippedListHoldsTheTwelveReferencePatterns() throws {
        let reference = try String(contentsOf: Project.reference("swedbank-ios-good_redirects.txt"), encoding: .utf8)
        let sdk = try Goodlist(text: reference, file: "reference")
        let shipped = try GoodlistFiles.load([Project.path("Goodlist").path])
        #expect(sdk.count == 12)
        #expect(Set(sdk.patterns).isSubset(of: Set(shipped.patterns)))
        #expect(GoodlistDiff(old: sdk, new: shipped).changes.isEmpty)
    }

    @Test(arguments: [
        ("2024-02-29", true), ("2023-02-29", false), ("2026-11-22", true), ("2026-13-01", false),
        ("2026-1-01", false), ("26-11-22", false), ("2026-11-31", false), ("2000-02-29", true), ("1900-02-29", false),
    ])
    func dates(_ text: String, _ valid: Bool) {
        let d = GoodlistDate(text)
        #expect((d != nil) == valid)
        if let d { #expect(d.description == text) }
    }

    @Test func dateArithmetic() throws {
        let a = try #require(GoodlistDate("2025-11-22")), b = try #require(GoodlistDate("2026-11-22"))
        #expect(b.day - a.day == 365)
        #expect(GoodlistDate("1970-01-01")?.day == 0)
    }
}

@Suite struct GoodlistPublicSuffixTests {
    @Test(arguments: [
        ("com", true), ("payex.com", false), ("co.uk", true), ("uk", true), ("bank.co.uk", false),
        ("foo.ck", true), ("www.ck", false), ("a.foo.ck", false), ("github.io", true), ("me.github.io", false),
        ("unlisted", true), ("example.unlisted", false), ("no", true), ("3dsecure.no", false),
    ])
    func miniRules(_ host: String, _ isSuffix: Bool) {
        #expect(miniSuffixes.isPublicSuffix(host) == isSuffix, "\(host)")
    }

    @Test func publicSuffixOf() {
        #expect(miniSuffixes.publicSuffix(of: "shop.example.co.uk") == "co.uk")
        #expect(miniSuffixes.publicSuffix(of: "a.b.foo.ck") == "foo.ck")
        #expect(miniSuffixes.publicSuffix(of: "a.www.ck") == "ck")
    }

    @Test func debianListIsFoundAndRead() throws {
        let rules = try PublicSuffixList.load()
        #expect(rules.count > 5000)
        for s in ["com", "co.uk", "github.io", "s3.amazonaws.com", "no"] { #expect(rules.isPublicSuffix(s), "\(s)") }
        for s in ["payex.com", "3dsecure.no", "modirum.com", "op.fi"] { #expect(!rules.isPublicSuffix(s), "\(s)") }
    }

    @Test func absentListIsAClearError() {
        do {
            _ = try PublicSuffixList.load(path: "/nonexistent/public_suffix_list.dat")
            Issue.record("loaded")
        } catch {
            #expect(error.file == "/nonexistent/public_suffix_list.dat")
            #expect(error.message.contains("no such file"))
        }
        do {
            _ = try PublicSuffixList.load(path: "/usr/share/publicsuffix/public_suffix_list.dafsa")
            Issue.record("loaded the binary form")
        } catch {
            #expect(error.message.contains("DAFSA"))
        }
    }
}
