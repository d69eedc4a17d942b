import PaymentURLHelpers
import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
@testable import NavigationPolicy
import Testing
import TestSupport
import FlowSimulator
@testable import PlainviewServer

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


@Suite struct PlainviewServerRouterTests {
    @Test(
        arguments: [
            ("/swedbank-pay-mobile/sdk-callback/android-intent?package=com.example.shop&id=1", 200, "text/html; charset=utf-8"),
            ("/swedbank-pay-mobile/sdk-callback/ios-universal-link?scheme=shop&language=en-US", 302, nil),
            ("/swedbank-pay-mobile/sdk-callback/ios-universal-link?scheme=shop&language=en-US&fallback=true", 302, nil),
            (
                "/swedbank-pay-mobile/sdk-callback/trampoline?target=https%3A%2F%2Fshop.example.com%2Fswedbank-pay-mobile%2Fx&language=da-DK",
                200, "text/html; charset=utf-8"
            ),
            ("/.well-known/apple-app-site-association", 200, "application/json"),
            ("/.well-known/assetlinks.json", 200, "application/json"),
            ("/swedbank-pay-mobile/sdk-callback/android-intent", 400, "application/problem+json"),
            ("/swedbank-pay-mobile/sdk-callback/android-intent?package=x", 400, "application/problem+json"),
            ("/swedbank-pay-mobile/sdk-callback/ios-universal-link?scheme=https&language=en-US", 400, "application/problem+json"),
            ("/swedbank-pay-mobile/sdk-callback/ios-universal-link?scheme=a&language=zz", 400, "application/problem+json"),
            (
                "/swedbank-pay-mobile/sdk-callback/trampoline?target=https%3A%2F%2Fevil.example%2F&language=en-US", 400,
                "application/problem+json"
            ),
            ("/nothing-here", 404, "application/problem+json"),
        ] as [(String, Int, String?)])
    func everyEndpointAndErrorThroughTheRouter(uri: String, status: Int, contentType: String?) async throws {
        let app = try PlainviewServer.makeApplication(options: options(), logger: quiet)
        try await app.test(.router) { client in
            try await client.execute(uri: uri, method: .get) { response in
                #expect(response.status.code == status)
                if let contentType { #expect(response.headers[.contentType] == contentType) }
            }
        }
    }

    @Test func postIs405WithAllow() async throws {
        let app = try PlainviewServer.makeApplication(options: options(), logger: quiet)
        try await app.test(.router) { client in
            try await client.execute(
                uri: "/swedbank-pay-mobile/sdk-callback/android-intent?package=a.b", method: .post,
                body: ByteBuffer(string: "x")
            ) { response in
                #expect(response.status == .methodNotAllowed)
                #expect(response.headers[.allow] == "GET, HEAD")
            }
        }
    }

    /// Every request is a debug line; a refused one (4xx but 404) a warning; at info level a served request
    /// writes nothing.
    @Test(arguments: [Logger.Level.debug, .info])
    func requestLinesAreDebugAndRefusalsWarnings(level: Logger.Level) async throws {
        let collector = LineCollector(level: level)
        let logger = Logger(label: "test") { _ in collector }
        let app = try PlainviewServer.makeApplication(options: options(), logger: logger)
        try await app.test(.router) { client in
            try await client.execute(uri: "/swedbank-pay-mobile/sdk-callback/android-intent?package=a.b", method: .get) { _ in }
            try await client.execute(uri: "/nope", method: .get) { _ in }
            try await client.execute(uri: "/swedbank-pay-mobile/sdk-callback/android-intent?package=x", method: .get) { _ in }
        }
        let debug = collector.lines(at: .debug).filter { $0.hasPrefix("GET ") }
        if level == .debug {
            #expect(debug.count == 2, "\(debug)")
            #expect(debug.first?.hasPrefix("GET /swedbank-pay-mobile/sdk-callback/android-intent?package=a.b 200 ") == true)
            #expect(debug.last?.hasPrefix("GET /nope 404 ") == true)
        } else {
            #expect(debug.isEmpty)
            #expect(collector.lines(at: .info).isEmpty, "\(collector.snapshot)")
        }
        let warnings = collector.lines(at: .warning).filter { $0.hasPrefix("GET ") }
        #expect(warnings.count == 1, "\(warnings)")
        #expect(
            warnings.first?.hasPrefix("GET /swedbank-pay-mobile/sdk-callback/android-intent?package=x 400 ") == true,
            "\(warnings)")
    }

    @Test func badOptionsNameTheOption() {
        var o = options(publicURL: "ftp://x")
        #expect { _ = try PlainviewServer.makeApplication(options: o, logger: quiet) } throws: {
            ($0 as? HelperConfigurationError)?.key == "public-url"
        }
        o = options()
        o.root = "relative"
        #expect { _ = try PlainviewServer.makeApplication(options: o, logger: quiet) } throws: {
            ($0 as? HelperConfigurationError)?.key == "root"
        }
        o = options(pages: "/no/such/folder")
        #expect { _ = try PlainviewServer.makeApplication(options: o, logger: quiet) } throws: {
            ($0 as? HelperConfigurationError)?.key == "pages"
        }
    }
}

@Suite struct PlainviewServerPagesTests {
    @Test func pagesAreServedAtFlowAndFileAndNothingEscapes() async throws {
        let dir = try FileManager.default.url(
            for: .itemReplacementDirectory, in: .userDomainMask,
            appropriateFor: URL(fileURLWithPath: "/tmp"), create: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let pages = dir.appendingPathComponent("Pages")
        let flow = pages.appendingPathComponent("bankid-ios")
        try FileManager.default.createDirectory(at: flow, withIntermediateDirectories: true)
        try "<html><body>payment</body></html>".write(
            to: flow.appendingPathComponent("payment.html"), atomically: true, encoding: .utf8)
        try "secret".write(to: dir.appendingPathComponent("secret.html"), atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(
            at: flow.appendingPathComponent("link.html"),
            withDestinationURL: dir.appendingPathComponent("secret.html"))
        let common = pages.appendingPathComponent("common")
        try FileManager.default.createDirectory(at: common, withIntermediateDirectories: true)
        try "<p>paid</p>".write(to: common.appendingPathComponent("paid.html"), atomically: true, encoding: .utf8)
        try """
        name: bankid-ios
        policy: {paymentUrl: https://shop.example.com/pay, completeUrl: https://shop.example.com/complete, cancelUrl: https://shop.example.com/cancel}
        pages:
          - url: https://ecom.example.net/checkout/card?token=5a17
            file: payment.html
          - url: https://acs.bank.example/acs/creq
            method: POST
            file: ../common/paid.html
          - url: https://acs.bank.example/done
            status: 302
            location: https://shop.example.com/payment-completed
          - url: https://acs.bank.example/sequence
            responses:
              - file: ../common/paid.html
              - file: payment.html
          - url: https://shop.example.com/swedbank-pay-mobile/sdk-callback/ios-universal-link?scheme=shop&language=en-US
            in: webview
            file: payment.html
        """.write(to: flow.appendingPathComponent("flow.yaml"), atomically: true, encoding: .utf8)
        // A flow that reads a page file outside the Pages folder is not served at all.
        let escaping = pages.appendingPathComponent("escaping")
        try FileManager.default.createDirectory(at: escaping, withIntermediateDirectories: true)
        try """
        policy: {paymentUrl: https://shop.example.com/pay, completeUrl: https://shop.example.com/complete, cancelUrl: https://shop.example.com/cancel}
        pages:
          - url: https://acs.bank.example/escape
            file: ../../secret.html
          - url: https://acs.bank.example/beside-the-escape
            body: fine
        """.write(to: escaping.appendingPathComponent("flow.yaml"), atomically: true, encoding: .utf8)
        let index = try PagesIndex(directory: pages.path)
        #expect(index.skipped.map(\.key) == ["pages[0].file"])
        #expect(index.skipped.first?.message.contains("outside the served folder") == true)
        let app = try PlainviewServer.makeApplication(options: options(pages: pages.path), logger: quiet)
        try await app.test(.router) { client in
            try await client.execute(uri: "/beside-the-escape", method: .get) { r in #expect(r.status == .notFound) }
            // Recorded pages at their recorded path and query, method, status and Location.
            try await client.execute(uri: "/checkout/card?token=5a17", method: .get) { r in
                #expect(r.status == .ok)
                #expect(String(buffer: r.body) == "<html><body>payment</body></html>")
            }
            try await client.execute(uri: "/checkout/card?token=other", method: .get) { r in #expect(r.status == .notFound) }
            try await client.execute(uri: "/acs/creq", method: .post) { r in #expect(String(buffer: r.body) == "<p>paid</p>") }
            try await client.execute(uri: "/acs/creq", method: .get) { r in #expect(r.status == .notFound) }
            try await client.execute(uri: "/done", method: .get) { r in
                #expect(r.status == .found)
                #expect(r.headers[.location] == "https://shop.example.com/payment-completed")
            }
            try await client.execute(uri: "/sequence", method: .get) { r in #expect(String(buffer: r.body) == "<p>paid</p>") }
            try await client.execute(uri: "/escape", method: .get) { r in #expect(r.status == .notFound) }
            // A recorded URL on a helper path is answered by the helper, not the recording.
            try await client.execute(
                uri: "/swedbank-pay-mobile/sdk-callback/ios-universal-link?scheme=shop&language=en-US", method: .get
            ) { r in
                #expect(r.status == .found)
            }
            try await client.execute(uri: "/bankid-ios/payment.html", method: .get) { r in
                #expect(r.status == .ok)
                #expect(String(buffer: r.body) == "<html><body>payment</body></html>")
            }
            try await client.execute(uri: "/", method: .get) { r in
                #expect(String(buffer: r.body).contains("<a href=\"/bankid-ios/payment.html\">"))
            }
            for uri in [
                "/bankid-ios/../secret.html", "/bankid-ios/%2e%2e/secret.html", "/bankid-ios/link.html", "/bankid-ios/flow.yaml",
                "/secret.html",
            ] {
                try await client.execute(uri: uri, method: .get) { r in
                    #expect(r.status == .notFound, "\(uri)")
                    #expect(!String(buffer: r.body).contains("secret"))
                }
            }
            // The helpers still answer beside the pages.
            try await client.execute(uri: "/.well-known/assetlinks.json", method: .get) { r in #expect(r.status == .ok) }
        }
    }
}

@Suite struct PlainviewServerLiveTests {
    @Test func bytesOnTheWire() async throws {
        let app = try PlainviewServer.makeApplication(options: options(publicURL: "https://pay.example.com"), logger: quiet)
        try await app.test(.live) { client in
            let port = try #require(client.port)
            let redirect = try await RawHTTP.request(
                port: port,
                "GET /swedbank-pay-mobile/sdk-callback/ios-universal-link?scheme=shop&language=nb-NO&fallback=true HTTP/1.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n"
            )
            #expect(redirect.hasPrefix("HTTP/1.1 302 Found\r\n"))
            #expect(
                redirect.contains(
                    "\r\nLocation: shop://pay.example.com/swedbank-pay-mobile/sdk-callback/ios-universal-link?scheme=shop&language=nb-NO&fallback=true\r\n"
                ))
            #expect(redirect.contains("\r\nCache-Control: no-store\r\n"))

            let page = try await RawHTTP.request(
                port: port,
                "GET /swedbank-pay-mobile/sdk-callback/android-intent?package=com.example.shop HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
            )
            #expect(page.hasPrefix("HTTP/1.1 200 OK\r\n"))
            #expect(page.contains("\r\nContent-Type: text/html; charset=utf-8\r\n"))
            #expect(
                page.contains(
                    "href=\"intent://pay.example.com/swedbank-pay-mobile/sdk-callback/android-intent?package=com.example.shop#Intent;scheme=https;"
                ))

            // Encoded CR/LF never becomes a header.
            let injected = try await RawHTTP.request(
                port: port,
                "GET /swedbank-pay-mobile/sdk-callback/ios-universal-link?scheme=shop&language=en-US&fallback=true&id=%0D%0ASet-Cookie:%20a=1 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
            )
            #expect(injected.hasPrefix("HTTP/1.1 400 Bad Request\r\n"))
            #expect(injected.contains("\r\nContent-Type: application/problem+json\r\n"))
            #expect(!injected.lowercased().contains("\r\nset-cookie"))

            let problem = try await RawHTTP.request(
                port: port, "DELETE /.well-known/assetlinks.json HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            #expect(problem.hasPrefix("HTTP/1.1 405 Method Not Allowed\r\n"))
            #expect(problem.contains("\r\nAllow: GET, HEAD\r\n"))

            let head = try await RawHTTP.request(
                port: port, "HEAD /.well-known/apple-app-site-association HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            #expect(head.hasPrefix("HTTP/1.1 200 OK\r\n"))
            #expect(head.hasSuffix("\r\n\r\n"))

            // A huge request line is refused, never served.
            let huge = try await RawHTTP.request(
                port: port,
                "GET /swedbank-pay-mobile/sdk-callback/android-intent?package=a.b&x=\(String(repeating: "a", count: 10_000)) HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
            )
            #expect(huge.hasPrefix("HTTP/1.1 414 URI Too Long\r\n") || huge.hasPrefix("HTTP/1.1 4"))
        }
    }
}


/// `serve --pages` serves flows through FlowSimulator's loader: Set-Cookie and requireCookie behave as in `simulate`.
@Suite struct PlainviewServerCookieTests {
    static let flow = """
        name: cookie-flow
        policy: {paymentUrl: https://shop.example.com/pay, completeUrl: https://shop.example.com/complete, cancelUrl: https://shop.example.com/cancel}
        pages:
          - url: https://acs.bank.example/3ds/creq
            method: POST
            setCookie: ["acs_session=9f8e7d6c; Path=/3ds; HttpOnly", "lang=sv"]
            body: <p>bank</p>
          - url: https://acs.bank.example/3ds/return?tx=1
            requireCookie: acs_session
            body: <p>session found</p>
          - url: https://acs.bank.example/3ds/strict
            requireCookie: acs_session=9f8e7d6c
            withoutCookie: {status: 401, body: <p>log in again</p>}
            body: <p>strict ok</p>
          - url: https://acs.bank.example/3ds/status
            responses:
              - {status: 202, body: pending}
              - {status: 200, body: done}
        """

    static func cookiePair(_ response: String) throws -> String {
        let line = try #require(response.components(separatedBy: "\r\n").first { $0.hasPrefix("Set-Cookie: acs_session=") })
        return String(line.dropFirst("Set-Cookie: ".count).split(separator: ";")[0])
    }

    static func body(_ response: String) -> String {
        response.components(separatedBy: "\r\n\r\n").dropFirst().joined(separator: "\r\n\r\n")
    }

    @Test func aPageThatRequiresACookieAnswersAsTheSimulatorSaysWithoutIt() async throws {
        let dir = try FileManager.default.url(
            for: .itemReplacementDirectory, in: .userDomainMask,
            appropriateFor: URL(fileURLWithPath: "/tmp"), create: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let flowDir = dir.appendingPathComponent("Pages/cookie-flow")
        try FileManager.default.createDirectory(at: flowDir, withIntermediateDirectories: true)
        try Self.flow.write(to: flowDir.appendingPathComponent("flow.yaml"), atomically: true, encoding: .utf8)
        let loaded = try FlowLoader.load(file: flowDir.appendingPathComponent("flow.yaml").path)
        let simulated = try #require(loaded.pages.first { $0.url.hasSuffix("return?tx=1") }).missingCookieResponse

        let app = try PlainviewServer.makeApplication(
            options: options(pages: dir.appendingPathComponent("Pages").path), logger: quiet)
        try await app.test(.live) { client in
            let port = try #require(client.port)
            func get(_ target: String, cookie: String? = nil) async throws -> String {
                try await RawHTTP.request(
                    port: port,
                    "GET \(target) HTTP/1.1\r\nHost: acs.bank.example\r\n"
                        + (cookie.map { "Cookie: \($0)\r\n" } ?? "") + "Connection: close\r\n\r\n")
            }
            // Without the cookie: the simulator's no-cookie answer (403, its page), not the recorded page.
            let without = try await get("/3ds/return?tx=1")
            #expect(without.hasPrefix("HTTP/1.1 403 Forbidden\r\n"), "\(without)")
            #expect(Self.body(without) == String(decoding: simulated.body, as: UTF8.self))
            #expect(!without.contains("session found"))

            // The earlier page sets the cookie (every Set-Cookie line, as recorded) ...
            let creq = try await RawHTTP.request(
                port: port, "POST /3ds/creq HTTP/1.1\r\nHost: acs.bank.example\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
            #expect(creq.hasPrefix("HTTP/1.1 200 OK\r\n"), "\(creq)")
            #expect(creq.contains("\r\nSet-Cookie: acs_session=9f8e7d6c; Path=/3ds; HttpOnly\r\n"), "\(creq)")
            #expect(creq.contains("\r\nSet-Cookie: lang=sv\r\n"), "\(creq)")
            let cookie = try Self.cookiePair(creq)
            #expect(cookie == "acs_session=9f8e7d6c")

            // ... and with it, the page.
            let with = try await get("/3ds/return?tx=1", cookie: "lang=sv; \(cookie)")
            #expect(with.hasPrefix("HTTP/1.1 200 OK\r\n"), "\(with)")
            #expect(Self.body(with) == "<p>session found</p>")

            // A name=value requirement: the page's own withoutCookie answer for a missing or different value.
            #expect(try await get("/3ds/strict").hasPrefix("HTTP/1.1 401 Unauthorized\r\n"))
            let wrong = try await get("/3ds/strict", cookie: "acs_session=other")
            #expect(wrong.hasPrefix("HTTP/1.1 401 Unauthorized\r\n"))
            #expect(Self.body(wrong) == "<p>log in again</p>")
            #expect(Self.body(try await get("/3ds/strict", cookie: cookie)) == "<p>strict ok</p>")

            // A sequence of responses is served in order, the last repeating, with the recorded statuses.
            #expect(try await get("/3ds/status").hasPrefix("HTTP/1.1 202 Accepted\r\n"))
            #expect(Self.body(try await get("/3ds/status")) == "done")
            #expect(try await get("/3ds/status").hasPrefix("HTTP/1.1 200 OK\r\n"))
        }
    }

    @Test func theShippedCookieFlowFailsInABrowserAsItDoesInTheSimulator() async throws {
        // Flow 05 alone (with the shared pages): in the whole Pages folder, flow 02 records POST /3ds/creq first.
        let dir = try FileManager.default.url(
            for: .itemReplacementDirectory, in: .userDomainMask,
            appropriateFor: URL(fileURLWithPath: "/tmp"), create: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let pages = dir.appendingPathComponent("Pages")
        try FileManager.default.createDirectory(at: pages, withIntermediateDirectories: true)
        for name in ["05-ios-bankid-cookie-in-webview", "common"] {
            try FileManager.default.copyItem(at: Project.path("Pages/\(name)"), to: pages.appendingPathComponent(name))
        }
        #expect(try PagesIndex(directory: pages.path).skipped.isEmpty)
        let app = try PlainviewServer.makeApplication(options: options(pages: pages.path), logger: quiet)
        try await app.test(.live) { client in
            let port = try #require(client.port)
            let target = "/3ds/bankid-return?tx=6f1b"
            let without = try await RawHTTP.request(port: port, "GET \(target) HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            #expect(without.hasPrefix("HTTP/1.1 403 Forbidden\r\n"), "\(without)")
            #expect(without.contains("Your session has expired."))
            let creq = try await RawHTTP.request(
                port: port, "POST /3ds/creq HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
            let cookie = try Self.cookiePair(creq)
            let with = try await RawHTTP.request(
                port: port, "GET \(target) HTTP/1.1\r\nHost: x\r\nCookie: \(cookie)\r\nConnection: close\r\n\r\n")
            #expect(with.hasPrefix("HTTP/1.1 200 OK\r\n"), "\(with)")
            #expect(!with.contains("Your session has expired."))
        }
    }
}

/// `serve`'s option rows in-process: the option at fault and what it expects, as `serve` prints them.
@Suite struct ServeOptionRows {
    static let rows: [(String, @Sendable (inout ServerOptions) -> Void, String)] = [
        ("public-url", { $0.publicURL = "ftp://x" }, "expected http(s)://host[:port]"),
        ("trampoline-url", { $0.trampolineURL = "shop://x" }, "expected http(s)://host[:port]"),
        ("root", { $0.root = "relative" }, "expected an absolute path"),
        ("app-id", { $0.appIDs = ["nope"] }, "expected TEAMID.bundle.identifier"),
        ("android-package", { $0.androidPackage = "com" }, "expected an Android package name"),
        ("sha256-cert", { $0.sha256CertFingerprints = ["AB"] }, "expected 32 bytes of hex"),
        ("pages", { $0.pagesDirectory = "/no/such/dir" }, "is not a folder"),
        ("port", { $0.port = 70000 }, "expected 0…65535"),
        ("host", { $0.host = "a/b" }, "expected an address to bind"),
        ("app-scheme", { $0.appSchemes = ["shop", "https"] }, "expected the app's custom URL scheme"),
        ("app-scheme", { $0.appSchemes = ["1x"] }, "expected the app's custom URL scheme"),
        ("idle-timeout", { $0.limits.idleTimeout = 0 }, "expected 1…3600 seconds"),
        ("header-timeout", { $0.limits.headerTimeout = 4000 }, "expected 1…3600 seconds"),
        (
            "read-timeout",
            {
                $0.limits.headerTimeout = 20; $0.limits.readTimeout = 10
            }, "must be at least --header-timeout"
        ),
        ("max-connections", { $0.limits.maxConnections = 0 }, "expected 1…1000000"),
    ]

    @Test(arguments: 0..<rows.count)
    func badOptionNamesTheOption(_ i: Int) {
        let (key, set, mentions) = Self.rows[i]
        var o = ServerOptions()
        set(&o)
        let error = #expect(throws: HelperConfigurationError.self) {
            _ = try PlainviewServer.makeApplication(options: o, logger: quiet)
        }
        #expect(error?.key == key, "\(String(describing: error))")
        #expect(error?.message.contains(mentions) == true, "\(String(describing: error))")
    }
}
