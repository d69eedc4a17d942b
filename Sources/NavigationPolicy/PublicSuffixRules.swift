// The Public Suffix List algorithm over rules given as text (https://publicsuffix.org/list/ "Formal
// algorithm"): normal rules, wildcard rules (`*.ck`) and exception rules (`!www.ck`); the implicit default
// rule `*` makes every unknown top-level label a public suffix. Pure; the file is read by PlainviewConfig.
import PlainviewURL

/// Public Suffix List rules and the lookup of a host's public suffix.
public struct PublicSuffixRules: Sendable {
    private var normal: Set<String> = []
    /// `*.x` rules, stored as `x`.
    private var wildcard: Set<String> = []
    /// `!x` rules, stored as `x`.
    private var exception: Set<String> = []
    /// Rules that could not be normalised (e.g. IDN rules while IDNA is unavailable), as written.
    public private(set) var skipped: [String] = []

    /// Number of rules understood.
    public var count: Int { normal.count + wildcard.count + exception.count }

    /// Parses the `.dat` text: one rule a line, `//` comments, only the first whitespace-free token counts.
    /// Rules are normalised with `HostName.normalize` (lower case; IDN labels as punycode).
    public init(text: String) {
        for rawLine in text.split(whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }) {
            let token = rawLine.split(whereSeparator: { $0 == " " || $0 == "\t" }).first.map(String.init) ?? ""
            if token.isEmpty || token.hasPrefix("//") { continue }
            var rule = Substring(token)
            var kind = 0  // 0 normal, 1 wildcard, 2 exception
            if rule.hasPrefix("!") { kind = 2; rule = rule.dropFirst() }
            else if rule.hasPrefix("*.") { kind = 1; rule = rule.dropFirst(2) }
            guard !rule.isEmpty, !rule.contains("*"), let normalized = HostName.normalize(String(rule)) else {
                skipped.append(token)
                continue
            }
            switch kind {
            case 1: wildcard.insert(normalized)
            case 2: exception.insert(normalized)
            default: normal.insert(normalized)
            }
        }
    }

    /// The public suffix of a normalised host (`co.uk` for `shop.example.co.uk`, `com` for `payex.com`).
    public func publicSuffix(of host: String) -> String {
        let labels = host.split(separator: ".", omittingEmptySubsequences: false)
        let n = labels.count
        guard n > 0 else { return host }
        func suffix(_ k: Int) -> String { labels[(n - k)...].joined(separator: ".") }
        // An exception rule prevails: the public suffix is the rule minus its leftmost label.
        for k in stride(from: n, through: 1, by: -1) where exception.contains(suffix(k)) {
            return k > 1 ? suffix(k - 1) : suffix(k)
        }
        // Otherwise the longest matching normal or wildcard rule; by default the last label.
        for k in stride(from: n, through: 1, by: -1) {
            if normal.contains(suffix(k)) { return suffix(k) }
            if k >= 2, wildcard.contains(suffix(k - 1)) { return suffix(k) }
        }
        return suffix(1)
    }

    /// True when `host` (normalised) is itself a public suffix: `com`, `co.uk`, `github.io`, anything under a
    /// wildcard rule (`foo.ck`) unless excepted, and every single label (default rule `*`).
    public func isPublicSuffix(_ host: String) -> Bool {
        publicSuffix(of: host) == host
    }
}
