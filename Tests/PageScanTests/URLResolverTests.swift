@testable import PlainviewURL
import Testing
import TestSupport
@testable import PageScan

/// The resolver against WHATWG's urltestdata (the subset in ../shared/conformance): relative references
/// resolved against http(s) and custom-scheme bases, which is what extraction does. Host parsing (IDNA, IPv4,
/// ports, userinfo) is the policy engine's job, so rows that test it are not taken; the rows taken must all pass
/// except the listed deviations.
@Suite struct URLResolverTests {
    struct Case: Decodable, Sendable, CustomTestStringConvertible {
        var input: String
        var base: String?
        var href: String?
        var failure: Bool?
        var tags: [String]?
        var testDescription: String { "\(String(reflecting: input)) against \(base ?? "-")" }
    }

    static let hostTags: Set<String> = ["port", "userinfo", "idn-or-non-ascii", "ipv4", "ipv6", "trailing-dot", "percent-encoding"]

    static let rows: [Case] = ((try? Project.conformanceCases("url_whatwg_urltestdata_subset.json", as: Case.self)) ?? [])
        .filter { c in
            guard let base = c.base, c.failure != true, c.href != nil, let tags = c.tags, tags.contains("relative") else { return false }
            return tags.allSatisfy { !hostTags.contains($0) } && !base.hasPrefix("file:")
        }

    /// Rows where this resolver knowingly differs (host or opaque-path details the policy engine re-parses).
    static let deviations: Set<String> = []

    @Test func enoughRowsAreTaken() { #expect(Self.rows.count > 30) }

    @Test(arguments: rows)
    func relativeResolution(_ c: Case) throws {
        let base = try #require(URLResolver.parseAbsolute(c.base!))
        let got = URLResolver.resolve(c.input, against: base)
        if Self.deviations.contains(c.input) {
            withKnownIssue { #expect(got == c.href) }
        } else {
            #expect(got == c.href)
        }
    }

    static let ownRows: [(String, String, String?)] = [
        ("intent://a/b#Intent;scheme=https;end", "https://x.example/p", "intent://a/b#Intent;scheme=https;end"),
        ("javascript:void(0)", "https://x.example/p", "javascript:void(0)"),
        ("yourecomapp://cb?x=1", "https://x.example/p", "yourecomapp://cb?x=1"),
        ("x", "yourecomapp://host/dir/file", "yourecomapp://host/dir/x"),
        ("x", "mailto:a@b", nil),
        ("#f", "mailto:a@b", "mailto:a@b#f"),
        ("  /a\tb\n ", "https://x.example/p", "https://x.example/ab"),
        ("../../../../x", "https://x.example/a/b", "https://x.example/x"),
        ("http:foo", "http://x.example/a/b", "http://x.example/a/foo"),
        ("https:foo", "http://x.example/a/b", "https://foo/"),
    ]

    @Test(arguments: ownRows)
    func resolves(_ row: (String, String, String?)) throws {
        let base = try #require(URLResolver.parseAbsolute(row.1))
        #expect(URLResolver.resolve(row.0, against: base) == row.2)
    }
}
