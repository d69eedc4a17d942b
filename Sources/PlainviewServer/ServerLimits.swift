// How `serve` holds under abuse: a connection cap below the file-descriptor limit (so accept never meets EMFILE
// and spins), an idle timeout (Hummingbird's), and header and read timeouts of its own, so a client that opens
// sockets and sends nothing, or trickles a request byte by byte, cannot keep a connection for long.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTPTypes
import PaymentURLHelpers

/// Connection and time limits of the server. Times are whole seconds.
public struct ServerLimits: Sendable, Equatable {
    /// A connection with no request in progress (before its first one, or between two) is closed after this.
    public var idleTimeout: Int = 60
    /// From the first byte of a request to its complete head (request line and header fields).
    public var headerTimeout: Int = 10
    /// From the first byte of a request to its last (head and body).
    public var readTimeout: Int = 30
    /// Connections open at once; past it new ones wait in the listen backlog. nil: `defaultMaxConnections()`.
    public var maxConnections: Int?

    public init() {}

    /// The cap that keeps clear of the open-file limit: its soft value less 256 descriptors for files, logs and
    /// the listening socket, at least 16, at most 10,000.
    public static func defaultMaxConnections() -> Int {
        var limit = rlimit()
        guard getrlimit(openFiles, &limit) == 0 else { return 1024 }
        let soft = Int(clamping: min(limit.rlim_cur, 1_000_000))
        return min(10_000, max(16, soft - 256))
    }

    /// Raises the soft open-file limit to the hard one (at most 65,536), as servers do, so the default cap is
    /// not held at the usual 1,024. For executables: a library does not change its process's limits.
    public static func raiseOpenFileLimit() {
        var limit = rlimit()
        guard getrlimit(openFiles, &limit) == 0 else { return }
        let wanted = min(limit.rlim_max, 65_536)
        guard limit.rlim_cur < wanted else { return }
        limit.rlim_cur = wanted
        _ = setrlimit(openFiles, &limit)
    }

    #if canImport(Glibc)
    static let openFiles = Int32(RLIMIT_NOFILE.rawValue)
    #else
    static let openFiles = RLIMIT_NOFILE
    #endif

    /// The option at fault when a limit is out of range.
    func validate() throws(HelperConfigurationError) {
        for (key, value) in [("idle-timeout", idleTimeout), ("header-timeout", headerTimeout), ("read-timeout", readTimeout)] {
            guard (1...3600).contains(value) else {
                throw HelperConfigurationError(key: key, message: "expected 1…3600 seconds, got \(value)")
            }
        }
        guard readTimeout >= headerTimeout else {
            throw HelperConfigurationError(
                key: "read-timeout", message: "must be at least --header-timeout (\(headerTimeout) s), got \(readTimeout)")
        }
        if let maxConnections, !(1...1_000_000).contains(maxConnections) {
            throw HelperConfigurationError(key: "max-connections", message: "expected 1…1000000, got \(maxConnections)")
        }
    }
}

/// Counts open connections; at the cap the server stops accepting (new connections wait in the kernel's
/// backlog) and says so, at most once every 10 seconds. The cap is checked before each read of the listening
/// socket, and one read accepts up to 4 connections, so it can be passed by at most 3.
struct ConnectionCap: AvailableConnectionsDelegate {
    let limit: Int
    let logger: Logger
    var open = 0
    var lastWarning: ContinuousClock.Instant?
    var timesFullSinceWarning = 0

    init(limit: Int, logger: Logger) {
        self.limit = limit
        self.logger = logger
    }

    mutating func connectionOpened() {
        open += 1
        guard open >= limit else { return }
        timesFullSinceWarning += 1
        let now = ContinuousClock.now
        if let last = lastWarning, now - last < .seconds(10) { return }
        let times = timesFullSinceWarning == 1 ? "" : " (reached \(timesFullSinceWarning) times since the last report)"
        logger.warning(
            "connection cap reached: \(open) connections open (--max-connections \(limit)); new connections wait in the listen backlog until one closes\(times)"
        )
        lastWarning = now
        timesFullSinceWarning = 0
    }

    mutating func connectionClosed() { open -= 1 }

    func isAcceptingNewConnections() -> Bool { open < limit }
}

/// Hummingbird's HTTP/1 channel with two handlers of Plainview's around its pipeline: `RequestClock` first (it
/// sees raw bytes, so it knows when a request starts) and `RequestGuard` after the HTTP decoding (it sees
/// request parts and parser errors).
struct GuardedHTTP1Channel: ServerChildChannel {
    typealias Value = HTTP1Channel.Value
    let inner: HTTP1Channel
    let limits: ServerLimits
    let logger: Logger
    let warnings: WarningBudget

    init(responder: @escaping HTTPChannelHandler.Responder, limits: ServerLimits, logger: Logger, warnings: WarningBudget) {
        var decoder = HTTP1Channel.Configuration.DecoderConfiguration()
        // The request line counts against the field size as well: past 16 KB it is a parser error (431 problem).
        decoder.maxHeaderFieldSize = 16 * 1024
        decoder.maxHeaderListSize = 64 * 1024
        decoder.maxHeaderFieldCount = 100
        inner = HTTP1Channel(
            responder: responder,
            configuration: .init(
                additionalChannelHandlers: [RequestGuard(logger: logger, warnings: warnings)],
                idleTimeout: .seconds(Int64(limits.idleTimeout)), httpDecoderConfiguration: decoder))
        self.limits = limits
        self.logger = logger
        self.warnings = warnings
    }

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        let limits = limits, ownLogger = self.logger, warnings = warnings
        return channel.eventLoop.makeCompletedFuture {
            try channel.pipeline.syncOperations.addHandler(
                RequestClock(limits: limits, logger: ownLogger, warnings: warnings), position: .first)
        }.flatMap { inner.setup(channel: channel, logger: logger) }
    }

    func handle(value: Value, logger: Logger) async {
        await inner.handle(value: value, logger: logger)
    }
}

/// Sent by `RequestGuard` toward the front of the pipeline, where `RequestClock` stops its timers.
enum RequestProgress: Sendable {
    case headComplete
    case requestComplete
}

/// The header and read timeouts, measured from a request's first byte on the wire. A request that misses one
/// has its connection closed, with a warning naming the peer.
final class RequestClock: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private enum Phase {
        case waiting
        case head(started: NIODeadline, timer: Scheduled<Void>)
        case body(timer: Scheduled<Void>)
    }

    private let limits: ServerLimits
    private let logger: Logger
    private let warnings: WarningBudget
    private var phase = Phase.waiting

    init(limits: ServerLimits, logger: Logger, warnings: WarningBudget) {
        self.limits = limits
        self.logger = logger
        self.warnings = warnings
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .waiting = phase {
            let now = NIODeadline.now()
            phase = .head(
                started: now,
                timer: schedule(
                    context, at: now + .seconds(Int64(limits.headerTimeout)),
                    "its request head was not complete after \(limits.headerTimeout) s (--header-timeout)"))
        }
        context.fireChannelRead(data)
    }

    func triggerUserOutboundEvent(context: ChannelHandlerContext, event: Any, promise: EventLoopPromise<Void>?) {
        guard let progress = event as? RequestProgress else {
            context.triggerUserOutboundEvent(event, promise: promise)
            return
        }
        switch (progress, phase) {
        case (.headComplete, .head(let started, let timer)):
            timer.cancel()
            phase = .body(
                timer: schedule(
                    context, at: started + .seconds(Int64(limits.readTimeout)),
                    "its request was not complete after \(limits.readTimeout) s (--read-timeout)"))
        case (.requestComplete, .head(_, let timer)), (.requestComplete, .body(let timer)):
            timer.cancel()
            phase = .waiting
        case (.headComplete, _), (.requestComplete, .waiting):
            break
        }
        promise?.succeed()
    }

    func channelInactive(context: ChannelHandlerContext) {
        cancel()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) { cancel() }

    private func cancel() {
        switch phase {
        case .head(_, let timer), .body(let timer): timer.cancel()
        case .waiting: break
        }
        phase = .waiting
    }

    private func schedule(_ context: ChannelHandlerContext, at deadline: NIODeadline, _ reason: String) -> Scheduled<Void> {
        let logger = logger, warnings = warnings
        return context.eventLoop.assumeIsolated().scheduleTask(deadline: deadline) {
            warnings.warn(
                logger, "closed the connection from \(context.channel.remoteAddress?.description ?? "an unknown peer"): \(reason)"
            )
            context.close(promise: nil)
        }
    }
}

@available(*, unavailable)
extension RequestClock: Sendable {}
