// `plainview serve`: the payment-url helper endpoints (pure responses from NavigationPolicy) and the recorded
// Pages over real HTTP with Hummingbird. Built by a function so tests drive it without sockets.
import PlainviewURL
import PaymentURLHelpers
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdCore
import Logging
import NavigationPolicy
import NIOCore
import Synchronization

/// What `serve` is asked to do. `publicURL` nil → `http://HOST:PORT` of the bound address (never the Host header).
public struct ServerOptions: Sendable {
    public var host: String = "127.0.0.1"
    public var port: Int = 8080
    public var root: String = "/"
    public var publicURL: String?
    public var trampolineURL: String?
    public var appIDs: [String] = []
    public var androidPackage: String?
    public var sha256CertFingerprints: [String] = []
    /// The app's own custom schemes: the only ones the iOS ladder redirects to. None given: any custom scheme
    /// but the OS's own (`SchemeKind.platformOwnedSchemes`: itms-services, facetime, tel …).
    public var appSchemes: [String] = []
    /// Connection cap and timeouts.
    public var limits = ServerLimits()
    /// A Pages folder (one sub-folder per flow); its HTML files are served at `/<flow>/<file>`.
    public var pagesDirectory: String?

    public init() {}
}

/// Where the server ended up listening.
public struct ListeningInfo: Sendable {
    public var url: String
    public var port: Int
    public var publicURL: String
}

public enum PlainviewServer {
    /// Validates the options and builds the application. Errors name the option at fault.
    /// `onListening` runs once the socket is bound (the CLI prints it; the library never prints).
    public static func makeApplication(
        options: ServerOptions, logger: Logger,
        onListening: @escaping @Sendable (ListeningInfo) async -> Void = { _ in }
    ) throws -> some ApplicationProtocol {
        guard (0...65535).contains(options.port) else {
            throw HelperConfigurationError(key: "port", message: "expected 0…65535, got \(options.port)")
        }
        guard !options.host.isEmpty, !options.host.contains("/") else {
            throw HelperConfigurationError(
                key: "host", message: "expected an address to bind, like 127.0.0.1, got '\(options.host)'")
        }
        // Validate every option now, with a stand-in public URL when it depends on the bound port.
        let knownPublicURL =
            options.publicURL ?? (options.port == 0 ? nil : defaultPublicURL(host: options.host, port: options.port))
        let validated = try endpointsConfiguration(options, publicURL: knownPublicURL ?? "http://127.0.0.1")
        try options.limits.validate()
        if options.appSchemes.isEmpty {
            logger.warning(
                "no --app-scheme: ios-universal-link redirects to any custom scheme but the OS's own (itms-services, facetime, tel …); name the app's own scheme(s) to refuse every other"
            )
        }
        let pages = try options.pagesDirectory.map { try PagesIndex(directory: $0) }
        for error in pages?.skipped ?? [] {
            logger.warning("not serving a flow that does not load: \(error)")
        }
        let warnings = WarningBudget()
        let responder = PlainviewResponder(
            endpoints: knownPublicURL == nil ? nil : HelperEndpoints(configuration: validated),
            pages: pages, logger: logger, warnings: warnings)
        if validated.trampolineOrigin == validated.publicOrigin && options.publicURL != nil {
            logger.notice(
                "the back-link page is served from the payment url's own host; iOS opens a universal link tapped on a page of the same domain in Safari (Swedbank Pay's Merchant Backend documentation, case 2a): give --trampoline-url on another host for production"
            )
        }
        let options = options
        let limits = options.limits
        let maxConnections = limits.maxConnections ?? ServerLimits.defaultMaxConnections()
        let idle = IdleConnections()
        return Application(
            responder: responder,
            server: HTTPServerBuilder { responder in
                GuardedHTTP1Channel(responder: responder, limits: limits, logger: logger, warnings: warnings, idle: idle)
            },
            configuration: ApplicationConfiguration(
                address: .hostname(options.host, port: options.port), serverName: nil,
                availableConnectionsDelegate: ConnectionCap(limit: maxConnections, logger: logger, idle: idle)),
            onServerRunning: { channel in
                idle.setServer(channel)
                let port = channel.localAddress?.port ?? options.port
                // The address actually bound (e.g. "localhost" resolved to 127.0.0.1 or ::1).
                let listening = defaultPublicURL(host: channel.localAddress?.ipAddress ?? options.host, port: port)
                let publicURL = options.publicURL ?? listening
                if options.publicURL == nil && ["0.0.0.0", "::", "[::]"].contains(options.host) {
                    logger.warning(
                        "bound to all interfaces without --public-url: generated URLs say \(publicURL), which no device can reach; give --public-url"
                    )
                }
                if options.publicURL == nil, let config = try? endpointsConfiguration(options, publicURL: publicURL) {
                    responder.setEndpoints(HelperEndpoints(configuration: config))
                }
                await onListening(ListeningInfo(url: listening, port: port, publicURL: publicURL))
            },
            logger: logger
        )
    }

    /// A built server the CLI can run without seeing Hummingbird types.
    public struct Runnable: Sendable {
        let body: @Sendable () async throws -> Void
        /// Serves until SIGINT or SIGTERM, then shuts down gracefully and returns.
        public func run() async throws { try await body() }
    }

    public static func runnable(
        options: ServerOptions, logger: Logger,
        onListening: @escaping @Sendable (ListeningInfo) async -> Void = { _ in }
    ) throws -> Runnable {
        let app = try makeApplication(options: options, logger: logger, onListening: onListening)
        return Runnable(body: { try await app.runService(gracefulShutdownSignals: [.sigterm, .sigint]) })
    }

    static func endpointsConfiguration(_ o: ServerOptions, publicURL: String) throws -> HelperEndpointsConfiguration {
        try HelperEndpointsConfiguration(
            publicURL: publicURL, root: o.root, appIDs: o.appIDs, androidPackage: o.androidPackage,
            sha256CertFingerprints: o.sha256CertFingerprints, trampolineURL: o.trampolineURL,
            appSchemes: o.appSchemes.isEmpty ? nil : o.appSchemes)
    }

    static func defaultPublicURL(host: String, port: Int) -> String {
        let h = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        return "http://\(h):\(port)"
    }
}

/// Routes a request to the helper endpoints or to a recorded page. Each request is logged at debug level; a
/// refused one (a 4xx other than 404) at warning.
final class PlainviewResponder: HTTPResponder, Sendable {
    typealias Context = BasicRequestContext
    private let endpoints: Mutex<HelperEndpoints?>
    let pages: PagesIndex?
    let logger: Logger
    let warnings: WarningBudget

    init(endpoints: HelperEndpoints?, pages: PagesIndex?, logger: Logger, warnings: WarningBudget) {
        self.endpoints = Mutex(endpoints)
        self.pages = pages
        self.logger = logger
        self.warnings = warnings
    }

    func setEndpoints(_ e: HelperEndpoints) { endpoints.withLock { $0 = e } }

    func respond(to request: Request, context: BasicRequestContext) async throws -> Response {
        let method = request.method.rawValue
        let target = request.head.path ?? "/"
        let helper = HelperRequest(method: method, target: target)
        let result: HelperResponse
        if let endpoints = endpoints.withLock({ $0 }) {
            if let pages, !endpoints.handles(target: target),
                let page = pages.response(for: helper, cookies: request.headers[values: .cookie])
            {
                result = page
            } else {
                result = endpoints.respond(to: helper)
            }
        } else {
            result = HelperEndpoints.problemResponse(
                HelperProblem(
                    type: "about:blank", title: "Service Unavailable", status: 503, detail: "The server is starting."))
        }
        // The target is logged in its canonical (percent-encoded) form, bounded.
        let refused = (400..<500).contains(result.status) && result.status != 404
        if refused || logger.logLevel <= .debug {
            let line = "\(method) \(String(Self.printable(target).prefix(300))) \(result.status) \(result.body.utf8.count)"
            if refused { warnings.warn(logger, line) } else { logger.debug("\(line)") }
        }
        let (head, body) = Self.wire(result, closing: false)
        return Response(status: head.status, headers: head.headerFields, body: ResponseBody(byteBuffer: body))
    }

    static func printable(_ s: String) -> String {
        var out = ""
        for u in s.unicodeScalars {
            if u.value < 0x21 || u.value >= 0x7F {
                out += PercentEncoding.encodeComponent(String(u))
            } else {
                out.unicodeScalars.append(u)
            }
        }
        return out
    }

    /// A helper response as an HTTP head and body; `closing` adds `Connection: close` and the length (for a
    /// response written below the router, which adds neither).
    static func wire(_ r: HelperResponse, closing: Bool) -> (HTTPResponse, ByteBuffer) {
        var fields = HTTPFields()
        for h in r.headers {
            if let name = HTTPField.Name(h.name) { fields.append(HTTPField(name: name, value: h.value)) }
        }
        let body = ByteBuffer(string: r.body)
        if closing {
            fields[.contentLength] = String(body.readableBytes)
            fields[.connection] = "close"
        }
        return (HTTPResponse(status: HTTPResponse.Status(code: r.status), headerFields: fields), body)
    }
}
