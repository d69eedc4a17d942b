// The backend checker against a real server: Plainview's own (every check passes) and deliberately broken ones.
import PaymentURLHelpers
import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
@testable import NavigationPolicy
import Testing
import TestSupport
@testable import PlainviewServer
@testable import BackendChecker

private func options(publicURL: String? = "https://shop.example.com", pages: String? = nil) -> ServerOptions {
    var o = ServerOptions()
    o.port = 0
    o.root = "/swedbank-pay-mobile/"
    o.publicURL = publicURL
    o.appIDs = ["ABCDE12345.com.example.shop"]
    o.androidPackage = "com.example.shop"
    o.sha256CertFingerprints = [String(repeating: "AB", count: 32)]
    o.pagesDirectory = pages
    // The app's own scheme, and the one the backend checker sends by default.
    o.appSchemes = ["shop", "plainviewcheck"]
    return o
}

private let quiet = Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }


@Suite(.serialized) struct BackendCheckerTests {
    @Test(arguments: [nil, "https://shop.example.com"] as [String?])
    func ourServerPassesEveryCheck(publicURL: String?) async throws {
        // Without a public URL the server names its bound address; with one (the normal deployment) the probe
        // goes to 127.0.0.1 while every generated URL says https://shop.example.com.
        let collector = LineCollector(level: .debug)
        let app = try PlainviewServer.makeApplication(
            options: options(publicURL: publicURL), logger: Logger(label: "t") { _ in collector })
        try await app.test(.live) { client in
            let port = try #require(client.port)
            var o = BackendCheckOptions(baseURL: "http://127.0.0.1:\(port)/swedbank-pay-mobile")
            o.publicURL = publicURL
            o.expectedAppID = "ABCDE12345.com.example.shop"
            o.expectedAndroidPackage = "com.example.shop"
            // keytool's form, in lower case: the same certificate as the server's.
            o.expectedAndroidCertSHA256 = [Array(repeating: "ab", count: 32).joined(separator: ":")]
            let results = try await BackendChecker(options: o).run()
            #expect(results.count >= 30)
            for r in results { #expect(r.outcome == .pass, "\(r)") }
            // The injection probes ran against every parameter the endpoints use.
            for name in BackendChecker.injectionCheckNames {
                #expect(results.contains { $0.check == name && $0.outcome == .pass }, "\(name)")
            }
        }
        // Only URLs under the base and the two well-known files were fetched.
        for line in collector.snapshot where line.hasPrefix("GET ") {
            let path = line.split(separator: " ")[1]
            #expect(path.hasPrefix("/swedbank-pay-mobile/") || path.hasPrefix("/.well-known/"), "\(line)")
        }
    }

    @Test func aPublicURLThatIsNotTheServersFails() async throws {
        // The server generates URLs for https://shop.example.com; the checker is told another origin.
        let app = try PlainviewServer.makeApplication(options: options(publicURL: "https://shop.example.com"), logger: quiet)
        try await app.test(.live) { client in
            let port = try #require(client.port)
            var o = BackendCheckOptions(baseURL: "http://127.0.0.1:\(port)/swedbank-pay-mobile/")
            o.publicURL = "https://other.example.com"
            let results = try await BackendChecker(options: o).run()
            let page = try #require(results.first { $0.check == "android-intent page" })
            #expect(page.outcome == .fail)
            #expect(
                page.detail.contains("intent://other.example.com/") && page.detail.contains("intent://shop.example.com/"),
                "\(page)")
            #expect(results.first { $0.check == "ios-universal-link fallback" }?.outcome == .fail)
        }
    }

    @Test func expectedAppsThatAreMissingFail() async throws {
        let app = try PlainviewServer.makeApplication(options: options(publicURL: nil), logger: quiet)
        try await app.test(.live) { client in
            let port = try #require(client.port)
            var o = BackendCheckOptions(baseURL: "http://127.0.0.1:\(port)/swedbank-pay-mobile/")
            o.expectedAppID = "ZZZZZ99999.other.app"
            o.expectedAndroidPackage = "other.app"
            let results = try await BackendChecker(options: o).run()
            #expect(results.first { $0.check == "apple-app-site-association" }?.outcome == .fail)
            #expect(results.first { $0.check == "assetlinks.json" }?.outcome == .fail)
        }
    }

    @Test func aMisMountedBaseFailsTheAASACheck() async throws {
        // Helpers mounted at /, checked as if at /swedbank-pay-mobile/: every endpoint is missing there.
        var o2 = options(publicURL: nil)
        o2.root = "/"
        let app = try PlainviewServer.makeApplication(options: o2, logger: quiet)
        try await app.test(.live) { client in
            let port = try #require(client.port)
            let results = try await BackendChecker(
                options: BackendCheckOptions(baseURL: "http://127.0.0.1:\(port)/swedbank-pay-mobile/")
            ).run()
            #expect(results.first { $0.check == "apple-app-site-association" }?.outcome == .fail)
            #expect(results.first { $0.check == "android-intent page" }?.outcome == .fail)
            #expect(results.first { $0.check == "android-intent injection package" }?.outcome == .skip)
            #expect(results.first { $0.check == "ios-universal-link ignores Host" }?.outcome == .skip)
        }
    }

    @Test func everyDefectOfTheBrokenBackendIsReported() async throws {
        let app = BrokenBackendFixture.makeApplication()
        try await app.test(.live) { client in
            let port = try #require(client.port)
            let results = try await BackendChecker(
                options: BackendCheckOptions(baseURL: "http://127.0.0.1:\(port)/swedbank-pay-mobile/")
            ).run()
            func outcome(_ check: String) -> BackendCheckResult.Outcome? { results.first { $0.check == check }?.outcome }
            let listing = results.map(\.description).joined(separator: "\n")
            // 500 HTML instead of RFC 7807 problems.
            #expect(outcome("android-intent without package") == .fail, "\(listing)")
            #expect(outcome("ios-universal-link without scheme") == .fail)
            // Lenient validation alone is a warning, not a failure.
            #expect(outcome("android-intent invalid package") == .warn)
            #expect(outcome("ios-universal-link https scheme") == .warn)
            #expect(outcome("ios-universal-link invalid language") == .warn)
            // The decoded package echoed raw into the page.
            #expect(outcome("android-intent injection package") == .fail, "\(listing)")
            // Host header trusted.
            #expect(outcome("android-intent ignores Host") == .fail)
            #expect(outcome("ios-universal-link ignores Host") == .fail)
            // AASA hard-wired to the host root; no assetlinks.
            #expect(outcome("apple-app-site-association") == .fail)
            #expect(outcome("assetlinks.json") == .fail)
            // 301s and a back-link page on a foreign host: warned; the page is not fetched, so not probed.
            #expect(outcome("ios-universal-link redirect") == .warn)
            #expect(outcome("ios-universal-link fallback") == .warn)
            #expect(outcome("back-link page") == .warn)
            #expect(outcome("back-link page injection target") == .skip)
            // What it does get right still passes: the intent page itself.
            #expect(outcome("android-intent page") == .pass)
            #expect(outcome("unknown path") == .warn)
            for r in results where r.outcome == .fail { #expect(r.detail.contains("GET http://127.0.0.1:"), "\(r)") }
        }
    }

    @Test(arguments: ["ftp://x/", "https://x/a?b", "not a url", "https://user@x/"])
    func unusableBaseURLsAreErrors(url: String) {
        #expect(throws: BackendCheckError.self) { try BackendChecker(options: BackendCheckOptions(baseURL: url)) }
    }

    @Test func anUnusablePublicURLIsAnError() {
        var o = BackendCheckOptions(baseURL: "http://127.0.0.1:1/")
        o.publicURL = "https://shop.example.com/path"
        #expect(throws: BackendCheckError.self) { try BackendChecker(options: o) }
    }
}
