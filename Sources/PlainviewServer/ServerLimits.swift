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
import NIOHTTP1
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

/// Counts open connections and says when the cap is reached, at most once every 10 seconds. At the cap a new
/// connection is still accepted while some open one has no request in progress, and the idlest of those is closed
/// to make room (as nginx reuses idle keep-alive connections); with every connection in the middle of a request
/// the server stops accepting, and new connections wait in the kernel's backlog until one closes or becomes idle.
/// The cap is checked before each read of the listening socket, and one read accepts up to 4 connections, so
/// the count can pass it by a few, for as long as the closing takes.
struct ConnectionCap: AvailableConnectionsDelegate {
    let limit: Int
    let logger: Logger
    let idle: IdleConnections
    var open = 0
    var lastWarning: ContinuousClock.Instant?
    var timesFullSinceWarning = 0

    /// Past the cap by this many, nothing more is accepted until connections have closed.
    static let headroom = 4

    init(limit: Int, logger: Logger, idle: IdleConnections) {
        self.limit = limit
        self.logger = logger
        self.idle = idle
    }

    mutating func connectionOpened() {
        open += 1
        if open > limit { idle.closeIdlest() }
        guard open >= limit else { return }
        timesFullSinceWarning += 1
        let now = ContinuousClock.now
        if let last = lastWarning, now - last < .seconds(10) { return }
        let times = timesFullSinceWarning == 1 ? "" : " (reached \(timesFullSinceWarning) times since the last report)"
        logger.warning(
            "connection cap reached: \(open) connections open (--max-connections \(limit)); each new one closes the idlest with no request in progress, and while every one has a request in progress new ones wait in the listen backlog\(times)"
        )
        lastWarning = now
        timesFullSinceWarning = 0
    }

    mutating func connectionClosed() { open -= 1 }

    func isAcceptingNewConnections() -> Bool {
        open < limit || (open < limit + Self.headroom && idle.hasIdleElseStopAccepting())
    }
}

/// Hummingbird's HTTP/1 channel with three handlers of Plainview's in its pipeline: `RequestClock` first (it
/// sees raw bytes, so it knows when a request starts), `ConnectionPersistence` after NIO's HTTP decoder (it sees
/// the HTTP version) and `RequestGuard` after the conversion to HTTPTypes (it sees request parts and parser
/// errors).
struct GuardedHTTP1Channel: ServerChildChannel {
    typealias Value = HTTP1Channel.Value
    let inner: HTTP1Channel
    let limits: ServerLimits
    let logger: Logger
    let warnings: WarningBudget
    let idle: IdleConnections

    init(
        responder: @escaping HTTPChannelHandler.Responder, limits: ServerLimits, logger: Logger, warnings: WarningBudget,
        idle: IdleConnections
    ) {
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
        self.idle = idle
    }

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        let limits = limits, ownLogger = self.logger, warnings = warnings, idle = idle
        return channel.eventLoop.makeCompletedFuture {
            try channel.pipeline.syncOperations.addHandler(
                RequestClock(limits: limits, logger: ownLogger, warnings: warnings, idle: idle), position: .first)
        }.flatMap {
            inner.setup(channel: channel, logger: logger)
        }.flatMapThrowing { value in
            let operations = channel.pipeline.syncOperations
            let decoder = try operations.handler(type: ByteToMessageHandler<HTTPRequestDecoder>.self)
            try operations.addHandler(ConnectionPersistence(), position: .after(decoder))
            return value
        }
    }

    func handle(value: Value, logger: Logger) async {
        await inner.handle(value: value, logger: logger)
    }
}

/// Sent by `RequestGuard` toward the front of the pipeline, where `RequestClock` stops its timers and follows
/// whether a request is in progress.
enum RequestProgress: Sendable {
    case headComplete
    case requestComplete
    /// A response has been written to its end (handed to the socket).
    case responseWritten
}

/// The header and read timeouts, measured from a request's first byte on the wire. A request that misses one
/// has its connection closed, with a warning naming the peer. Tells `IdleConnections` when the connection has a
/// request in progress (from a request's first byte until it has been read and every response written).
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
    private let idle: IdleConnections
    private var phase = Phase.waiting
    /// Requests whose head has arrived and whose response has not been written.
    private var unanswered = 0
    private var registered = false

    init(limits: ServerLimits, logger: Logger, warnings: WarningBudget, idle: IdleConnections) {
        self.limits = limits
        self.logger = logger
        self.warnings = warnings
        self.idle = idle
    }

    func handlerAdded(context: ChannelHandlerContext) {
        registered = true
        idle.register(context.channel)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .waiting = phase {
            // Closed to make room at the connection cap as these bytes arrived: they go with it.
            guard unanswered > 0 || idle.markBusy(context.channel) else { return }
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
        // Counted whatever the phase: a pipelined request's head can follow the end of the one before in one read.
        if case .headComplete = progress { unanswered += 1 }
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
            markIdleIfDone(context)
        case (.responseWritten, _):
            unanswered = max(0, unanswered - 1)
            markIdleIfDone(context)
        case (.headComplete, _), (.requestComplete, .waiting):
            break
        }
        promise?.succeed()
    }

    private func markIdleIfDone(_ context: ChannelHandlerContext) {
        if case .waiting = phase, unanswered == 0 { idle.markIdle(context.channel) }
    }

    func channelInactive(context: ChannelHandlerContext) {
        cancel()
        unregister(context)
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        cancel()
        unregister(context)
    }

    private func unregister(_ context: ChannelHandlerContext) {
        guard registered else { return }
        registered = false
        idle.remove(context.channel)
    }

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
