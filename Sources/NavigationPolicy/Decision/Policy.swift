// The merchant's configuration (the policy file of docs/policy.md, as a value).
import PlainviewURL

/// Where main-frame navigations to hosts that are not the merchant's own go.
public enum RedirectPolicy: String, Sendable, Hashable, Codable, CaseIterable {
    /// Goodlisted hosts load in the web view; any other host sends the current page to the browser (iOS default).
    case goodlist
    /// Every http(s) page loads in the web view (Android default).
    case webview
    /// Every page that is not the merchant's own opens in the system browser.
    case browser
}

/// The merchant configuration the engine decides with.
public struct Policy: Sendable {
    public var platform: Platform
    public var paymentURL: String
    public var completeURL: String
    public var cancelURL: String
    public var termsOfServiceURL: String?
    /// Custom-scheme alias of paymentUrl (`shopapp` makes `shopapp://shop.example.com/pay?…` a paymentUrl).
    public var callbackScheme: String?
    public var redirectPolicy: RedirectPolicy
    /// Hosts always allowed in the web view; default: the hosts of the four URLs.
    public var allowedHosts: [String]
    public var goodlist: Goodlist

    public init(
        platform: Platform,
        paymentURL: String,
        completeURL: String,
        cancelURL: String,
        termsOfServiceURL: String? = nil,
        callbackScheme: String? = nil,
        redirectPolicy: RedirectPolicy? = nil,
        allowedHosts: [String]? = nil,
        goodlist: Goodlist = Goodlist()
    ) {
        self.platform = platform
        self.paymentURL = paymentURL
        self.completeURL = completeURL
        self.cancelURL = cancelURL
        self.termsOfServiceURL = termsOfServiceURL
        self.callbackScheme = callbackScheme
        self.redirectPolicy = redirectPolicy ?? (platform == .ios ? .goodlist : .webview)
        self.allowedHosts =
            allowedHosts
            ?? Policy.defaultAllowedHosts(
                [paymentURL, completeURL, cancelURL, termsOfServiceURL].compactMap { $0 })
        self.goodlist = goodlist
    }

    /// An `allowedHosts` entry in the goodlist's pattern grammar (`host`, `*.host`, `**.host`; IPv6 in
    /// brackets), normalised like URL hosts (case, one trailing dot, IDN → punycode). An exact host may carry
    /// a port (`host:8443`; 80 and 443 are dropped, the defaults of http/https). `http://` in front admits that
    /// origin over plain http as well (kept with its `http://` prefix). nil when it is not such an entry: an
    /// empty label (`a..b`), a scheme other than http, a path, a wildcard with a port.
    public static func normalizeAllowedHost(_ entry: String) -> String? {
        var rest = Substring(entry)
        var prefix = ""
        if rest.utf8.count > 7, rest.prefix(7).lowercased() == "http://" {
            prefix = "http://"
            rest = rest.dropFirst(7)
        }
        var hostPart = rest
        var port: Int?
        if let c = rest.lastIndex(of: ":"), !rest.hasSuffix("]"), rest.firstIndex(of: ":") == c || rest.hasPrefix("[") {
            guard let p = Int(rest[rest.index(after: c)...]), (0...65535).contains(p) else { return nil }
            hostPart = rest[..<c]
            port = (p == 80 || p == 443) ? nil : p
        }
        let key: String
        if hostPart.hasPrefix("[") {
            guard let host = HostName.normalize(String(hostPart)) else { return nil }
            key = host
        } else {
            guard let pattern = try? HostPattern(String(hostPart)) else { return nil }
            if pattern.kind != .exact, port != nil { return nil }
            key = pattern.description
        }
        return prefix + (port.map { "\(key):\($0)" } ?? key)
    }

    /// The hosts of the given URLs (with a `:port` when not the default), normalised; the default of `allowedHosts`.
    public static func defaultAllowedHosts(_ urls: [String]) -> [String] {
        var seen: [String] = []
        for u in urls {
            guard let url = WebURL(u), url.isSpecial, let host = url.comparableHost, !host.isEmpty else { continue }
            let entry = url.port.map { "\(host):\($0)" } ?? host
            if !seen.contains(entry) { seen.append(entry) }
            // A policy URL over plain http names that http origin explicitly (a test server, say).
            if url.scheme == "http", !seen.contains("http://" + entry) { seen.append("http://" + entry) }
        }
        return seen
    }
}
