// One client connection: reads requests (in plain HTTP, or HTTP inside a CONNECT tunnel after TLS), asks the owner
// about each, and writes the answers back in request order.
import NIOCore
import NIOHTTP1
import NIOSSL

final class ProxyConnectionHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = ByteBuffer

    /// The largest request body the proxy takes (a web view's form posts are far smaller); bigger ones get 413.
    static let maximumBody = 64 << 20

    private let core: ProxyCore
    /// The decoder of the plain-HTTP phase, swapped for TLS and a fresh decoder when a tunnel opens.
    private let firstDecoder: ByteToMessageHandler<HTTPRequestDecoder>
    /// Inside a tunnel: "https://host[:port]", or "http://…" once the client's first bytes show it speaks plain HTTP
    /// (see `TunnelAuthority.base`).
    private var tunnelBase: String?

    /// The request being read.
    private var head: HTTPRequestHead?
    private var target: ProxyTarget = .refuse(reason: "")
    private var body: [UInt8] = []
    private var bodyTooLarge = false

    /// A request waiting for its turn on the wire, with its answer once known.
    private struct Slot {
        enum Answer {
            case bytes([UInt8])
            case failure
        }

        var id: Int?
        var isHead: Bool
        var close: Bool
        var answer: Answer?
    }

    private var slots: [Slot] = []
    /// Set once an answer that ends the connection is queued: later requests are ignored.
    private var closing = false
    private var context: ChannelHandlerContext?

    init(core: ProxyCore, firstDecoder: ByteToMessageHandler<HTTPRequestDecoder>) {
        self.core = core
        self.firstDecoder = firstDecoder
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        self.context = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch Self.unwrapInboundIn(data) {
        case .head(let head):
            guard !closing else { return }
            self.head = head
            body = []
            bodyTooLarge = false
            target = ProxyTarget.classify(method: head.method.rawValue, target: head.uri, tunnelBase: tunnelBase)
            if case .forward = target, slots.isEmpty,
                head.headers["expect"].contains(where: { $0.lowercased() == "100-continue" })
            {
                write(Array("HTTP/1.1 100 Continue\r\n\r\n".utf8), context: context, flush: true)
            }
        case .body(var chunk):
            guard !closing, case .forward = target, !bodyTooLarge else { return }
            if body.count + chunk.readableBytes > Self.maximumBody {
                bodyTooLarge = true
                body = []
            } else {
                body += chunk.readBytes(length: chunk.readableBytes) ?? []
            }
        case .end:
            guard !closing, let head else { return }
            self.head = nil
            finish(head, context: context)
        }
    }

    private func finish(_ head: HTTPRequestHead, context: ChannelHandlerContext) {
        switch target {
        case .tunnel(let authority):
            guard slots.isEmpty else {
                return refuse("CONNECT after unanswered requests", status: 400, context: context)
            }
            openTunnel(authority, context: context)
        case .refuse(let reason):
            refuse(reason, status: 400, context: context)
        case .forward(let url):
            guard !bodyTooLarge else {
                return refuse("the request body is over \(Self.maximumBody >> 20) MiB", status: 413, context: context)
            }
            guard let id = core.register(NIOLoopBound(self, eventLoop: context.eventLoop)) else {
                return context.close(promise: nil)
            }
            let isHead = head.method == .HEAD
            slots.append(Slot(id: id, isHead: isHead, close: !head.isKeepAlive, answer: nil))
            if !head.isKeepAlive { closing = true }
            let request = RecordingProxy.Request(
                id: id, method: head.method.rawValue, url: url,
                headers: head.headers.map { (name: $0.name, value: $0.value) }, body: body
            )
            body = []
            core.onRequest(request)
        }
    }

    /// Answers the CONNECT, then puts a sniffer (which adds TLS when the client starts a handshake) where the plain
    /// decoder was and a fresh HTTP decoder after it. Bytes the client sent early (its ClientHello) are handed from the
    /// old decoder to the sniffer when the old decoder leaves.
    private func openTunnel(_ authority: TunnelAuthority, context: ChannelHandlerContext) {
        write(Array("HTTP/1.1 200 Connection Established\r\n\r\n".utf8), context: context, flush: true)
        tunnelBase = authority.base(tls: true)
        let sniffer = TunnelSniffer(tls: core.tls) { [weak self] tls in self?.tunnelBase = authority.base(tls: tls) }
        let decoder = ByteToMessageHandler(HTTPRequestDecoder(leftOverBytesStrategy: .dropBytes))
        let pipeline = context.pipeline.syncOperations
        do {
            try pipeline.addHandler(sniffer, position: .after(firstDecoder))
            try pipeline.addHandler(decoder, position: .after(sniffer))
            pipeline.removeHandler(firstDecoder, promise: nil)
        } catch {
            close(context: context)
        }
    }

    /// The proxy's own answer, in turn, and the connection closes after it.
    private func refuse(_ reason: String, status: Int, context: ChannelHandlerContext) {
        let bytes = ProxyResponse.plainText(status: status, reason, close: true)
        slots.append(Slot(id: nil, isHead: false, close: true, answer: .bytes(bytes)))
        closing = true
        flush()
    }

    /// The owner's outcome for `id`, on this connection's event loop.
    func settle(_ id: Int, _ outcome: ProxyOutcome) {
        guard let index = slots.firstIndex(where: { $0.id == id }), slots[index].answer == nil else { return }
        switch outcome {
        case .failure:
            slots[index].answer = .failure
        case .answer(let status, let headers, let body):
            let slot = slots[index]
            let bytes = ProxyResponse.bytes(
                status: status, headers: headers, body: body, isHead: slot.isHead, close: slot.close
            )
            slots[index].answer = .bytes(bytes)
        }
        flush()
    }

    /// Writes every answer whose turn has come.
    private func flush() {
        guard let context else { return }
        var wrote = false
        while let slot = slots.first, let answer = slot.answer {
            slots.removeFirst()
            guard case .bytes(let bytes) = answer else {
                if wrote { context.flush() }
                return close(context: context)
            }
            let buffer = wrapOutboundOut(context.channel.allocator.buffer(bytes: bytes))
            if slot.close {
                // Close once the answer is out (closing at once would drop the queued bytes).
                let channel = context.channel
                context.writeAndFlush(buffer).whenComplete { _ in channel.close(promise: nil) }
                return dropPending()
            }
            context.write(buffer, promise: nil)
            wrote = true
        }
        if wrote { context.flush() }
    }

    private func write(_ bytes: [UInt8], context: ChannelHandlerContext, flush: Bool) {
        let buffer = context.channel.allocator.buffer(bytes: bytes)
        if flush {
            context.writeAndFlush(wrapOutboundOut(buffer), promise: nil)
        } else {
            context.write(wrapOutboundOut(buffer), promise: nil)
        }
    }

    private func close(context: ChannelHandlerContext) {
        dropPending()
        context.close(promise: nil)
    }

    /// Requests still waiting will never be answered on this connection.
    private func dropPending() {
        core.forget(slots.compactMap(\.id))
        slots.removeAll()
        closing = true
    }

    func channelInactive(context: ChannelHandlerContext) {
        dropPending()
        context.fireChannelInactive()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if event is IdleStateHandler.IdleStateEvent {
            // Idle means nothing on the wire and nothing owed: a request still waiting for its answer keeps it open.
            if slots.isEmpty, head == nil { close(context: context) }
            return
        }
        context.fireUserInboundEventTriggered(event)
    }

    /// Malformed HTTP gets a 400 when nothing else is owed; TLS and socket errors just close. Never passed on.
    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if error is HTTPParserError, slots.isEmpty, !closing {
            head = nil
            return refuse("malformed HTTP request", status: 400, context: context)
        }
        close(context: context)
    }
}

/// The first handler of a tunnel: a client that opens with a TLS handshake record (0x16) gets TLS with the proxy's
/// certificate after this handler; any other client speaks plain HTTP in the tunnel. Passes every byte on.
final class TunnelSniffer: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    private let tls: NIOSSLContext
    private var decided: ((Bool) -> Void)?

    /// `decided` is told once whether the tunnel is TLS.
    init(tls: NIOSSLContext, decided: @escaping (Bool) -> Void) {
        self.tls = tls
        self.decided = decided
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let bytes = Self.unwrapInboundIn(data)
        if let decided, let first = bytes.getInteger(at: bytes.readerIndex, as: UInt8.self) {
            self.decided = nil
            let isTLS = first == 0x16
            if isTLS {
                do {
                    try context.pipeline.syncOperations.addHandler(
                        NIOSSLServerHandler(context: tls), position: .after(self)
                    )
                } catch {
                    return context.close(promise: nil)
                }
            }
            decided(isTLS)
        }
        context.fireChannelRead(data)
    }
}
