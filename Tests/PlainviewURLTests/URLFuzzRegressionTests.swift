@testable import PlainviewURL
import Foundation
import Testing

@Suite("Fuzz regressions: URL parsing")
struct URLFuzzRegressionTests {
    /// WHATWG "file slash state": two slashes introduce the (here empty) host; the third starts the path.
    /// The parser took every slash, so `file:///st/path` got the host `st`, and the href of `file:/st/path`
    /// (`file:///st/path`) parsed back to a different URL; `file:///http:/` did not parse at all.
    @Test(arguments: [
        ("file:///st/path", "file:///st/path"), ("file:/st/path", "file:///st/path"), ("file:non-\\b", "file:///non-/b"),
        ("file:http:/", "file:///http:/"), ("file:////x", "file:////x"), ("file://host/p", "file://host/p"),
        ("file://localhost/p", "file:///p"),
    ])
    func fileURLsKeepAnEmptyHostBeforeAThirdSlash(input: String, href: String) throws {
        let url = try #require(WebURL(input))
        #expect(url.href == href)
        #expect(WebURL(url.href)?.href == href)
    }
}
