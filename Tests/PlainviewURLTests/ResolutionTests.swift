@testable import PlainviewURL
import Testing

/// Relative resolution beyond the WHATWG vectors: what extraction and the simulator meet on payment pages
/// (answers checked against node 20's `new URL(input, base).href`, which parses as browsers do).
@Suite struct ResolutionTests {
    static let rows: [(String, String, String?)] = [
        ("intent://a/b#Intent;scheme=https;end", "https://x.example/p", "intent://a/b#Intent;scheme=https;end"),
        ("javascript:void(0)", "https://x.example/p", "javascript:void(0)"),
        ("yourecomapp://cb?x=1", "https://x.example/p", "yourecomapp://cb?x=1"),
        ("x", "yourecomapp://host/dir/file", "yourecomapp://host/dir/x"),
        ("x", "yourecomapp://host", "yourecomapp://host/x"),
        ("x", "mailto:a@b", nil),
        ("#f", "mailto:a@b", "mailto:a@b#f"),
        ("  /a\tb\n ", "https://x.example/p", "https://x.example/ab"),
        ("../../../../x", "https://x.example/a/b", "https://x.example/x"),
        ("http:foo", "http://x.example/a/b", "http://x.example/a/foo"),
        ("https:foo", "http://x.example/a/b", "https://foo/"),
        ("\\\\acs.bank.example/3ds?x=1", "https://shop.example.com/go", "https://acs.bank.example/3ds?x=1"),
        ("/\\acs.bank.example/3ds", "https://shop.example.com/go", "https://acs.bank.example/3ds"),
        ("https:\\\\acs.bank.example", "https://shop.example.com/go", "https://acs.bank.example/"),
        ("//ACS.Bank.Example:443/x", "https://shop.example.com/go", "https://acs.bank.example/x"),
        ("//acs.bank.example:65536/x", "https://shop.example.com/go", nil),
        ("//a b/", "https://shop.example.com/go", nil),
        ("", "https://shop.example.com/a?q#f", "https://shop.example.com/a?q"),
        ("?x=1", "https://shop.example.com/a/b?q#f", "https://shop.example.com/a/b?x=1"),
        ("#top", "https://shop.example.com/a/b?q#f", "https://shop.example.com/a/b?q#top"),
        ("./c/../d/%2e%2E/e", "https://shop.example.com/a/b", "https://shop.example.com/a/e"),
        ("c d?e f#g h", "https://shop.example.com/a/b", "https://shop.example.com/a/c%20d?e%20f#g%20h"),
        ("\\c", "foo://host/a/b", "foo://host/a/\\c"),
        ("//other/x", "foo://host/a/b", "foo://other/x"),
        ("bar", "file:///dir/file", "file:///dir/bar"),
        ("//h/x", "file:///dir/file", "file://h/x"),
    ]

    @Test(arguments: rows)
    func resolves(_ row: (String, String, String?)) throws {
        let base = try #require(WebURL(row.1))
        #expect(WebURL(row.0, relativeTo: base)?.href == row.2)
        #expect(WebURL.resolve(row.0, against: row.1) == row.2)
    }

    @Test func absoluteInputIgnoresTheBase() throws {
        let base = try #require(WebURL("https://shop.example.com/a"))
        for input in ["https://b.example/x", "mailto:a@b", "bankid:///?autostarttoken=1"] {
            #expect(WebURL(input, relativeTo: base) == WebURL(input))
        }
    }
}
