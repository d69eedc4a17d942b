import PageScan
import Testing
@testable import PlainviewServer
@testable import BackendChecker

@Suite struct BackendCheckerUnitTests {
    @Test func intentExtrasMayComeInAnyOrder() {
        let data = "shop.example.com/p?package=a.b"
        #expect(
            BackendChecker.isIntent(
                "intent://\(data)#Intent;package=a.b;action=com.swedbankpay.mobilesdk.VIEW_PAYMENTORDER;scheme=https;end;",
                data: data, scheme: "https", package: "a.b"))
        #expect(
            !BackendChecker.isIntent(
                "intent://\(data)#Intent;scheme=https;package=a.b;end;", data: data, scheme: "https", package: "a.b"))
        #expect(
            !BackendChecker.isIntent(
                "intent://evil.example/p?package=a.b#Intent;scheme=https;action=com.swedbankpay.mobilesdk.VIEW_PAYMENTORDER;package=a.b;end;",
                data: data, scheme: "https", package: "a.b"))
    }

    @Test func pagesAreReadByTheSharedExtractorWithEntitiesDecoded() {
        let html =
            "<META HTTP-EQUIV='refresh' CONTENT='0; URL=intent://x?a=1&amp;b=2'><a data-href=\"no\" href=\"https://x/?a=1&amp;b=c\">é</a>"
        let page = BackendChecker.scan(html, at: "https://backend.example/p")
        #expect(page.links.map(\.url) == ["https://x/?a=1&b=c"])
        #expect(page.refresh?.url == "intent://x?a=1&b=2")
    }

    @Test func fallbackTargetComparisonIgnoresOrderButNotExtras() {
        let original = "https://s/p?scheme=a&language=en-US&id=1"
        #expect(BackendChecker.sameURLPlusFallback("https://s/p?fallback=true&scheme=a&language=en-US&id=1", original))
        #expect(!BackendChecker.sameURLPlusFallback("https://s/p?scheme=a&language=en-US&id=1", original))
        #expect(!BackendChecker.sameURLPlusFallback("https://evil/p?scheme=a&language=en-US&id=1&fallback=true", original))
    }

    @Test(
        arguments: [
            ("<a href=https://s/p?id=pvs001 pva001=1\tpva001t=1/pva001s=1&gt;pve001>x</a>", true),
            ("<a href=\"https://s/p?id=pvs001 pva001=1\tpva001t=1/pva001s=1&gt;pve001\">x</a>", false),
            ("<p>pvs001 pva001=1 pva001t=1/pva001s=1&gt;pve001</p>", false),
            ("<script>var id = 'pvs001';pvjs001();'\";pvjs001();\"\\';pvjs001();'pve001';</script>", true),
            ("<script>var id = \"pvs001';pvjs001();'\";pvjs001();\"\\';pvjs001();'pve001\";</script>", true),
            ("<script>var id = 'pvs001\\';pvjs001();\\'\";pvjs001();\"\\\\\\';pvjs001();\\'pve001';</script>", false),
            ("<script>var id = \"pvs001';pvjs001();'\\\";pvjs001();\\\"\\\\';pvjs001();'pve001\";</script>", false),
            ("<script>// pvs001';pvjs001();\n</script>", false),
            ("<script src=x>pvjs001()</script>", false),
            ("<a onclick=\"go('pvs001';pvjs001();'')\">x</a>", true),
        ] as [(String, Bool)])
    func markupInjectionReadsThePageAsParsed(html: String, injected: Bool) {
        #expect(!BackendChecker.markupInjection(html, start: "pvs001").isEmpty == injected, "\(html)")
    }

    @Test func codeIdentifiersSkipStringsCommentsAndRegexes() {
        let ids = PageScanner.codeIdentifiers(inScript: "var a = 'b c'; /* d */ e(/f/); // g\n`h` + i")
        #expect(ids == ["var", "a", "e", "i"])
    }

    @Test func lookAlikeTargetsGoToTheForeignHost() {
        let page = "http://127.0.0.1:1/p/trampoline?target=x"
        #expect(BackendChecker.isForeign("https://shop.example.com.evil.example/p", base: page))
        #expect(BackendChecker.isForeign("https://shop.example.com@evil.example/p", base: page))
        #expect(BackendChecker.isForeign("https://shop.example.com%2F@evil.example/p", base: page))
        #expect(BackendChecker.isForeign("https://evil.example\\@shop.example.com/p", base: page))
        #expect(BackendChecker.isForeign("//evil.example/p", base: page))
        #expect(!BackendChecker.isForeign("https://shop.example.com/p?target=https%3A%2F%2Fevil.example%2F", base: page))
        #expect(!BackendChecker.isForeign("https://shop.example.com/evil.example", base: page))
    }
}
