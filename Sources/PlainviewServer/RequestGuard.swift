// A request the HTTP parser rejects (a control byte in the target, an over-long request line, a folded header,
// Content-Length with Transfer-Encoding …) is answered with the same RFC 7807 problem body as every other error
// of the server, then the connection closes: a parser that has failed cannot find where the next request starts.
import HTTPTypes
import Logging
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import PaymentURLHelpers

/// Sits after the HTTP/1 decoding: tells `RequestClock` when a request's head and end have arrived, and turns
/// a parser error into a problem response.
final class RequestGuard: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let logger: Logger
    private let warnings: WarningBudget
    /// Requests whose head has arrived and whose response has not been written to its end.
    private var unanswered = 0
    /// A head has arrived and the request's end has not.
    private var midRequest = false
    /// A parser error met while responses were still being written. Once they are, the problem is sent when
    /// the last request was read to its end (so a new request failed), else the connection just closes (the
    /// body of the request just answered failed, and it has its answer). The decoder may report the error
    /// before the end of the request before it, so this is decided then, not when the error arrives.
    private var afterResponses: HelperProblem?
    /// The problem has been sent; the connection closes when the client closes its side, or after `linger`.
    private var lingering = false

    init(logger: Logger, warnings: WarningBudget) {
        self.logger = logger
        self.warnings = warnings
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head:
            unanswered += 1
            midRequest = true
            context.triggerUserOutboundEvent(RequestProgress.headComplete, promise: nil)
        case .body:
            break
        case .end:
            midRequest = false
            context.triggerUserOutboundEvent(RequestProgress.requestComplete, promise: nil)
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard case .end = unwrapOutboundIn(data) else {
            context.write(data, promise: promise)
            return
        }
        unanswered -= 1
        // Once the response is handed to the socket, `RequestClock` may count the connection idle.
        let promise = promise ?? context.eventLoop.makePromise()
        promise.futureResult.assumeIsolated().whenSuccess { _ in
            context.triggerUserOutboundEvent(RequestProgress.responseWritten, promise: nil)
        }
        guard let problem = afterResponses, unanswered <= 0 else {
            context.write(data, promise: promise)
            return
        }
        afterResponses = nil
        if !midRequest {
            context.write(data, promise: promise)
            send(problem, context: context)
        } else {
            context.writeAndFlush(data, promise: promise)
            context.close(promise: nil)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard let parserError = error as? HTTPParserError else {
            context.fireErrorCaught(error)
            return
        }
        let problem = Self.problem(for: parserError)
        warnings.warn(
            logger,
            "refused a request from \(context.channel.remoteAddress?.description ?? "an unknown peer") the HTTP parser rejects: \(problem.status) \(problem.detail)"
        )
        // Responses still being written are finished first (pipelined requests are answered in order).
        guard unanswered <= 0 else {
            afterResponses = problem
            return
        }
        send(problem, context: context)
    }

    /// Writes the problem as the connection's last response.
    private func send(_ problem: HelperProblem, context: ChannelHandlerContext) {
        let response = HelperEndpoints.problemResponse(problem)
        let (head, body) = PlainviewResponder.wire(response, closing: true)
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.write(wrapOutboundOut(.body(body)), promise: nil)
        // Lingering close: send the answer and a FIN, then read (and drop: the decoder has failed) what the
        // client is still sending for a moment, so closing with unread input does not reset the connection
        // and destroy the answer before the client reads it.
        lingering = true
        context.writeAndFlush(wrapOutboundOut(.end(nil))).assumeIsolated().whenComplete { _ in
            context.close(mode: .output, promise: nil)
            context.eventLoop.assumeIsolated().scheduleTask(in: Self.linger) { context.close(promise: nil) }
        }
    }

    static let linger = TimeAmount.seconds(2)

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if lingering, case ChannelEvent.inputClosed = event {
            context.close(promise: nil)
            return
        }
        context.fireUserInboundEventTriggered(event)
    }

    /// The problem for each kind of request the parser refuses.
    static func problem(for error: HTTPParserError) -> HelperProblem {
        func bad(_ detail: String) -> HelperProblem {
            HelperProblem(type: "about:blank", title: "Bad Request", status: 400, detail: detail)
        }
        switch error {
        case .headerOverflow:
            return HelperProblem(
                type: "about:blank", title: "Request Header Fields Too Large", status: 431,
                detail:
                    "The request line or a header field is longer than 16 KB, or the header fields together longer than 64 KB.")
        case .invalidURL:
            return bad(
                "The request target holds a byte no request target may hold (a control character, a space or a non-ASCII byte).")
        case .invalidHeaderToken:
            return bad(
                "A header field is malformed: a character a field name or value may not hold, or a line folded onto the previous one (obsolete line folding, which RFC 9112 forbids)."
            )
        case .unexpectedContentLength:
            return bad(
                "The request has both Content-Length and Transfer-Encoding, so its length is ambiguous (RFC 9112, section 6.1).")
        case .invalidContentLength:
            return bad("The request's Content-Length is not a single decimal number.")
        case .invalidChunkSize:
            return bad("The request's chunked body has a malformed chunk size.")
        case .invalidMethod:
            return bad("The request method is not an HTTP token.")
        case .invalidVersion:
            return bad("The request line does not end with HTTP/1.0 or HTTP/1.1.")
        case .lfExpected, .invalidConstant, .strictModeAssertion:
            return bad("The request line or a header line is malformed (each must end with CR LF).")
        default:
            // llhttp reports Content-Length with Transfer-Encoding, a Transfer-Encoding not ending in chunked and
            // a few rarer framing faults under one code NIO calls `unknown`.
            return bad(
                "The request is not valid HTTP/1.1: its framing is malformed or ambiguous (for example Content-Length together with Transfer-Encoding, or a Transfer-Encoding that does not end in chunked)."
            )
        }
    }
}

@available(*, unavailable)
extension RequestGuard: Sendable {}
