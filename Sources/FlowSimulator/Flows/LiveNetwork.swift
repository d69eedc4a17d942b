// `plainview record`: the network is real. Every request the world makes (the engine's documents and resources,
// the browser's pages) goes to the server instead of the flow's recorded pages, and what comes back is both the
// answer and the recording. The world stays the one place that decides; only where answers come from changes.
import NavigationPolicy

/// A network that answers from real servers. Called on the world's thread, one request at a time; it may block
/// (bounded by its own timeouts).
public protocol LiveNetwork: AnyObject, Sendable {
    /// The server's answer, or why there is none (a connection, TLS or timeout failure, in one sentence).
    func fetch(_ request: LiveRequest) -> Result<RecordedResponse, LiveNetworkFailure>
}

/// Why a live request got no answer.
public struct LiveNetworkFailure: Error, Sendable, Hashable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// One request as the world makes it, with what the engine reported about it.
public struct LiveRequest: Sendable, Hashable {
    /// What the request is for.
    public enum Kind: Sendable, Hashable {
        /// A document for a frame (main, sub, new window), started by `trigger`, with the user's gesture or not.
        case document(frame: NavigationFrame, trigger: NavigationTrigger, gesture: Bool)
        /// A script, style, image, XHR or fetch of the current page.
        case resource
    }

    public var method: String
    public var url: String
    /// The engine's request headers as it would send them (User-Agent, Accept, Referer, Origin, Content-Type, Cookie
    /// …); empty when the engine did not report them.
    public var headers: [RecordedResponse.Header]
    public var body: [UInt8]
    public var context: PageContext
    public var kind: Kind

    public init(
        method: String, url: String, headers: [RecordedResponse.Header] = [], body: [UInt8] = [],
        context: PageContext = .webview, kind: Kind
    ) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.context = context
        self.kind = kind
    }
}
