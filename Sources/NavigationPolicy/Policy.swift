// The merchant's configuration (the policy file of DESIGN.md, as a value).
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
        self.allowedHosts = allowedHosts ?? Policy.defaultAllowedHosts(
            [paymentURL, completeURL, cancelURL, termsOfServiceURL].compactMap { $0 })
        self.goodlist = goodlist
    }

    /// An `allowedHosts` entry (`host` or `host:port`, IPv6 in brackets) normalised like URL hosts (case, trailing
    /// dot, IDN → punycode); ports 80 and 443 are dropped (the default of http/https). nil when not a host.
    /// `http://host[:port]` admits that origin over plain http as well (kept with its `http://` prefix).
    public static func normalizeAllowedHost(_ entry: String) -> String? {
        if entry.utf8.count > 7, entry.prefix(7).lowercased() == "http://" {
            return normalizeAllowedHost(String(entry.dropFirst(7))).map { "http://" + $0 }
        }
        var hostPart = Substring(entry)
        var port: Int?
        if let c = entry.lastIndex(of: ":"), !entry.hasSuffix("]"), entry.firstIndex(of: ":") == c || entry.hasPrefix("[") {
            guard let p = Int(entry[entry.index(after: c)...]), (0...65535).contains(p) else { return nil }
            hostPart = entry[..<c]
            port = (p == 80 || p == 443) ? nil : p
        }
        guard let host = HostName.normalize(String(hostPart)) else { return nil }
        return port.map { "\(host):\($0)" } ?? host
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
