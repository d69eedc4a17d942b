// The live network of `plainview record`: each request the world makes goes to the real server through the
// UpstreamClient, and every exchange is kept, in order, for the flow the recording becomes.
import FlowSimulator
import Foundation
import Synchronization

public final class LiveRecording: LiveNetwork {
    /// One request and what came of it.
    public struct Exchange: Sendable {
        public var request: LiveRequest
        /// The headers that went to the server (the engine's, with the recorder's defaults added).
        public var sent: [RecordedResponse.Header]
        /// When the request started, and how long the answer took (milliseconds).
        public var started: Date
        public var milliseconds: Double
        /// The answer, or why there was none.
        public var result: Result<RecordedResponse, LiveNetworkFailure>
    }

    private let client: UpstreamClient
    private let userAgent: String
    private let browserUserAgent: String
    private let exchanges = Mutex<[Exchange]>([])

    /// `userAgent` goes on the web view's requests the engine did not describe (the app's own loads),
    /// `browserUserAgent` on the system browser's (Safari's or Chrome's).
    public init(client: UpstreamClient, userAgent: String, browserUserAgent: String) {
        self.client = client
        self.userAgent = userAgent
        self.browserUserAgent = browserUserAgent
    }

    /// Everything recorded so far, in order.
    public var recorded: [Exchange] { exchanges.withLock { $0 } }

    public func fetch(_ request: LiveRequest) -> Result<RecordedResponse, LiveNetworkFailure> {
        var headers = request.headers
        func has(_ name: String) -> Bool { headers.contains { $0.name.lowercased() == name } }
        if !has("user-agent") {
            headers.append(.init("User-Agent", request.context == .browser ? browserUserAgent : userAgent))
        }
        if case .document = request.kind, !has("accept") {
            headers.append(.init("Accept", "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"))
        }
        if !request.body.isEmpty, !has("content-type") {
            headers.append(.init("Content-Type", "application/x-www-form-urlencoded"))
        }
        let started = Date()
        let result: Result<RecordedResponse, LiveNetworkFailure>
        do {
            let answer = try client.fetch(
                method: request.method, url: request.url, headers: headers.map { (name: $0.name, value: $0.value) },
                body: request.body)
            result = .success(
                RecordedResponse(
                    status: answer.status, headers: answer.headers.map { .init($0.name, $0.value) }, body: answer.body))
        } catch {
            result = .failure(LiveNetworkFailure(error.message))
        }
        let exchange = Exchange(
            request: request, sent: headers, started: started,
            milliseconds: Date().timeIntervalSince(started) * 1000, result: result)
        exchanges.withLock { $0.append(exchange) }
        return result
    }
}
