// Whether a connection outlives its request (RFC 9112, section 9.3): an HTTP/1.1 request keeps it unless it
// says `Connection: close`; an HTTP/1.0 one closes it unless it says `Connection: keep-alive`. Hummingbird ends a
// connection only after a request whose Connection field is exactly "close", and the HTTP version is gone once
// NIO's request head becomes an HTTPTypes request, so this handler sits between the two.
import NIOCore
import NIOHTTP1

/// Between NIO's HTTP/1 decoder and the HTTPTypes conversion. A request that does not keep its connection gets
/// the Connection field Hummingbird acts on (it answers, then closes its side), and its response says
/// `Connection: close`; an HTTP/1.0 request that keeps it gets `Connection: keep-alive`, without which an
/// HTTP/1.0 client closes. Once the server has closed its side, the connection closes when the client closes
/// its own, or after `linger` (a staged close, RFC 9112 section 9.6: closing at once with unread input could
/// reset the connection and destroy the response before the client reads it).
final class ConnectionPersistence: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    private enum Persistence {
        case close
        case keepAliveHTTP10
        case keepAlive
    }

    /// One per request whose final response head has not been written, in order (requests may be pipelined).
    private var unanswered: [Persistence] = []
    private var outputClosed = false
    private var lingerTimer: Scheduled<Void>?

    static let linger = TimeAmount.seconds(2)

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .head(var head) = unwrapInboundIn(data) else {
            context.fireChannelRead(data)
            return
        }
        if head.isKeepAlive {
            unanswered.append(head.version.major == 1 && head.version.minor == 0 ? .keepAliveHTTP10 : .keepAlive)
        } else {
            unanswered.append(.close)
            head.headers.replaceOrAdd(name: "connection", value: "close")
        }
        context.fireChannelRead(wrapInboundOut(.head(head)))
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        // An interim (1xx) response is not the request's answer.
        guard case .head(var head) = unwrapOutboundIn(data), head.status.code >= 200, !unanswered.isEmpty else {
            context.write(data, promise: promise)
            return
        }
        switch unanswered.removeFirst() {
        case .close: head.headers.replaceOrAdd(name: "connection", value: "close")
        case .keepAliveHTTP10: head.headers.replaceOrAdd(name: "connection", value: "keep-alive")
        case .keepAlive: break
        }
        context.write(wrapOutboundOut(.head(head)), promise: promise)
    }

    func close(context: ChannelHandlerContext, mode: CloseMode, promise: EventLoopPromise<Void>?) {
        if mode == .output, !outputClosed {
            outputClosed = true
            lingerTimer = context.eventLoop.assumeIsolated().scheduleTask(in: Self.linger) { context.close(promise: nil) }
        }
        context.close(mode: mode, promise: promise)
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        context.fireUserInboundEventTriggered(event)
        if outputClosed, case ChannelEvent.inputClosed = event {
            context.close(promise: nil)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        lingerTimer?.cancel()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) { lingerTimer?.cancel() }
}

@available(*, unavailable)
extension ConnectionPersistence: Sendable {}
