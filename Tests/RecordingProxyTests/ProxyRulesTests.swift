// The proxy's pure decisions: what a request line means, and what an answer looks like on the wire.
import Testing
@testable import PlainviewRecordingProxy

@Suite("RecordingProxy rules")
struct ProxyRulesTests {
    @Test(
        "request lines: tunnel, forward or refuse",
        arguments: [
            ("CONNECT", "shop.test:443", nil, ProxyTarget.tunnel(TunnelAuthority(host: "shop.test", port: 443))),
            ("CONNECT", "Shop.TEST:8443", nil, .tunnel(TunnelAuthority(host: "shop.test", port: 8443))),
            ("CONNECT", "[::1]:443", nil, .tunnel(TunnelAuthority(host: "[::1]", port: 443))),
            ("CONNECT", "10.0.0.1:1", nil, .tunnel(TunnelAuthority(host: "10.0.0.1", port: 1))),
            ("CONNECT", "xn--bcher-kva.test:443", nil, .tunnel(TunnelAuthority(host: "xn--bcher-kva.test", port: 443))),
            ("CONNECT", "shop.test", nil, .refuse(reason: "CONNECT needs a host:port target")),
            ("CONNECT", "shop.test:0", nil, .refuse(reason: "CONNECT needs a host:port target")),
            ("CONNECT", "shop.test:65536", nil, .refuse(reason: "CONNECT needs a host:port target")),
            ("CONNECT", "shop.test:+443", nil, .refuse(reason: "CONNECT needs a host:port target")),
            ("CONNECT", ":443", nil, .refuse(reason: "CONNECT needs a host:port target")),
            ("CONNECT", "sh op.test:443", nil, .refuse(reason: "CONNECT needs a host:port target")),
            ("CONNECT", "shop.test/x:443", nil, .refuse(reason: "CONNECT needs a host:port target")),
            ("CONNECT", "[zz]:443", nil, .refuse(reason: "CONNECT needs a host:port target")),
            ("CONNECT", "shop.test:443", "https://shop.test", .refuse(reason: "CONNECT inside a tunnel")),
            ("GET", "/pay?x=1", "https://shop.test", .forward(url: "https://shop.test/pay?x=1")),
            ("POST", "/", "https://shop.test:8443", .forward(url: "https://shop.test:8443/")),
            (
                "GET", "http://shop.test/a", "https://shop.test",
                .refuse(reason: "a request in a tunnel needs a /path target")
            ),
            ("GET", "http://plain.test/p?q", nil, .forward(url: "http://plain.test/p?q")),
            ("GET", "HTTP://Plain.test/", nil, .forward(url: "HTTP://Plain.test/")),
            ("GET", "/p", nil, .refuse(reason: "a proxy request needs an absolute http:// URL or CONNECT")),
            ("GET", "https://shop.test/", nil, .refuse(reason: "a proxy request needs an absolute http:// URL or CONNECT")),
            ("GET", "http://", nil, .refuse(reason: "a proxy request needs an absolute http:// URL or CONNECT")),
        ] as [(String, String, String?, ProxyTarget)])
    func classify(method: String, target: String, tunnelBase: String?, expected: ProxyTarget) {
        #expect(ProxyTarget.classify(method: method, target: target, tunnelBase: tunnelBase) == expected)
    }

    @Test(
        "a tunnel's URLs omit the scheme's default port only",
        arguments: [
            ("shop.test", 443, true, "https://shop.test"), ("shop.test", 8443, true, "https://shop.test:8443"),
            ("shop.test", 80, true, "https://shop.test:80"), ("plain.test", 80, false, "http://plain.test"),
            ("plain.test", 443, false, "http://plain.test:443"), ("[::1]", 443, true, "https://[::1]"),
        ])
    func tunnelBase(host: String, port: Int, tls: Bool, base: String) {
        #expect(TunnelAuthority(host: host, port: port).base(tls: tls) == base)
    }

    @Test(
        "status lines carry the standard reason phrase; non-final statuses become 502",
        arguments: [
            (200, "HTTP/1.1 200 OK\r\n"), (302, "HTTP/1.1 302 Found\r\n"), (404, "HTTP/1.1 404 Not Found\r\n"),
            (418, "HTTP/1.1 418 I'm a teapot\r\n"), (599, "HTTP/1.1 599 \r\n"),
            (100, "HTTP/1.1 502 Bad Gateway\r\n"), (101, "HTTP/1.1 502 Bad Gateway\r\n"),
            (0, "HTTP/1.1 502 Bad Gateway\r\n"), (600, "HTTP/1.1 502 Bad Gateway\r\n"),
        ])
    func statusLine(status: Int, line: String) {
        let text = String(
            decoding: ProxyResponse.bytes(status: status, headers: [], body: [], isHead: false, close: false),
            as: UTF8.self)
        #expect(text.hasPrefix(line))
    }

    @Test(
        "which recorded headers pass",
        arguments: [
            ("Content-Type", "text/html", true), ("Set-Cookie", "a=b; Path=/", true), ("Location", "https://x/", true),
            ("X-Ünicode", "v", false), ("Bad Name", "v", false), ("", "v", false), (":status", "200", false),
            ("X-Split", "a\r\nb", false), ("X-Nul", "a\u{0}b", false), ("X-Lf", "a\nb", false),
            ("Connection", "keep-alive", false), ("KEEP-ALIVE", "5", false), ("Proxy-Connection", "close", false),
            ("Proxy-Authenticate", "Basic", false), ("TE", "trailers", false), ("Trailer", "X", false),
            ("Transfer-Encoding", "chunked", false), ("Upgrade", "websocket", false), ("Content-Length", "3", false),
            ("content-encoding", "br", false),
        ])
    func headerPasses(name: String, value: String, passes: Bool) {
        #expect(ProxyResponse.passes((name: name, value: value)) == passes)
    }
}
