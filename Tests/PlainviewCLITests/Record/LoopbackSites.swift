// Loopback HTTPS servers for the record tests: one Hummingbird server with the test certificate authority's
// certificate (Fixtures/test-ca) answers for the merchant, the PSP, the ACS and the bank by the Host each request
// names. `plainview record --resolve NAME=127.0.0.1` sends those names here; nothing leaves the machine.
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTLS
import Logging
import NIOCore
import NIOSSL
import Synchronization
import TestSupport

enum LoopbackSites {
    struct Request: Sendable {
        var method: String
        /// The Host without its port.
        var host: String
        /// The path and query.
        var target: String
        var headers: [String: String]
        var body: String

        var path: String { String(target.prefix { $0 != "?" }) }
        func form(_ name: String) -> String? {
            for pair in body.split(separator: "&") {
                let kv = pair.split(separator: "=", maxSplits: 1).map(String.init)
                if kv.first == name { return kv.count > 1 ? kv[1].removingPercentEncoding : "" }
            }
            return nil
        }
    }

    struct Answer: Sendable {
        var status = 200
        var headers: [(String, String)] = [("Content-Type", "text/html; charset=utf-8")]
        var body = ""
        static func page(_ html: String, _ headers: [(String, String)] = []) -> Answer {
            Answer(headers: [("Content-Type", "text/html; charset=utf-8")] + headers, body: html)
        }
        static func redirect(_ location: String, _ status: Int = 302) -> Answer {
            Answer(status: status, headers: [("Location", location)], body: "")
        }
        static let notFound = Answer(status: 404, headers: [("Content-Type", "text/plain")], body: "not found")
    }

    /// A server's state: how many times something happened (thread-safe; the first call returns 1).
    final class Counter: Sendable {
        private let count = Mutex(0)
        func next() -> Int {
            count.withLock {
                $0 += 1
                return $0
            }
        }
    }

    static let folder = "Tests/PlainviewCLITests/Fixtures/test-ca"
    /// The test certificate authority's certificate (`--ca-file`).
    static var caFile: String { Project.path("\(folder)/ca.pem").path }

    /// Runs the sites on a free loopback port while `body` runs with that port.
    static func serve<T: Sendable>(
        _ handler: @escaping @Sendable (Request) -> Answer, _ body: @Sendable (Int) async throws -> T
    ) async throws -> T {
        let certificate = try NIOSSLCertificate.fromPEMFile(Project.path("\(folder)/server.pem").path)
        let key = try NIOSSLPrivateKey(file: Project.path("\(folder)/server-key.pem").path, format: .pem)
        var tls = TLSConfiguration.makeServerConfiguration(
            certificateChain: certificate.map { .certificate($0) }, privateKey: .privateKey(key))
        tls.applicationProtocols = ["http/1.1"]
        let responder = CallbackResponder<BasicRequestContext> { request, _ in
            let bytes = try await request.body.collect(upTo: 1 << 20)
            var headers: [String: String] = [:]
            for field in request.headers { headers[field.name.canonicalName] = field.value }
            // HTTP/1.1's Host arrives as the :authority pseudo-header.
            let authority = request.head.authority ?? headers["host"] ?? ""
            headers["host"] = authority
            let host = String(authority.prefix { $0 != ":" })
            let answer = handler(
                Request(
                    method: request.method.rawValue, host: host, target: request.uri.description, headers: headers,
                    body: String(buffer: bytes)))
            var fields = HTTPFields()
            for (name, value) in answer.headers {
                if let n = HTTPField.Name(name) { fields.append(HTTPField(name: n, value: value)) }
            }
            return Response(
                status: .init(code: answer.status), headers: fields, body: .init(byteBuffer: ByteBuffer(string: answer.body)))
        }
        let ports = AsyncStream<Int>.makeStream()
        var logger = Logger(label: "loopback-sites")
        logger.logLevel = .critical
        let app = Application(
            responder: responder, server: try .tls(.http1(), tlsConfiguration: tls),
            configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in
                ports.continuation.yield(channel.localAddress?.port ?? 0)
                ports.continuation.finish()
            }, logger: logger)
        return try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask {
                try await app.runService()
                return nil
            }
            var port = 0
            for await p in ports.stream { port = p }
            let result = try await body(port)
            group.cancelAll()
            return result
        }
    }
}
