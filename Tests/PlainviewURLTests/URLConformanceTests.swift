@testable import PlainviewURL
import Foundation
import Testing
import TestSupport

/// WHATWG URL vectors (`Tests/Vectors/conformance/url_whatwg_urltestdata_subset.json`): for every http/https case
/// the parser can see as an absolute URL, the host and port must match and failures must fail.
struct URLTestCase: Decodable, Sendable, CustomTestStringConvertible {
    var input: String
    var base: String?
    var hostname: String?
    var port: String?
    var href: String?
    var failure: Bool?
    var tags: [String]?
    var testDescription: String { "\(input.debugDescription) (base \(base ?? "nil"))" }
}

struct ToASCIICase: Decodable, Sendable, CustomTestStringConvertible {
    var input: String?
    var output: String?
    var comment: String?
    var testDescription: String { (input ?? "").debugDescription }
}

enum Vectors {
    static let urlCases: [URLTestCase] = Project.requiredConformanceCases("url_whatwg_urltestdata_subset.json")
    static let toASCII: [ToASCIICase] = ((try? Project.conformanceCases("url_whatwg_toascii.json", as: ToASCIICase.self)) ?? [])
        .filter { $0.input != nil }

    /// Why a case does not apply to an absolute-URL parser, or nil when it applies.
    static func notApplicable(_ c: URLTestCase) -> String? {
        let trimmed = Vectors.trimmed(c.input)
        guard let colon = trimmed.firstIndex(of: ":") else { return "relative reference (no scheme)" }
        let scheme = trimmed[..<colon].lowercased()
        guard scheme == "http" || scheme == "https" else { return "not an http(s) URL" }
        let rest = trimmed[trimmed.index(after: colon)...]
        if let base = c.base, base.lowercased().hasPrefix(scheme + ":") {
            // Same special scheme as the base and fewer than two leading slashes: the URL Standard
            // resolves it against the base (a relative reference in disguise).
            let slashes = rest.prefix { $0 == "/" || $0 == "\\" }.count
            if slashes < 2 { return "relative to its base (\(scheme): without //)" }
        }
        return nil
    }

    static var applicable: [URLTestCase] { urlCases.filter { notApplicable($0) == nil } }

    /// Every case with a base: the whole basic URL parser with a base.
    static var withBase: [URLTestCase] { urlCases.filter { $0.base != nil } }

    /// The URL parser's input clean-up (leading/trailing C0 controls and spaces; tabs and newlines).
    static func trimmed(_ s: String) -> String {
        let bytes = Array(s.utf8)
        var lo = 0, hi = bytes.count
        while lo < hi, bytes[lo] <= 0x20 { lo += 1 }
        while hi > lo, bytes[hi - 1] <= 0x20 { hi -= 1 }
        return String(decoding: bytes[lo..<hi].filter { $0 != 0x09 && $0 != 0x0A && $0 != 0x0D }, as: UTF8.self)
    }
}

/// The URL Standard's basic URL parser with a base: every vector that has one, href for href.
@Suite struct URLResolutionConformanceTests {
    @Test func everyCaseWithABaseIsTaken() {
        #expect(Vectors.withBase.count == 249)
    }

    @Test(arguments: Vectors.withBase)
    func resolvesAsBrowsersDo(_ c: URLTestCase) throws {
        let base = try #require(WebURL(c.base!), "base \(c.base!) must parse")
        let got = WebURL(c.input, relativeTo: base)
        if c.failure == true {
            #expect(got == nil, "expected failure, got \(got?.href ?? "")")
        } else {
            #expect(got?.href == c.href)
        }
    }
}

/// Where browsers differ from these (newer) web-platform-tests vectors, the browser wins: node 20's WHATWG URL
/// parser (what a web view loads; see Tests/Vectors/idna-codepoints.txt) applies UTS #46 15.0, so ẞ maps to
/// `ss`, U+180E, U+206B and the capitals U+04C0, U+2183, U+2F868 are disallowed, and an `xn--` label whose
/// Punycode decodes to a disallowed or context-failing label (`xn--a` is U+0080) fails. Input → browser's host.
enum BrowserIDNA {
    static let toASCII: [String: String?] = [
        "xn--a": nil, "xn--a.xn--zca": nil, "xn--ls8h=": nil, "xn--1ug.example": nil, "xn--a-yoc": nil,
        "xn--zn7c.com": nil, "look\u{180E}out.net": nil, "look\u{206B}out.net": nil, "\u{4C0}.com": nil,
        "\u{2F868}.com": nil, "\u{2183}.com": nil, "\u{1E9E}.com": "ss.com", "\u{1E9E}.foo.com": "ss.foo.com",
        "xn--0.com": nil,
    ]
    /// URL → browser's hostname (nil: the URL fails).
    static let hosts: [String: String?] = [
        "http://a.b.c.xn--pokxncvks": nil, "http://10.0.0.xn--pokxncvks": nil, "http://a.b.c.XN--pokxncvks": nil,
        "http://a.b.c.Xn--pokxncvks": nil, "http://10.0.0.XN--pokxncvks": nil, "http://10.0.0.xN--pokxncvks": nil,
        "https://xn--/": nil,
    ]
}

@Suite struct URLConformanceTests {
    @Test func vectorsAreLoaded() {
        #expect(Vectors.urlCases.count == 724)
        #expect(Vectors.applicable.count > 250)
        #expect(Vectors.toASCII.count > 80)
    }

    @Test(arguments: Vectors.applicable)
    func httpHostsMatchTheURLStandard(_ c: URLTestCase) {
        let parsed = WebURL(c.input)
        if let browser = BrowserIDNA.hosts[c.input] {
            #expect(parsed?.hostname == browser, "as browsers do")
            return
        }
        if c.failure == true {
            #expect(parsed == nil, "expected failure, got \(parsed?.href ?? "")")
        } else {
            #expect(parsed != nil, "expected host \(c.hostname ?? "")")
            #expect(parsed?.hostname == c.hostname)
            #expect((parsed?.port.map(String.init) ?? "") == (c.port ?? ""))
        }
    }

    @Test(arguments: Vectors.toASCII)
    func toASCIIMatchesTheURLStandard(_ c: ToASCIICase) {
        let input = c.input ?? ""
        let host = WebURL("https://" + input + "/x")?.hostname
        #expect(host == (BrowserIDNA.toASCII[input] ?? c.output), "\(input.unicodeScalars.map { String($0.value, radix: 16) })")
    }
}

/// Failures of every scheme: a URL the URL Standard rejects must not parse here either (it would otherwise
/// reach an app). Relative references are out of scope (see `Vectors.notApplicable`).
@Suite struct URLFailureConformanceTests {
    static func isAbsoluteFailure(_ c: URLTestCase) -> Bool {
        guard c.failure == true else { return false }
        let trimmed = Vectors.trimmed(c.input)
        guard let colon = trimmed.firstIndex(of: ":"), WebURL("\(trimmed[..<colon]):x") != nil else { return false }
        let scheme = trimmed[..<colon].lowercased()
        if let base = c.base, base.lowercased().hasPrefix(scheme + ":"), SchemeKind.special[scheme] != nil {
            let slashes = trimmed[trimmed.index(after: colon)...].prefix { $0 == "/" || $0 == "\\" }.count
            if slashes < 2 { return false }
        }
        return true
    }

    static let cases = Vectors.urlCases.filter(isAbsoluteFailure)

    @Test(arguments: cases)
    func failuresFail(_ c: URLTestCase) {
        #expect(WebURL(c.input) == nil, "parsed as \(WebURL(c.input)?.href ?? "")")
    }
}
