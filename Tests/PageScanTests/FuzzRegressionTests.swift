// Inputs the PageScan fuzzer (FuzzTests.swift) found, kept as plain regression cases.
import Testing
@testable import PageScan
import PlainviewURL

@Suite("Fuzz regressions: PageScan URL resolution")
struct PageScanFuzzRegressionTests {
    static let doc = "https://shop.example/pay/page"

    /// A browser's host parser refuses these hosts, so nothing navigates there and nothing is reported.
    /// They used to come out as `http://h.example p/` and the like.
    @Test(arguments: [
        "//h.example p", "https://x<meta/", "//h\u{1}p/x", "https://h.exa%20mple/", "//h:port/x",
        "https://%zz/", "http://[::1/", "https://@/", "\\\\\u{1C}\\x",
    ])
    func linksToHostsABrowserRefusesAreNotReported(_ href: String) throws {
        let base = try #require(WebURL(Self.doc))
        #expect(WebURL(href, relativeTo: base) == nil)
        let page = "<a href=\"\(href.replacingOccurrences(of: "\"", with: "&quot;"))\">x</a><a href='/ok'>ok</a>"
        let r = try PageScanner.scan(Array(page.utf8), documentURL: Self.doc)
        #expect(r.links.map(\.url) == ["https://shop.example/ok"])
    }

    @Test(arguments: [
        ("//h.example:8443/p", "https://h.example:8443/p"), ("https://user:pw@h.example/", "https://user:pw@h.example/"),
        ("https://ex%61mple.com/", "https://example.com/"), ("https://[::1]:8080/x", "https://[::1]:8080/x"),
        ("file:///x/y", "file:///x/y"),
    ])
    func hostsABrowserAcceptsStillResolve(_ href: String, _ expected: String) throws {
        let base = try #require(WebURL(Self.doc))
        #expect(WebURL(href, relativeTo: base)?.href == expected)
        let page = "<a href=\"\(href)\">x</a>"
        #expect(try PageScanner.scan(Array(page.utf8), documentURL: Self.doc).links.map(\.url) == [expected])
    }
}

@Suite("Fuzz regressions: PageScan scripts")
struct PageScanScriptFuzzRegressionTests {
    /// A handler or script that ends in an unterminated string: the string's token starts past the last byte. The
    /// load-listener search read that byte and trapped (found by the unread-attribute fuzz test).
    @Test(arguments: [
        "<div onclick=\"a='\">x</div><a href=/ok>ok</a>", "<script>onload='</script><a href=/ok>ok</a>",
        "<script>x = \"</script><a href=/ok>ok</a>", "<body onload=\"location='/l'; '\"><a href=/ok>ok</a>",
    ])
    func anUnterminatedStringAtTheEndOfAScriptIsNoCrash(_ page: String) throws {
        let r = try PageScanner.scan(Array(page.utf8), documentURL: "https://shop.example/pay/page")
        #expect(r.links.map(\.url) == ["https://shop.example/ok"])
    }
}
