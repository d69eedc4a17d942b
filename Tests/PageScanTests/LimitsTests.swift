import Foundation
import Testing
@testable import PageScan
import TestSupport

/// What one element may cost: attributes past the limit are dropped, values past the limit are cut, both
/// reported; pages within the limits pass through the limiter byte for byte.
@Suite struct LimitsTests {
    static let doc = "https://shop.example/pay/page"

    func scan(_ html: [UInt8]) throws -> PageScanResult { try PageScanner.scan(html, documentURL: Self.doc) }

    /// The limiter's output for `input` fed in pieces of `piece` bytes (as libxml2 pulls them).
    func filtered(_ input: [UInt8], piece: Int) -> [UInt8] {
        filtered(input, piece: piece, fastPath: true).bytes
    }

    /// The same, with or without the fast path for ordinary tags (and with or without the dropping of unread
    /// attributes, which only the fast path does); with what the limiter reports.
    func filtered(_ input: [UInt8], piece: Int, fastPath: Bool, drops: Bool = false)
        -> (bytes: [UInt8], truncations: [PageScanResult.Truncation])
    {
        var limiter = MarkupLimiter()
        limiter.fastPath = fastPath
        limiter.dropsUnreadAttributes = drops
        var out: [UInt8] = []
        var i = 0
        while i < input.count {
            var chunk = Array(input[i..<min(input.count, i + piece)])
            let n = chunk.withUnsafeMutableBufferPointer { limiter.filter($0.baseAddress!, count: $0.count) }
            out += chunk[..<n]
            i += piece
        }
        return (out, limiter.truncations)
    }

    @Test func twoHundredThousandAttributesFinishAndAreReported() throws {
        let attributes = (0..<200_000).map { "a\($0)=1" }.joined(separator: " ")
        let html = Array("<div \(attributes) onclick=\"location.href='/late'\">x</div><a href='/after'>after</a>".utf8)
        let clock = ContinuousClock()
        let start = clock.now
        let r = try scan(html)
        // Unlimited, libxml2's duplicate check alone takes about 32 s here; limited, well under a second.
        #expect(clock.now - start < .seconds(20))
        #expect(r.links.map(\.url) == ["https://shop.example/after"])
        #expect(r.scriptNavigations.isEmpty, "the handler was past the limit: \(r.scriptNavigations)")
        #expect(
            r.truncations == [
                .init(
                    kind: .attributes, count: 1, limit: MarkupLimiter.maxAttributes,
                    dropped: 200_001 - MarkupLimiter.maxAttributes)
            ])
    }

    @Test(arguments: [0, 1])
    func theLimitIsInclusive(extra: Int) throws {
        // `href` is attribute number `maxAttributes + extra`.
        let filler = (1..<(MarkupLimiter.maxAttributes + extra)).map { "data-x\($0)=\"v\"" }.joined(separator: " ")
        let r = try scan(Array("<a \(filler) href=/x>x</a>".utf8))
        #expect(r.links.map(\.url) == (extra == 0 ? ["https://shop.example/x"] : []))
        #expect(r.truncations.map(\.kind) == (extra == 0 ? [] : [.attributes]))
    }

    @Test func scriptTextIsNotATag() throws {
        // 5,000 "attributes" inside a script are script text, not a tag: nothing is dropped.
        let words = (0..<5_000).map { "w\($0)" }.joined(separator: " ")
        let html = Array("<script>if (a <b \(words)) { location.href = '/s' }</script><a href=/x>x</a>".utf8)
        let r = try scan(html)
        #expect(r.truncations.isEmpty)
        #expect(r.scriptNavigations.map(\.url) == ["https://shop.example/s"])
    }

    @Test func longAttributeValueIsCutAndReported() throws {
        let long = String(repeating: "a", count: MarkupLimiter.maxValueBytes + 1_000)
        let html = Array("<meta http-equiv=refresh content=\"0;url=/\(long)\"><a href='/after'>x</a>".utf8)
        let r = try scan(html)
        let refresh = try #require(r.refresh)
        #expect(refresh.url.hasPrefix("https://shop.example/aaaa"))
        #expect(refresh.url.utf8.count < MarkupLimiter.maxValueBytes + 100)
        #expect(r.links.map(\.url) == ["https://shop.example/after"], "the quote still closes the value")
        #expect(r.truncations == [.init(kind: .attributeValue, count: 1, limit: MarkupLimiter.maxValueBytes, dropped: 1_007)])
    }

    @Test func aValueIsNeverCutInsideACharacter() {
        // "é" is two bytes; the limit falls between them.
        let value = [UInt8](repeating: UInt8(ascii: "a"), count: MarkupLimiter.maxValueBytes - 1) + Array("éé".utf8)
        let out = filtered(Array("<a title=\"".utf8) + value + Array("\">".utf8), piece: 4096)
        #expect(out == Array("<a title=\"".utf8) + value.prefix(MarkupLimiter.maxValueBytes - 1) + Array("\">".utf8))
    }

    /// Pages within the limits pass through unchanged, however they are split into pieces.
    @Test(arguments: [1, 2, 3, 7, 64, 4000])
    func ordinaryPagesPassUnchanged(piece: Int) throws {
        var pages: [[UInt8]] = [
            Array("<!DOCTYPE html><html><head><title>t</title><style>a>b{c:d}</style><script>if(a<b&&c>d)x='</a>'</script>".utf8)
                + Array("</head><body a=1 b='2' c=\"3>\" d e/f g=/h/ i = j><!-- <a x y z> --><br/><p>t</p></body></html>".utf8)
        ]
        let pagesFolder = Project.path("Pages")
        let files =
            FileManager.default.enumerator(at: pagesFolder, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "html" } ?? []
        #expect(!files.isEmpty)
        for file in files.prefix(piece == 1 ? 5 : 40) { pages.append([UInt8](try Data(contentsOf: file))) }
        for page in pages {
            #expect(filtered(page, piece: piece) == page)
        }
    }

    /// Fuzzed bytes: whatever the limiter does, it never drops anything from input within the limits.
    @Test func fuzzedInputWithinTheLimitsPassesUnchanged() {
        var rng = FuzzRNG(seed: 19)
        let alphabet = Array("<>/=\"' \n\tab!-?sScriptyle".utf8)
        for _ in 0..<2_000 {
            let input = (0..<rng.below(300)).map { _ in rng.pick(alphabet) }
            #expect(filtered(input, piece: 1 + rng.below(17)) == input, "\(String(decoding: input, as: UTF8.self))")
        }
    }

    /// The fast path for ordinary tags reads each tag as the state machine does. Tag soup is followed by a tag
    /// past the attribute limit and one with a value past the value limit, so a tag read differently (ended
    /// elsewhere, or raw text taken for markup) would cut different bytes; both must give the same.
    @Test func theFastPathReadsTagsAsTheStateMachineDoes() {
        var rng = FuzzRNG(seed: 1919)
        let pieces = [
            "<", ">", "/", "/>", "=", "\"", "'", " ", "\n", "a", "b", "x1", "-", "!", "?", "<a", "<b c=d>",
            "<a href=\"/x\">", "<i title='t>u' data-x = y/>", "</a>", "</", "<script>", "</script>", "<style>",
            "</STYLE>", "<script/>", "<!--", "-->", "<!DOCTYPE html>", "<p", " e", "=\"v\"", "=w", "\"v\"", "<br/>",
            "<a b='x>", "<a b=\"x>", "<a b=x'y>", "<b c= '>'>", "<u v=\"'\" w='\"'>", "<a b\"c>", "<a b=c\"d>",
        ]
        let overAttributes = Array(
            ("<i " + (0..<(MarkupLimiter.maxAttributes + 5)).map { "a\($0)" }.joined(separator: " ")
                + " z=\"q\">").utf8)
        let overValue =
            Array("<a title=\"".utf8) + [UInt8](repeating: UInt8(ascii: "v"), count: MarkupLimiter.maxValueBytes + 3)
            + Array("\">".utf8)
        for round in 0..<400 {
            var input: [UInt8] = []
            for _ in 0..<rng.below(40) { input += Array(rng.pick(pieces).utf8) }
            input += round % 40 == 0 ? overValue : overAttributes
            for _ in 0..<rng.below(10) { input += Array(rng.pick(pieces).utf8) }
            input += overAttributes
            let piece = round % 40 == 0 || round % 3 == 0 ? 4096 : 1 + rng.below(64)
            let fast = filtered(input, piece: piece, fastPath: true)
            let slow = filtered(input, piece: piece, fastPath: false)
            #expect(
                fast.bytes == slow.bytes && fast.truncations == slow.truncations,
                "\(String(decoding: input.prefix(400), as: UTF8.self)) in pieces of \(piece)")
        }
    }

    // MARK: unread attributes

    /// The limiter's output for `html` in one piece, dropping unread attributes.
    func trimmed(_ html: String, piece: Int = 4096) -> String {
        String(decoding: filtered(Array(html.utf8), piece: piece, fastPath: true, drops: true).bytes, as: UTF8.self)
    }

    @Test(arguments: [
        // Uncollected elements keep only their event handlers (in any case), each after one blank.
        ("<div class=\"item\" id=\"p0\">x</div>", "<div>x</div>"),
        ("<DIV CLASS=a ONCLICK=\"go()\" ID=b>", "<DIV ONCLICK=\"go()\">"),
        ("<p a=\"1\"onclick=\"f()\"b='2'>", "<p onclick=\"f()\">"),
        ("<x onA=\"1\"onB=\"2\" c>", "<x onA=\"1\"onB=\"2\">"),
        ("<img src=/i.png alt=x onerror=e() />", "<img onerror=e() />"),
        ("<form id=f ac/>x", "<form id=f />x"),
        // An attribute holding a byte past ASCII stays: libxml2 settles the encoding on those bytes.
        ("<img alt=\"K\u{F6}p\" src=/k.png title=\"\u{E9}\"/>", "<img alt=\"K\u{F6}p\" title=\"\u{E9}\" />"),
        ("<span title='>' x=y/>t", "<span>t"),
        ("<em a b c on>e", "<em on>e"),
        // Collected elements keep the attributes the scan reads; `<meta>` keeps all (libxml2 reads its charset).
        (
            "<a href=/x class=more onclick=f()>a</a><meta charset=utf-8 name=x>",
            "<a href=/x onclick=f()>a</a><meta charset=utf-8 name=x>"
        ),
        (
            "<FORM ID=f class=c><Input NAME=q class=k><textarea cols=3 name=t></textarea>",
            "<FORM ID=f><Input NAME=q><textarea name=t></textarea>"
        ),
        (
            "<area alt=a shape=rect href=/h><base target=_top class=b><iframe src=/f width=1 name=n>",
            "<area alt=a href=/h><base target=_top><iframe src=/f name=n>"
        ),
        // Tags the fast path leaves to the state machine pass as they are.
        ("<div a=\"b\"c=\"d\" e\"f>", "<div a=\"b\"c=\"d\" e\"f>"),
        // Raw text is not markup, also after `<script src=a/>` (the `/` is the value's: no self-closing tag).
        ("<script src=a/ async>if (a<b c=d) {}</script><div class=z>", "<script src=a/>if (a<b c=d) {}</script><div>"),
        ("<style x=y>p<div class=s>{}</style><div class=z>", "<style>p<div class=s>{}</style><div>"),
        ("<!-- <div class=c> --><div class=c>", "<!-- <div class=c> --><div>"),
    ])
    func uncollectedElementsKeepOnlyTheirHandlers(_ input: String, _ expected: String) {
        #expect(trimmed(input) == expected)
    }

    /// A byte past ASCII anywhere in a value of any length keeps the attribute (the check reads eight bytes at a
    /// time, then the rest one by one), and an ASCII value of any length is dropped.
    @Test func aBytePastASCIIAnywhereInAValueKeepsItsAttribute() {
        for length in 1...20 {
            let plain = String(repeating: "v", count: length)
            #expect(trimmed("<div title=\"\(plain)\" id=x>t") == "<div>t", "length \(length)")
            for at in 0..<length {
                var bytes = Array(plain.utf8)
                bytes[at] = 0xE9 // Latin-1 é: one byte, as a windows-1252 page holds it
                let value = String(decoding: bytes, as: UTF8.self)
                let tag = Array("<div title=\"".utf8) + bytes + Array("\" id=x>t".utf8)
                let out = filtered(tag, piece: 4096, fastPath: true, drops: true).bytes
                #expect(out == Array("<div title=\"".utf8) + bytes + Array("\">t".utf8), "length \(length), at \(at): \(value)")
            }
        }
    }

    /// Attribute names are matched whole, in either case, against what the element's scan reads: a longer or
    /// shorter name sharing the first bytes goes (names are compared as two packed words of eight bytes).
    @Test(arguments: [
        ("<a hrefx=/x HREF=/y hre=/z>", "<a HREF=/y>"),
        ("<button aria-labelx=a ARIA-LABEL=b aria-labe=c aria-label-=d>", "<button ARIA-LABEL=b>"),
        ("<button aria-labxx=a aria-lab-l=b aria-label=c>", "<button aria-label=c>"), // the same first 8 bytes
        ("<input typ=t types=u type=v disabledx disabled>", "<input type=v disabled>"),
        ("<option selected=s selectedness=t value=v>", "<option selected=s value=v>"),
    ])
    func readAttributeNamesMatchWhole(_ input: String, _ expected: String) {
        #expect(trimmed(input) == expected)
    }

    /// A page that may be in a 7-bit encoding (ISO-2022's ESC, HZ's `~{`, UTF-7's `+AD…`) is passed through from
    /// the piece that shows it on: there, the bytes are not necessarily the markup libxml2 decodes.
    @Test(arguments: ["\u{1B}$B", "~{", "+ADw-", "~", "+"])
    func aPossibleSevenBitEncodingStopsTheDropping(_ marker: String) {
        let page = "<div class=a>x</div>" + marker
        #expect(trimmed(page) == page)
        // Before the piece that shows it, tags were trimmed; a `~` or `+` followed by something else changes nothing.
        #expect(trimmed("<div class=a>x</div>" + String(repeating: " ", count: 5000) + marker, piece: 4096).hasPrefix("<div>x"))
        #expect(
            trimmed("<div class=a>" + marker + "x")
                == (marker.count == 1 ? "<div>" + marker + "x" : "<div class=a>" + marker + "x"))
    }

    /// Every attribute of the HTML standard (and a few others), on every element the scan collects and on an
    /// uncollected one, in forms, with values that would matter if read: the result is the same with the unread
    /// ones dropped. An attribute read by `PageCollectorState.startElement` but not listed in
    /// `Tag.readAttributes` fails here.
    @Test func everyStandardAttributeOnEveryCollectedElementScansTheSameDropped() throws {
        let attributes = """
            abbr accept accept-charset accesskey action align allow allowfullscreen alt aria-label as async autocapitalize
            autocomplete autofocus autoplay background bgcolor blocking border charset checked cite class color cols colspan
            content contenteditable controls coords crossorigin data datetime decoding default defer dir dirname disabled
            download draggable enctype enterkeyhint fetchpriority for form formaction formenctype formmethod formnovalidate
            formtarget headers height hidden high href hreflang http-equiv id inert inputmode integrity is ismap itemid
            itemprop itemref itemscope itemtype kind label lang list loading loop low max maxlength media method min
            minlength multiple muted name nomodule nonce novalidate open optimum pattern ping placeholder playsinline popover
            popovertarget popovertargetaction poster preload readonly referrerpolicy rel required reversed rows rowspan
            sandbox scope selected shadowrootmode shape size sizes slot span spellcheck src srcdoc srclang srcset start step
            style tabindex target title translate type usemap value width wrap xlink:href xmlns role
            """.split(whereSeparator: \.isWhitespace).map(String.init)
        let values = ["/v", "submit", "post", "_blank", "f", "text/javascript", "utf-8", "refresh"]
        var pages = 0
        for tag in Tag.collectedNames + ["div", "img", "body"] {
            for attribute in attributes {
                let value = values[(attribute.utf8.count + tag.utf8.count) % values.count]
                let page =
                    "<form id=f name=f action=/a><select name=s><\(tag) \(attribute)=\"\(value)\" name=n value=v href=/h src=/s>t</\(tag)>"
                    + "<\(tag) \(attribute) type=submit>u</\(tag)></select></form><a href=/after>a</a>"
                let dropped = try PageScanner.scan(Array(page.utf8), documentURL: Self.doc)
                let kept = try PageScanner.scan(Array(page.utf8), documentURL: Self.doc, dropsUnreadAttributes: false)
                #expect(dropped == kept, "\(page)")
                pages += 1
            }
        }
        #expect(pages > 2_500)
    }

    @Test func everyCollectedTagNameIsItsElementsName() {
        for name in Tag.collectedNames {
            #expect(name.withCString { Tag(UnsafeRawPointer($0).assumingMemoryBound(to: UInt8.self)) } != .other, "\(name)")
        }
        #expect(Tag.collectedNames.count == Tag.allCases.count - 1)
    }

    // MARK: nesting depth

    /// `n` nested `<div>`s around `inner`, closed, then `after`.
    func nested(_ n: Int, _ inner: String, after: String = "") -> [UInt8] {
        Array(
            ("<html><body>" + String(repeating: "<div>", count: n) + inner + String(repeating: "</div>", count: n)
                + after + "</body></html>").utf8)
    }

    @Test func contentAfterAHundredThousandNestedElementsIsFound() throws {
        let r = try scan(
            nested(100_000, "<a href=/deep>d</a>", after: "<a href=/after>x</a><form action=/f><input name=q value=1></form>"))
        #expect(r.links.map(\.url) == ["https://shop.example/deep", "https://shop.example/after"])
        #expect(r.links.map(\.text) == ["d", "x"])
        #expect(r.forms.map(\.fields) == [[.init(name: "q", value: "1")]])
        // html and body are two of the 512 kept; every <div> past them is one flattened element.
        #expect(
            r.truncations == [
                .init(
                    kind: .depth, count: 100_000 - (PageScanner.maxElementDepth - 2), limit: PageScanner.maxElementDepth,
                    dropped: 0)
            ])
    }

    @Test func strayEndTagsUnderDeepNestingCostLittle() throws {
        // Every `</i>` searches libxml2's element stack for an open <i>: with 100,000 <b> open that was 16 s for
        // this 0.7 MB page; the stack now holds at most 513 names.
        let html = Array(
            ("<html><body>" + String(repeating: "<b>", count: 100_000) + String(repeating: "</i>", count: 100_000)
                + "<a href=/after>x</a></body></html>").utf8)
        let clock = ContinuousClock()
        let start = clock.now
        let r = try scan(html)
        #expect(clock.now - start < .seconds(8))
        #expect(r.links.map(\.url) == ["https://shop.example/after"])
        #expect(r.truncations.map(\.kind) == [.depth])
    }

    @Test(arguments: [0, 1])
    func nothingIsFlattenedUpToTheLimit(extra: Int) throws {
        // html, body and the divs put the <a> at depth maxDepth + extra, its <span> one deeper. Chromium 156 draws
        // the line at the same place: with the <a> at depth 512 the <span> is its child; at 513 it is its sibling
        // (`--dump-dom` shows `<a href="/x">ab</a><span>t</span>`).
        let r = try scan(nested(PageScanner.maxElementDepth - 3 + extra, "<a href=/x>a<span>t</span>b</a>"))
        #expect(r.links.map(\.url) == ["https://shop.example/x"])
        // Within the limit the link holds its whole text. Past it the <span> closes the link and its text stops
        // there (Chromium adds the "b" after </span> to the link: its stack of open elements still holds it).
        #expect(r.links.map(\.text) == [extra == 0 ? "atb" : "a"])
        #expect(r.truncations.map(\.count) == (extra == 0 ? [] : [1]))
    }

    @Test func voidElementsPastTheLimitCloseNothing() throws {
        // <br>, <img> and <input> open and close at once: the deep link stays open around them.
        let inner = "<a href=/x>a<br>b<img src=/i.png>c<input name=z>d</a>"
        let r = try scan(nested(1_000, inner))
        #expect(r.links.map(\.text) == ["abcd"])
        #expect(r.links == (try scan(nested(10, inner))).links, "the same as within the limit")
        // 510 <div>s are kept (with html and body), the 511th is the one deep element open; the other 489 and
        // the <a> each close the one before.
        #expect(
            r.truncations == [
                .init(
                    kind: .depth, count: 1_000 - (PageScanner.maxElementDepth - 2), limit: PageScanner.maxElementDepth, dropped: 0
                )
            ])
    }
}
