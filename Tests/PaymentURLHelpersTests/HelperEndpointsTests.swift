@testable import PaymentURLHelpers
import PlainviewURL
import Testing
@testable import NavigationPolicy
import PlainviewSupport

private let base = "https://shop.example.com"
private func endpoints(
    root: String = "/swedbank-pay-mobile/", trampoline: String? = nil,
    appIDs: [String] = ["ABCDE12345.com.example.shop"],
    package: String? = "com.example.shop"
) throws -> HelperEndpoints {
    HelperEndpoints(
        configuration: try HelperEndpointsConfiguration(
            publicURL: base, root: root, appIDs: appIDs, androidPackage: package,
            sha256CertFingerprints: package == nil ? [] : [String(repeating: "ab", count: 32)], trampolineURL: trampoline))
}
private func get(_ target: String, method: String = "GET") throws -> HelperResponse {
    try endpoints().respond(to: HelperRequest(method: method, target: target))
}

@Suite struct HelperEndpointsAndroidTests {
    @Test func androidPageRefreshesAndLinksToTheIntentOfTheRequestURL() throws {
        let r = try get("/swedbank-pay-mobile/sdk-callback/android-intent?package=your.ecom.app&id=abb50c53")
        #expect(r.status == 200)
        #expect(r.header("content-type") == "text/html; charset=utf-8")
        let intent =
            "intent://shop.example.com/swedbank-pay-mobile/sdk-callback/android-intent?package=your.ecom.app&amp;id=abb50c53#Intent;scheme=https;action=com.swedbankpay.mobilesdk.VIEW_PAYMENTORDER;package=your.ecom.app;end;"
        #expect(r.body.contains("<meta http-equiv=\"refresh\" content=\"0;url=\(intent)\">"))
        #expect(r.body.contains("<a class=\"button\" href=\"\(intent)\">Back to app</a>"))
    }

    @Test func intentCarriesThePublicPortAndHTTPScheme() throws {
        let e = HelperEndpoints(configuration: try HelperEndpointsConfiguration(publicURL: "http://127.0.0.1:8080"))
        let r = e.respond(to: HelperRequest(target: "/sdk-callback/android-intent?package=a.b"))
        #expect(r.body.contains("intent://127.0.0.1:8080/sdk-callback/android-intent?package=a.b#Intent;scheme=http;"))
    }

    @Test func echoedQueryIsEscapedAndNeverRaw() throws {
        // A browser sends `<`, `>` and `"` percent-encoded; a raw one is encoded too, never echoed.
        let r = try get("/swedbank-pay-mobile/sdk-callback/android-intent?package=a.b&x=<script>\"'")
        #expect(r.status == 200)
        #expect(!r.body.contains("<script>"))
        #expect(r.body.contains("x=%3Cscript%3E%22&#39;#Intent"))
    }

    @Test(arguments: [
        ("", "required"), ("com", "Android package"), ("1com.example", "Android package"),
        ("com..example", "Android package"), ("com.ex-ample", "Android package"), ("com.example;end;", "Android package"),
        ("com.%C3%A9xample", "Android package"), ("com.example.", "Android package"),
    ])
    func invalidPackageIsABadRequestProblem(package: String, detail: String) throws {
        let r = try get("/swedbank-pay-mobile/sdk-callback/android-intent?package=\(package)")
        #expect(r.status == 400)
        #expect(r.header("content-type") == "application/problem+json")
        #expect(r.body.contains("\"type\": \"https://api.payex.com/psp/errordetail/mobilesdk/badrequest\""))
        #expect(r.body.contains("\"parameter\": \"package\""))
        #expect(r.body.contains(detail))
    }

    @Test func missingPackageIsABadRequest() throws {
        let r = try get("/swedbank-pay-mobile/sdk-callback/android-intent?id=1")
        #expect(r.status == 400)
        #expect(r.body.contains("'package' is required"))
    }

    @Test func packageGivenTwiceIsABadRequest() throws {
        let r = try get("/swedbank-pay-mobile/sdk-callback/android-intent?package=a.b&package=c.d")
        #expect(r.status == 400)
        #expect(r.body.contains("2 times"))
    }
}

@Suite struct HelperEndpointsIOSTests {
    let seedTarget =
        "/swedbank-pay-mobile/sdk-callback/ios-universal-link?scheme=yourecomapp&language=en-US&id=abb50c53-53c1-4138-923f-59fcf0acd08d&app=Your%20Ecom%20App"

    @Test func firstVisitRedirectsToTheBackLinkPageWithFallbackTarget() throws {
        let r = try get(seedTarget)
        #expect(r.status == 302)
        #expect(r.header("cache-control") == "no-store")
        #expect(r.body.isEmpty)
        let expected =
            "https://shop.example.com/swedbank-pay-mobile/sdk-callback/trampoline?target=https%3A%2F%2Fshop.example.com%2Fswedbank-pay-mobile%2Fsdk-callback%2Fios-universal-link%3Fscheme%3Dyourecomapp%26language%3Den-US%26id%3Dabb50c53-53c1-4138-923f-59fcf0acd08d%26app%3DYour%2520Ecom%2520App%26fallback%3Dtrue&language=en-US&app=Your%20Ecom%20App"
        #expect(r.header("location") == expected)
    }

    @Test func backLinkPageCanLiveOnASeparateHost() throws {
        let e = try endpoints(trampoline: "https://back.example.net")
        let r = e.respond(to: HelperRequest(target: seedTarget))
        #expect(
            r.header("location")?.hasPrefix(
                "https://back.example.net/swedbank-pay-mobile/sdk-callback/trampoline?target=https%3A%2F%2Fshop.example.com%2F")
                == true)
    }

    @Test func fallbackRedirectsToTheSameURLWithTheCustomScheme() throws {
        let r = try get(seedTarget + "&fallback=true")
        #expect(r.status == 302)
        #expect(r.header("location") == "yourecomapp://shop.example.com" + seedTarget + "&fallback=true")
    }

    @Test func fallbackFalseIsReplacedNotDuplicated() throws {
        let r = try get("/swedbank-pay-mobile/sdk-callback/ios-universal-link?fallback=false&scheme=s&language=sv-SE")
        let location = try #require(r.header("location"))
        #expect(
            location.contains(
                "target=https%3A%2F%2Fshop.example.com%2Fswedbank-pay-mobile%2Fsdk-callback%2Fios-universal-link%3Fscheme%3Ds%26language%3Dsv-SE%26fallback%3Dtrue&"
            ))
    }

    @Test func languageIsCaseInsensitiveAndCanonicalised() throws {
        let r = try get("/swedbank-pay-mobile/sdk-callback/ios-universal-link?scheme=App.X&language=SV-se")
        #expect(r.header("location")?.hasSuffix("&language=sv-SE") == true)
    }

    @Test(
        arguments: [
            ("scheme=&language=en-US", "scheme"), ("language=en-US", "scheme"),
            ("scheme=1app&language=en-US", "scheme"), ("scheme=my%20app&language=en-US", "scheme"),
            ("scheme=https&language=en-US", "scheme"), ("scheme=JavaScript&language=en-US", "scheme"),
            ("scheme=intent&language=en-US", "scheme"), ("scheme=a:b&language=en-US", "scheme"),
            ("scheme=app", "language"), ("scheme=app&language=de-DE", "language"),
            ("scheme=app&language=en-US%0D%0ASet-Cookie:x=1", nil), ("scheme=app%0d%0aX:1&language=en-US", nil),
            ("scheme=app&language=en-US&fallback=yes", "fallback"),
            ("scheme=app&language=en-US&app=\(String(repeating: "x", count: 101))", "app"),
            ("scheme=app&language=en-US&id=%0A", nil), ("scheme=app&language=en-US&x=%E2%82", nil),
            ("scheme=app&language=en-US&x=%zz", nil), ("scheme=a&scheme=b&language=en-US", "scheme"),
        ] as [(String, String?)])
    func badParametersAreProblemsNeverRedirects(query: String, parameter: String?) throws {
        let r = try get("/swedbank-pay-mobile/sdk-callback/ios-universal-link?\(query)")
        #expect(r.status == 400, "\(r)")
        #expect(r.header("location") == nil)
        #expect(r.header("content-type") == "application/problem+json")
        if let parameter { #expect(r.body.contains("\"parameter\": \"\(parameter)\"")) }
        for h in r.headers { #expect(!h.value.contains("\r") && !h.value.contains("\n")) }
    }

    @Test func plusStaysAPlusInSchemes() throws {
        let r = try get("/swedbank-pay-mobile/sdk-callback/ios-universal-link?scheme=com.shop+pay&language=en-US&fallback=true")
        #expect(r.header("location")?.hasPrefix("com.shop+pay://shop.example.com/") == true)
    }

    @Test func rawBytesOutsideRFC3986AreEncodedInTheLocation() throws {
        let r = try get("/swedbank-pay-mobile/sdk-callback/ios-universal-link?scheme=app&language=en-US&fallback=true&x={|}^ é")
        #expect(
            r.header("location")
                == "app://shop.example.com/swedbank-pay-mobile/sdk-callback/ios-universal-link?scheme=app&language=en-US&fallback=true&x=%7B%7C%7D%5E%20%C3%A9"
        )
    }
}

@Suite struct HelperEndpointsTrampolineTests {
    static let own =
        "https%3A%2F%2Fshop.example.com%2Fswedbank-pay-mobile%2Fsdk-callback%2Fios-universal-link%3Fscheme%3Dapp%26language%3Den-US%26fallback%3Dtrue"

    @Test func pageLinksToTheTargetWithTheAppName() throws {
        let r = try get(
            "/swedbank-pay-mobile/sdk-callback/trampoline?target=\(Self.own)&language=sv-SE&app=Min%20%3Cb%3EApp%3C%2Fb%3E")
        #expect(r.status == 200)
        #expect(r.header("content-type") == "text/html; charset=utf-8")
        #expect(r.header("content-language") == "sv-SE")
        #expect(r.header("content-security-policy")?.contains("default-src 'none'") == true)
        #expect(r.body.contains("<html lang=\"sv-SE\">"))
        #expect(
            r.body.contains(
                "href=\"https://shop.example.com/swedbank-pay-mobile/sdk-callback/ios-universal-link?scheme=app&amp;language=en-US&amp;fallback=true\""
            ))
        #expect(r.body.contains(">Tillbaka till Min &lt;b&gt;App&lt;/b&gt;</a>"))
        #expect(!r.body.contains("<b>"))
        #expect(!r.body.contains("<script"))
    }

    @Test func pageWithoutAppNameSaysTheApp() throws {
        let r = try get("/swedbank-pay-mobile/sdk-callback/trampoline?target=\(Self.own)&language=en-US")
        #expect(r.body.contains(">Back to the app</a>"))
    }

    @Test(arguments: [
        "https%3A%2F%2Fevil.example%2Fswedbank-pay-mobile%2F",
        "https%3A%2F%2Fshop.example.com.evil.example%2Fswedbank-pay-mobile%2F",
        "https%3A%2F%2Fshop.example.com%40evil.example%2Fswedbank-pay-mobile%2F",
        "https%3A%2F%2Fshop.example.com%3A444%2Fswedbank-pay-mobile%2F",
        "http%3A%2F%2Fshop.example.com%2Fswedbank-pay-mobile%2F",
        "javascript%3Aalert(1)%2F%2Fhttps%3A%2F%2Fshop.example.com%2Fswedbank-pay-mobile%2F",
        "%2F%2Fevil.example%2F", "https%3A%2F%2Fshop.example.com%2Fother%2F",
        "https%3A%2F%2Fshop.example.com%2Fswedbank-pay-mobile%2F..%2Fadmin",
        "https%3A%2F%2Fshop.example.com%2Fswedbank-pay-mobile%2F%252e%252e%2Fadmin",
        "https%3A%2F%2Fshop.example.com%2Fswedbank-pay-mobile%2F%22%3E%3Cscript%3E",
        "https%3A%2F%2Fshop.example.com%2Fswedbank-pay-mobile%2F%5C%5Cevil.example",
        "https%3A%2F%2Fshop.example.com%2Fswedbank-pay-mobile%2F%23frag",
        // A path parameter: servers such as Tomcat read `..;` as `..`, climbing out of the mount point.
        "https%3A%2F%2Fshop.example.com%2Fswedbank-pay-mobile%2F..%3B%2Fadmin",
        "https%3A%2F%2Fshop.example.com%2Fswedbank-pay-mobile%2Fsdk-callback%3Bjsessionid%3D1%2F",
        "https%3A%2F%2Fshop.example.com%2Fswedbank-pay-mobile%2F%253B",
        "",
    ])
    func foreignOrUnsafeTargetsAreRejected(target: String) throws {
        let r = try get("/swedbank-pay-mobile/sdk-callback/trampoline?target=\(target)&language=en-US")
        #expect(r.status == 400, "\(target) → \(r)")
        #expect(r.body.contains("\"parameter\": \"target\""))
    }

    @Test func theLadderEndsOnTheBackLinkPageAndItsLinkFallsBack() throws {
        // Follow it as Safari would: payment url → back-link page → tapped link → custom scheme.
        let e = try endpoints()
        let first = e.respond(
            to: HelperRequest(target: "/swedbank-pay-mobile/sdk-callback/ios-universal-link?scheme=app&language=en-US&id=7"))
        let location = try #require(first.header("location"))
        let pageTarget = String(location.dropFirst("https://shop.example.com".count))
        let page = e.respond(to: HelperRequest(target: pageTarget))
        #expect(page.status == 200)
        let link =
            "https://shop.example.com/swedbank-pay-mobile/sdk-callback/ios-universal-link?scheme=app&language=en-US&id=7&fallback=true"
        #expect(page.body.contains("href=\"\(HTMLEscaping.escape(link))\""))
        let last = e.respond(to: HelperRequest(target: String(link.dropFirst("https://shop.example.com".count))))
        #expect(
            last.header("location")
                == "app://shop.example.com/swedbank-pay-mobile/sdk-callback/ios-universal-link?scheme=app&language=en-US&id=7&fallback=true"
        )
    }
}

@Suite struct HelperEndpointsWellKnownTests {
    @Test func aasaClaimsOnlyTheIOSHelperUnderTheRootInBothFormats() throws {
        let r = try get("/.well-known/apple-app-site-association")
        #expect(r.status == 200)
        #expect(r.header("content-type") == "application/json")
        #expect(r.body.contains("\"appIDs\": [\"ABCDE12345.com.example.shop\"]"))
        #expect(r.body.contains("\"appID\": \"ABCDE12345.com.example.shop\""))
        #expect(r.body.contains("{\"/\": \"/swedbank-pay-mobile/sdk-callback/ios-universal-link\""))
        #expect(
            r.body.contains(
                "\"paths\": [\"/swedbank-pay-mobile/sdk-callback/ios-universal-link\", \"/swedbank-pay-mobile/sdk-callback/ios-universal-link?*\"]"
            ))
    }

    @Test func aasaFollowsTheRoot() throws {
        let r = try endpoints(root: "/").respond(to: HelperRequest(target: "/.well-known/apple-app-site-association"))
        #expect(r.body.contains("\"paths\": [\"/sdk-callback/ios-universal-link\", \"/sdk-callback/ios-universal-link?*\"]"))
    }

    @Test func assetLinksDelegateToThePackage() throws {
        let r = try get("/.well-known/assetlinks.json")
        #expect(r.status == 200)
        #expect(r.body.contains("\"delegate_permission/common.handle_all_urls\""))
        #expect(r.body.contains("\"package_name\": \"com.example.shop\""))
        #expect(
            r.body.contains("\"AB:AB:AB:AB:AB:AB:AB:AB:AB:AB:AB:AB:AB:AB:AB:AB:AB:AB:AB:AB:AB:AB:AB:AB:AB:AB:AB:AB:AB:AB:AB:AB\"")
        )
    }

    @Test func withoutAPackageAssetLinksIsAnEmptyList() throws {
        let r = try endpoints(package: nil).respond(to: HelperRequest(target: "/.well-known/assetlinks.json"))
        #expect(r.body == "[]\n")
    }
}

@Suite struct HelperEndpointsRoutingTests {
    @Test(arguments: [
        "/", "/sdk-callback/android-intent?package=a.b", "/swedbank-pay-mobile/sdk-callback/android-intent/",
        "/swedbank-pay-mobile/sdk-callback/", "/.well-known/", "/swedbank-pay-mobile/",
    ])
    func unknownPathsAre404Problems(target: String) throws {
        let r = try get(target)
        #expect(r.status == 404)
        #expect(r.header("content-type") == "application/problem+json")
        #expect(r.body.contains("\"type\": \"about:blank\""))
    }

    @Test(arguments: ["POST", "PUT", "DELETE", "OPTIONS"])
    func otherMethodsAre405WithAllow(method: String) throws {
        let r = try get("/swedbank-pay-mobile/sdk-callback/android-intent?package=a.b", method: method)
        #expect(r.status == 405)
        #expect(r.header("allow") == "GET, HEAD")
    }

    @Test func headHasNoBody() throws {
        let r = try get("/swedbank-pay-mobile/sdk-callback/android-intent?package=a.b", method: "HEAD")
        #expect(r.status == 200)
        #expect(r.body.isEmpty)
    }

    @Test func longURLIs414() throws {
        let r = try get("/swedbank-pay-mobile/sdk-callback/android-intent?package=a.b&x=" + String(repeating: "a", count: 5000))
        #expect(r.status == 414)
    }

    @Test(arguments: [
        "/a\r\nb", "/swedbank-pay-mobile/sdk-callback/android-intent?package=a.b\r\nX: 1", "relative", "/x#y", "/%0d%0a",
    ])
    func malformedTargetsAreBadRequests(target: String) throws {
        let r = try get(target)
        #expect(r.status == 400)
        for h in r.headers { #expect(!h.value.contains("\n")) }
    }
}

@Suite struct HelperEndpointsConfigurationTests {
    @Test(arguments: [
        ("https://Shop.Example.COM.", "https://shop.example.com"), ("http://127.0.0.1:8080/", "http://127.0.0.1:8080"),
        ("https://x.example:443", "https://x.example"), ("http://[::1]:9000", "http://[::1]:9000"),
    ])
    func publicOriginsNormalise(input: String, expected: String) {
        #expect(PublicOrigin(input)?.description == expected)
    }

    @Test(arguments: [
        "ftp://x", "https://user@x", "https://x/path", "https://x?q", "https://x:0", "https://x:99999",
        "https://ex ample", "https://-x.com", "https://", "x.com", "https://bücher.example",
    ])
    func badPublicOriginsAreRejected(input: String) {
        #expect(PublicOrigin(input) == nil)
    }

    @Test(arguments: [("/", "/"), ("/a", "/a/"), ("/a/b/", "/a/b/")])
    func rootsNormalise(input: String, expected: String) throws {
        #expect(try HelperEndpointsConfiguration(publicURL: base, root: input).root == expected)
    }

    @Test(arguments: ["a/", "/a//b", "/../x", "/a b", "/a?b"])
    func badRootsAreRejected(root: String) {
        #expect(throws: HelperConfigurationError.self) { try HelperEndpointsConfiguration(publicURL: base, root: root) }
    }

    @Test func badAppIDsAndFingerprintsAreRejected() {
        #expect(throws: HelperConfigurationError.self) {
            try HelperEndpointsConfiguration(publicURL: base, appIDs: ["com.example"])
        }
        #expect(throws: HelperConfigurationError.self) {
            try HelperEndpointsConfiguration(publicURL: base, androidPackage: "a.b", sha256CertFingerprints: ["AB:CD"])
        }
        #expect(throws: HelperConfigurationError.self) {
            try HelperEndpointsConfiguration(publicURL: base, androidPackage: "a.b")
        }
    }
}

@Suite struct HelperTextTests {
    @Test(arguments: [
        ("a b", "a%20b"), ("é", "%C3%A9"), ("a&b=c/d?e#f", "a%26b%3Dc%2Fd%3Fe%23f"), ("-._~", "-._~"),
        ("'()*!", "%27%28%29%2A%21"),
    ])
    func componentEncoding(input: String, expected: String) {
        #expect(PercentEncoding.encodeComponent(input) == expected)
        #expect(PercentEncoding.decodeComponent(expected) == input)
    }

    @Test func decodingRejectsMalformedEscapesAndNonUTF8() {
        #expect(PercentEncoding.decodeComponent("%") == nil)
        #expect(PercentEncoding.decodeComponent("%4") == nil)
        #expect(PercentEncoding.decodeComponent("%gg") == nil)
        #expect(PercentEncoding.decodeComponent("%FF") == nil)
        #expect(PercentEncoding.decodeComponent("a+b") == "a+b")
    }

    @Test func htmlAndJSONEscaping() {
        #expect(HTMLEscaping.escape("<a href=\"x\">'&'</a>") == "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;")
        #expect(JSONEscaping.quote("a\"\\\n</script>\u{2028}") == "\"a\\\"\\\\\\n\\u003c/script\\u003e\\u2028\"")
        // For files and terminals: only what JSON requires (controls still escaped, DEL too).
        #expect(
            JSONEscaping.quote("a?b=1&c=<d>\u{2028}\u{1}\u{7F}é", htmlSafe: false) == "\"a?b=1&c=<d>\u{2028}\\u0001\\u007fé\"")
    }
}
