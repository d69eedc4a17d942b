// A small WHATWG-style URL parser for what the policy needs: absolute URLs only (a navigation target is
// absolute by the time a web view asks), hosts parsed exactly like browsers (IDNA, IPv4 forms, IPv6),
// special-scheme quirks (`\` as `/`, extra slashes, tab/newline removal) and a normalised serialisation.
// Foundation's URL (RFC 3986) is deliberately not used: it disagrees with browsers on exactly the tricks
// (backslashes, `@`, whitespace, IDN) an attacker would use to make a host look allowed.
// Every step is linear in the input; nothing traps on input-derived data.

/// A parsed, normalised absolute URL. Build one with `WebURL(_:)`; nil means "not a URL" (decide: block).
public struct WebURL: Sendable, Hashable, CustomStringConvertible {
    /// A parsed host.
    public enum Host: Sendable, Hashable {
        /// A domain, lower case, IDN as punycode (`xn--…`), no trailing-dot removal (see `comparableHost`).
        case domain(String)
        case ipv4(UInt32)
        case ipv6([UInt16])
        /// A non-special scheme's host, percent-encoded as written.
        case opaque(String)
        /// `scheme://` with nothing before the path (file:, custom schemes).
        case empty

        /// The host as serialised in an href (`[::1]`, `192.168.0.1`, `xn--bcher-kva.de`).
        public var serialized: String {
            switch self {
            case .domain(let d): d
            case .opaque(let o): o
            case .empty: ""
            case .ipv4(let a): "\(a >> 24).\((a >> 16) & 0xFF).\((a >> 8) & 0xFF).\(a & 0xFF)"
            case .ipv6(let pieces): "[" + WebURL.serializeIPv6(pieces) + "]"
            }
        }
    }

    /// Lower-case scheme without `:`.
    public private(set) var scheme: String
    public private(set) var username: String = ""
    public private(set) var password: String = ""
    /// nil when the URL has no authority (`mailto:x`, `javascript:…`, `data:…`).
    public private(set) var host: Host?
    /// The port, nil when absent or the scheme's default (80 for http, 443 for https).
    public private(set) var port: Int?
    /// The path, percent-encoded, dot segments resolved; `/` at least for special schemes.
    public private(set) var path: String = ""
    /// The query without `?`, percent-encoded; nil when absent.
    public private(set) var query: String?
    /// The fragment without `#`, percent-encoded; nil when absent.
    public private(set) var fragment: String?
    /// True for `scheme:opaque-path` URLs (no authority, path not starting with `/`).
    public private(set) var hasOpaquePath = false

    public var isSpecial: Bool { SchemeKind.specialDefaultPort(scheme) != nil }

    @inline(__always)
    static func specialDefaultPort(_ scheme: String) -> Int?? { SchemeKind.specialDefaultPort(scheme) }

    /// The serialised host (`hostname` in WHATWG terms), nil without an authority.
    public var hostname: String? { host?.serialized }

    /// The host for comparisons: serialised, without a trailing dot (`shop.example.com.` ≡ `shop.example.com`).
    public var comparableHost: String? {
        guard let host else { return nil }
        guard case .domain(var h) = host else { return host.serialized }
        // Domains are ASCII (punycode), so bytes are characters here.
        if h.utf8.count > 1, h.utf8.last == UInt8(ascii: ".") { h.removeLast() }
        return h
    }

    public var hasCredentials: Bool { !username.isEmpty || !password.isEmpty }

    /// The normalised URL (WHATWG href).
    public var href: String {
        // Reserve exactly what is written: hrefs are kept by the hundred thousand (every link of a page), so
        // slack capacity would be kept with them.
        let hostText = host?.serialized
        let portText = port.map { String($0) }
        var count = scheme.utf8.count + 1 + path.utf8.count
        if let hostText {
            count += 2 + hostText.utf8.count + (portText.map { $0.utf8.count + 1 } ?? 0)
            if hasCredentials { count += username.utf8.count + (password.isEmpty ? 0 : password.utf8.count + 1) + 1 }
        } else if !hasOpaquePath, path.hasPrefix("//") {
            count += 2
        }
        count += (query.map { $0.utf8.count + 1 } ?? 0) + (fragment.map { $0.utf8.count + 1 } ?? 0)
        var s = String()
        s.reserveCapacity(count)
        s += scheme
        s += ":"
        if let hostText {
            s += "//"
            if hasCredentials {
                s += username
                if !password.isEmpty { s += ":"; s += password }
                s += "@"
            }
            s += hostText
            if let portText { s += ":"; s += portText }
        } else if !hasOpaquePath, path.hasPrefix("//") {
            s += "/."
        }
        s += path
        if let query { s += "?"; s += query }
        if let fragment { s += "#"; s += fragment }
        return s
    }

    public var description: String { href }

    /// Parses an absolute URL string the way a browser's URL parser does. nil when it is not one.
    public init?(_ input: String) {
        guard let parsed = WebURL.parse(Array(input.utf8), base: nil) else { return nil }
        self = parsed
    }

    /// The URL Standard's basic URL parser with a base: `input` resolved against `base` the way a browser
    /// resolves a link, a `Location` header or a form action (`//host`, `/path`, `path`, `../x`, `?q`, `#f`,
    /// `\` as `/` for special schemes, `http:foo` against an http base). nil when a browser would fail.
    public init?(_ input: String, relativeTo base: WebURL) {
        guard let parsed = WebURL.parse(Array(input.utf8), base: base) else { return nil }
        self = parsed
    }

    /// `input` resolved against `base` (both strings), as an href; nil when either fails to parse.
    public static func resolve(_ input: String, against base: String) -> String? {
        guard let b = WebURL(base) else { return nil }
        return WebURL(input, relativeTo: b)?.href
    }

    private init(scheme: String) { self.scheme = scheme }

    // MARK: - Parsing

    private static func isASCIIAlpha(_ b: UInt8) -> Bool { (b | 0x20) >= 97 && (b | 0x20) <= 122 }
    private static func isDigit(_ b: UInt8) -> Bool { b >= 48 && b <= 57 }
    private static let slash = UInt8(ascii: "/"), backslash = UInt8(ascii: "\\"), question = UInt8(ascii: "?"),
        hash = UInt8(ascii: "#"), colon = UInt8(ascii: ":"), at = UInt8(ascii: "@")

    static func parse(_ raw: [UInt8], base: WebURL?) -> WebURL? {
        // Strip leading/trailing C0 control or space; remove every tab and newline.
        var lo = 0, hi = raw.count
        while lo < hi, raw[lo] <= 0x20 { lo += 1 }
        while hi > lo, raw[hi - 1] <= 0x20 { hi -= 1 }
        let b: [UInt8]
        if lo == 0, hi == raw.count, !raw.contains(where: { $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }) {
            b = raw // the common case: nothing to strip, no copy
        } else {
            var copy: [UInt8] = []
            copy.reserveCapacity(hi - lo)
            for c in raw[lo..<hi] where c != 0x09 && c != 0x0A && c != 0x0D { copy.append(c) }
            b = copy
        }

        // Scheme ("scheme start state"); without one, the input is relative ("no scheme state").
        guard let i = schemeEnd(b) else {
            guard let base else { return nil }
            return parseRelative(b, 0, base: base)
        }
        let scheme = lowerScheme(b[0..<i])
        var url = WebURL(scheme: scheme)
        var p = i + 1
        let special = specialDefaultPort(scheme) != nil
        if special, let base, base.scheme == scheme {
            // "special relative or authority state": `http:foo`, `http:/foo`, `http:\\foo` against an http base
            // are relative to it; `http://…` is not. `file:` against a file base goes to the file state.
            if scheme == "file" { return parseFileRelative(b, p, base: base) }
            if !(p + 1 < b.count && b[p] == slash && b[p + 1] == slash) { return parseRelative(b, p, base: base) }
        }

        if special {
            if scheme == "file" {
                return parseFile(&url, b, p)
            }
            // Special authority: any run of `/` and `\` is ignored.
            while p < b.count, b[p] == slash || b[p] == backslash { p += 1 }
            let authorityEnd = b[p...].firstIndex { $0 == slash || $0 == backslash || $0 == question || $0 == hash } ?? b.count
            guard parseAuthority(&url, b[p..<authorityEnd], special: true) else { return nil }
            p = authorityEnd
            parsePathQueryFragment(&url, b, p, special: true)
        } else if b.count >= p + 2, b[p] == slash, b[p + 1] == slash {
            p += 2
            let authorityEnd = b[p...].firstIndex { $0 == slash || $0 == question || $0 == hash } ?? b.count
            guard parseAuthority(&url, b[p..<authorityEnd], special: false) else { return nil }
            p = authorityEnd
            parsePathQueryFragment(&url, b, p, special: false)
        } else if p < b.count, b[p] == slash {
            parsePathQueryFragment(&url, b, p, special: false)
        } else {
            // Opaque path.
            let end = b[p...].firstIndex { $0 == question || $0 == hash } ?? b.count
            url.hasOpaquePath = true
            url.path = percentEncode(b[p..<end], .c0Control)
            parseQueryFragment(&url, b, end, special: false)
        }
        return url
    }

    /// The index of the `:` ending a valid scheme at the start of `b`, or nil when `b` has no scheme.
    private static func schemeEnd(_ b: [UInt8]) -> Int? {
        guard let first = b.first, isASCIIAlpha(first) else { return nil }
        var i = 1
        while i < b.count,
            isASCIIAlpha(b[i]) || isDigit(b[i]) || b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-")
                || b[i] == UInt8(ascii: ".")
        {
            i += 1
        }
        return i < b.count && b[i] == colon ? i : nil
    }

    /// The "relative state" and what follows it: `b[p...]` (no scheme of its own, or the base's special
    /// scheme already consumed) against a base.
    private static func parseRelative(_ b: [UInt8], _ p: Int, base: WebURL) -> WebURL? {
        if base.hasOpaquePath {
            // A base like `mailto:x` or `javascript:…` accepts only a fragment.
            guard p < b.count, b[p] == hash else { return nil }
            var url = base
            url.fragment = percentEncode(b[(p + 1)...], .fragment)
            return url
        }
        if base.scheme == "file" { return parseFileRelative(b, p, base: base) }
        let special = base.isSpecial
        var url = WebURL(scheme: base.scheme)
        @inline(__always) func isSeparator(_ c: UInt8) -> Bool { c == slash || (special && c == backslash) }
        if p < b.count, isSeparator(b[p]) {
            if p + 1 < b.count, isSeparator(b[p + 1]) {
                // Scheme-relative (`//host/path`): a new authority with the base's scheme.
                var q = p + 2
                if special { while q < b.count, isSeparator(b[q]) { q += 1 } }
                let authorityEnd = b[q...].firstIndex { isSeparator($0) || $0 == question || $0 == hash } ?? b.count
                guard parseAuthority(&url, b[q..<authorityEnd], special: special) else { return nil }
                parsePathQueryFragment(&url, b, authorityEnd, special: special)
                return url
            }
            // Path-absolute: the base's authority, a new path.
            url.copyAuthority(of: base)
            parsePathQueryFragment(&url, b, p, special: special)
            return url
        }
        url.copyAuthority(of: base)
        resolvePathAndRest(&url, b, p, base: base, special: special)
        return url
    }

    /// What follows the authority in a reference that keeps the base's: nothing (the base without its
    /// fragment), `?…` or `#…` (the base's path, and for `#…` its query), or a path merged with the base's
    /// directory, dot segments resolved.
    private static func resolvePathAndRest(_ url: inout WebURL, _ b: [UInt8], _ p: Int, base: WebURL, special: Bool) {
        if p == b.count {
            url.path = base.path
            url.query = base.query
            return
        }
        if b[p] == question || b[p] == hash {
            url.path = base.path
            if b[p] == hash { url.query = base.query }
            parseQueryFragment(&url, b, p, special: special)
            return
        }
        let end = b[p...].firstIndex { $0 == question || $0 == hash } ?? b.count
        url.path = normalizePath(mergedPath(base.path, b[p..<end])[...], special: special)
        parseQueryFragment(&url, b, end, special: special)
    }

    /// The base path up to and including its last `/` (`/` when it has none), followed by `relative`.
    private static func mergedPath(_ basePath: String, _ relative: ArraySlice<UInt8>) -> [UInt8] {
        let base = basePath.utf8
        var merged: [UInt8] = []
        merged.reserveCapacity(base.count + relative.count + 1)
        if let last = base.lastIndex(of: slash) {
            merged.append(contentsOf: base[...last])
        } else {
            merged.append(slash)
        }
        merged.append(contentsOf: relative)
        return merged
    }

    /// The "file state" with a file base (`file:` consumed or no scheme). Windows drive letters are not
    /// special-cased (Plainview sees file: URLs only to block them).
    private static func parseFileRelative(_ b: [UInt8], _ p: Int, base: WebURL) -> WebURL? {
        var url = WebURL(scheme: "file")
        url.host = .empty
        @inline(__always) func isSeparator(_ c: UInt8) -> Bool { c == slash || c == backslash }
        if p < b.count, isSeparator(b[p]) {
            if p + 1 < b.count, isSeparator(b[p + 1]) { return parseFile(&url, b, p) }
            url.host = base.host
            parsePathQueryFragment(&url, b, p, special: true)
            return url
        }
        guard base.scheme == "file" else { return parseFile(&url, b, p) }
        url.host = base.host
        resolvePathAndRest(&url, b, p, base: base, special: true)
        return url
    }

    private mutating func copyAuthority(of base: WebURL) {
        username = base.username
        password = base.password
        host = base.host
        port = base.port
    }

    /// The scheme, lower case; the common ones without building a new string.
    private static func lowerScheme(_ s: ArraySlice<UInt8>) -> String {
        var lower: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) = (0, 0, 0, 0, 0, 0)
        if s.count == 5 || s.count == 4 {
            let j = s.startIndex
            lower = (s[j] | 0x20, s[j + 1] | 0x20, s[j + 2] | 0x20, s[j + 3] | 0x20, s.count == 5 ? s[j + 4] | 0x20 : 0, 0)
            if lower == (104, 116, 116, 112, 115, 0) { return "https" }
            if lower == (104, 116, 116, 112, 0, 0) { return "http" }
        }
        return String(decoding: s.map { isASCIIAlpha($0) ? $0 | 0x20 : $0 }, as: UTF8.self)
    }

    private static func parseFileParts(_ url: inout WebURL, _ b: [UInt8], _ start: Int) -> Bool {
        var p = start
        var slashes = 0
        // "file slash state": at most two slashes introduce the host; a third starts the path
        // (`file:///a/b` has an empty host and the path `/a/b`, not the host `a`).
        while p < b.count, slashes < 2, b[p] == slash || b[p] == backslash { p += 1; slashes += 1 }
        if slashes >= 2 {
            let end = b[p...].firstIndex { $0 == slash || $0 == backslash || $0 == question || $0 == hash } ?? b.count
            let rawHost = b[p..<end]
            if rawHost.isEmpty {
                url.host = .empty
            } else {
                guard let h = parseHost(rawHost, special: true) else { return false }
                if case .domain("localhost") = h { url.host = .empty } else { url.host = h }
            }
            p = end
        } else {
            url.host = .empty
            p = start
        }
        parsePathQueryFragment(&url, b, p, special: true)
        return true
    }

    private static func parseFile(_ url: inout WebURL, _ b: [UInt8], _ start: Int) -> WebURL? {
        parseFileParts(&url, b, start) ? url : nil
    }

    /// userinfo@host:port (the bytes between `//` and the path). False when invalid.
    private static func parseAuthority(_ url: inout WebURL, _ a: ArraySlice<UInt8>, special: Bool) -> Bool {
        var hostPort = a
        if let lastAt = a.lastIndex(of: at) {
            let userinfo = a[a.startIndex..<lastAt]
            if let c = userinfo.firstIndex(of: colon) {
                url.username = percentEncode(userinfo[userinfo.startIndex..<c], .userinfo)
                url.password = percentEncode(userinfo[(c + 1)...], .userinfo)
            } else {
                url.username = percentEncode(userinfo, .userinfo)
            }
            hostPort = a[(lastAt + 1)...]
            if hostPort.isEmpty { return false }
        }
        // The first `:` outside brackets starts the port.
        var inBrackets = false
        var portStart: Int?
        for j in hostPort.indices {
            let c = hostPort[j]
            if c == UInt8(ascii: "[") {
                inBrackets = true
            } else if c == UInt8(ascii: "]") {
                inBrackets = false
            } else if c == colon, !inBrackets {
                portStart = j
                break
            }
        }
        let hostBytes = portStart.map { hostPort[hostPort.startIndex..<$0] } ?? hostPort
        if special, hostBytes.isEmpty { return false }
        if let portStart {
            if hostBytes.isEmpty { return false }
            let digits = hostPort[(portStart + 1)...]
            if !digits.isEmpty {
                guard digits.allSatisfy(isDigit) else { return false }
                var value = 0
                for d in digits {
                    value = value * 10 + Int(d - 48)
                    if value > 65535 { return false }
                }
                if let defaultPort = specialDefaultPort(url.scheme), defaultPort == value {
                    url.port = nil
                } else {
                    url.port = value
                }
            }
        }
        if hostBytes.isEmpty {
            url.host = .empty
        } else {
            guard let h = parseHost(hostBytes, special: special) else { return false }
            url.host = h
        }
        return true
    }

    /// The URL Standard's host parser. nil on failure.
    static func parseHost(_ input: ArraySlice<UInt8>, special: Bool) -> Host? {
        if input.first == UInt8(ascii: "[") {
            guard input.count >= 2, input.last == UInt8(ascii: "]"),
                let pieces = parseIPv6(Array(input.dropFirst().dropLast()))
            else { return nil }
            return .ipv6(pieces)
        }
        if !special {
            for c in input where c != UInt8(ascii: "%") && IDNA.isForbiddenDomainByte(c) && c > 0x20 && c != 0x7F {
                return nil
            }
            if input.contains(where: { $0 == 0 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D || $0 == 0x20 }) { return nil }
            return .opaque(percentEncode(input, .c0Control))
        }
        if let fast = asciiDomainFast(input) { return fast }
        let decoded = percentDecode(input)
        let domain = String(decoding: decoded, as: UTF8.self)
        guard let ascii = IDNA.toASCII(domain) else { return nil }
        if endsInANumber(ascii) {
            guard let v4 = parseIPv4(ascii) else { return nil }
            return .ipv4(v4)
        }
        return .domain(ascii)
    }

    /// The host parser for ASCII input without `%` or `xn--` labels (the common case), on bytes: IDNA's ASCII
    /// path only lower-cases, so this is `.domain(lowered)` unless the last label starts with a digit (then the
    /// general path decides IPv4). `.some(nil)`: invalid host; nil: not for this path (`xn--` labels are validated).
    private static func asciiDomainFast(_ input: ArraySlice<UInt8>) -> Host?? {
        guard !input.isEmpty else { return nil }
        var hasUpper = false, forbidden = false
        var labelStart = input.startIndex
        for i in input.indices {
            let c = input[i]
            // Non-ASCII or `%` anywhere: the general path (NFC may turn `<` + U+0338 into a valid `≮`).
            if c >= 0x80 || c == UInt8(ascii: "%") { return nil }
            if IDNA.isForbiddenDomainByte(c) { forbidden = true }
            if c >= 65 && c <= 90 { hasUpper = true }
            if c == UInt8(ascii: ".") {
                labelStart = i + 1
            } else if c == UInt8(ascii: "-"), i - labelStart == 3, input[i - 1] == UInt8(ascii: "-"),
                input[i - 2] | 0x20 == UInt8(ascii: "n"), input[i - 3] | 0x20 == UInt8(ascii: "x")
            {
                return nil // an `xn--` label: IDNA validates it
            }
        }
        if forbidden { return .some(nil) }
        // The last label (one trailing dot ignored) must start with a non-digit to rule out an IPv4 form.
        var end = input.endIndex
        if input[end - 1] == UInt8(ascii: "."), end - 1 > input.startIndex { end -= 1 }
        var start = end
        while start > input.startIndex, input[start - 1] != UInt8(ascii: ".") { start -= 1 }
        guard start < end, !isDigit(input[start]) else { return nil }
        if !hasUpper { return .some(.domain(String(decoding: input, as: UTF8.self))) }
        return .some(.domain(String(decoding: input.map { ($0 >= 65 && $0 <= 90) ? $0 + 32 : $0 }, as: UTF8.self)))
    }

    // MARK: IPv4

    private static func endsInANumber(_ s: String) -> Bool {
        // The last label, ignoring one trailing dot (WHATWG "ends in a number").
        var u = s.utf8[...]
        if u.last == UInt8(ascii: ".") {
            if u.count == 1 { return false }
            u = u.dropLast()
        }
        let last = u.lastIndex(of: UInt8(ascii: ".")).map { u[u.index(after: $0)...] } ?? u
        guard !last.isEmpty else { return false }
        if last.allSatisfy(isDigit) { return true }
        return parseIPv4Number(Substring(last)) != nil
    }

    /// One IPv4 part: decimal, `0x` hex or leading-zero octal. Saturates at 2^33 (always too big anyway).
    private static func parseIPv4Number(_ s: Substring) -> UInt64? {
        var bytes = Array(s.utf8)
        guard !bytes.isEmpty else { return nil }
        var radix: UInt64 = 10
        if bytes.count >= 2, bytes[0] == UInt8(ascii: "0"), bytes[1] | 0x20 == UInt8(ascii: "x") {
            radix = 16
            bytes.removeFirst(2)
        } else if bytes.count >= 2, bytes[0] == UInt8(ascii: "0") {
            radix = 8
            bytes.removeFirst()
        }
        var value: UInt64 = 0
        for c in bytes {
            let d: UInt64
            switch c {
            case 48...57: d = UInt64(c - 48)
            case 97...102: d = UInt64(c - 87)
            case 65...70: d = UInt64(c - 55)
            default: return nil
            }
            guard d < radix else { return nil }
            value = min(value * radix + d, 1 << 33)
        }
        return value
    }

    private static func parseIPv4(_ s: String) -> UInt32? {
        var parts = s.split(separator: ".", omittingEmptySubsequences: false)
        if parts.last?.isEmpty == true, parts.count > 1 { parts.removeLast() }
        guard parts.count <= 4, !parts.isEmpty else { return nil }
        var numbers: [UInt64] = []
        for part in parts {
            guard let n = parseIPv4Number(part) else { return nil }
            numbers.append(n)
        }
        for n in numbers.dropLast() where n > 255 { return nil }
        guard let last = numbers.last, last < (UInt64(1) << (8 * (5 - UInt64(numbers.count)))) else { return nil }
        var ipv4 = last
        for (idx, n) in numbers.dropLast().enumerated() {
            ipv4 += n << (8 * (3 - UInt64(idx)))
        }
        return UInt32(truncatingIfNeeded: ipv4)
    }

    // MARK: IPv6

    static func parseIPv6(_ c: [UInt8]) -> [UInt16]? {
        var address = [UInt16](repeating: 0, count: 8)
        var pieceIndex = 0
        var compress: Int?
        var p = 0
        func hexValue(_ b: UInt8) -> UInt16? {
            switch b {
            case 48...57: UInt16(b - 48)
            case 97...102: UInt16(b - 87)
            case 65...70: UInt16(b - 55)
            default: nil
            }
        }
        if p < c.count, c[p] == colon {
            guard p + 1 < c.count, c[p + 1] == colon else { return nil }
            p += 2
            pieceIndex += 1
            compress = pieceIndex
        }
        while p < c.count {
            guard pieceIndex < 8 else { return nil }
            if c[p] == colon {
                guard compress == nil else { return nil }
                p += 1
                pieceIndex += 1
                compress = pieceIndex
                continue
            }
            var value: UInt16 = 0
            var length = 0
            while length < 4, p < c.count, let h = hexValue(c[p]) {
                value = value &* 16 &+ h
                p += 1
                length += 1
            }
            if p < c.count, c[p] == UInt8(ascii: ".") {
                guard length > 0 else { return nil }
                p -= length
                guard pieceIndex <= 6 else { return nil }
                var numbersSeen = 0
                while p < c.count {
                    var ipv4Piece: Int?
                    if numbersSeen > 0 {
                        guard c[p] == UInt8(ascii: "."), numbersSeen < 4 else { return nil }
                        p += 1
                    }
                    guard p < c.count, isDigit(c[p]) else { return nil }
                    while p < c.count, isDigit(c[p]) {
                        let n = Int(c[p] - 48)
                        if let cur = ipv4Piece {
                            guard cur != 0 else { return nil }
                            ipv4Piece = cur * 10 + n
                        } else {
                            ipv4Piece = n
                        }
                        guard let v = ipv4Piece, v <= 255 else { return nil }
                        p += 1
                    }
                    guard pieceIndex < 8 else { return nil }
                    address[pieceIndex] = address[pieceIndex] &* 0x100 &+ UInt16(ipv4Piece ?? 0)
                    numbersSeen += 1
                    if numbersSeen == 2 || numbersSeen == 4 { pieceIndex += 1 }
                }
                guard numbersSeen == 4 else { return nil }
                break
            } else if p < c.count, c[p] == colon {
                p += 1
                guard p < c.count else { return nil }
            } else if p < c.count {
                return nil
            }
            guard pieceIndex < 8 else { return nil }
            address[pieceIndex] = value
            pieceIndex += 1
        }
        if let compress {
            var swaps = pieceIndex - compress
            pieceIndex = 7
            while pieceIndex != 0, swaps > 0 {
                address.swapAt(pieceIndex, compress + swaps - 1)
                pieceIndex -= 1
                swaps -= 1
            }
        } else if pieceIndex != 8 {
            return nil
        }
        return address
    }

    static func serializeIPv6(_ a: [UInt16]) -> String {
        // The first longest run of two or more zero pieces is compressed.
        var bestStart = -1, bestLen = 1
        var i = 0
        while i < a.count {
            if a[i] == 0 {
                var j = i
                while j < a.count, a[j] == 0 { j += 1 }
                if j - i > bestLen { bestStart = i; bestLen = j - i }
                i = j
            } else {
                i += 1
            }
        }
        var out = ""
        var ignore0 = false
        for (idx, piece) in a.enumerated() {
            if ignore0, piece == 0 { continue }
            ignore0 = false
            if idx == bestStart {
                out += idx == 0 ? "::" : ":"
                ignore0 = true
                continue
            }
            out += String(piece, radix: 16)
            if idx != a.count - 1 { out += ":" }
        }
        return out
    }

    // MARK: Path, query, fragment

    private static func parsePathQueryFragment(_ url: inout WebURL, _ b: [UInt8], _ start: Int, special: Bool) {
        let end = b[start...].firstIndex { $0 == question || $0 == hash } ?? b.count
        url.path = normalizePath(b[start..<end], special: special)
        parseQueryFragment(&url, b, end, special: special)
    }

    private static func parseQueryFragment(_ url: inout WebURL, _ b: [UInt8], _ start: Int, special: Bool) {
        var p = start
        if p < b.count, b[p] == question {
            let end = b[(p + 1)...].firstIndex(of: hash) ?? b.count
            url.query = percentEncode(b[(p + 1)..<end], special ? .specialQuery : .query)
            p = end
        }
        if p < b.count, b[p] == hash {
            url.fragment = percentEncode(b[(p + 1)...], .fragment)
        }
    }

    private static func isSingleDot(_ s: ArraySlice<UInt8>) -> Bool {
        s.elementsEqual([46]) || (s.count == 3 && asciiLower(s) == "%2e")
    }

    private static func asciiLower(_ s: ArraySlice<UInt8>) -> String {
        String(decoding: s.map { ($0 >= 65 && $0 <= 90) ? $0 + 32 : $0 }, as: UTF8.self)
    }

    private static func isDoubleDot(_ s: ArraySlice<UInt8>) -> Bool {
        guard s.count <= 6 else { return false }
        let l = asciiLower(s)
        return l == ".." || l == ".%2e" || l == "%2e." || l == "%2e%2e"
    }

    /// Splits on `/` (and `\` for special schemes), resolves `.`/`..`, percent-encodes each segment.
    private static func normalizePath(_ raw: ArraySlice<UInt8>, special: Bool) -> String {
        if raw.isEmpty { return special ? "/" : "" }
        if isPlainPath(raw, special: special) { return String(decoding: raw, as: UTF8.self) }
        var segments: [String] = []
        var segStart = raw.startIndex
        // raw starts with a separator: skip it.
        if raw.first == slash || (special && raw.first == backslash) { segStart += 1 }
        var idx = segStart
        while true {
            let atEnd = idx == raw.endIndex
            if atEnd || raw[idx] == slash || (special && raw[idx] == backslash) {
                let seg = raw[segStart..<idx]
                if isDoubleDot(seg) {
                    if !segments.isEmpty { segments.removeLast() }
                    if atEnd { segments.append("") }
                } else if isSingleDot(seg) {
                    if atEnd { segments.append("") }
                } else {
                    segments.append(percentEncode(seg, .path))
                }
                if atEnd { break }
                segStart = idx + 1
            }
            idx += 1
        }
        return "/" + segments.joined(separator: "/")
    }

    /// True when `normalizePath` would return `raw` unchanged: it starts with `/`, holds no `\` (special
    /// schemes), no segment that could be a dot segment (starting with `.` or `%`), nothing to percent-encode.
    private static func isPlainPath(_ raw: ArraySlice<UInt8>, special: Bool) -> Bool {
        guard raw.first == slash else { return false }
        var previous = slash
        for c in raw {
            if previous == slash, c == UInt8(ascii: ".") || c == UInt8(ascii: "%") { return false }
            if special, c == backslash { return false }
            if shouldEncode(c, .path) { return false }
            previous = c
        }
        return true
    }

    enum EncodeSet { case c0Control, fragment, query, specialQuery, path, userinfo }

    /// Per set, the bytes 0x20...0x7E to encode, as two bit masks (bit n of `lo`: byte 0x20 + n; of `hi`:
    /// byte 0x60 + n). Equal to `shouldEncodeSlow`; the decision is one shift and one test per byte.
    @inline(__always)
    private static func masks(_ set: EncodeSet) -> (lo: UInt64, hi: UInt64) {
        switch set {
        case .c0Control: return (0, 0)
        // space " < > `
        case .fragment: return (1 << 0 | 1 << 2 | 1 << 0x1C | 1 << 0x1E, 1 << 0)
        // space " # < >
        case .query: return (1 << 0 | 1 << 2 | 1 << 3 | 1 << 0x1C | 1 << 0x1E, 0)
        // space " # < > '
        case .specialQuery: return (1 << 0 | 1 << 2 | 1 << 3 | 1 << 0x1C | 1 << 0x1E | 1 << 7, 0)
        // space " # < > ? ` { }
        case .path: return (1 << 0 | 1 << 2 | 1 << 3 | 1 << 0x1C | 1 << 0x1E | 1 << 0x1F, 1 << 0 | 1 << 0x1B | 1 << 0x1D)
        // path + / : ; = @ [ \ ] ^ |
        case .userinfo:
            return (
                1 << 0 | 1 << 2 | 1 << 3 | 1 << 0x1C | 1 << 0x1E | 1 << 0x1F | 1 << 0x0F | 1 << 0x1A | 1 << 0x1B
                    | 1 << 0x1D | 1 << 0x20 | 1 << 0x3B | 1 << 0x3C | 1 << 0x3D | 1 << 0x3E,
                1 << 0 | 1 << 0x1B | 1 << 0x1D | 1 << 0x1C
            )
        }
    }

    @inline(__always)
    static func shouldEncode(_ c: UInt8, _ set: EncodeSet) -> Bool {
        if c < 0x20 || c >= 0x7F { return true }
        let m = masks(set)
        return c < 0x60 ? (m.lo >> UInt64(c - 0x20)) & 1 != 0 : (m.hi >> UInt64(c - 0x60)) & 1 != 0
    }

    static func shouldEncodeSlow(_ c: UInt8, _ set: EncodeSet) -> Bool {
        if c < 0x20 || c >= 0x7F { return true }
        switch set {
        case .c0Control: return false
        case .fragment: return c == 0x20 || c == 0x22 || c == 0x3C || c == 0x3E || c == 0x60
        case .query: return c == 0x20 || c == 0x22 || c == 0x23 || c == 0x3C || c == 0x3E
        case .specialQuery: return c == 0x20 || c == 0x22 || c == 0x23 || c == 0x3C || c == 0x3E || c == 0x27
        case .path:
            return c == 0x20 || c == 0x22 || c == 0x23 || c == 0x3C || c == 0x3E || c == 0x3F || c == 0x60 || c == 0x7B
                || c == 0x7D
        case .userinfo:
            return shouldEncodeSlow(c, .path) || c == 0x2F || c == 0x3A || c == 0x3B || c == 0x3D || c == 0x40
                || (c >= 0x5B && c <= 0x5E) || c == 0x7C
        }
    }

    static func percentEncode(_ bytes: ArraySlice<UInt8>, _ set: EncodeSet) -> String {
        // Fast path: nothing to encode (the common case) → the bytes as they are.
        if !bytes.contains(where: { shouldEncode($0, set) }) { return String(decoding: bytes, as: UTF8.self) }
        let hex: [UInt8] = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        for c in bytes {
            if shouldEncode(c, set) {
                out.append(UInt8(ascii: "%"))
                out.append(hex[Int(c >> 4)])
                out.append(hex[Int(c & 0xF)])
            } else {
                out.append(c)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Percent-decodes bytes (`%zz` stays as is): `PercentEncoding.decodeBytes`.
    public static func percentDecode<C: Collection>(_ bytes: C) -> [UInt8] where C.Element == UInt8 {
        PercentEncoding.decodeBytes(bytes) ?? []
    }

    /// The URL parser's input clean-up: leading and trailing C0 controls and spaces stripped, every tab and
    /// newline removed. What a browser does to an href before parsing it.
    public static func stripped(_ input: String) -> String {
        let u = input.utf8
        guard let first = u.first, let last = u.last else { return input }
        if first > 0x20, last > 0x20, !u.contains(where: { $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }) { return input }
        let bytes = Array(u)
        var lo = 0, hi = bytes.count
        while lo < hi, bytes[lo] <= 0x20 { lo += 1 }
        while hi > lo, bytes[hi - 1] <= 0x20 { hi -= 1 }
        return String(decoding: bytes[lo..<hi].filter { $0 != 0x09 && $0 != 0x0A && $0 != 0x0D }, as: UTF8.self)
    }
}

extension WebURL {
    /// The query as `application/x-www-form-urlencoded` pairs (`+` is a space), decoded.
    public var queryItems: [QueryItem] {
        guard let query, !query.isEmpty else { return [] }
        return query.split(separator: "&", omittingEmptySubsequences: true).map { pair in
            let (name, value) = PercentEncoding.splitQueryItem(pair)
            return QueryItem(
                name: PercentEncoding.decode(name, plusAsSpace: true),
                value: PercentEncoding.decode(value, plusAsSpace: true))
        }
    }

    /// One decoded query item.
    public struct QueryItem: Sendable, Hashable, Comparable {
        public var name: String
        public var value: String
        public init(name: String, value: String) { self.name = name; self.value = value }
        public static func < (a: QueryItem, b: QueryItem) -> Bool { (a.name, a.value) < (b.name, b.value) }
    }

    /// The same URL with another scheme (used for the callbackScheme alias of paymentUrl).
    public func replacingScheme(_ newScheme: String) -> WebURL {
        var copy = self
        copy.scheme = newScheme.lowercased()
        if let p = port, let def = WebURL.specialDefaultPort(copy.scheme) ?? nil, def == p { copy.port = nil }
        return copy
    }

    /// The same URL with another query (`nil`: none). `query` is percent-encoded further where the URL
    /// Standard's query encode set requires it (an already form-encoded query is kept as it is).
    public func replacingQuery(_ query: String?) -> WebURL {
        var copy = self
        copy.query = query.map { WebURL.percentEncode(Array($0.utf8)[...], isSpecial ? .specialQuery : .query) }
        return copy
    }

    /// The same URL with a domain host's trailing dot removed (`shop.example.com.` → `shop.example.com`).
    public var withoutTrailingDot: WebURL {
        guard case .domain = host, let h = comparableHost else { return self }
        var copy = self
        copy.host = .domain(h)
        return copy
    }

    /// The origin as serialised in HTTP (`https://shop.example.com`, `http://h.example:8080`) for special
    /// schemes other than file; nil for the others (their origin is opaque).
    public var origin: String? {
        guard isSpecial, scheme != "file", let host else { return nil }
        var s = scheme + "://" + host.serialized
        if let port { s += ":" + String(port) }
        return s
    }

    /// What an HTTP request line carries: the path and `?query` (no fragment).
    public var requestTarget: String {
        guard let query else { return path }
        return path + "?" + query
    }

    /// The scheme of `input` (lower case) when it starts with one after the parser's clean-up, whether or
    /// not the rest parses. nil when it has none (a relative reference).
    public static func scheme(of input: String) -> String? {
        let b = Array(stripped(input).utf8)
        guard let end = schemeEnd(b) else { return nil }
        return lowerScheme(b[0..<end])
    }

    /// The URL without its fragment (what reaches the server).
    public var withoutFragment: WebURL {
        var copy = self
        copy.fragment = nil
        return copy
    }
}
