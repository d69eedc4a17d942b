// A RecordingProxy with a scripted owner, and an HTTP client that goes through it.
import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOSSL
import Synchronization
import Testing
@testable import PlainviewRecordingProxy

/// What the test's owner does with a request.
enum OwnerMove: Sendable {
    case respond(status: Int, headers: [(name: String, value: String)], body: String)
    case fail
    /// Leaves the request open; the test settles it later.
    case hold
}

/// A proxy whose owner records every request and answers with `move`.
final class ProxyUnderTest: Sendable {
    let proxy: RecordingProxy
    private let recorder = Recorder()

    init(idleTimeout: TimeAmount = .seconds(60), move: @escaping @Sendable (RecordingProxy.Request) -> OwnerMove) throws {
        // The owner needs the proxy to answer through, and the proxy needs the owner first.
        let box = Mutex<RecordingProxy?>(nil)
        let recorder = self.recorder
        proxy = try RecordingProxy(port: 0, idleTimeout: idleTimeout) { request in
            recorder.add(request)
            guard let proxy = box.withLock({ $0 }) else { return }
            switch move(request) {
            case .respond(let status, let headers, let body):
                proxy.respond(request.id, status: status, headers: headers, body: Array(body.utf8))
            case .fail:
                proxy.fail(request.id)
            case .hold:
                ()
            }
        }
        box.withLock { $0 = proxy }
    }

    var requests: [RecordingProxy.Request] { recorder.all }

    /// Waits (without blocking a thread) until the owner has seen `count` requests; fails after 10 s.
    func waitForRequests(_ count: Int) async throws -> [RecordingProxy.Request] {
        for _ in 0..<1000 {
            let all = recorder.all
            if all.count >= count { return all }
            try await Task.sleep(for: .milliseconds(10))
        }
        Issue.record("the owner saw \(recorder.all.count) requests, expected \(count)")
        return recorder.all
    }

    deinit { proxy.shutdown() }
}

final class Recorder: Sendable {
    private let requests = Mutex<[RecordingProxy.Request]>([])
    func add(_ request: RecordingProxy.Request) { requests.withLock { $0.append(request) } }
    var all: [RecordingProxy.Request] { requests.withLock { $0 } }
}

/// An AsyncHTTPClient that sends everything through the proxy on `port` and accepts any certificate.
func withProxiedClient<T>(port: Int, _ body: (HTTPClient) async throws -> T) async throws -> T {
    var tls = TLSConfiguration.makeClientConfiguration()
    tls.certificateVerification = .none
    let configuration = HTTPClient.Configuration(
        tlsConfiguration: tls, timeout: .init(connect: .seconds(10), read: .seconds(20)),
        proxy: .server(host: "127.0.0.1", port: port)
    )
    let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    do {
        let result = try await body(client)
        try await client.shutdown()
        return result
    } catch {
        try? await client.shutdown()
        throw error
    }
}

/// Status, headers and body of one exchange through `client`.
struct Fetched: Sendable {
    var status: Int
    var headers: [(name: String, value: String)]
    var body: String

    func header(_ name: String) -> [String] {
        headers.filter { $0.name.lowercased() == name.lowercased() }.map(\.value)
    }
}

func fetch(
    _ client: HTTPClient, _ url: String, method: HTTPMethod = .GET, headers: [(String, String)] = [], body: String? = nil
) async throws -> Fetched {
    var request = HTTPClientRequest(url: url)
    request.method = method
    for (name, value) in headers { request.headers.add(name: name, value: value) }
    if let body { request.body = .bytes(ByteBuffer(string: body)) }
    let response = try await client.execute(request, timeout: .seconds(20))
    let bytes = try await response.body.collect(upTo: 1 << 24)
    return Fetched(
        status: Int(response.status.code), headers: response.headers.map { (name: $0.name, value: $0.value) },
        body: String(buffer: bytes)
    )
}
