// Small URL helpers the world needs: resolving a Location, the host of a page, page-lookup keys, form URLs.
// (Decisions never use these: every web-view navigation is decided by NavigationPolicyEngine.)
import Foundation

enum URLTools {
    /// The scheme, lower case (`https`, `intent`, `bankid`), or nil when there is none.
    static func scheme(_ url: String) -> String? {
        guard let colon = url.firstIndex(of: ":") else { return nil }
        let s = url[..<colon]
        guard let first = s.first, first.isLetter,
              s.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "+" || $0 == "-" || $0 == "." }) else { return nil }
        return s.lowercased()
    }

    static func isWeb(_ url: String) -> Bool {
        let s = scheme(url)
        return s == "http" || s == "https"
    }

    /// The host, lower case without a trailing dot, for http(s) URLs.
    static func host(_ url: String) -> String? {
        guard isWeb(url), let c = URLComponents(string: url), var h = c.host?.lowercased(), !h.isEmpty else { return nil }
        if h.hasSuffix(".") { h.removeLast() }
        return h
    }

    /// `reference` resolved against `base` (a Location header, a relative link).
    static func resolve(_ reference: String, against base: String) -> String? {
        let trimmed = reference.trimmingCharacters(in: .whitespaces)
        if scheme(trimmed) != nil { return trimmed }
        guard let b = URL(string: base), let u = URL(string: trimmed, relativeTo: b) else { return nil }
        return u.absoluteString
    }

    /// The key recorded pages are matched on: scheme and host lower case, default port dropped,
    /// empty path as `/`, fragment dropped; path and query kept exactly.
    static func pageKey(_ url: String) -> String {
        var s = url
        if let hash = s.firstIndex(of: "#") { s = String(s[..<hash]) }
        guard isWeb(s), var c = URLComponents(string: s) else { return s }
        c.scheme = c.scheme?.lowercased()
        if var h = c.host?.lowercased() {
            if h.hasSuffix(".") { h.removeLast() }
            c.host = h
        }
        if (c.scheme == "https" && c.port == 443) || (c.scheme == "http" && c.port == 80) { c.port = nil }
        if c.percentEncodedPath.isEmpty { c.percentEncodedPath = "/" }
        c.fragment = nil
        return c.string ?? s
    }

    /// A GET form's URL: the action with its query replaced by the fields (application/x-www-form-urlencoded).
    static func formGetURL(action: String, fields: [(String, String)]) -> String {
        var base = action
        if let hash = base.firstIndex(of: "#") { base = String(base[..<hash]) }
        if let q = base.firstIndex(of: "?") { base = String(base[..<q]) }
        let query = fields.map { "\(formEncode($0.0))=\(formEncode($0.1))" }.joined(separator: "&")
        return base + "?" + query
    }

    static func formEncode(_ s: String) -> String {
        var out = ""
        for b in s.utf8 {
            switch b {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "*"), UInt8(ascii: "-"), UInt8(ascii: "."),
                 UInt8(ascii: "_"):
                out.unicodeScalars.append(Unicode.Scalar(b))
            case UInt8(ascii: " "): out += "+"
            default: out += String(format: "%%%02X", b)
            }
        }
        return out
    }

    /// Text compared loosely: lower case, runs of white space as one space, trimmed.
    static func looseText(_ s: String) -> String {
        s.lowercased().split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }
}

/// A context's cookies (the web view and the browser each have their own jar).
struct CookieJar: Sendable, Hashable {
    struct Cookie: Sendable, Hashable {
        var domain: String
        var name: String
        var value: String
    }
    var cookies: [Cookie] = []

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
        cookies.removeAll { $0.domain == domain && $0.name == name }
        cookies.append(Cookie(domain: domain, name: name, value: value))
    }

    /// True when a request to `url` carries the cookie `requirement` (`name` or `name=value`).
    func satisfies(_ requirement: String, for url: String) -> Bool {
        guard let host = URLTools.host(url) else { return false }
        let (name, value) = Self.split(requirement)
        return cookies.contains { c in
            (host == c.domain || host.hasSuffix("." + c.domain)) && c.name == name && (value == nil || c.value == value)
        }
    }

    static func split(_ requirement: String) -> (String, String?) {
        guard let eq = requirement.firstIndex(of: "=") else { return (requirement, nil) }
        return (String(requirement[..<eq]), String(requirement[requirement.index(after: eq)...]))
    }
}
