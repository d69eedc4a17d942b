import Testing
@testable import PageScan
import TestSupport

/// The tap handler `location.href = '…'` is read from its bytes, without tokens: it must add exactly what the
/// token matcher adds, and leave everything else to it.
@Suite struct PlainAssignmentTests {
    /// Handlers of the shape and near misses: other receivers and members, escapes, line breaks, comments,
    /// concatenation, comparisons, arrows, a second statement, words that only start like ours.
    static let handlers = [
        "location.href='/cart/add?id=0'", "location.href = \"/x\";", " \t\nlocation = '/y' ; \n", "window.location.href='/w'",
        "document.location='/d'", "top.location.href = 'https://bank.example/3ds'", "self.location='/s';",
        "parent.location = '/p'",
        "globalThis.location.href='/g'", "this.location='/t'", "location.href='/a\\'b'", "location.href='/a\nb'",
        "location.href='/x' + y",
        "location.href='/x'; return false", "location.href == '/x'", "location.href => '/x'", "location.href='/x' // c",
        "locations='/x'",
        "location.hrefs='/x'", "location1.href='/x'", "win.location='/x'", "window .location . href = '/ws'",
        "location.replace('/r')",
        "location.href=''", "location.href='/q'x", "Location.href='/x'", "location.href='/\u{E9}\u{2028}x'",
        "window.location='/x';;",
        "location.href='/x'", "location['href']='/x'", "location.href=`/x`", "location.href=\"/a'b\"", "location.href='/a\"b'",
        "setTimeout(function(){location.href='/t'}, 5)", "location.href='javascript:alert(1)'", "location.\nhref\n=\n'/n'",
    ]

    func analysed(_ sources: [String], plain: Bool, interfaces: Set<String> = PageScanner.defaultAndroidInterfaces)
        -> ScriptFindings
    {
        var scanner = ScriptScanner(androidInterfaces: interfaces)
        scanner.readsPlainAssignments = plain && scanner.readsPlainAssignments
        var analysis = ScriptAnalysis(scanner)
        for (k, source) in sources.enumerated() {
            // Handler attributes (borrowed) and `javascript:` URLs (units) both take the plain reading.
            if k % 2 == 0 {
                _ = Array(source.utf8).withUnsafeBufferPointer { analysis.addHandler($0, onLoad: false, formsBefore: k % 3) }
            } else {
                analysis.add(ScriptUnit(source: Array(source.utf8), onLoad: false, formsBefore: k % 3))
            }
        }
        return analysis.finish()
    }

    func same(_ a: ScriptFindings, _ b: ScriptFindings) -> Bool {
        let a = a.withPlainURLsAsStrings(), b = b.withPlainURLsAsStrings()
        return a.navigations == b.navigations && a.navigationKeys == b.navigationKeys && a.hooks == b.hooks
            && a.submits.map(\.key) == b.submits.map(\.key) && a.navigationsFound == b.navigationsFound
            && a.hooksFound == b.hooksFound && a.submitsFound == b.submitsFound
    }

    @Test func eachHandlerAloneAndAllTogetherAddWhatTheMatcherAdds() {
        for h in Self.handlers {
            #expect(same(analysed([h], plain: true), analysed([h], plain: false)), "\(h)")
        }
        let all = analysed(Self.handlers, plain: true)
        #expect(same(all, analysed(Self.handlers, plain: false)))
        // The shape is read without the matcher often enough to matter.
        #expect(all.navigations.count >= 20)
    }

    @Test func fuzzedHandlersAddWhatTheMatcherAdds() {
        var fuzz = FuzzRun(
            seed: 77,
            dictionary: ["location", ".href", "window.", "=", "'", "\"", ";", " ", "\\", "\n", "+", "/*", "//", "(", ")"])
        for _ in 0..<3_000 {
            let h = fuzz.mutant(of: Self.handlers, maxSteps: 3)
            if !same(analysed([h], plain: true), analysed([h], plain: false)) {
                fuzz.findings.record("the plain reading differs from the matcher", input: h)
            }
        }
        #expect(fuzz.findings.isEmpty, "\(fuzz.findings)")
    }

    /// An Android interface named like a word of the shape (`window`) turns the plain reading off: the matcher
    /// reports its calls.
    @Test func anInterfaceNamedLikeAWordOfTheShapeTurnsItOff() {
        #expect(!ScriptScanner(androidInterfaces: ["window"]).readsPlainAssignments)
        #expect(ScriptScanner(androidInterfaces: ["callbacks"]).readsPlainAssignments)
    }

    /// A plain assignment's URL is kept as bytes and resolved from them: every kind of reference resolves as it
    /// does when the matcher reads the handler (`; 0` after it sends the handler to the matcher), with and
    /// without a `<base>`, and a navigation between two plain ones keeps its own URL.
    @Test func plainURLsResolveFromTheirBytesAsTheMatchersDo() throws {
        let urls = [
            "/cart/add?id=1", "next", "../up/./x", "?q=1", "#f", "//other.example/p", "https://bank.example/3ds",
            "/a b", "/\u{E9}t\u{E9}", "javascript:void(0)", "", "http://[::1", "mailto:x@example.com", "/%zz",
        ]
        for base in ["", "<base href='https://cdn.example/shop/'>"] {
            for url in urls {
                let plain =
                    "\(base)<button onclick=\"location.href='\(url)'\">a</button><a onclick=\"go('/m')\">m</a>"
                    + "<button onclick=\"window.location='\(url)x'\">b</button>"
                let matched =
                    "\(base)<button onclick=\"location.href='\(url)'; 0\">a</button><a onclick=\"go('/m')\">m</a>"
                    + "<button onclick=\"window.location='\(url)x'; 0\">b</button>"
                let a = try PageScanner.scan(Array(plain.utf8), documentURL: "https://shop.example/checkout/pay")
                let b = try PageScanner.scan(Array(matched.utf8), documentURL: "https://shop.example/checkout/pay")
                #expect(a.buttons.map(\.onclickURL) == b.buttons.map(\.onclickURL), "\(base) \(url)")
                #expect(a.scriptNavigations.map(\.url) == b.scriptNavigations.map(\.url), "\(base) \(url)")
                #expect(a.buttons.count == 2)
            }
        }
    }

    /// Past the cap, the plain reading counts what it does not keep, as the matcher does.
    @Test func theCapCountsPlainAssignments() {
        let many = Array(repeating: "location.href='/x'", count: PageScanner.maxFindingsPerKind + 3)
        let f = analysed(many, plain: true)
        #expect(f.navigations.count == PageScanner.maxFindingsPerKind)
        #expect(f.navigationsFound == PageScanner.maxFindingsPerKind + 3)
    }
}
