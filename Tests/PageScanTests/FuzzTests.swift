// Deterministic, bounded fuzzing of PageScan: byte-level mutations and grammar-aware generation of HTML,
// Refresh values and URLs, with fixed seeds. Properties: nothing traps; scanning is a pure function of its
// input; every URL reported is resolved (a serialised absolute URL, no whitespace or control characters); resolving a
// resolved URL again changes nothing; a bad document URL is a typed error with a message.
import Foundation
import Testing
import TestSupport
@testable import PageScan
import PlainviewURL

@Suite("Fuzz: PageScan")
struct PageScanFuzzTests {
    static let doc = "https://shop.example/pay/page?o=1"

    static let seeds: [String] = {
        var pages = [
            "<html><head><base href='/b/'><meta http-equiv=refresh content='5; url=next'></head><body>"
                + "<a href='x?y#z' target=_blank>Go <b>on</b></a><form action=/f method=post><input name=a value=1>"
                + "<input type=hidden name=t value='2'></form><iframe src='//cdn.example/f' name=f></iframe>"
                + "<script>document.forms[0].submit(); location.href = '/s'; window.open(\"https://x.example/\")</script>"
                + "<script>callbacks.onPaymentCompleted('u'); Android.x()</script></body></html>",
            "<body onload=\"document.getElementById('f').submit()\"><form id=f action='https://acs.bank.example/3ds'>"
                + "<input name=PaReq value=abc><input name=TermUrl value='https://shop.example/t'></form></body>",
            "<a href=\"javascript:void(0)\">j</a><a href=\"intent://x#Intent;scheme=https;end\">i</a>"
                + "<a href=\"  https://shop.example/%7e a\tb\n \">ws</a><area href=/area><frame src=fr>",
            "<svg><script>location='/svg'</script></svg><noscript><a href=/ns>n</a></noscript><!-- <a href=/c> -->",
            "<meta charset=windows-1252><a href='/caf\u{E9}'>caf\u{E9}</a><meta http-equiv=\"Refresh\" content=\"0;URL='/q'\">",
        ]
        pages += FuzzCorpus.strings(in: "meta_refresh_wpt.json").prefix(40).map {
            "<meta http-equiv=refresh content=\"\($0.replacingOccurrences(of: "\"", with: "&quot;"))\">"
        }
        return pages
    }()

    static let dictionary = [
        "<", ">", "</", "/>", "<a href=", "<form action=", "<input name=", "value=", "<iframe src=", "<base href=",
        "<meta http-equiv=refresh content=", "<script>", "</script>", "<!--", "-->", "<![CDATA[", "]]>", "\"", "'", "=",
        "&amp;", "&#0;", "&#x110000;", "&", "location.href=", "location.replace(", "window.open(", ".submit()", "callbacks.",
        "url=", ";", "0;", "javascript:", "//", "\\", "../", "%", "\u{0}", "\u{FEFF}", "\u{FFFD}", "\t", "\n", "é",
    ]

    @Test(arguments: [UInt64(1), 2, 3])
    func mutatedPagesScanDeterministicallyToResolvedURLs(seed: UInt64) throws {
        var fuzz = FuzzRun(seed: seed, dictionary: Self.dictionary)
        var urls = 0
        for _ in 0..<400 {
            let bytes = fuzz.mutantBytes(of: Self.seeds, maxSteps: 3)
            let contentType = fuzz.rng.pick([
                nil, "text/html", "text/html; charset=utf-8", "text/html; charset=iso-8859-1", "text/html; charset=utf-16",
                "text/html; charset=bogus",
            ])
            let text = String(decoding: bytes, as: UTF8.self)
            let first: PageScanResult
            do {
                first = try PageScanner.scan(bytes, contentType: contentType, documentURL: Self.doc)
            } catch {
                fuzz.findings.record("a valid document URL gave an error", input: text, detail: error.message)
                continue
            }
            if let again = try? PageScanner.scan(bytes, contentType: contentType, documentURL: Self.doc), again != first {
                fuzz.findings.record("scanning twice gave different results", input: text)
            }
            urls += Self.checkURLs(first, page: text, &fuzz.findings)
        }
        #expect(fuzz.findings.isEmpty, "\(fuzz.findings)")
        #expect(urls > 60, "too few URLs extracted to exercise resolution (\(urls))")
    }

    @Test(arguments: [UInt64(11), 12])
    func generatedPagesScanToResolvedURLs(seed: UInt64) throws {
        var fuzz = FuzzRun(seed: seed)
        for _ in 0..<250 {
            let page = Self.generatePage(&fuzz.rng)
            let base = fuzz.rng.pick([Self.doc, "http://a.example", "file:///tmp/p.html", "https://x.example/a/b/c/d?q#f"])
            do {
                let r = try PageScanner.scan(Array(page.utf8), documentURL: base)
                _ = Self.checkURLs(r, page: page, &fuzz.findings)
            } catch {
                fuzz.findings.record("a valid document URL gave an error", input: page, detail: error.message)
            }
        }
        #expect(fuzz.findings.isEmpty, "\(fuzz.findings)")
    }

    /// Pages of uncollected elements whose attributes mix event handlers with others, in every form the limiter
    /// reads (quoted, unquoted, bare, no blank after a quoted value, upper case, `/>`), inside and around collected
    /// elements, scripts and comments.
    static let attributeSeeds: [String] = [
        "<div class=\"item\" id=\"p0\"><h3>T</h3><p>Art &ndash; <span class=\"price\">4 kr</span></p>"
            + "<a href=\"/product/0?ref=r\" class=\"more\">Visa</a><img src=\"/img/0.png\" alt=\"r\">"
            + "<button onclick=\"location.href='/cart/add?id=0'\">K\u{F6}p</button></div>",
        "<body class=x onload=\"location.replace('/l')\" data-a='1'><img src=x onerror=\"location='/e'\" alt=y>"
            + "<DIV CLASS=a ONCLICK=\"location.href='/u'\" ID=b>d</DIV><p a=\"1\"onclick=\"location='/v'\"b='2'>p</p>",
        "<span title='>' onclick=\"window.open('/w')\" x=y/>t</span><i a=b/>i</i><em a b c onpageshow=\"location='/ps'\">e</em>",
        "<script src=a/>if (a<b c=\"d\" onclick=x) { location = '/s' }</script><style x=y>p<q r=s>{}</style>",
        "<section id=f onclick=\"document.forms[0].submit()\"><form id=f action=/f class=c><input name=q value=1 class=k>"
            + "<select name=s class=c><option value=o selected class=c>O</option></select></form></section>",
        "<x-widget data-href=/no onclick=\"location='/xw'\"></x-widget><svg viewBox='0 0 1 1'><a href=/sa class=c>s</a></svg>",
        "<!-- <div class=c onclick=\"location='/comment'\"> --><noscript><div onclick=\"location='/ns'\" class=x></div></noscript>",
    ]

    /// Dropping the attributes of uncollected elements other than their event handlers, before libxml2 parses
    /// them, changes no scan result: mutants of the seeds and attribute-heavy pages, with every content type.
    @Test(arguments: [UInt64(31), 32, 33, 34])
    func droppingUnreadAttributesChangesNoResult(seed: UInt64) throws {
        let dictionary =
            Self.dictionary + [
                " class=x", " onclick=\"location='/o'\"", " ONLOAD=l()", "<div", "<img", "<span",
                " id=", "/>", " a=\"1\"", "b='2'", " c", "\u{1B}$B", "~{", "+ADw-",
            ]
        var fuzz = FuzzRun(seed: seed, dictionary: dictionary)
        var handlers = 0, trimmedTags = 0
        for _ in 0..<500 {
            let bytes = fuzz.mutantBytes(of: Self.attributeSeeds + Self.seeds.prefix(5), maxSteps: 4)
            let contentType = fuzz.rng.pick([
                nil, "text/html; charset=utf-8", "text/html; charset=iso-8859-1", "text/html; charset=iso-2022-jp",
            ])
            let dropped = try PageScanner.scan(bytes, contentType: contentType, documentURL: Self.doc)
            let kept = try PageScanner.scan(bytes, contentType: contentType, documentURL: Self.doc, dropsUnreadAttributes: false)
            if dropped != kept {
                fuzz.findings.record(
                    "dropping unread attributes changed the result", input: String(decoding: bytes, as: UTF8.self),
                    detail: "\(dropped) vs \(kept)")
            }
            handlers += kept.scriptNavigations.count
            var limiter = MarkupLimiter(), copy = bytes
            _ = copy.withUnsafeMutableBufferPointer { limiter.filter($0.baseAddress!, count: $0.count) }
            trimmedTags += limiter.tagsTrimmed
        }
        #expect(fuzz.findings.isEmpty, "\(fuzz.findings)")
        #expect(
            trimmedTags > 300 && handlers > 200,
            "too little to exercise the dropping: \(trimmedTags) tags, \(handlers) navigations")
    }

    /// The same holds for every page Plainview ships (the Pages flows), and for the dense pages of the memory tests.
    @Test func droppingUnreadAttributesChangesNoShippedPage() throws {
        let pages = try #require(FileManager.default.enumerator(at: Project.path("Pages"), includingPropertiesForKeys: nil))
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "html" }
        #expect(pages.count >= 20)
        var inputs = try pages.map { ($0.lastPathComponent, try [UInt8](Data(contentsOf: $0))) }
        inputs += DensePage.allCases.map { ("dense \($0)", $0.page(bytes: 200_000)) }
        for (name, bytes) in inputs {
            let dropped = try PageScanner.scan(bytes, documentURL: Self.doc)
            let kept = try PageScanner.scan(bytes, documentURL: Self.doc, dropsUnreadAttributes: false)
            #expect(dropped == kept, "\(name)")
        }
    }

    @Test(arguments: [UInt64(21), 22])
    func refreshValuesAndURLsResolveStably(seed: UInt64) throws {
        var fuzz = FuzzRun(seed: seed, dictionary: Self.dictionary)
        let contents =
            FuzzCorpus.strings(in: "meta_refresh_wpt.json") + [
                "0;url=/x", "5, URL = 'y'", "-1", "1e3;u", "0; url=\"javascript:x\"",
            ]
        let bases = [
            "https://shop.example/pay/page?o=1", "http://h.example", "https://h.example/a/./b/../c/", "file:///x/y",
            "shopapp://cb/x", "javascript:void(0)", "mailto:a@b.example",
        ]
        for _ in 0..<1500 {
            let content = fuzz.mutant(of: contents, maxSteps: 3)
            let base = fuzz.rng.pick(bases)
            if let r = PageScanner.parseRefresh(content, documentURL: base) {
                if r.delay < 0 { fuzz.findings.record("negative refresh delay", input: content) }
                Self.checkResolved(r.url, input: content, &fuzz.findings)
            }
            guard let baseURL = WebURL(base) else { continue }
            let raw = fuzz.mutator.mutate(
                fuzz.rng.pick(["../a?b#c", "//h.example/p", "?q", "#f", "x/./y/../z", "https:x", "\\\\h\\p", "a b"]),
                other: content, rng: &fuzz.rng, maxSteps: 3)
            guard let once = WebURL(raw, relativeTo: baseURL)?.href else { continue }
            Self.checkResolved(once, input: raw, &fuzz.findings)
            if let twice = WebURL(once, relativeTo: baseURL)?.href, twice != once {
                fuzz.findings.record(
                    "resolving a resolved URL changes it", input: raw, detail: "\(once) → \(twice) (base \(base))")
            }
        }
        #expect(fuzz.findings.isEmpty, "\(fuzz.findings)")
    }

    @Test(arguments: ["", "page.html", "/abs/path", "//host/x", "http://", "https://", "https:///x", " ", "\u{0}"])
    func aDocumentURLThatIsNotAbsoluteIsATypedError(_ documentURL: String) {
        do {
            _ = try PageScanner.scan(Array("<a href=/x>x</a>".utf8), documentURL: documentURL)
            // `https:///x` is host `x` to a browser; everything else here must be refused.
            #expect(documentURL == "https:///x", "accepted \(documentURL.debugDescription)")
        } catch {
            #expect(error.code == .invalidDocumentURL)
            #expect(!error.message.isEmpty)
        }
    }

    // MARK: properties

    /// Checks every URL of `r`; returns how many there were.
    static func checkURLs(_ r: PageScanResult, page: String, _ findings: inout FuzzFindings) -> Int {
        var all = r.links.map(\.url) + r.forms.map(\.action) + r.frames.map(\.url) + r.scriptNavigations.map(\.url)
        if let refresh = r.refresh { all.append(refresh.url) }
        for url in all { checkResolved(url, input: page, &findings) }
        return all.count
    }

    /// A resolved URL: starts with a scheme, holds no control characters, and for http(s)-like (special)
    /// URLs no spaces either (WHATWG keeps spaces in opaque paths such as `mailto:a b`).
    static func checkResolved(_ url: String, input: String, _ findings: inout FuzzFindings) {
        guard let parsed = WebURL(url) else {
            findings.record("a reported URL is not an absolute URL", input: input, detail: url)
            return
        }
        if parsed.href != url {
            findings.record("a reported URL is not in its serialised form", input: input, detail: "\(url) → \(parsed.href)")
        }
        let special = parsed.isSpecial
        if url.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F || (special && $0 == " ") }) {
            findings.record("a reported URL holds whitespace or a control character", input: input, detail: url.debugDescription)
        }
    }

    // MARK: generator

    static func generatePage(_ rng: inout FuzzRNG) -> String {
        let urls = [
            "/a", "b/c", "../../d", "?q=1", "#f", "//cdn.example/x", "https://ok.example/", "javascript:alert(1)",
            "  /ws  ", "data:text/html,x", "intent://h#Intent;scheme=https;end", "%zz", "http://[::1]/", "\\\\x\\y", "",
        ]
        var out = rng.oneIn(3) ? "<base href='\(rng.pick(urls))'>" : ""
        for _ in 0..<(1 + rng.below(12)) {
            let u = rng.pick(urls)
            switch rng.below(8) {
            case 0: out += "<a href='\(u)'>\(rng.pick(["x", "<b>y</b>", "", "&amp;"]))</a>"
            case 1:
                out += "<form action='\(u)' method=\(rng.pick(["post", "GET", "dialog", ""]))><input name=n value='\(u)'></form>"
            case 2: out += "<iframe src='\(u)'></iframe>"
            case 3: out += "<meta http-equiv=refresh content='\(rng.below(5));url=\(u)'>"
            case 4: out += "<script>\(rng.pick(["location.href", "window.location", "top.location"])) = '\(u)';</script>"
            case 5: out += "<script>window.open('\(u)'); document.forms[\(rng.below(3))].submit()</script>"
            case 6: out += rng.pick(["<div>", "</div>", "<table><tr><td>", "<!--", "-->", "<svg>", "</svg>", "<p"])
            default: out += String(repeating: rng.pick(["(", "[", "{", "'", "\"", "/*", "`"]), count: rng.below(40))
            }
        }
        return out
    }
}
