import Testing
@testable import PlainviewServer

@Suite struct BackendCheckerUnitTests {
    @Test(arguments: [
        ("/swedbank-pay-mobile/sdk-callback/*", "/swedbank-pay-mobile/sdk-callback/ios-universal-link", true),
        ("/sdk-callback/*", "/swedbank-pay-mobile/sdk-callback/ios-universal-link", false),
        ("*", "/anything", true), ("/a?c", "/abc", true), ("/a?c", "/ac", false),
        ("/swedbank-pay-mobile/sdk-callback/ios-universal-link", "/swedbank-pay-mobile/sdk-callback/ios-universal-link", true),
        ("/*/sdk-callback/*-link", "/x/sdk-callback/ios-universal-link", true),
    ])
    func globMatchesLikeAASA(pattern: String, path: String, expected: Bool) {
        #expect(AASAPaths.glob(pattern, path) == expected)
    }

    @Test func excludesAndNOTPathsWin() {
        let path = "/m/sdk-callback/ios-universal-link"
        #expect(!AASAPaths.covers(detail: ["paths": ["NOT /m/*", "/m/sdk-callback/*"]], path: path))
        #expect(AASAPaths.covers(detail: ["paths": ["/m/sdk-callback/*"]], path: path))
        #expect(!AASAPaths.covers(detail: ["components": [["/": "/m/*", "exclude": true], ["/": "*"]]], path: path))
        #expect(AASAPaths.covers(detail: ["components": [["/": "/m/sdk-callback/ios-universal-link"]], "paths": ["NOT *"]], path: path))
    }

    @Test func intentExtrasMayComeInAnyOrder() {
        let data = "shop.example.com/p?package=a.b"
        #expect(BackendChecker.isIntent("intent://\(data)#Intent;package=a.b;action=com.swedbankpay.mobilesdk.VIEW_PAYMENTORDER;scheme=https;end;",
                                        data: data, scheme: "https", package: "a.b"))
        #expect(!BackendChecker.isIntent("intent://\(data)#Intent;scheme=https;package=a.b;end;", data: data, scheme: "https", package: "a.b"))
        #expect(!BackendChecker.isIntent("intent://evil.example/p?package=a.b#Intent;scheme=https;action=com.swedbankpay.mobilesdk.VIEW_PAYMENTORDER;package=a.b;end;",
                                         data: data, scheme: "https", package: "a.b"))
    }

    @Test func attributesAndRefreshAreExtractedWithEntitiesDecoded() {
        let html = "<META HTTP-EQUIV='refresh' CONTENT='0; URL=intent://x?a=1&amp;b=2'><a data-href=\"no\" href=\"https://x/?a=1&amp;b=&quot;\">é</a>"
        #expect(HTMLScan.attributeValues("href", in: html) == ["https://x/?a=1&b=\""])
        #expect(HTMLScan.metaRefreshURLs(html) == ["intent://x?a=1&b=2"])
    }

    @Test func fallbackTargetComparisonIgnoresOrderButNotExtras() {
        let original = "https://s/p?scheme=a&language=en-US&id=1"
        #expect(BackendChecker.sameURLPlusFallback("https://s/p?fallback=true&scheme=a&language=en-US&id=1", original))
        #expect(!BackendChecker.sameURLPlusFallback("https://s/p?scheme=a&language=en-US&id=1", original))
        #expect(!BackendChecker.sameURLPlusFallback("https://evil/p?scheme=a&language=en-US&id=1&fallback=true", original))
    }
}
