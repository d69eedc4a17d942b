import Foundation
@testable import NavigationPolicy
@testable import PlainviewURL
import Testing

/// At most one trailing dot is stripped for comparisons: `a.payex.com.` is `a.payex.com`, `a.payex.com..` is not.
@Suite struct TrailingDotTests {
    static let engine = NavigationPolicyEngine(policy: Fixture.policy(.ios, goodlist: ["**.payex.com"]))

    @Test(arguments: [
        ("https://a.payex.com/", RuleID.webGoodlist),
        ("https://a.payex.com./", .webGoodlist),
        ("https://A.PAYEX.COM./x", .webGoodlist),
        ("https://payex.com./", .webGoodlist),
        ("https://a.payex.com../", .webPickyPage),
        ("https://payex.com../", .webPickyPage),
        ("https://a.payex.com.../", .webPickyPage),
        ("https://a.payex.com%2E%2E/", .webPickyPage),
        ("https://a.payex.com\u{3002}\u{3002}/", .webPickyPage),
        ("https://a.payex.com\u{3002}/", .webGoodlist),
    ])
    func decide(_ url: String, _ rule: RuleID) {
        #expect(Self.engine.decide(Navigation(url: url, currentURL: Fixture.acs)).rule == rule, "\(url)")
    }

    @Test func comparableHostStripsOneDot() {
        #expect(WebURL("https://a.payex.com./")?.comparableHost == "a.payex.com")
        #expect(WebURL("https://a.payex.com../")?.comparableHost == "a.payex.com.")
        #expect(WebURL("https://a.payex.com../")?.hostname == "a.payex.com..")
        #expect(HostName.normalize("a.payex.com..") == nil)
        #expect(HostName.normalize("a.payex.com.") == "a.payex.com")
    }

    @Test func patternsAndMatchersStripOneDot() throws {
        #expect(throws: HostPatternError.self) { try HostPattern("**.payex.com..") }
        let pattern = try HostPattern("**.payex.com.")
        #expect(pattern.description == "**.payex.com")
        #expect(pattern.matches(host: "a.payex.com."))
        #expect(!pattern.matches(host: "a.payex.com.."))
        let list = Goodlist(entries: [GoodlistEntry(pattern: "**.payex.com")])
        #expect(list.match(host: "a.payex.com.") != nil)
        #expect(list.match(host: "a.payex.com..") == nil)
        #expect(list.match(comparableHost: "a.payex.com") != nil)
        #expect(list.match(comparableHost: "a.payex.com.") == nil)
    }
}
