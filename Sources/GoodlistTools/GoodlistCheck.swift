// `plainview goodlist check URL…`: is each URL's host allowed, and by which entry.
import PlainviewURL
import NavigationPolicy

/// The answer for one URL.
public struct GoodlistCheckResult: Sendable, Hashable {
    /// The argument as given.
    public var input: String
    /// The normalised host, when one could be found.
    public var host: String?
    /// The most specific entry admitting the host.
    public var entry: GoodlistEntry?
    /// Why no host could be taken from the input.
    public var error: String?
    public var allowed: Bool { entry != nil }
}

public enum GoodlistCheck {
    /// Checks each input against the list. An input with a scheme is a URL, parsed by the URL core exactly as
    /// `decide` parses a navigation; anything else is a bare host (read as `https://<input>/`). The verdict is
    /// `Goodlist.entry(admitting:)`, the function `decide` uses under redirectPolicy goodlist: the same host,
    /// and a port other than the scheme's default is never admitted.
    public static func check(_ inputs: [String], against list: Goodlist) -> [GoodlistCheckResult] {
        inputs.map { input in
            switch url(of: input) {
            case .failure(let why):
                return GoodlistCheckResult(input: input, host: nil, entry: nil, error: why.message)
            case .success(let url):
                let host = url.comparableHost
                if url.scheme == "http" {
                    return GoodlistCheckResult(
                        input: input, host: host, entry: nil,
                        error:
                            "plain http: a page without TLS never stays in the web view (decide's web.insecure), whatever the goodlist says"
                    )
                }
                if let port = url.port {
                    return GoodlistCheckResult(
                        input: input, host: host, entry: nil,
                        error: "port \(port): the goodlist admits hosts on their scheme's default port only")
                }
                return GoodlistCheckResult(input: input, host: host, entry: list.entry(admitting: url), error: nil)
            }
        }
    }

    public struct HostError: Error, Sendable, Hashable { public var message: String }

    /// The http(s) URL an input names: the input itself, or `https://<input>/` for a bare host (`h.example`,
    /// `h.example:8443`).
    public static func url(of input: String) -> Result<WebURL, HostError> {
        let trimmed = WebURL.stripped(input)
        var candidate = trimmed
        if let scheme = WebURL.scheme(of: trimmed),
            !trimmed.utf8.dropFirst(scheme.utf8.count + 1).allSatisfy({ $0 >= 0x30 && $0 <= 0x39 })
        {
            guard SchemeKind(scheme: scheme) == .web else {
                return .failure(
                    HostError(message: "not an http(s) URL (scheme '\(scheme)'): the goodlist applies to web pages only"))
            }
        } else {
            candidate = "https://" + trimmed
        }
        guard let url = WebURL(candidate) else {
            return .failure(HostError(message: "'\(input)' is not a URL a browser would load (invalid host or port)"))
        }
        switch url.host {
        case .ipv6?: return .failure(HostError(message: "an IPv6 address literal; goodlist patterns name host names"))
        case .domain?, .ipv4?: break
        default: return .failure(HostError(message: "no host in '\(input)'"))
        }
        return .success(url)
    }

    /// The normalised host of an http(s) URL or a bare host (the port, if any, is not part of it).
    public static func host(of input: String) -> Result<String, HostError> {
        url(of: input).flatMap { u in
            guard let h = u.comparableHost, !h.isEmpty else { return .failure(HostError(message: "no host in '\(input)'")) }
            return .success(h)
        }
    }
}
