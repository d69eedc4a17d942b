// WHATWG-style resolution of a URL string against a base URL, small enough to read in one sitting.
//
// Why not Foundation's `URL(string:relativeTo:)`: it is RFC 3986, rejects strings browsers accept (spaces,
// `intent://…#Intent;…;end;` fragments with `;` are fine, but `|`, non-ASCII and backslashes are not), and it
// does not treat `\` as `/` in http(s) URLs the way browsers do. The policy engine re-parses every URL it gets;
// this resolver only has to put each string where a browser would navigate.
import PlainviewURL

enum URLResolver {
    /// Schemes with the WHATWG "special" behaviour (authority required, `\` is `/`, dot segments normalised).
    static let specialSchemes: Set<String> = ["http", "https", "ws", "wss", "ftp", "file"]

    /// A URL split into the parts resolution needs.
    struct Parts {
        var scheme: String          // lower case
        var authority: String?      // nil when the URL has no `//authority`
        var path: String
        var query: String?
        var fragment: String?
        var isSpecial: Bool { URLResolver.specialSchemes.contains(scheme) }
        /// "Cannot be a base" (`javascript:…`, `mailto:…`, `intent:…` without `//`): only `#…` resolves against it.
        var isOpaque: Bool { authority == nil && !path.hasPrefix("/") }

        var serialized: String {
            var s = scheme + ":"
            if let authority { s += "//" + authority }
            // A host-less path starting `//` would read as an authority: WHATWG serialises it as `/.//…`.
            else if path.hasPrefix("//") { s += "/." }
            s += path
            if let query { s += "?" + query }
            if let fragment { s += "#" + fragment }
            return s
        }
    }

    /// The URL parser's input clean-up: strip leading/trailing C0 controls and spaces, drop tabs and newlines.
    static func clean(_ input: String) -> String {
        if !input.utf8.contains(where: { $0 <= 0x20 }) { return input }   // the common case: nothing to strip
        var scalars = Substring(input).unicodeScalars[...]
        while let f = scalars.first, f.value <= 0x20 { scalars.removeFirst() }
        while let l = scalars.last, l.value <= 0x20 { scalars.removeLast() }
        var out = String.UnicodeScalarView()
        for s in scalars where s != "\t" && s != "\n" && s != "\r" { out.append(s) }
        return String(out)
    }

    /// The scheme of `s` (lower case) and the rest after `:`, if `s` starts with a valid scheme.
    static func splitScheme(_ s: String) -> (scheme: String, rest: Substring)? {
        guard let colon = s.firstIndex(of: ":") else { return nil }
        let scheme = s[..<colon]
        guard let first = scheme.unicodeScalars.first, first.isASCIIAlpha else { return nil }
        for c in scheme.unicodeScalars {
            guard c.isASCIIAlphanumeric || c == "+" || c == "-" || c == "." else { return nil }
        }
        let lower = scheme.utf8.contains(where: { $0 >= 0x41 && $0 <= 0x5A }) ? scheme.lowercased() : String(scheme)
        return (lower, s[s.index(after: colon)...])
    }

    /// Parses an absolute URL string into parts, or nil when it has no scheme.
    static func parseAbsolute(_ raw: String) -> Parts? {
        let s = clean(raw)
        guard let (scheme, rest) = splitScheme(s) else { return nil }
        return parts(scheme: scheme, rest: rest)
    }

    private static func parts(scheme: String, rest: Substring) -> Parts {
        let special = specialSchemes.contains(scheme)
        // Byte-level split: fragment, then query, then authority and path (`\` is `/` in special URLs).
        var b = Array(rest.utf8)
        var fragment: String?
        if let hash = b.firstIndex(of: UInt8(ascii: "#")) {
            fragment = String(decoding: b[(hash + 1)...], as: UTF8.self)
            b.removeSubrange(hash...)
        }
        var query: String?
        if let q = b.firstIndex(of: UInt8(ascii: "?")) {
            query = String(decoding: b[(q + 1)...], as: UTF8.self)
            b.removeSubrange(q...)
        }
        if special { for i in b.indices where b[i] == UInt8(ascii: "\\") { b[i] = UInt8(ascii: "/") } }
        var start = 0
        var authority: String?
        let slash = UInt8(ascii: "/")
        if special && scheme != "file" {
            // Any number of slashes before the host (`http:example.com`, `http:///example.com`) lead to the host.
            while start < b.count, b[start] == slash { start += 1 }
        } else if b.count >= 2, b[0] == slash, b[1] == slash {
            start = 2
        }
        if start > 0 || (special && scheme != "file") {
            let end = b[start...].firstIndex(of: slash) ?? b.count
            let a = String(decoding: b[start..<end], as: UTF8.self)
            authority = special ? a.lowercased() : a
            start = end
        }
        var path = String(decoding: b[start...], as: UTF8.self)
        if special || authority != nil || path.utf8.first == slash {
            path = removeDotSegments(path)
            if special && path.isEmpty { path = "/" }
        }
        return Parts(scheme: scheme, authority: authority, path: path, query: query, fragment: fragment)
    }

    /// Resolves `input` against `base` (an absolute URL). Nil when a browser's URL parser would fail.
    static func resolve(_ input: String, against base: Parts) -> String? {
        let s = clean(input)
        if let (scheme, rest) = splitScheme(s) {
            // `http:foo` against an http base is relative (WHATWG "special relative or authority" state).
            let isSpecial = specialSchemes.contains(scheme)
            let slashLead = rest.hasPrefix("/") || (isSpecial && rest.hasPrefix("\\"))
            if !(isSpecial && scheme == base.scheme && !slashLead && !base.isOpaque) {
                return checkedEncode(parts(scheme: scheme, rest: rest))
            }
            return resolveRelative(String(rest), against: base)
        }
        return resolveRelative(s, against: base)
    }

    private static func resolveRelative(_ s: String, against base: Parts) -> String? {
        if base.isOpaque {
            // Only a fragment resolves against `javascript:`/`mailto:`/`intent:` bases.
            guard s.hasPrefix("#") else { return nil }
            var p = base
            p.fragment = String(s.dropFirst())
            return encode(p)
        }
        let special = base.isSpecial
        let slashy: (Character) -> Bool = { $0 == "/" || (special && $0 == "\\") }
        if s.count >= 2, slashy(s[s.startIndex]), slashy(s[s.index(after: s.startIndex)]) {
            return checkedEncode(parts(scheme: base.scheme, rest: Substring(s)))
        }
        // Work on the relative reference with the base's scheme and authority.
        var rel = Substring(s)
        var fragment: String?
        if let hash = rel.firstIndex(of: "#") {
            fragment = String(rel[rel.index(after: hash)...])
            rel = rel[..<hash]
        }
        var query: String?
        if let q = rel.firstIndex(of: "?") {
            query = String(rel[rel.index(after: q)...])
            rel = rel[..<q]
        }
        var relPath = String(rel)
        if special, relPath.utf8.contains(UInt8(ascii: "\\")) { relPath = relPath.backslashesToSlashes() }
        var out = base
        out.fragment = fragment
        if relPath.isEmpty {
            if query != nil { out.query = query }
            // Empty path and no query: the base's path and query stay.
        } else if relPath.hasPrefix("/") {
            out.path = removeDotSegments(relPath)
            out.query = query
        } else {
            let dir: Substring
            if let slash = base.path.lastIndex(of: "/") {
                dir = base.path[...slash]
            } else {
                dir = base.authority != nil ? "/" : ""
            }
            out.path = removeDotSegments(String(dir) + relPath)
            out.query = query
        }
        return encode(out)
    }

    /// `encode(p)`, or nil when `p` is special and its host is one a browser's host parser refuses: empty
    /// (except for `file:`), holding a space, a control character or a forbidden host code point (also
    /// percent-encoded), or followed by a port that is not digits. (Found by fuzzing: `//h.example p`
    /// resolved to `http://h.example p/`.) Deeper checks (IDNA, IPv4/IPv6 forms) stay with the policy engine.
    static func checkedEncode(_ p: Parts) -> String? {
        guard p.isSpecial else { return encode(p) }
        var host = Substring(p.authority ?? "")
        if let at = host.lastIndex(of: "@") { host = host[host.index(after: at)...] }
        if host.hasPrefix("[") {
            guard let close = host.firstIndex(of: "]") else { return nil }
            let rest = host[host.index(after: close)...]
            guard rest.isEmpty || (rest.hasPrefix(":") && rest.dropFirst().utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
            return encode(p)
        }
        if let colon = host.lastIndex(of: ":") {
            guard host[host.index(after: colon)...].utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
            host = host[..<colon]
        }
        if host.isEmpty { return p.scheme == "file" ? encode(p) : nil }
        let forbidden: Set<UInt8> = Set("#%/:<>?@[\\]^|".utf8)
        var bytes = Array(host.utf8)[...]
        var decoded: [UInt8] = []
        while let b = bytes.popFirst() {
            if b == 0x25, bytes.count >= 2, let v = UInt8(String(decoding: bytes.prefix(2), as: UTF8.self), radix: 16) {
                decoded.append(v)
                bytes = bytes.dropFirst(2)
            } else {
                if b == 0x25 { return nil }  // a `%` that is not an escape stays `%`, a forbidden domain code point
                decoded.append(b)
            }
        }
        if decoded.contains(where: { $0 <= 0x20 || $0 == 0x7F || forbidden.contains($0) }) { return nil }
        return encode(p)
    }

    /// RFC 3986 §5.2.4 over `/`-separated segments; `%2e` counts as `.` (as in WHATWG).
    static func removeDotSegments(_ path: String) -> String {
        guard path.utf8.contains(0x2E) || path.utf8.contains(0x25) else { return path }
        let absolute = path.hasPrefix("/")
        var segments = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        if absolute { segments.removeFirst() }
        var out: [String] = []
        for (i, seg) in segments.enumerated() {
            let isLast = i == segments.count - 1
            switch seg.lowercased() {
            case ".", "%2e":
                if isLast { out.append("") }
            case "..", ".%2e", "%2e.", "%2e%2e":
                if !out.isEmpty { out.removeLast() }
                if isLast { out.append("") }
            default:
                out.append(seg)
            }
        }
        return (absolute ? "/" : "") + out.joined(separator: "/")
    }

    /// Percent-encodes what a browser's URL parser would (controls, space, `"<>\``, non-ASCII) outside the host.
    static func encode(_ p: Parts) -> String {
        var p = p
        p.path = percentEncode(p.path, extra: p.isOpaque ? EncodeSet.none : EncodeSet.path)
        if !p.isSpecial, let a = p.authority { p.authority = percentEncode(a, extra: EncodeSet.none) }  // opaque host
        if let q = p.query { p.query = percentEncode(q, extra: p.isSpecial ? EncodeSet.specialQuery : EncodeSet.query) }
        if let f = p.fragment { p.fragment = percentEncode(f, extra: EncodeSet.fragment) }
        return p.serialized
    }

    /// Bytes to percent-encode: C0 controls, DEL and non-ASCII always, plus a bit mask of printable ones.
    struct EncodeSet {
        var low: UInt64 = 0, high: UInt64 = 0   // bits for bytes 0…63 and 64…127
        init(_ bytes: [UInt8]) {
            for b in bytes where b < 128 { if b < 64 { low |= 1 << UInt64(b) } else { high |= 1 << UInt64(b - 64) } }
        }
        func contains(_ b: UInt8) -> Bool {
            if b < 0x20 || b > 0x7E { return true }
            return b < 64 ? (low >> UInt64(b)) & 1 == 1 : (high >> UInt64(b - 64)) & 1 == 1
        }
        static let none = EncodeSet([])
        static let path = EncodeSet([0x20, 0x22, 0x3C, 0x3E, 0x60, 0x7B, 0x7D])
        static let query = EncodeSet([0x20, 0x22, 0x3C, 0x3E])
        static let specialQuery = EncodeSet([0x20, 0x22, 0x3C, 0x3E, 0x27])
        static let fragment = EncodeSet([0x20, 0x22, 0x3C, 0x3E, 0x60])
    }

    private static func percentEncode(_ s: String, extra: EncodeSet) -> String {
        let utf8 = s.utf8
        if !utf8.contains(where: { extra.contains($0) }) { return s }
        var out: [UInt8] = []
        out.reserveCapacity(utf8.count + 16)
        let hex: [UInt8] = Array("0123456789ABCDEF".utf8)
        for b in utf8 {
            if extra.contains(b) {
                out.append(0x25); out.append(hex[Int(b >> 4)]); out.append(hex[Int(b & 0xF)])
            } else {
                out.append(b)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}

extension Unicode.Scalar {
    fileprivate var isASCIIAlpha: Bool { (value >= 0x41 && value <= 0x5A) || (value >= 0x61 && value <= 0x7A) }
    fileprivate var isASCIIAlphanumeric: Bool { isASCIIAlpha || (value >= 0x30 && value <= 0x39) }
}

extension StringProtocol {
    /// `self` with every `\` turned into `/`.
    fileprivate func backslashesToSlashes() -> String {
        String(String.UnicodeScalarView(unicodeScalars.map { $0 == "\\" ? "/" : $0 }))
    }
}
