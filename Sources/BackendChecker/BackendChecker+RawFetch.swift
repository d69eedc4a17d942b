// A one-shot HTTP/1.1 GET over a plain TCP socket, for the checker's "raw" injection form: the request target
// goes on the wire byte for byte (quotes, angle brackets …), which an HTTP client built on URL parsing would
// percent-encode first. http only; the socket work runs on its own thread so the cooperative pool never blocks.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

enum RawFetch {
    struct Answer: Sendable {
        var status: Int
        var headers: [(String, String)]
        var body: String
    }

    struct Failure: Error, Sendable, CustomStringConvertible { var description: String }

    /// GET `target` (origin form, sent verbatim) from host:port with `Host: hostHeader` and `Connection: close`.
    static func get(host: String, port: Int, target: String, hostHeader: String, timeout: Int, maxBody: Int) async -> Result<
        Answer, Failure
    > {
        await withCheckedContinuation { (cont: CheckedContinuation<Result<Answer, Failure>, Never>) in
            let thread = Thread {
                cont.resume(
                    returning: blockingGet(
                        host: host, port: port, target: target, hostHeader: hostHeader,
                        timeout: timeout, maxBody: maxBody))
            }
            thread.start()
        }
    }

    static func blockingGet(host: String, port: Int, target: String, hostHeader: String, timeout: Int, maxBody: Int) -> Result<
        Answer, Failure
    > {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        #if canImport(Glibc)
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #else
        hints.ai_socktype = SOCK_STREAM
        #endif
        var list: UnsafeMutablePointer<addrinfo>?
        let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        guard getaddrinfo(bare, String(port), &hints, &list) == 0, let first = list else {
            return .failure(Failure(description: "cannot resolve \(host)"))
        }
        defer { freeaddrinfo(list) }
        var fd: Int32 = -1
        var cursor: UnsafeMutablePointer<addrinfo>? = first
        while let ai = cursor {
            let s = socket(ai.pointee.ai_family, ai.pointee.ai_socktype, ai.pointee.ai_protocol)
            if s >= 0 {
                var limit = timeval(tv_sec: timeout, tv_usec: 0)
                setsockopt(s, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
                setsockopt(s, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
                if connect(s, ai.pointee.ai_addr, ai.pointee.ai_addrlen) == 0 { fd = s; break }
                close(s)
            }
            cursor = ai.pointee.ai_next
        }
        guard fd >= 0 else { return .failure(Failure(description: "cannot connect to \(host):\(port)")) }
        defer { close(fd) }
        let request = Array(
            "GET \(target) HTTP/1.1\r\nHost: \(hostHeader)\r\nUser-Agent: plainview-check-backend\r\nAccept: */*\r\nConnection: close\r\n\r\n"
                .utf8)
        var sent = 0
        while sent < request.count {
            let offset = sent
            let n = request.withUnsafeBytes { send(fd, $0.baseAddress! + offset, request.count - offset, 0) }
            guard n > 0 else { return .failure(Failure(description: "send failed")) }
            sent += n
        }
        var raw: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while raw.count <= maxBody + 65536 {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress!, 65536, 0) }
            if n < 0 {
                if raw.isEmpty { return .failure(Failure(description: "no answer within \(timeout) s")) }
                break
            }
            if n == 0 { break }
            raw += buffer[0..<n]
            if let answer = parse(raw, complete: false) { return .success(answer) }
        }
        if let answer = parse(raw, complete: true) { return .success(answer) }
        return .failure(Failure(description: "not an HTTP response (\(raw.count) bytes)"))
    }

    /// Parses a whole response; with `complete: false`, nil until the body is known to be complete.
    static func parse(_ raw: [UInt8], complete: Bool) -> Answer? {
        let sep: [UInt8] = [13, 10, 13, 10]
        guard raw.count >= 4, let end = (0...(raw.count - 4)).first(where: { raw[$0..<($0 + 4)].elementsEqual(sep) }) else {
            return nil
        }
        let head = String(decoding: raw[0..<end], as: UTF8.self)
        var lines = head.components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst()
        let parts = statusLine.split(separator: " ", maxSplits: 2)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/"), let status = Int(parts[1]) else { return nil }
        var headers: [(String, String)] = []
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers.append(
                (String(line[..<colon]).lowercased(), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
        }
        let bodyBytes = Array(raw[(end + 4)...])
        func header(_ n: String) -> String? { headers.first { $0.0 == n }?.1 }
        if header("transfer-encoding")?.lowercased().contains("chunked") == true {
            guard let decoded = dechunk(bodyBytes) else {
                return complete ? Answer(status: status, headers: headers, body: String(decoding: bodyBytes, as: UTF8.self)) : nil
            }
            return Answer(status: status, headers: headers, body: String(decoding: decoded, as: UTF8.self))
        }
        if let length = header("content-length").flatMap({ Int($0) }) {
            guard bodyBytes.count >= length || complete else { return nil }
            return Answer(status: status, headers: headers, body: String(decoding: bodyBytes.prefix(length), as: UTF8.self))
        }
        if status == 204 || status == 304 || (100..<200).contains(status) {
            return Answer(status: status, headers: headers, body: "")
        }
        return complete ? Answer(status: status, headers: headers, body: String(decoding: bodyBytes, as: UTF8.self)) : nil
    }

    /// Decodes a chunked body; nil until the last chunk has arrived.
    static func dechunk(_ bytes: [UInt8]) -> [UInt8]? {
        var out: [UInt8] = []
        var i = 0
        while true {
            guard let lineEnd = (i..<max(i, bytes.count - 1)).first(where: { bytes[$0] == 13 && bytes[$0 + 1] == 10 }) else {
                return nil
            }
            let sizeText = String(decoding: bytes[i..<lineEnd], as: UTF8.self).split(separator: ";").first.map(String.init) ?? ""
            guard let size = Int(sizeText.trimmingCharacters(in: .whitespaces), radix: 16) else { return nil }
            i = lineEnd + 2
            if size == 0 { return out }
            guard i + size + 2 <= bytes.count else { return nil }
            out += bytes[i..<(i + size)]
            i += size + 2
        }
    }
}
