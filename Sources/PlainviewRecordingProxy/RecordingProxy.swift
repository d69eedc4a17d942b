// A loopback HTTP/HTTPS proxy whose every answer comes from its owner: engine mode points WebKit at it so that each
// request the engine makes, main frame, sub-frame or script, is answered from the flow's recording.
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import Synchronization

/// Listens on 127.0.0.1, hands each request to `onRequest` and sends whatever answer its owner gives for it.
///
/// `CONNECT host:port` is answered 200 and the tunnel then speaks TLS with one self-signed certificate (the client
/// must ignore certificate errors) and HTTP/1.1 inside (a client that sends plain HTTP into the tunnel instead gets
/// http:// URLs); a plain `GET http://…` is served as it comes. Answers on one connection go out in the order of its
/// requests, whatever order `respond`/`fail` are called in. Every method is safe from any thread. `onRequest` runs on
/// the proxy's one event-loop thread: it must not block (hand the request on and return).
public final class RecordingProxy: Sendable {
    public struct Request: Sendable {
        /// Unique per proxy, increasing.
        public let id: Int
        /// "GET", "POST" …
        public let method: String
        /// Absolute: https://host[:port]/path?query in a CONNECT tunnel (port omitted when 443); a plain-HTTP proxy
        /// request's URL as the client sent it.
        public let url: String
        /// As received, in order.
        public let headers: [(name: String, value: String)]
        /// The whole request body.
        public let body: [UInt8]

        public init(id: Int, method: String, url: String, headers: [(name: String, value: String)], body: [UInt8]) {
            self.id = id
            self.method = method
            self.url = url
            self.headers = headers
            self.body = body
        }

        /// Sec-Fetch-Dest's value lowercased ("document", "iframe", "frame", "script", "empty" …), "" when absent.
        public var destination: String {
            headers.first { $0.name.lowercased() == "sec-fetch-dest" }?.value.lowercased() ?? ""
        }
    }

    private let core: ProxyCore
    private let group: MultiThreadedEventLoopGroup
    public let port: Int

    /// Listens on 127.0.0.1 only (port 0: any free port). `onRequest` runs on a NIO thread, once per request; the
    /// request stays open until `respond` or `fail` is called for its id (from any thread).
    public convenience init(port: Int = 0, onRequest: @escaping @Sendable (Request) -> Void) throws {
        try self.init(port: port, idleTimeout: .seconds(60), onRequest: onRequest)
    }

    /// `idleTimeout`: a connection with no traffic and no request waiting for its answer closes after this long.
    init(port: Int = 0, idleTimeout: TimeAmount, onRequest: @escaping @Sendable (Request) -> Void) throws {
        let tls = try NIOSSLContext(configuration: Self.tlsConfiguration())
        let core = ProxyCore(onRequest: onRequest, tls: tls)
        // One thread: a web view's handful of connections need no more, and the machine's cores belong to the engine.
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 256)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let decoder = ByteToMessageHandler(HTTPRequestDecoder(leftOverBytesStrategy: .forwardBytes))
                    let sync = channel.pipeline.syncOperations
                    try sync.addHandler(IdleStateHandler(allTimeout: idleTimeout))
                    try sync.addHandler(decoder)
                    try sync.addHandler(ProxyConnectionHandler(core: core, firstDecoder: decoder))
                }
            }
        do {
            let listener = try bootstrap.bind(host: "127.0.0.1", port: port).wait()
            guard let bound = listener.localAddress?.port else {
                throw IOError(errnoCode: 0, reason: "the proxy's listening socket has no port")
            }
            self.port = bound
        } catch {
            try? group.syncShutdownGracefully()
            throw error
        }
        self.core = core
        self.group = group
    }

    /// Sends `status`, `headers` and `body` for request `id`. Hop-by-hop and framing headers (Connection, Keep-Alive,
    /// Proxy-*, TE, Trailer, Transfer-Encoding, Upgrade, Content-Length, Content-Encoding) and headers with CR, LF or
    /// NUL are dropped; the proxy adds its own Content-Length. A status outside 200...599 becomes a 502. An unknown or
    /// already answered id, or one whose connection has closed, is ignored.
    public func respond(_ id: Int, status: Int, headers: [(name: String, value: String)], body: [UInt8]) {
        core.settle(id, .answer(status: status, headers: headers, body: body))
    }

    /// A network error: the connection closes without an answer (after the answers to its earlier requests).
    public func fail(_ id: Int) {
        core.settle(id, .failure)
    }

    /// Closes the listener and every connection; idempotent; pending requests are dropped. Waits for the event loop
    /// to finish unless called on it (from `onRequest`), where it only starts the shutdown.
    public func shutdown() {
        guard core.stop() else { return }
        if MultiThreadedEventLoopGroup.currentEventLoop == nil {
            try? group.syncShutdownGracefully()
        } else {
            group.shutdownGracefully { _ in }
        }
    }

    deinit {
        shutdown()
    }

    private static func tlsConfiguration() throws -> TLSConfiguration {
        let certificate = try NIOSSLCertificate(bytes: Array(ProxyCertificate.certificatePEM.utf8), format: .pem)
        let key = try NIOSSLPrivateKey(bytes: Array(ProxyCertificate.privateKeyPEM.utf8), format: .pem)
        var configuration = TLSConfiguration.makeServerConfiguration(
            certificateChain: [.certificate(certificate)], privateKey: .privateKey(key)
        )
        configuration.applicationProtocols = ["http/1.1"] // never h2: the tunnel speaks HTTP/1.1 only
        return configuration
    }
}

/// How the owner settled a request.
enum ProxyOutcome: Sendable {
    case answer(status: Int, headers: [(name: String, value: String)], body: [UInt8])
    case failure
}

/// The state shared by the listener's connections and the owner's threads: which request ids wait for an answer,
/// and on which connection.
final class ProxyCore: Sendable {
    let onRequest: @Sendable (RecordingProxy.Request) -> Void
    let tls: NIOSSLContext

    private struct Registry {
        var stopped = false
        var nextID = 1
        var waiting: [Int: NIOLoopBound<ProxyConnectionHandler>] = [:]
    }

    private let registry = Mutex(Registry())

    init(onRequest: @escaping @Sendable (RecordingProxy.Request) -> Void, tls: NIOSSLContext) {
        self.onRequest = onRequest
        self.tls = tls
    }

    /// A fresh id for a request `connection` waits on; nil once the proxy is shut down.
    func register(_ connection: NIOLoopBound<ProxyConnectionHandler>) -> Int? {
        registry.withLock { r in
            guard !r.stopped else { return nil }
            let id = r.nextID
            r.nextID += 1
            r.waiting[id] = connection
            return id
        }
    }

    /// Hands the outcome to the waiting connection's event loop; ignored for an id nobody waits on. The task is queued
    /// under the lock so that `stop` cannot shut the loop down in between.
    func settle(_ id: Int, _ outcome: ProxyOutcome) {
        registry.withLock { r in
            guard !r.stopped, let connection = r.waiting.removeValue(forKey: id) else { return }
            connection.eventLoop.execute { connection.value.settle(id, outcome) }
        }
    }

    /// The connection of these ids has closed.
    func forget(_ ids: [Int]) {
        registry.withLock { r in
            for id in ids { r.waiting[id] = nil }
        }
    }

    /// Marks the proxy stopped; false when it already was.
    func stop() -> Bool {
        registry.withLock { r in
            guard !r.stopped else { return false }
            r.stopped = true
            r.waiting = [:]
            return true
        }
    }
}
