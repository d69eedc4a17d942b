// Small URL helpers for the simulated device and for drafting flows from recordings: resolving a Location, the
// host of a page, page-lookup keys, form URLs. (Decisions never use these: every web-view navigation is decided
// by NavigationPolicyEngine.)

public enum URLTools {
    /// The scheme, lower case (`https`, `intent`, `bankid`), or nil when there is none.
    public static func scheme(_ url: String) -> String? { WebURL.scheme(of: url) }

    public static func isWeb(_ url: String) -> Bool {
        scheme(url).map { SchemeKind(scheme: $0) == .web } ?? false
    }

    /// The host as the policy compares it (lower case, punycode, no trailing dot) of an http(s) URL.
    public static func host(_ url: String) -> String? {
        guard let u = WebURL(url), SchemeKind(scheme: u.scheme) == .web, let h = u.comparableHost, !h.isEmpty else { return nil }
        return h
    }

    /// The percent-decoded value of the first query item `name` of `url` (any scheme; `+` is not a space): nil when
    /// there is none or its escapes are malformed; "" for an item without `=`.
    public static func queryValue(_ name: String, in url: String) -> String? {
        let noFragment = url.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        guard let q = noFragment.firstIndex(of: "?") else { return nil }
        return queryValue(name, query: noFragment[noFragment.index(after: q)...])
    }

    /// The percent-decoded value of the first item `name` of a query string (without `?`; a fragment is ignored).
    public static func queryValue(_ name: String, query: Substring) -> String? {
        let q = query.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        for piece in q.split(separator: "&") {
            let (n, v) = PercentEncoding.splitQueryItem(piece)
            if PercentEncoding.decodeComponent(n) == name { return PercentEncoding.decodeComponent(v) }
        }
        return nil
    }

    /// `reference` resolved against `base` (a Location header, a relative link) as a browser resolves it.
    public static func resolve(_ reference: String, against base: String) -> String? {
        guard let b = WebURL(base) else { return WebURL(reference)?.href }
        return WebURL(reference, relativeTo: b)?.href
    }

    /// The key recorded pages are matched on: the http(s) URL as the URL parser serialises it (scheme and
    /// host lower case, default port dropped, empty path as `/`, dot segments resolved), host without a
    /// trailing dot, fragment dropped. Other URLs: the string without its fragment.
    public static func pageKey(_ url: String) -> String {
        guard let u = WebURL(url), SchemeKind(scheme: u.scheme) == .web else {
            guard let hash = url.firstIndex(of: "#") else { return url }
            return String(url[..<hash])
        }
        return u.withoutFragment.withoutTrailingDot.href
    }

    /// A GET form's URL: the action with its query replaced by the fields (application/x-www-form-urlencoded)
    /// and no fragment.
    public static func formGetURL(action: String, fields: [(String, String)], encoding: TextEncoding = .utf8) -> String {
        let query = formEncoded(fields, encoding: encoding)
        guard let u = WebURL(action) else { return action }
        return u.withoutFragment.replacingQuery(query).href
    }

    /// Form fields as `application/x-www-form-urlencoded` in `encoding`: a GET form's query, a POST form's body.
    public static func formEncoded(_ fields: [(String, String)], encoding: TextEncoding = .utf8) -> String {
        fields.map {
            "\(PercentEncoding.encodeForm($0.0, encoding: encoding))=\(PercentEncoding.encodeForm($0.1, encoding: encoding))"
        }.joined(separator: "&")
    }
}
