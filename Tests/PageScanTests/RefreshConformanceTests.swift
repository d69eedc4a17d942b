import Foundation
import Testing
import TestSupport
import PageScan

/// `Tests/Vectors/conformance/meta_refresh_wpt.json`: all 73 web-platform-tests cases, through the public API, as a
/// `<meta>` attribute (scanned from a built page) and as a `Refresh` header value.
@Suite struct RefreshConformanceTests {
    struct Case: Decodable, CustomTestStringConvertible, Sendable {
        struct Expected: Decodable, Sendable { var delay: Int; var url: String? }
        var id: Int
        var content: String
        var expected: Expected?
        var applies_to: [String]
        var testDescription: String { "#\(id) \(String(reflecting: content))" }
    }

    static let cases: [Case] = Project.requiredConformanceCases("meta_refresh_wpt.json")
    /// Where WPT serves the page (`support/refresh.sub.html`); expected URLs are relative to it.
    static let documentURL = "https://wpt.example/html/support/refresh.sub.html"

    /// The expected absolute result: the URL parser run on the expected string (it strips the tab/newline
    /// and trailing space the `raw_url_before_url_parser` rows mention), or the document itself when null.
    func expected(_ c: Case) -> PageScanResult.Refresh? {
        guard let e = c.expected else { return nil }
        // A browser's URL parser percent-encodes the space in "url foo" (row 39).
        let url = e.url.map { "https://wpt.example/html/support/" + $0.replacingOccurrences(of: " ", with: "%20") }
        return .init(delay: e.delay, url: url ?? Self.documentURL)
    }

    @Test func allSeventyThreeCasesAreLoaded() {
        #expect(Self.cases.count == 73)
    }

    @Test(arguments: cases)
    func asMetaElement(_ c: Case) throws {
        #expect(c.applies_to.contains("meta"))
        let page = "<!doctype html><meta http-equiv=refresh content=\"\(htmlEscape(c.content))\">refresh.sub.html"
        let result = try PageScanner.scan(Array(page.utf8), contentType: "text/html", documentURL: Self.documentURL)
        #expect(result.refresh == expected(c))
    }

    @Test(arguments: cases.filter { $0.applies_to.contains("refresh-header") })
    func asRefreshHeader(_ c: Case) {
        #expect(PageScanner.parseRefresh(c.content, documentURL: Self.documentURL) == expected(c))
    }

    @Test func headerCasesAreTheOnesWithoutCROrLF() {
        // Rows without "refresh-header" hold CR/LF/FF, which an HTTP header value cannot carry.
        let metaOnly = Self.cases.filter { !$0.applies_to.contains("refresh-header") }
        #expect(metaOnly.count > 0)
        #expect(metaOnly.allSatisfy { $0.content.unicodeScalars.contains(where: { $0 == "\r" || $0 == "\n" || $0 == "\u{0C}" }) })
    }
}

/// Escapes an attribute value for a double-quoted attribute. Control characters stay raw, as WPT's
/// `refresh.sub.html` substitutes them (libxml2 drops `&#12;`, so a form feed must not become a reference).
func htmlEscape(_ s: String) -> String {
    var out = ""
    for c in s.unicodeScalars {
        switch c {
        case "&": out += "&amp;"
        case "\"": out += "&quot;"
        case "<": out += "&lt;"
        case ">": out += "&gt;"
        case "'": out += "&#39;"
        default: out.unicodeScalars.append(c)
        }
    }
    return out
}
