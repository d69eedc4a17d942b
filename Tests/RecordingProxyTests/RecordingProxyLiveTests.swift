// The proxy over real sockets: AsyncHTTPClient and curl through CONNECT tunnels and plain HTTP, raw bytes where the
// exact answer matters.
import AsyncHTTPClient
import Foundation
import NIOCore
import Synchronization
import TestSupport
import Testing
@testable import PlainviewRecordingProxy

@Suite("RecordingProxy, live")
struct RecordingProxyLiveTests {
    @Test("an https GET goes through CONNECT and TLS; the owner sees method, URL and destination")
    func httpsGetThroughTunnel() async throws {
        let p = try ProxyUnderTest { _ in
            .respond(
                status: 200, headers: [(name: "Content-Type", value: "text/html"), (name: "X-Recorded", value: "yes")],
                body: "<p>checkout</p>")
        }
        let got = try await withProxiedClient(port: p.proxy.port) { client in
            try await fetch(client, "https://shop.test/pay?order=1", headers: [("Sec-Fetch-Dest", "IFrame")])
        }
        #expect(got.status == 200)
        #expect(got.body == "<p>checkout</p>")
        #expect(got.header("x-recorded") == ["yes"])
        #expect(got.header("content-type") == ["text/html"])
        #expect(got.header("content-length") == ["15"])
        let seen = p.requests
        #expect(seen.count == 1)
        #expect(seen.first?.method == "GET")
        #expect(seen.first?.url == "https://shop.test/pay?order=1")
        #expect(seen.first?.destination == "iframe")
        #expect(seen.first?.headers.contains { $0.name == "Sec-Fetch-Dest" && $0.value == "IFrame" } == true)
    }

    @Test("a POST's body reaches the owner whole")
    func postBody() async throws {
        let p = try ProxyUnderTest { _ in .respond(status: 201, headers: [], body: "made") }
        let form = "PaReq=" + String(repeating: "x", count: 100_000) + "&MD=42"
        let got = try await withProxiedClient(port: p.proxy.port) { client in
            try await fetch(
                client, "https://acs.test/challenge", method: .POST,
                headers: [("Content-Type", "application/x-www-form-urlencoded")], body: form)
        }
        #expect(got.status == 201)
        #expect(got.body == "made")
        let seen = try #require(p.requests.first)
        #expect(seen.method == "POST")
        #expect(seen.url == "https://acs.test/challenge")
        #expect(String(decoding: seen.body, as: UTF8.self) == form)
        #expect(seen.destination == "")
    }

    @Test("a tunnel to a port other than 443 keeps the port in the URL")
    func portInURL() async throws {
        let p = try ProxyUnderTest { _ in .respond(status: 200, headers: [], body: "ok") }
        _ = try await withProxiedClient(port: p.proxy.port) { client in
            try await fetch(client, "https://shop.test:8443/a/b?c=d")
        }
        #expect(p.requests.map(\.url) == ["https://shop.test:8443/a/b?c=d"])
    }

    @Test("several requests on one tunnel (keep-alive) each reach the owner")
    func keepAliveInTunnel() async throws {
        let p = try ProxyUnderTest { request in .respond(status: 200, headers: [], body: request.url) }
        let bodies = try await withProxiedClient(port: p.proxy.port) { client in
            var bodies: [String] = []
            for i in 0..<3 { bodies.append(try await fetch(client, "https://shop.test/\(i)").body) }
            return bodies
        }
        #expect(bodies == ["https://shop.test/0", "https://shop.test/1", "https://shop.test/2"])
        #expect(p.requests.map(\.id) == p.requests.map(\.id).sorted())
        #expect(Set(p.requests.map(\.id)).count == 3)
    }

    @Test("a plain-HTTP proxy request (absolute-form, as WebKit sends http:// loads) keeps its absolute URL")
    func plainHTTP() async throws {
        let p = try ProxyUnderTest { _ in .respond(status: 200, headers: [(name: "X-A", value: "1")], body: "plain") }
        let raw = try await RawHTTP.request(
            port: p.proxy.port,
            "GET http://plain.test/p?q=1 HTTP/1.1\r\nHost: plain.test\r\nSec-Fetch-Dest: document\r\nConnection: close\r\n\r\n"
        )
        #expect(raw == "HTTP/1.1 200 OK\r\nX-A: 1\r\nContent-Length: 5\r\nConnection: close\r\n\r\nplain")
        #expect(p.requests.map(\.url) == ["http://plain.test/p?q=1"])
        #expect(p.requests.first?.destination == "document")
        #expect(p.requests.first?.headers.map(\.name) == ["Host", "Sec-Fetch-Dest", "Connection"])
    }

    @Test("a client that tunnels plain HTTP through CONNECT (AsyncHTTPClient does for http://) gets http:// URLs")
    func plainHTTPInTunnel() async throws {
        let p = try ProxyUnderTest { _ in .respond(status: 200, headers: [], body: "plain") }
        let got = try await withProxiedClient(port: p.proxy.port) { client in
            try await fetch(client, "http://plain.test/p?q=1")
        }
        #expect(got.body == "plain")
        #expect(p.requests.map(\.url) == ["http://plain.test/p?q=1"])
    }

    @Test("framing, hop-by-hop and CR/LF-injected headers from a recording never reach the wire")
    func headerFiltering() async throws {
        let p = try ProxyUnderTest { _ in
            .respond(
                status: 200,
                headers: [
                    (name: "Transfer-Encoding", value: "chunked"), (name: "Content-Length", value: "999"),
                    (name: "Connection", value: "close"), (name: "Content-Encoding", value: "gzip"),
                    (name: "Proxy-Authenticate", value: "Basic"), (name: "Keep-Alive", value: "timeout=5"),
                    (name: "X-Evil", value: "a\r\nSet-Cookie: stolen=1"), (name: "X-Bad\nName", value: "v"),
                    (name: ":status", value: "200"), (name: "Set-Cookie", value: "sid=1; Secure"),
                ],
                body: "hello"
            )
        }
        let raw = try await RawHTTP.request(
            port: p.proxy.port,
            "GET http://plain.test/h HTTP/1.1\r\nHost: plain.test\r\n\r\n"
                + "GET http://plain.test/h2 HTTP/1.1\r\nHost: plain.test\r\nConnection: close\r\n\r\n"
        )
        let one = "HTTP/1.1 200 OK\r\nSet-Cookie: sid=1; Secure\r\nContent-Length: 5\r\n\r\nhello"
        let two = "HTTP/1.1 200 OK\r\nSet-Cookie: sid=1; Secure\r\nContent-Length: 5\r\nConnection: close\r\n\r\nhello"
        #expect(raw == one + two)
    }

    @Test("204 and 304 carry no body and no Content-Length; HEAD gets the length and no body")
    func bodylessAnswers() async throws {
        let p = try ProxyUnderTest { request in
            let status = request.url.hasSuffix("204") ? 204 : request.url.hasSuffix("304") ? 304 : 200
            return .respond(status: status, headers: [(name: "ETag", value: "\"v1\"")], body: "body!")
        }
        let raw = try await RawHTTP.request(
            port: p.proxy.port,
            "GET http://plain.test/204 HTTP/1.1\r\nHost: plain.test\r\n\r\n"
                + "GET http://plain.test/304 HTTP/1.1\r\nHost: plain.test\r\n\r\n"
                + "HEAD http://plain.test/200 HTTP/1.1\r\nHost: plain.test\r\nConnection: close\r\n\r\n"
        )
        #expect(
            raw == "HTTP/1.1 204 No Content\r\nETag: \"v1\"\r\n\r\n"
                + "HTTP/1.1 304 Not Modified\r\nETag: \"v1\"\r\n\r\n"
                + "HTTP/1.1 200 OK\r\nETag: \"v1\"\r\nContent-Length: 5\r\nConnection: close\r\n\r\n")
        #expect(p.requests.map(\.method) == ["GET", "GET", "HEAD"])
    }

    @Test("a 204 through a tunnel reaches the client as a bodyless answer")
    func noContentThroughTunnel() async throws {
        let p = try ProxyUnderTest { _ in .respond(status: 204, headers: [], body: "ignored") }
        let got = try await withProxiedClient(port: p.proxy.port) { client in
            try await fetch(client, "https://shop.test/nav", headers: [("Sec-Fetch-Dest", "document")])
        }
        #expect(got.status == 204)
        #expect(got.body == "")
    }

    @Test("fail closes the connection without an answer: the client sees an error")
    func failIsANetworkError() async throws {
        let p = try ProxyUnderTest { _ in .fail }
        await #expect(throws: (any Error).self) {
            try await withProxiedClient(port: p.proxy.port) { client in
                try await fetch(client, "https://shop.test/missing")
            }
        }
        let raw = try await RawHTTP.request(port: p.proxy.port, "GET http://plain.test/x HTTP/1.1\r\nHost: plain.test\r\n\r\n")
        #expect(raw == "")
    }

    @Test("20 concurrent requests, answered from other threads in scrambled order, each get their own body")
    func concurrent() async throws {
        let box = Mutex<RecordingProxy?>(nil)
        let p = try ProxyUnderTest { request in
            let delay = Double((request.id * 7) % 5) * 0.02
            DispatchQueue.global().asyncAfter(deadline: .now() + delay) {
                box.withLock { $0 }?.respond(request.id, status: 200, headers: [], body: Array("answer \(request.url)".utf8))
            }
            return .hold
        }
        box.withLock { $0 = p.proxy }
        let results = try await withProxiedClient(port: p.proxy.port) { client in
            try await withThrowingTaskGroup(of: (Int, String).self) { group in
                for i in 0..<20 {
                    group.addTask { (i, try await fetch(client, "https://shop.test/item/\(i)").body) }
                }
                var results: [Int: String] = [:]
                for try await (i, body) in group { results[i] = body }
                return results
            }
        }
        #expect(results.count == 20)
        for i in 0..<20 { #expect(results[i] == "answer https://shop.test/item/\(i)") }
    }

    @Test("pipelined requests are answered in request order even when the owner answers the last first")
    func pipelinedOrder() async throws {
        let p = try ProxyUnderTest { _ in .hold }
        async let raw = RawHTTP.request(
            port: p.proxy.port,
            "GET http://plain.test/1 HTTP/1.1\r\nHost: plain.test\r\n\r\n"
                + "GET http://plain.test/2 HTTP/1.1\r\nHost: plain.test\r\n\r\n"
                + "GET http://plain.test/3 HTTP/1.1\r\nHost: plain.test\r\nConnection: close\r\n\r\n"
        )
        let seen = try await p.waitForRequests(3)
        for request in seen.reversed() {
            p.proxy.respond(request.id, status: 200, headers: [], body: Array(request.url.suffix(1).utf8))
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(
            try await raw == "HTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\n1"
                + "HTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\n2"
                + "HTTP/1.1 200 OK\r\nContent-Length: 1\r\nConnection: close\r\n\r\n3")
    }

    @Test("respond and fail for unknown, answered or hung-up requests change nothing; the proxy keeps serving")
    func lateAnswers() async throws {
        let p = try ProxyUnderTest { request in
            request.url.hasSuffix("/hold") ? .hold : .respond(status: 200, headers: [], body: "still here")
        }
        // A client that asks and hangs up before the answer.
        try await offPool {
            let fd = try RawHTTP.connectedSocket(port: p.proxy.port, timeout: 10)
            try RawHTTP.sendAll(fd, Array("GET http://plain.test/hold HTTP/1.1\r\nHost: plain.test\r\n\r\n".utf8), timeout: 10)
            close(fd)
        }
        let held = try #require(try await p.waitForRequests(1).first)
        try await Task.sleep(for: .milliseconds(200))
        p.proxy.respond(held.id, status: 200, headers: [], body: Array("too late".utf8))
        p.proxy.fail(held.id)
        p.proxy.respond(9_999, status: 200, headers: [], body: [])
        p.proxy.fail(-1)
        let raw = try await RawHTTP.request(
            port: p.proxy.port, "GET http://plain.test/ok HTTP/1.1\r\nHost: plain.test\r\nConnection: close\r\n\r\n")
        #expect(raw.hasSuffix("\r\n\r\nstill here"))
        // Answering an already answered request again changes nothing either.
        let answered = try #require(p.requests.last)
        p.proxy.respond(answered.id, status: 500, headers: [], body: [])
        let again = try await RawHTTP.request(
            port: p.proxy.port, "GET http://plain.test/ok HTTP/1.1\r\nHost: plain.test\r\nConnection: close\r\n\r\n")
        #expect(again.hasPrefix("HTTP/1.1 200 OK\r\n"))
    }

    @Test(
        "requests the proxy cannot serve get 400 with a reason and never reach the owner",
        arguments: [
            ("GET /origin-form HTTP/1.1\r\nHost: shop.test\r\n\r\n", "absolute http:// URL or CONNECT"),
            ("CONNECT shop.test HTTP/1.1\r\nHost: shop.test\r\n\r\n", "CONNECT needs a host:port target"),
            ("CONNECT shop.test:99999 HTTP/1.1\r\n\r\n", "CONNECT needs a host:port target"),
            ("GET ftp://shop.test/ HTTP/1.1\r\n\r\n", "absolute http:// URL or CONNECT"),
            ("this is not HTTP\r\n\r\n", "malformed HTTP request"),
        ])
    func refused(request: String, reason: String) async throws {
        let p = try ProxyUnderTest { _ in .respond(status: 200, headers: [], body: "no") }
        let raw = try await RawHTTP.request(port: p.proxy.port, request)
        #expect(raw.hasPrefix("HTTP/1.1 400 Bad Request\r\nContent-Type: text/plain; charset=utf-8\r\n"))
        #expect(raw.contains("Connection: close\r\n"))
        #expect(raw.contains(reason))
        #expect(p.requests.isEmpty)
    }

    @Test("a tunnel whose TLS handshake is garbage is closed; the proxy keeps serving")
    func garbageInTunnel() async throws {
        let p = try ProxyUnderTest { _ in .respond(status: 200, headers: [], body: "fine") }
        let raw = try await RawHTTP.request(
            port: p.proxy.port,
            "CONNECT shop.test:443 HTTP/1.1\r\nHost: shop.test:443\r\n\r\n\u{16}\u{03}\u{01}\u{00}\u{05}hello, not TLS"
        )
        // After the 200 only a TLS alert may come; then the proxy closes.
        #expect(raw.hasPrefix("HTTP/1.1 200 Connection Established\r\n\r\n"))
        #expect(!raw.dropFirst(39).contains("HTTP/"))
        #expect(p.requests.isEmpty)
        let got = try await withProxiedClient(port: p.proxy.port) { client in try await fetch(client, "https://shop.test/") }
        #expect(got.body == "fine")
    }

    @Test("a tunnel that opens with plain HTTP instead of a TLS handshake is served as http://host:port")
    func plainBytesInTunnel() async throws {
        let p = try ProxyUnderTest { request in .respond(status: 200, headers: [], body: request.url) }
        let raw = try await RawHTTP.request(
            port: p.proxy.port,
            "CONNECT shop.test:443 HTTP/1.1\r\n\r\nGET /x HTTP/1.1\r\nHost: shop.test\r\nConnection: close\r\n\r\n"
        )
        #expect(
            raw == "HTTP/1.1 200 Connection Established\r\n\r\n"
                + "HTTP/1.1 200 OK\r\nContent-Length: 22\r\nConnection: close\r\n\r\nhttp://shop.test:443/x")
    }

    @Test("shutdown closes open connections and the listener, and can be called twice")
    func shutdownCloses() async throws {
        let p = try ProxyUnderTest { _ in .hold }
        let port = p.proxy.port
        async let pending = RawHTTP.request(port: port, "GET http://plain.test/wait HTTP/1.1\r\nHost: plain.test\r\n\r\n")
        _ = try await p.waitForRequests(1)
        try await offPool { p.proxy.shutdown() }
        #expect(try await pending == "")
        p.proxy.shutdown()
        // The listener is closed: a connection is refused, or (when another process has bound the freed port in
        // the meantime, as parallel engine tests do) whatever answers it is not this proxy.
        if let fd = try? RawHTTP.connectedSocket(port: port, timeout: 5) {
            close(fd)
            _ = try? await RawHTTP.request(
                port: port, "GET http://plain.test/after HTTP/1.1\r\nHost: plain.test\r\n\r\n", timeout: 2)
            try await Task.sleep(for: .milliseconds(200))
            #expect(p.requests.count == 1, "a request reached the proxy after shutdown")
        }
    }

    @Test("an idle connection closes; one waiting for its answer stays open")
    func idleTimeout() async throws {
        let p = try ProxyUnderTest(idleTimeout: .milliseconds(300)) { _ in .hold }
        let idle = try await offPool { () -> String in
            let fd = try RawHTTP.connectedSocket(port: p.proxy.port, timeout: 10)
            defer { close(fd) }
            return try RawHTTP.receiveAll(fd, timeout: 10)
        }
        #expect(idle == "")
        async let waiting = RawHTTP.request(
            port: p.proxy.port, "GET http://plain.test/slow HTTP/1.1\r\nHost: plain.test\r\nConnection: close\r\n\r\n")
        let request = try #require(try await p.waitForRequests(1).first)
        try await Task.sleep(for: .seconds(1))
        p.proxy.respond(request.id, status: 200, headers: [], body: Array("late but fine".utf8))
        #expect(try await waiting.hasSuffix("\r\n\r\nlate but fine"))
    }

    @Test("the listener is bound to 127.0.0.1 only")
    func loopbackOnly() throws {
        let p = try ProxyUnderTest { _ in .hold }
        #if os(Linux)
        let hexPort = String(format: "%04X", p.proxy.port)
        var listeners: [String] = []
        for table in ["/proc/net/tcp", "/proc/net/tcp6"] {
            let text = (try? String(contentsOfFile: table, encoding: .utf8)) ?? ""
            for line in text.split(separator: "\n").dropFirst() {
                let fields = line.split(separator: " ")
                // local_address is field 1 ("0100007F:PORT"), st is field 3 ("0A" = LISTEN).
                guard fields.count > 3, fields[3] == "0A", fields[1].hasSuffix(":" + hexPort) else { continue }
                listeners.append(String(fields[1]))
            }
        }
        #expect(listeners == ["0100007F:" + hexPort])
        #else
        print("skipped: reading listening sockets needs Linux's /proc/net/tcp")
        #endif
    }

    @Test("curl through the proxy: https GET with its headers, and a POST with Expect: 100-continue")
    func curl() async throws {
        guard let curl = Program.find("curl") else {
            print("skipped: curl is not installed (Debian package curl)")
            return
        }
        let p = try ProxyUnderTest { request in
            .respond(
                status: 200, headers: [(name: "X-Dest", value: request.destination)],
                body: "\(request.method) \(request.url) \(request.body.count)")
        }
        let proxyArgument = "http://127.0.0.1:\(p.proxy.port)"
        let get = try await offPool {
            try Program.run(
                curl,
                [
                    "-sk", "-D", "-", "--max-time", "20", "--proxy", proxyArgument,
                    "-H", "Sec-Fetch-Dest: document", "https://shop.test/x",
                ], timeout: 30)
        }
        #expect(get.status == 0, "\(get)")
        #expect(get.stdout.contains("HTTP/1.1 200 OK\r\n"))
        #expect(get.stdout.contains("X-Dest: document\r\n"))
        #expect(get.stdout.hasSuffix("\r\n\r\nGET https://shop.test/x 0"))
        let form = String(repeating: "a", count: 5000)
        let post = try await offPool {
            try Program.run(
                curl,
                [
                    "-sk", "--max-time", "20", "--proxy", proxyArgument, "-H", "Expect: 100-continue",
                    "--data-binary", form, "https://pay.test:8443/submit",
                ], timeout: 30)
        }
        #expect(post.status == 0, "\(post)")
        #expect(post.stdout == "POST https://pay.test:8443/submit 5000")
    }
}
