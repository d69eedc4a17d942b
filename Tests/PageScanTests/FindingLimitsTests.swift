import Testing
@testable import PageScan

/// The per-page cap on findings: a page keeps its first `maxFindingsPerKind` of each kind, in document order, and
/// reports how many it holds in `truncations`; at the limit exactly, nothing is cut.
@Suite struct FindingLimitsTests {
    static let doc = "https://shop.example/pay"
    static let limit = PageScanner.maxFindingsPerKind

    /// A page with `n` findings of one kind, the i-th naming `/k<i>`, and what to read back of it.
    struct Kind: CustomTestStringConvertible, Sendable {
        var name: PageScanResult.Truncation.Kind
        var page: @Sendable (Int) -> String
        /// The URLs (or names) of the findings kept, in order.
        var kept: @Sendable (PageScanResult) -> [String]
        var testDescription: String { name.rawValue }
    }

    static func repeated(_ n: Int, _ item: (Int) -> String) -> String { (0..<n).map(item).joined(separator: "\n") }

    static let kinds: [Kind] = [
        Kind(name: .links, page: { n in repeated(n) { "<a href=/k\($0)>x</a>" } }, kept: { $0.links.map(\.url) }),
        Kind(name: .forms, page: { n in repeated(n) { "<form action=/k\($0)></form>" } }, kept: { $0.forms.map(\.action) }),
        Kind(
            name: .fields, page: { n in "<form action=/f>" + repeated(n) { "<input name=/k\($0)>" } + "</form>" },
            kept: { $0.forms.flatMap(\.fields).map { "https://shop.example" + $0.name } }),
        Kind(name: .frames, page: { n in repeated(n) { "<iframe src=/k\($0)></iframe>" } }, kept: { $0.frames.map(\.url) }),
        Kind(
            name: .buttons, page: { n in repeated(n) { "<button name=/k\($0)>b</button>" } },
            kept: { $0.buttons.compactMap { $0.name.map { "https://shop.example" + $0 } } }),
        Kind(
            name: .scriptNavigations, page: { n in "<script>" + repeated(n) { "location.href = '/k\($0)';" } + "</script>" },
            kept: { $0.scriptNavigations.map(\.url) }),
        Kind(
            name: .hooks,
            page: { n in "<script>" + repeated(n) { "webkit.messageHandlers.h.postMessage('/k\($0)');" } + "</script>" },
            kept: { $0.hooks.compactMap { $0.argument.map { "https://shop.example" + $0.dropFirst().dropLast() } } }),
        Kind(
            name: .refreshes, page: { n in repeated(n) { "<meta http-equiv=refresh content='\(n - $0);url=/k\($0)'>" } },
            kept: { $0.refresh.map { [$0.url] } ?? [] }),
    ]

    @Test(arguments: kinds)
    func pastTheLimitTheFirstAreKeptAndTheRestCounted(kind: Kind) throws {
        let extra = 7
        let r = try PageScanner.scan(Array(kind.page(Self.limit + extra).utf8), documentURL: Self.doc)
        let kept = kind.kept(r)
        if kind.name == .refreshes {
            // The shortest delay wins among those kept: the last kept one, not the later, shorter ones.
            #expect(kept == ["https://shop.example/k\(Self.limit - 1)"])
        } else {
            #expect(kept.count == Self.limit)
            #expect(kept.first == "https://shop.example/k0")
            #expect(kept.last == "https://shop.example/k\(Self.limit - 1)")
        }
        #expect(r.truncations == [.init(kind: kind.name, count: Self.limit + extra, limit: Self.limit, dropped: extra)])
    }

    @Test(arguments: kinds)
    func atTheLimitNothingIsCut(kind: Kind) throws {
        let r = try PageScanner.scan(Array(kind.page(Self.limit).utf8), documentURL: Self.doc)
        if kind.name != .refreshes { #expect(kind.kept(r).count == Self.limit) }
        #expect(r.truncations.isEmpty)
    }

    @Test func fieldsOfAFormPastTheLimitAreNotKeptAndDoNotCount() throws {
        let forms = Self.repeated(Self.limit + 1) {
            "<form action=/k\($0)><input name=a value=\($0)><button>b\($0)</button></form>"
        }
        let r = try PageScanner.scan(Array(forms.utf8), documentURL: Self.doc)
        #expect(r.forms.count == Self.limit)
        #expect(r.forms.last?.fields == [.init(name: "a", value: "\(Self.limit - 1)")])
        #expect(r.buttons.isEmpty, "the dropped form's button does not become a page button")
        #expect(r.truncations == [.init(kind: .forms, count: Self.limit + 1, limit: Self.limit, dropped: 1)])
    }

    @Test func submitsPastTheLimitMarkNoForm() throws {
        // The first `limit` calls submit the first form; the call after them names the second, and is past the cap.
        let calls = Self.repeated(Self.limit) { _ in "document.forms[0].submit();" } + "document.forms[1].submit();"
        let html = "<form action=/a></form><form action=/b></form><script>\(calls)</script>"
        let r = try PageScanner.scan(Array(html.utf8), documentURL: Self.doc)
        #expect(r.forms.map(\.autoSubmit) == [true, false])
        #expect(r.truncations == [.init(kind: .formSubmissions, count: Self.limit + 1, limit: Self.limit, dropped: 1)])
    }

    @Test func navigationsInFunctionsKeepDocumentOrderAcrossTheLimit() throws {
        // A named function's navigations are matched once the page has been read; the cap still keeps the first
        // in document order: the function's one (first in the page) and the top-level ones after it.
        let top = Self.repeated(Self.limit) { "location.href = '/k\($0 + 1)';" }
        let html = "<script>function go() { location.replace('/k0') }</script><script>go();\n\(top)</script>"
        let r = try PageScanner.scan(Array(html.utf8), documentURL: Self.doc)
        #expect(r.scriptNavigations.count == Self.limit)
        #expect(r.scriptNavigations.first?.url == "https://shop.example/k0")
        #expect(r.scriptNavigations.first?.onLoad == true)
        #expect(r.scriptNavigations.last?.url == "https://shop.example/k\(Self.limit - 1)")
        #expect(r.truncations == [.init(kind: .scriptNavigations, count: Self.limit + 1, limit: Self.limit, dropped: 1)])
    }

    @Test func aSelectOfManyOptionsChoosesAsBefore() throws {
        let many = Self.repeated(50_000) { "<option value=v\($0)\($0 == 31_000 ? " selected" : "")>o\($0)</option>" }
        let single =
            "<form action=/s><select name=s>\(many)</select><select name=t><option disabled>x<option>first</select></form>"
        let r = try PageScanner.scan(Array(single.utf8), documentURL: Self.doc)
        #expect(r.forms.first?.fields == [.init(name: "s", value: "v31000"), .init(name: "t", value: "first")])
        let multiple =
            "<form action=/m><select name=m multiple>"
            + Self.repeated(Self.limit + 3) { "<option selected>o\($0)</option>" } + "</select></form>"
        let m = try PageScanner.scan(Array(multiple.utf8), documentURL: Self.doc)
        #expect(m.forms.first?.fields.count == Self.limit)
        #expect(m.forms.first?.fields.last == .init(name: "m", value: "o\(Self.limit - 1)"))
        #expect(m.truncations == [.init(kind: .fields, count: Self.limit + 3, limit: Self.limit, dropped: 3)])
    }

    @Test func aStatementLongerThanTheLimitIsAnalysedInPartsAndSaidSo() throws {
        // One call wrapping 600 kB of module functions (a bundled library): cut once, after a comma between two
        // modules (what follows then reads as top-level code, cut as usual); the navigations at both ends are
        // found, and the cut is reported.
        let modules = Self.repeated(6_000) { "function(e){e.exports={n:\($0),s:\"\(String(repeating: "x", count: 60))\"}}," }
        let html = "<script>(function(m){location.href='/first'})([\(modules) function(){location.replace('/last')}])</script>"
        let r = try PageScanner.scan(Array(html.utf8), documentURL: Self.doc)
        #expect(r.scriptNavigations.map(\.url) == ["https://shop.example/first", "https://shop.example/last"])
        let cut = try #require(r.truncations.first)
        #expect(r.truncations.count == 1)
        #expect(cut.kind == .scriptStatement)
        #expect(cut.count == 1)
        #expect(cut.limit == ScriptUnit.maxBytes)
        #expect(cut.dropped == 0)
    }

    @Test func aFunctionCalledAmongThousandsIsTheOneThatRunsOnLoad() throws {
        // 5,000 named functions, each navigating; only f4321 is called by code that runs. The names are
        // numbered in a table that grows many times on the way.
        let functions = Self.repeated(5_000) { "function f\($0)() { location.href = '/k\($0)' }" }
        let html = "<script>\(functions)</script><script>f4321();</script>"
        let r = try PageScanner.scan(Array(html.utf8), documentURL: Self.doc)
        #expect(r.scriptNavigations.count == 5_000)
        #expect(r.scriptNavigations.filter(\.onLoad).map(\.url) == ["https://shop.example/k4321"])
        #expect(r.scriptNavigations.first { $0.onLoad }?.runOrder == 0)
    }

    @Test func aTimerFarFromItsNavigationStillDelaysIt() throws {
        // 20,000 tokens of the callback lie between `setTimeout(` and the navigation: the delay is still read (a
        // walk back from each navigation would have to be bounded, and would lose it).
        let filler = Self.repeated(5_000) { "v\($0) = 1;" }
        let html = "<script>setTimeout(function () { \(filler) location.href = '/late' }, 250)</script>"
        let r = try PageScanner.scan(Array(html.utf8), documentURL: Self.doc)
        #expect(r.scriptNavigations.map(\.url) == ["https://shop.example/late"])
        #expect(r.scriptNavigations.first?.delay == 250)
    }
}
