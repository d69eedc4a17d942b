// A minimal HTTP/1.1 client over a plain TCP socket, so tests can see the exact bytes on the wire.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

import Foundation

enum RawHTTP {
    /// `exchange` on its own thread: a blocking socket call must not hold one of the few cooperative threads the
    /// server's own async responder needs (two tests blocking at once would starve it).
    static func request(port: Int, _ request: String) async throws -> String {
        try await withCheckedThrowingContinuation { (c: CheckedContinuation<String, any Error>) in
            Thread { c.resume(with: Result { try exchange(port: port, request) }) }.start()
        }
    }

    struct Failure: Error, CustomStringConvertible { var description: String }

    /// Sends `request` verbatim to 127.0.0.1:`port` and returns everything the server sent until it closed.
    /// Every send and receive gives up after `timeout` seconds, so a server that stalls fails the test
    /// instead of hanging the run.
    static func exchange(port: Int, _ request: String, timeout: Int = 30) throws -> String {
        #if canImport(Glibc)
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { throw Failure(description: "socket() failed") }
        defer { close(fd) }
        var limit = timeval(tv_sec: timeout, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = in_port_t(UInt16(port).bigEndian)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw Failure(description: "connect() failed") }
        let bytes = Array(request.utf8)
        let total = bytes.count
        var sent = 0
        while sent < total {
            let offset = sent
            let n = bytes.withUnsafeBytes { send(fd, $0.baseAddress! + offset, total - offset, 0) }
            guard n > 0 else { throw Failure(description: errno == EAGAIN ? "send() timed out after \(timeout) s" : "send() failed") }
            sent += n
        }
        var out: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress!, 65536, 0) }
            if n < 0, errno == EAGAIN || errno == EWOULDBLOCK {
                throw Failure(description: "no answer within \(timeout) s (received \(out.count) bytes)")
            }
            if n <= 0 { break }
            out += buffer[0..<n]
        }
        return String(decoding: out, as: UTF8.self)
    }
}
