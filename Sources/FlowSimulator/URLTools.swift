// Small URL helpers the world needs: resolving a Location, the host of a page, page-lookup keys, form URLs.
// (Decisions never use these: every web-view navigation is decided by NavigationPolicyEngine.)
import Foundation
import PlainviewURL

enum URLTools {
    /// The scheme, lower case (`https`, `intent`, `bankid`), or nil when there is none.
    static func scheme(_ url: String) -> String? { WebURL.scheme(of: url) }

    static func isWeb(_ url: String) -> Bool {
        scheme(url).map { SchemeKind(scheme: $0) == .web } ?? false
    }

    /// The host as the policy compares it (lower case, punycode, no trailing dot) of an http(s) URL.
    static func host(_ url: String) -> String? {
        guard let u = WebURL(url), SchemeKind(scheme: u.scheme) == .web, let h = u.comparableHost, !h.isEmpty else { return nil }
        return h
    }

    /// `reference` resolved against `base` (a Location header, a relative link) as a browser resolves it.
    static func resolve(_ reference: String, against base: String) -> String? {
        guard let b = WebURL(base) else { return WebURL(reference)?.href }
        return WebURL(reference, relativeTo: b)?.href
    }

    /// The key recorded pages are matched on: the http(s) URL as the URL parser serialises it (scheme and
    /// host lower case, default port dropped, empty path as `/`, dot segments resolved), host without a
    /// trailing dot, fragment dropped. Other URLs: the string without its fragment.
    static func pageKey(_ url: String) -> String {
        guard let u = WebURL(url), SchemeKind(scheme: u.scheme) == .web else {
            guard let hash = url.firstIndex(of: "#") else { return url }
            return String(url[..<hash])
        }
        return u.withoutFragment.withoutTrailingDot.href
    }

    /// A GET form's URL: the action with its query replaced by the fields (application/x-www-form-urlencoded)
    /// and no fragment.
    static func formGetURL(action: String, fields: [(String, String)], encoding: TextEncoding = .utf8) -> String {
        let query = fields.map {
            "\(PercentEncoding.encodeForm($0.0, encoding: encoding))=\(PercentEncoding.encodeForm($0.1, encoding: encoding))"
        }.joined(separator: "&")
        guard let u = WebURL(action) else { return action }
        return u.withoutFragment.replacingQuery(query).href
    }

    /// Text compared loosely: lower case, runs of white space as one space, trimmed.
    static func looseText(_ s: String) -> String {
        s.lowercased().split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }
}

/// A context's cookies (the web view and the browser each have their own jar).
struct CookieJar: Sendable, Hashable {
    /// Domain → cookie name → value. A dictionary, not a list: a response may set hundreds of thousands of
    /// cookies, and storing or looking one up must not scan the others.
    private var byDomain: [String: [String: String]] = [:]

    /// Stores a `Set-Cookie` value received from `url`.
    mutating func set(_ header: String, from url: String) {
        guard let host = URLTools.host(url) else { return }
        let parts = header.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
        guard let first = parts.first, let eq = first.firstIndex(of: "=") else { return }
        let name = String(first[..<eq]).trimmingCharacters(in: .whitespaces)
        let value = String(first[first.index(after: eq)...]).trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty else { return }
        var domain = host
        for attr in parts.dropFirst() {
            let kv = attr.split(separator: "=", maxSplits: 1).map { String($0).trimmingCharacters(in: .whitespaces) }
            if kv.count == 2, kv[0].lowercased() == "domain" {
                var d = kv[1].lowercased()
                if d.hasPrefix(".") { d.removeFirst() }
                // A cookie may only be set for the host itself or a parent domain of it.
                if host == d || host.hasSuffix("." + d) { domain = d }
            }
        }
        byDomain[domain, default: [:]][name] = value
    }

    /// True when a request to `url` carries the cookie `requirement` (`name` or `name=value`).
    func satisfies(_ requirement: String, for url: String) -> Bool {
        guard let host = URLTools.host(url) else { return false }
        let (name, value) = Self.split(requirement)
        // The host and each parent domain: one lookup per label.
        var domain = Substring(host)
        while true {
            if let stored = byDomain[String(domain)]?[name], value == nil || stored == value { return true }
            guard let dot = domain.firstIndex(of: ".") else { return false }
            domain = domain[domain.index(after: dot)...]
        }
    }

    static func split(_ requirement: String) -> (String, String?) {
        guard let eq = requirement.firstIndex(of: "=") else { return (requirement, nil) }
        return (String(requirement[..<eq]), String(requirement[requirement.index(after: eq)...]))
    }
}
