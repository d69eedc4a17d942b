import Testing
import NavigationPolicy
import PlainviewConfig
import GoodlistTools

@Suite struct GoodlistDiffTests {
    func list(_ patterns: [String], _ file: String) -> Goodlist {
        Goodlist(entries: patterns.enumerated().map { GoodlistEntry(pattern: $1, file: file, line: $0 + 1) })
    }

    func summary(_ old: [String], _ new: [String]) -> [String] {
        GoodlistDiff(old: list(old, "old"), new: list(new, "new")).changes.map {
            "\($0.direction == .widens ? "+" : "-")\($0.pattern)"
        }
    }

    @Test(
        arguments: [
            // (old, new, changes)
            (["**.payex.com"], ["**.payex.com"], [String]()),
            (["**.payex.com", "a.example"], ["a.example", "**.PayEx.com."], []), // order, case, dot
            (["*.payex.com"], ["**.payex.com"], ["+**.payex.com"]),
            (["**.payex.com"], ["*.payex.com"], ["-**.payex.com"]),
            (["payex.com"], ["*.payex.com"], ["+*.payex.com"]),
            (["*.payex.com"], ["*.payex.com", "a.payex.com"], []), // already allowed
            (["**.payex.com"], ["**.payex.com", "*.a.payex.com", "x.y.payex.com"], []),
            (["a.payex.com", "b.payex.com"], ["**.payex.com"], ["+**.payex.com"]),
            (["**.payex.com"], ["a.payex.com"], ["-**.payex.com"]),
            (["*.op.fi", "acs1.luottokunta.fi"], ["*.op.fi"], ["-acs1.luottokunta.fi"]),
            (["**.payex.com"], ["**.evilpayex.com"], ["+**.evilpayex.com", "-**.payex.com"]),
            ([String](), ["**.com.payex.com"], ["+**.com.payex.com"]),
        ] as [([String], [String], [String])])
    func changesAreComputedOnLanguages(_ old: [String], _ new: [String], _ expected: [String]) {
        #expect(summary(old, new) == expected)
    }

    @Test func widenSaysWhichHostsAndWhatWasAlreadyAllowed() throws {
        let d = GoodlistDiff(old: list(["*.payex.com", "x.a.payex.com"], "old"), new: list(["**.payex.com"], "new"))
        let c = try #require(d.changes.first)
        #expect(d.changes.count == 1)
        #expect(d.widens)
        #expect(c.direction == .widens)
        #expect(c.entry.location == "new:1")
        #expect(c.hosts == "any host two or more labels below payex.com (e.g. a.b.payex.com), apart from x.a.payex.com")
        #expect(c.overlapping.map(\.location) == ["old:1", "old:2"])
    }

    @Test func narrowSaysWhatIsStillAllowed() throws {
        let d = GoodlistDiff(old: list(["**.payex.com"], "old"), new: list(["payex.com", "*.ecom.payex.com"], "new"))
        let c = try #require(d.changes.first)
        #expect(!d.widens)
        #expect(c.direction == .narrows)
        #expect(c.hosts.hasPrefix("any host below payex.com at any depth"))
        #expect(c.overlapping.map(\.pattern) == ["payex.com", "*.ecom.payex.com"])
    }

    @Test func oneLabelWidening() throws {
        let d = GoodlistDiff(old: list(["op.fi"], "old"), new: list(["*.op.fi"], "new"))
        #expect(d.changes.first?.hosts == "any host one label below op.fi (e.g. acs.op.fi)")
        let d2 = GoodlistDiff(old: Goodlist(), new: list(["*.op.fi"], "new"))
        #expect(d2.changes.first?.hosts == "op.fi and any host one label below it (e.g. acs.op.fi)")
    }

    @Test func largeListsDiffWithoutQuadraticWork() {
        let old = (0..<20_000).map { "acs\($0).bank.example" }
        let new = old + ["**.other.example"]
        let d = GoodlistDiff(old: list(old, "old"), new: list(new, "new"))
        #expect(d.changes.map(\.pattern.description) == ["**.other.example"])
        #expect(d.unchangedCount == 20_000)
    }
}
