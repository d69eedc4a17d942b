// A minimal HTTP/1.1 client over a plain TCP socket, so tests can see the exact bytes on the wire.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

import Foundation

/// Runs blocking work (sockets, processes, sleeps) on a thread of its own, off Swift's cooperative pool, which an
/// in-process server needs to answer.
public func offPool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { (c: CheckedContinuation<T, any Error>) in
        Thread { c.resume(with: Result { try body() }) }.start()
    }
}

public enum RawHTTP {
    /// `exchange` on its own thread: a blocking socket call must not hold one of the few cooperative threads the
    /// server's own async responder needs (two tests blocking at once would starve it).
    public static func request(port: Int, _ request: String, timeout: Int = 30) async throws -> String {
        try await offPool { try exchange(port: port, request, timeout: timeout) }
    }

    public struct Failure: Error, CustomStringConvertible {
        public var description: String
        public init(description: String) { self.description = description }
    }

    /// Sends `request` verbatim to 127.0.0.1:`port` and returns everything the server sent until it closed.
    /// Every send and receive gives up after `timeout` seconds, so a server that stalls fails the test
    /// instead of hanging the run.
    public static func exchange(port: Int, _ request: String, timeout: Int = 30) throws -> String {
        let fd = try connectedSocket(port: port, timeout: timeout)
        defer { close(fd) }
        try sendAll(fd, Array(request.utf8), timeout: timeout)
        return try receiveAll(fd, timeout: timeout)
    }

    /// A TCP socket connected to 127.0.0.1:`port`, with send and receive time limits; the caller closes it.
    public static func connectedSocket(port: Int, timeout: Int = 30) throws -> Int32 {
        #if canImport(Glibc)
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { throw Failure(description: "socket() failed (errno \(errno))") }
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
        guard connected == 0 else {
            close(fd)
            throw Failure(description: "connect() failed")
        }
        return fd
    }

    /// Sends every byte; a server that answered and closed before reading them all stops the sending (no
    /// SIGPIPE) so its answer can still be read.
    public static func sendAll(_ fd: Int32, _ bytes: [UInt8], timeout: Int) throws {
        let total = bytes.count
        var sent = 0
        while sent < total {
            let offset = sent
            let n = bytes.withUnsafeBytes { send(fd, $0.baseAddress! + offset, total - offset, Int32(MSG_NOSIGNAL)) }
            if n < 0, errno == EPIPE || errno == ECONNRESET { return }
            guard n > 0 else {
                throw Failure(description: errno == EAGAIN ? "send() timed out after \(timeout) s" : "send() failed")
            }
            sent += n
        }
    }

    /// One response read from a connection that stays open: its head and a body of its Content-Length (none
    /// without one). The server closing before the response is complete is a failure.
    public static func receiveResponse(_ fd: Int32, timeout: Int) throws -> String {
        var out: [UInt8] = []
        var byte: UInt8 = 0
        let headEnd: [UInt8] = [13, 10, 13, 10]
        while out.count < 4 || Array(out.suffix(4)) != headEnd {
            let n = recv(fd, &byte, 1, 0)
            guard n == 1 else { throw closedEarly(n, out, timeout) }
            out.append(byte)
        }
        let head = String(decoding: out, as: UTF8.self)
        let lengthLine = head.components(separatedBy: "\r\n").first { $0.lowercased().hasPrefix("content-length:") }
        var remaining =
            lengthLine.flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
        var buffer = [UInt8](repeating: 0, count: 65536)
        while remaining > 0 {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress!, min(65536, remaining), 0) }
            guard n > 0 else { throw closedEarly(n, out, timeout) }
            out += buffer[0..<n]
            remaining -= n
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static func closedEarly(_ n: Int, _ received: [UInt8], _ timeout: Int) -> Failure {
        let what =
            n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)
            ? "no complete response within \(timeout) s" : "closed before the response was complete"
        return Failure(description: "\(what) (received \(received.count) bytes)")
    }

    /// Everything the server sends until it closes (a reset after some bytes ends the answer too).
    public static func receiveAll(_ fd: Int32, timeout: Int) throws -> String {
        var out: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress!, 65536, 0) }
            if n < 0, errno == EAGAIN || errno == EWOULDBLOCK {
                throw Failure(description: "no answer within \(timeout) s (received \(out.count) bytes)")
            }
            if n < 0, errno == ECONNRESET, !out.isEmpty { break }
            if n <= 0 { break }
            out += buffer[0..<n]
        }
        return String(decoding: out, as: UTF8.self)
    }
}
