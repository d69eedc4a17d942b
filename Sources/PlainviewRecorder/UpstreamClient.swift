// The recorder's client for the real servers (AsyncHTTPClient): sends a request the world made and brings back the
// whole answer. TLS is verified against the system's trust store plus any certificate authorities given; redirects
// are not followed (the world follows them, as the web view does); gzip and deflate bodies are decoded. A host can
// be sent to another address and port (`--resolve HOST=ADDRESS[:PORT]`, like curl's `--connect-to`): the TLS name,
// the certificate check and the Host header stay the URL's, only where the connection goes changes. (A test server
// cannot listen on 443, and the policy's goodlist admits the default port only.)
import AsyncHTTPClient
import NIOCore
import NIOHTTP1
import NIOSSL
import PlainviewURL

public final class UpstreamClient: Sendable {
    /// How the server's certificate is checked.
    public enum Trust: Sendable, Hashable {
        /// The system's trust store (Debian's ca-certificates).
        case system
        /// The system's store and the certificate authorities in these PEM files (`--ca-file`).
        case adding([String])
        /// No check at all (`--insecure`).
        case none
    }

    public struct Response: Sendable {
        public var status: Int
        public var headers: [(name: String, value: String)]
        public var body: [UInt8]
    }

    /// The largest answer kept (a page, a script); a larger one is an error, never a truncated page.
    public static let maximumBody = 64 << 20
    /// Answer headers that describe this connection or this encoding of the body: the body is handed on decoded and
    /// whole, and whoever serves it again frames it itself.
    static let framingHeaders: Set<String> = [
        "connection", "keep-alive", "proxy-connection", "transfer-encoding", "content-length", "content-encoding",
        "trailer", "upgrade",
    ]
    /// Request headers that belong to one connection or that the client sets itself.
    static let connectionHeaders: Set<String> = [
        "connection", "keep-alive", "proxy-connection", "proxy-authorization", "te", "trailer", "transfer-encoding",
        "upgrade", "host", "content-length", "accept-encoding",
    ]

    /// Where a host's connections go instead (`--resolve`).
    public struct Destination: Sendable, Hashable {
        public var address: String
        /// nil: the URL's port.
        public var port: Int?
        public init(address: String, port: Int? = nil) {
            self.address = address
            self.port = port
        }

        /// `ADDRESS` or `ADDRESS:PORT` (an IPv6 address in brackets); nil when it is neither.
        public init?(_ text: String) {
            var address = Substring(text), port: Int?
            if let colon = text.lastIndex(of: ":"), !text.hasSuffix("]"), text.hasPrefix("[") || !text[..<colon].contains(":") {
                guard let p = Int(text[text.index(after: colon)...]), (1...65535).contains(p) else { return nil }
                port = p
                address = text[..<colon]
            }
            if address.hasPrefix("[") && address.hasSuffix("]") { address = address.dropFirst().dropLast() }
            guard !address.isEmpty, !address.contains("/"), !address.contains(" ") else { return nil }
            self.address = String(address)
            self.port = port
        }
    }

    private let client: HTTPClient
    private let timeout: TimeAmount
    private let resolve: [String: Destination]

    /// `resolve`: host → where its connections go instead. `timeout` (seconds) bounds each request, connecting
    /// included.
    public init(trust: Trust = .system, resolve: [String: Destination] = [:], timeout: Double = 30) throws(UpstreamError) {
        let timeout = TimeAmount.milliseconds(Int64(timeout * 1000))
        var tls = TLSConfiguration.makeClientConfiguration()
        switch trust {
        case .system: break
        case .adding(let files):
            var roots: [NIOSSLAdditionalTrustRoots] = []
            for file in files {
                do {
                    roots.append(.certificates(try NIOSSLCertificate.fromPEMFile(file)))
                } catch {
                    throw UpstreamError("\(file): expected the PEM certificate of a certificate authority (\(error))")
                }
            }
            tls.additionalTrustRoots = roots
        case .none:
            tls.certificateVerification = .none
        }
        var configuration = HTTPClient.Configuration(
            tlsConfiguration: tls, redirectConfiguration: .disallow,
            timeout: .init(connect: timeout, read: timeout), decompression: .enabled(limit: .size(Self.maximumBody)))
        configuration.dnsOverride = resolve.mapValues(\.address)
        // A refused connection or a failed TLS handshake is the answer (said at once), not something to retry until
        // the timeout.
        configuration.connectionPool.retryConnectionEstablishment = false
        client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        self.timeout = timeout
        self.resolve = resolve
    }

    deinit {
        try? client.syncShutdown()
    }

    /// Sends one request and waits for the whole answer (never call it on an event loop).
    public func fetch(
        method: String, url: String, headers: [(name: String, value: String)], body: [UInt8]
    ) throws(UpstreamError) -> Response {
        guard let u = WebURL(url), u.scheme == "https" || u.scheme == "http" else {
            throw UpstreamError("not an http(s) URL")
        }
        var sent = HTTPHeaders()
        // A port given with --resolve replaces the URL's on the wire only: the Host header keeps the URL's authority.
        var target = u.withoutFragment.href
        if let host = u.comparableHost, let port = resolve[host]?.port {
            sent.add(name: "Host", value: u.port.map { "\(u.hostname ?? host):\($0)" } ?? (u.hostname ?? host))
            target = "\(u.scheme)://\(u.hostname ?? host):\(port)\(u.requestTarget)"
        }
        for h in headers where !Self.connectionHeaders.contains(h.name.lowercased()) && !h.name.hasPrefix(":") {
            sent.add(name: h.name, value: h.value)
        }
        sent.add(name: "Accept-Encoding", value: "gzip, deflate")
        do {
            let request = try HTTPClient.Request(
                url: target, method: HTTPMethod(rawValue: method), headers: sent,
                body: body.isEmpty && !["POST", "PUT", "PATCH"].contains(method) ? nil : .bytes(body))
            let answer = try client.execute(request: request, deadline: .now() + timeout).wait()
            var bytes = answer.body ?? ByteBuffer()
            guard bytes.readableBytes <= Self.maximumBody else {
                throw UpstreamError("the answer is larger than \(Self.maximumBody >> 20) MB")
            }
            // gzip and deflate arrive decoded; any other coding (br, zstd) would be kept as bytes no page can be.
            if let coding = answer.headers.first(name: "Content-Encoding")?.lowercased(),
                !["gzip", "x-gzip", "deflate", "identity"].contains(coding)
            {
                throw UpstreamError(
                    "the server answered with Content-Encoding: \(coding), which the recorder cannot decode (it asks for gzip or deflate)"
                )
            }
            return Response(
                status: Int(answer.status.code),
                headers: answer.headers.filter { !Self.framingHeaders.contains($0.name.lowercased()) }.map {
                    (name: $0.name, value: $0.value)
                },
                body: bytes.readBytes(length: bytes.readableBytes) ?? [])
        } catch let error as UpstreamError {
            throw error
        } catch {
            let via = u.comparableHost.flatMap { resolve[$0] }.map { " at \($0.address)" + ($0.port.map { ":\($0)" } ?? "") }
            throw UpstreamError(Self.explain(error, url: u, via: via ?? ""))
        }
    }

    /// One sentence for a connection, TLS or timeout failure.
    static func explain(_ error: any Error, url: WebURL, via: String) -> String {
        let place = (url.hostname ?? "") + (url.port.map { ":\($0)" } ?? "") + via
        if let e = error as? HTTPClientError {
            switch e {
            case .deadlineExceeded, .readTimeout, .connectTimeout:
                return "no answer from \(place) in time (\(e))"
            default: break
            }
        }
        if let tls = error as? NIOSSLError {
            return "TLS with \(place) failed (\(tls)); a private certificate authority is given with --ca-file"
        }
        let text = String(describing: error)
        if text.contains("handshake") || text.contains("certificate") {
            return "TLS with \(place) failed (\(text)); a private certificate authority is given with --ca-file"
        }
        return "cannot get an answer from \(place) (\(text))"
    }
}

/// Why a request got no answer, in one sentence.
public struct UpstreamError: Error, Sendable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
