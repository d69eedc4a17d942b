// The bytes of one answer on the wire. Pure.
import NIOHTTP1

enum ProxyResponse {
    /// Hop-by-hop and framing headers a recording's answer never passes on: the proxy frames the body itself with
    /// Content-Length, and recorded bodies are already decoded. Any `Proxy-*` header is dropped as well.
    static let droppedHeaders: Set<String> = [
        "connection", "keep-alive", "te", "trailer", "transfer-encoding", "upgrade", "content-length",
        "content-encoding",
    ]

    /// A whole HTTP/1.1 response. `status` outside 200...599 (an interim 1xx cannot end an exchange) becomes a 502
    /// saying so. `isHead` (an answer to HEAD) and 204/304 send no body. `close` adds `Connection: close`.
    static func bytes(
        status: Int, headers: [(name: String, value: String)], body: [UInt8], isHead: Bool, close: Bool
    ) -> [UInt8] {
        guard (200...599).contains(status) else {
            return plainText(status: 502, "the recorded status \(status) is not a final HTTP status", close: close)
        }
        let reason = HTTPResponseStatus(statusCode: status).reasonPhrase
        var out: [UInt8] = []
        out.reserveCapacity(256 + body.count)
        out += Array("HTTP/1.1 \(status) \(reason)\r\n".utf8)
        for header in headers where passes(header) {
            out += Array(header.name.utf8)
            out += [0x3A, 0x20]
            out += Array(header.value.utf8)
            out += [0x0D, 0x0A]
        }
        let bodyless = status == 204 || status == 304
        if !bodyless { out += Array("Content-Length: \(body.count)\r\n".utf8) }
        if close { out += Array("Connection: close\r\n".utf8) }
        out += [0x0D, 0x0A]
        if !bodyless && !isHead { out += body }
        return out
    }

    /// The proxy's own answer (400, 413, 502): a short plain-text reason.
    static func plainText(status: Int, _ reason: String, close: Bool) -> [UInt8] {
        bytes(
            status: status, headers: [(name: "Content-Type", value: "text/plain; charset=utf-8")],
            body: Array((reason + "\n").utf8), isHead: false, close: close
        )
    }

    /// Whether a recorded header goes on the wire: not hop-by-hop or framing, a token for a name, and no CR, LF or
    /// NUL in its value (which could split the answer).
    static func passes(_ header: (name: String, value: String)) -> Bool {
        let name = header.name.lowercased()
        guard !name.isEmpty, name.utf8.allSatisfy(isTokenByte), !droppedHeaders.contains(name),
            !name.hasPrefix("proxy-")
        else { return false }
        return !header.value.utf8.contains { $0 == 0x0D || $0 == 0x0A || $0 == 0x00 }
    }

    /// RFC 9110 tchar: letters, digits and !#$%&'*+-.^_`|~
    private static func isTokenByte(_ b: UInt8) -> Bool {
        switch b {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: true
        case 0x21, 0x23, 0x24, 0x25, 0x26, 0x27, 0x2A, 0x2B, 0x2D, 0x2E, 0x5E, 0x5F, 0x60, 0x7C, 0x7E: true
        default: false
        }
    }
}
