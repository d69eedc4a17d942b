// Splitting an https URL into host, path, query and fragment for AASA matching (own small code:
// AASA compares the URL's percent-encoded text, so no URL type may re-encode or normalise it first).
import PlainviewURL

struct AASAURLParts: Sendable {
    var scheme: String
    var host: String
    var port: Substring?
    var path: Substring
    var query: Substring?
    var fragment: Substring?

    /// nil when `url` is not `scheme://authority…` or holds whitespace, controls or a backslash
    /// (fail closed: such a URL is never a universal link).
    init?(_ url: String) {
        for s in url.unicodeScalars where s.value <= 0x20 || s.value == 0x7F || s == "\\" { return nil }
        guard let colon = url.firstIndex(of: ":") else { return nil }
        let scheme = url[..<colon]
        guard let first = scheme.unicodeScalars.first, ("a"..."z").contains(first) || ("A"..."Z").contains(first),
            scheme.unicodeScalars.allSatisfy({
                $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "+-.".unicodeScalars.contains($0))
            })
        else { return nil }
        self.scheme = scheme.lowercased()
        var rest = url[url.index(after: colon)...]
        guard rest.hasPrefix("//") else { return nil }
        rest = rest.dropFirst(2)
        let authorityEnd = rest.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) ?? rest.endIndex
        var authority = rest[..<authorityEnd]
        rest = rest[authorityEnd...]
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { return nil }
            let afterClose = authority[authority.index(after: close)...]
            host = String(authority[...close])
            if afterClose.hasPrefix(":") { port = afterClose.dropFirst() } else if !afterClose.isEmpty { return nil }
        } else if let c = authority.lastIndex(of: ":") {
            host = String(authority[..<c])
            port = authority[authority.index(after: c)...]
        } else {
            host = String(authority)
        }
        if host.isEmpty { return nil }
        if let hash = rest.firstIndex(of: "#") {
            fragment = rest[rest.index(after: hash)...]
            rest = rest[..<hash]
        }
        if let q = rest.firstIndex(of: "?") {
            query = rest[rest.index(after: q)...]
            rest = rest[..<q]
        }
        path = rest
    }

    /// `name=value` items of the query (`&`-separated; an item without `=` has the value "").
    func queryItems(decoded: Bool) -> [(name: String, value: String)] {
        guard let query else { return [] }
        return query.split(separator: "&", omittingEmptySubsequences: true).map { item in
            let name: Substring
            let value: Substring
            if let eq = item.firstIndex(of: "=") {
                name = item[..<eq]
                value = item[item.index(after: eq)...]
            } else {
                name = item
                value = ""
            }
            return decoded ? (Self.percentDecoded(name), Self.percentDecoded(value)) : (String(name), String(value))
        }
    }

    /// Lower case, without one trailing dot.
    static func normalisedHost(_ host: String) -> String {
        var h = host.lowercased()
        if h.hasSuffix(".") { h.removeLast() }
        return h
    }

    /// Without leading and trailing `/` (swcutil ignores them when comparing paths).
    static func trimmedSlashes(_ s: String) -> String {
        var sub = Substring(s)
        while sub.hasPrefix("/") { sub = sub.dropFirst() }
        while sub.hasSuffix("/") { sub = sub.dropLast() }
        return String(sub)
    }

    /// `%XX` → byte, then UTF-8 (invalid sequences become U+FFFD; a stray `%` stays as it is).
    static func percentDecoded(_ s: some StringProtocol) -> String { PercentEncoding.decode(s) }
}
