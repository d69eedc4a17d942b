import Testing
import PlainviewURL
import TestSupport

/// `WebURL.Resolver` gives exactly what `WebURL(_:relativeTo:)` gives, whether or not its shortcut applies, for
/// references given as strings or as UTF-8 bytes.
@Suite struct ResolverTests {
    static let bases = [
        "https://acs.3dsecure.no/3ds/challenge?x=1#f", "http://user:pw@shop.example:8080/a/b/", "https://xn--bcher-kva.example/",
        "https://shop.example", "file:///tmp/a/b", "mailto:someone@example.com", "custom://host/p/q", "https://[::1]/x/y",
    ]

    static let references = [
        "/", "/a", "/a/b?c=d#e", "a", "a/b", "./a", "../a", "/a/./b", "/a/../b", "/a/.", "/a/..", ".", "..", "...",
        "/%2e/x", "/a%20b", "/a b", " /a", "/a ", "/a\tb", "//host/x", "/\\host", "\\x", "?q", "#f", "", "a:b", "/a:b",
        "javascript:alert(1)", "/a?'q'", "/a?q\"", "/a#`x`", "/a?q#f'g", "/ä", "/a?ä", "/a#ä", "/a|b", "/a^b", "/a{b}",
        "/a?{|}^`", "/a#{|}^", "/p?o=42&x=y", "product/7?ref=w", "/cart/add?id=1", "/a;b=c,d@e!$&'()*+", "/a~b",
    ]

    @Test(arguments: bases)
    func tableCases(base: String) throws {
        let b = try #require(WebURL(base))
        let resolver = WebURL.Resolver(base: b)
        for r in Self.references {
            let expected = WebURL(r, relativeTo: b)?.href
            #expect(resolver.href(r) == expected, "\(r) against \(base)")
            #expect(Self.viaBytes(resolver, r) == expected, "\(r) as bytes against \(base)")
        }
    }

    @Test func fuzzedReferencesAgree() throws {
        var rng = FuzzRNG(seed: 1919)
        let alphabet = Array("/.?#:%\\ab09-_~!$&'()*+,;=@\"<>`{}|^ \t\u{0}é".unicodeScalars)
        for base in Self.bases {
            let b = try #require(WebURL(base))
            let resolver = WebURL.Resolver(base: b)
            for _ in 0..<3_000 {
                var s = ""
                for _ in 0..<rng.below(12) { s.unicodeScalars.append(rng.pick(alphabet)) }
                let expected = WebURL(s, relativeTo: b)?.href
                #expect(resolver.href(s) == expected, "\(s.debugDescription) against \(base)")
                #expect(Self.viaBytes(resolver, s) == expected, "\(s.debugDescription) as bytes against \(base)")
            }
        }
    }

    static func viaBytes(_ resolver: WebURL.Resolver, _ s: String) -> String? {
        Array(s.utf8).withUnsafeBufferPointer { resolver.href(utf8: $0) }
    }
}
