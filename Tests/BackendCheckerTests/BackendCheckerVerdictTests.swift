import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
@testable import PlainviewServer
@testable import BackendChecker

/// The checker's verdicts on hand-made backends probed at 127.0.0.1 while they generate URLs for
/// https://shop.example.com: every planted defect is a FAIL naming it; the correct and the lenient-but-safe
/// backends get no FAIL; every FAIL and WARN says what was fetched and what was found.
@Suite(.serialized) struct BackendCheckerVerdictTests {
    static func check(_ v: HandMadeBackend.Variant, path: String = HandMadeBackend.mount) async throws -> [BackendCheckResult] {
        let app = HandMadeBackend.makeApplication(v)
        return try await app.test(.live) { client in
            let port = try #require(client.port)
            var o = BackendCheckOptions(baseURL: "http://127.0.0.1:\(port)\(path)")
            o.publicURL = HandMadeBackend.publicOrigin
            o.expectedAndroidCertSHA256 = [HandMadeBackend.appCertificate]
            o.timeoutSeconds = 20
            return try await BackendChecker(options: o).run()
        }
    }

    @Test(arguments: HandMadeBackend.Variant.allCases)
    func everyPlantedDefectIsAFailNamingIt(variant: HandMadeBackend.Variant) async throws {
        let results = try await Self.check(variant)
        let failed = results.filter { $0.outcome == .fail }
        let listing = results.map(\.description).joined(separator: "\n")
        if let planted = HandMadeBackend.plantedFailure(variant) {
            #expect(failed.contains { $0.check == planted }, "\(variant): expected FAIL \(planted)\n\(listing)")
        } else {
            #expect(failed.isEmpty, "\(variant): expected no FAIL\n\(listing)")
        }
        // The failures a planted defect may bring along are about the same defect, never the unrelated checks.
        let unrelated: Set<String> = [
            "reachable", "apple-app-site-association", "assetlinks.json", "android-intent page", "android-intent ignores Host",
        ]
        for f in failed where unrelated.contains(f.check) {
            #expect(f.check == HandMadeBackend.plantedFailure(variant), "\(variant): unexpected \(f)")
        }
        for r in results where r.outcome == .fail || r.outcome == .warn {
            #expect(r.detail.contains("GET http://127.0.0.1:"), "no URL fetched in: \(r)")
        }
        #expect(!results.contains { $0.outcome == .skip }, "\(listing)")
    }

    @Test func theIssuesRawPackageEchoIsReportedWithItsEvidence() async throws {
        let results = try await Self.check(.rawPackageEcho)
        let f = try #require(results.first { $0.check == "android-intent injection package" })
        #expect(f.outcome == .fail)
        #expect(f.detail.contains("<p>Returning to pvs"), "\(f)")
        #expect(f.detail.contains("<img/src=x/onerror=alert("), "\(f)")
        #expect(f.detail.contains("HTML/attribute breaker in package"), "\(f)")
        // Invalid packages being accepted is not by itself a FAIL.
        #expect(results.first { $0.check == "android-intent invalid package" }?.outcome == .warn)
    }

    @Test func aPackageWrittenRawIntoTheIntentIsAnIntentInjection() async throws {
        let results = try await Self.check(.rawPackageInIntent)
        let f = try #require(results.first { $0.check == "android-intent injection package" })
        #expect(f.outcome == .fail)
        #expect(f.detail.contains("breaks out of its place in the intent URL"), "\(f)")
    }

    @Test func aLenientButSafeBackendGetsWarningsNotFailures() async throws {
        let results = try await Self.check(.lenientButSafe)
        #expect(results.first { $0.check == "ios-universal-link invalid language" }?.outcome == .warn)
        #expect(results.first { $0.check == "ios-universal-link CR/LF" }?.outcome == .warn)
        #expect(results.first { $0.check == "android-intent injection package" }?.outcome == .pass)
        // An unchecked scheme on the fallback rung is a warning: the caller picks the scheme either way.
        #expect(results.first { $0.check == "ios-universal-link https scheme" }?.outcome == .warn)
        #expect(results.first { $0.check == "ios-universal-link injection scheme" }?.outcome == .warn)
    }

    @Test func theAndroid301NamesTheStatusAndWhy() async throws {
        let results = try await Self.check(.android301)
        let f = try #require(results.first { $0.check == "android-intent page" })
        #expect(f.outcome == .fail)
        #expect(f.detail.contains("→ 301 Location: intent://shop.example.com/"), "\(f)")
        #expect(f.detail.contains("without expiry"), "\(f)")
    }

    /// Issue 29: defective backends that passed (or only warned). Each FAIL names the URL fetched and what was
    /// expected, with the evidence.
    @Test(
        arguments: [
            (.prefixCheckedTrampoline, "trampoline?target=https%3A%2F%2Fshop.example.com"),
            (.prefixCheckedTrampoline, "evil.example"),
            (.unquotedTrampolineHref, "unquoted-attribute breaker"),
            (.unquotedTrampolineHref, "adds the attribute pva"),
            (.scriptStringID, "JavaScript string breaker"),
            (.scriptStringID, "breaks out of a JavaScript string in an inline script"),
            (.wrongCertFingerprint, HandMadeBackend.otherCertificate),
            (.wrongCertFingerprint, "expected \(HandMadeBackend.appCertificate)"),
            (.brokenForAndroidUserAgent, "User-Agent: Mozilla/5.0 (Linux; Android"),
            (.brokenForIPhoneUserAgent, "User-Agent: Mozilla/5.0 (iPhone;"),
            (.brokenForIPhoneUserAgent, "→ 500"),
            (.httpBackLink, "Location: http://shop.example.com/swedbank-pay-mobile/sdk-callback/trampoline?"),
            (.httpBackLink, "expected an https:// back-link page"),
            (.aasaAsHTML, "text/html"),
            (.aasaAsHTML, "expected Content-Type application/json"),
        ] as [(HandMadeBackend.Variant, String)])
    func issue29DefectsFailWithTheirEvidence(variant: HandMadeBackend.Variant, evidence: String) async throws {
        let results = try await Self.check(variant)
        let planted = try #require(HandMadeBackend.plantedFailure(variant))
        let f = try #require(results.first { $0.check == planted })
        #expect(f.outcome == .fail, "\(f)")
        #expect(f.detail.contains("GET http://127.0.0.1:"), "\(f)")
        #expect(f.detail.contains("expected"), "\(f)")
        #expect(f.detail.contains(evidence), "\(f)")
    }

    @Test func withoutAnExpectedCertificateAssetLinksSaysItWasNotChecked() async throws {
        let app = HandMadeBackend.makeApplication(.wrongCertFingerprint)
        try await app.test(.live) { client in
            let port = try #require(client.port)
            var o = BackendCheckOptions(baseURL: "http://127.0.0.1:\(port)\(HandMadeBackend.mount)")
            o.publicURL = HandMadeBackend.publicOrigin
            let results = try await BackendChecker(options: o).run()
            let r = try #require(results.first { $0.check == "assetlinks.json" })
            #expect(r.outcome == .pass, "\(r)")
            #expect(r.detail.contains("certificate fingerprint not checked"), "\(r)")
        }
    }

    @Test(arguments: [
        (Array(repeating: "ab", count: 32).joined(separator: ":"), true),
        (Array(repeating: "Ab", count: 32).joined(separator: ":"), true),
        (String(repeating: "AB", count: 32), true),
        (Array(repeating: "AB", count: 31).joined(separator: ":"), false),
        (Array(repeating: "AB", count: 33).joined(separator: ":"), false),
        (Array(repeating: "XY", count: 32).joined(separator: ":"), false),
        ("", false),
    ])
    func expectedCertificatesAreValidated(fingerprint: String, valid: Bool) {
        var o = BackendCheckOptions(baseURL: "http://127.0.0.1:1/")
        o.expectedAndroidCertSHA256 = [fingerprint]
        if valid {
            #expect(throws: Never.self) { try BackendChecker(options: o) }
        } else {
            #expect(throws: BackendCheckError.self) { try BackendChecker(options: o) }
        }
    }

    @Test func aWrongRootSkipsWhatDependsOnTheEndpoints() async throws {
        let results = try await Self.check(.correct, path: "/wrong-root/")
        func outcome(_ c: String) -> BackendCheckResult.Outcome? { results.first { $0.check == c }?.outcome }
        #expect(outcome("reachable") == .pass)
        #expect(outcome("android-intent page") == .fail)
        #expect(outcome("ios-universal-link redirect") == .fail)
        #expect(results.first { $0.check == "android-intent page" }?.detail.contains("→ 404") == true)
        for name in [
            "android-intent ignores Host", "ios-universal-link fallback", "back-link page", "android-intent without package",
            "ios-universal-link CR/LF", "android-intent injection package", "back-link page injection app",
        ] {
            #expect(outcome(name) == .skip, "\(name): \(results.map(\.description).joined(separator: "\n"))")
        }
        // Nothing that depends on the helpers passes.
        let passing = Set(results.filter { $0.outcome == .pass }.map(\.check))
        #expect(passing.isSubset(of: ["reachable", "assetlinks.json", "unknown path"]), "\(passing)")
    }

    @Test func anUnreachableBackendIsOneFailureAndEverythingElseSkipped() async throws {
        // A port nothing listens on: bind one, note it, close it.
        let app = HandMadeBackend.makeApplication(.correct)
        let port = try await app.test(.live) { client in try #require(client.port) }
        var o = BackendCheckOptions(baseURL: "http://127.0.0.1:\(port)/swedbank-pay-mobile/")
        o.timeoutSeconds = 2
        let results = try await BackendChecker(options: o).run()
        #expect(results.first?.check == "reachable")
        #expect(results.first?.outcome == .fail)
        #expect(results.dropFirst().allSatisfy { $0.outcome == .skip })
        #expect(results.count > 20)
    }
}

@Suite struct BackendCheckerReflectionTests {
    static let s = "pvs001", e = "pve001"
    static let payload = "pvs001\"'><img/src=x/onerror=alert(pve001)>"

    @Test(
        arguments: [
            ("<p>Returning to \(payload)</p>", true),
            ("<p>Returning to \(HTMLEscapingProxy.escape(payload))</p>", false),
            ("<a title=\"\(payload)\">x</a>", true),
            ("<a title='pvs001&quot;'><img/src=x/onerror=alert(pve001)>'>x</a>", true),
            ("<a title=\"pvs001%22%27%3E%3Cimg/src=x/onerror=alert(pve001)%3E\">x</a>", false),
            ("<a title=\"pvs001&quot;'&gt;&lt;img/src=x/onerror=alert(pve001)&gt;\">x</a>", false),
            ("<a title=pvs001&quot;&#39;&gt;&lt;img/src=x/onerror=alert(pve001)&gt;>x</a>", false),
            ("<a title=pvs001\"'>x</a>", true),
            ("<script>var a = 'pvs001</script><img/src=x/onerror=alert(pve001)>';</script>", true),
            ("<title>pvs001\"'><img/src=x/onerror=alert(pve001)></title>", true),
            ("<title>pvs001&quot;&#39;&gt;&lt;img/src=x/onerror=alert(pve001)&gt;</title>", false),
            ("<!-- pvs001&quot;&#39;&gt;&lt;img/src=x/onerror=alert(pve001)&gt; -->", false),
            ("<!-- pvs001 --><p>pve001</p>", true),
        ] as [(String, Bool)])
    func reflectionIsJudgedInItsContext(html: String, unsafe: Bool) {
        #expect((BackendChecker.htmlReflection(html, start: Self.s, end: Self.e) != nil) == unsafe, "\(html)")
    }

    @Test func intentAndURLBreakouts() {
        let good = "intent://shop.example.com/p?package=a.b&id=x%3BS.pvinj%3D1#Intent;scheme=https;package=a.b;end;"
        #expect(BackendChecker.intentInjection(good, start: "pvs001") == nil)
        #expect(
            BackendChecker.intentInjection(
                "intent://s/p?id=pvs001;S.pvinj=1;end;#Intent;S.pvinj=1;end#Intent;scheme=https;end;", start: "pvs001") != nil)
        #expect(
            BackendChecker.intentInjection(
                "intent://s/p#Intent;scheme=https;package=pvs001;S.pvinj=1;end;package=a.b;end;", start: "pvs001") != nil)
        #expect(BackendChecker.intentInjection("intent://s/p?id=pvs001&pvinj=1#Intent;scheme=https;end;", start: "pvs001") != nil)
        #expect(BackendChecker.urlInjection("https://t/p?target=x&language=pvs001&pvinj=1") != nil)
        #expect(BackendChecker.urlInjection("https://t/p?target=x&language=pvs001%26pvinj%3D1%23pvinj") == nil)
    }
}

enum HTMLEscapingProxy {
    static func escape(_ s: String) -> String {
        s.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;").replacingOccurrences(
                of: "'", with: "&#39;")
    }
}
