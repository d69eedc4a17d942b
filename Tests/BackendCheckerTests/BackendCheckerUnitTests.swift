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
}
