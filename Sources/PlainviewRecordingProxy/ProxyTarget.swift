// What the proxy does with a request line: open a tunnel, forward a URL to the owner, or refuse. Pure.

/// The proxy's reading of one request's method and target.
enum ProxyTarget: Equatable, Sendable {
    /// `CONNECT host:port`: answer 200; what follows is TLS (or, from some clients, plain HTTP).
    case tunnel(TunnelAuthority)
    /// A request the owner answers, at this absolute URL.
    case forward(url: String)
    /// Answered 400 with this reason, without asking the owner.
    case refuse(reason: String)

    /// `tunnelBase` is nil outside a tunnel, else the tunnel's "https://host[:port]".
    static func classify(method: String, target: String, tunnelBase: String?) -> ProxyTarget {
        if method == "CONNECT" {
            guard tunnelBase == nil else { return .refuse(reason: "CONNECT inside a tunnel") }
            guard let authority = TunnelAuthority(target) else {
                return .refuse(reason: "CONNECT needs a host:port target")
            }
            return .tunnel(authority)
        }
        if let tunnelBase {
            guard target.hasPrefix("/") else { return .refuse(reason: "a request in a tunnel needs a /path target") }
            return .forward(url: tunnelBase + target)
        }
        guard target.utf8.count > 7, target.prefix(7).lowercased() == "http://" else {
            return .refuse(reason: "a proxy request needs an absolute http:// URL or CONNECT")
        }
        return .forward(url: target)
    }
}

/// The `host:port` of a CONNECT line.
struct TunnelAuthority: Equatable, Sendable {
    /// Lowercased; an IPv6 address keeps its brackets.
    var host: String
    var port: Int

    /// Nil unless `authority` is a DNS name, IPv4 address or bracketed IPv6 address, ':', and a port from 1 to 65535.
    init?(_ authority: String) {
        guard let colon = authority.lastIndex(of: ":") else { return nil }
        let host = authority[..<colon].lowercased()
        let portText = authority[authority.index(after: colon)...]
        guard (1...5).contains(portText.utf8.count), portText.utf8.allSatisfy({ (0x30...0x39).contains($0) }),
            let port = Int(portText), (1...65535).contains(port)
        else { return nil }
        let valid: Bool
        if host.hasPrefix("[") {
            let inner = host.utf8.dropFirst().dropLast()
            valid =
                host.hasSuffix("]") && !inner.isEmpty
                && inner.allSatisfy { Self.isHexDigit($0) || $0 == 0x3A || $0 == 0x2E }
        } else {
            valid = !host.isEmpty && host.utf8.allSatisfy { Self.isHostByte($0) }
        }
        guard valid else { return nil }
        self.host = host
        self.port = port
    }

    init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    /// The start of the URLs of requests in the tunnel: "https://host" (port 443) or "https://host:port" over TLS,
    /// "http://host" (port 80) or "http://host:port" for a client that tunnels plain HTTP.
    func base(tls: Bool) -> String {
        let scheme = tls ? "https" : "http"
        return port == (tls ? 443 : 80) ? "\(scheme)://\(host)" : "\(scheme)://\(host):\(port)"
    }

    private static func isHexDigit(_ b: UInt8) -> Bool {
        (0x30...0x39).contains(b) || (0x61...0x66).contains(b)
    }

    /// Lowercase letters, digits, '-', '.', '_' (IDN hosts arrive as xn-- labels).
    private static func isHostByte(_ b: UInt8) -> Bool {
        (0x61...0x7A).contains(b) || (0x30...0x39).contains(b) || b == 0x2D || b == 0x2E || b == 0x5F
    }
}
