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
    /// Rules that could not be normalised, as written.
    public private(set) var skipped: [String] = []
    /// Non-ASCII rules as written, with their kind (0 normal, 1 wildcard, 2 exception); normalised on demand.
    private var idn: [(kind: Int, rule: String)] = []

    /// Number of rules understood.
    public var count: Int { normal.count + wildcard.count + exception.count + idn.count }

    /// Parses the `.dat` text: one rule a line, `//` comments, only the first whitespace-free token counts.
    /// Rules are normalised with `HostName.normalize` (lower case; IDN labels as punycode).
    public init(text: String) {
        // Bytes all the way (Character and substring searches over the 230 kB list cost tens of ms).
        for rawLine in text.utf8.split(whereSeparator: { $0 == 0x0A || $0 == 0x0D }) {
            guard let tokenBytes = rawLine.split(whereSeparator: { $0 == 0x20 || $0 == 0x09 }).first else { continue }
            var rule = tokenBytes[...]
            if rule.starts(with: [0x2F, 0x2F]) { continue } // `//` comment
            var kind = 0 // 0 normal, 1 wildcard, 2 exception
            if rule.first == 0x21 {
                kind = 2; rule = rule.dropFirst()
            } // `!x`
            else if rule.starts(with: [0x2A, 0x2E]) {
                kind = 1; rule = rule.dropFirst(2)
            } // `*.x`
            guard !rule.isEmpty, !rule.contains(0x2A) else {
                skipped.append(String(decoding: tokenBytes, as: UTF8.self))
                continue
            }
            // Rules in other scripts are normalised only when a lookup can meet them (a host with an `xn--`
            // label): the ~500 IDN rules would otherwise cost every load tens of milliseconds of IDNA.
            if rule.contains(where: { $0 >= 0x80 }) {
                idn.append((kind, String(decoding: rule, as: UTF8.self)))
                continue
            }
            let normalized: String
            if Self.isPlain(rule) {
                normalized = String(decoding: rule, as: UTF8.self)
            } else if let n = HostName.normalize(String(decoding: rule, as: UTF8.self)) {
                normalized = n
            } else {
                skipped.append(String(decoding: tokenBytes, as: UTF8.self))
                continue
            }
            switch kind {
            case 1: wildcard.insert(normalized)
            case 2: exception.insert(normalized)
            default: normal.insert(normalized)
            }
        }
    }

    /// Lower-case letters, digits and `-` in labels joined by single dots, a letter somewhere, no `xn--`
    /// label: already what `HostName.normalize` would return (almost every rule of the list).
    private static func isPlain(_ rule: some Collection<UInt8>) -> Bool {
        var previous: UInt8 = 0x2E, letter = false, labelStart = true
        var prefix: [UInt8] = []
        for b in rule {
            switch b {
            case 0x61...0x7A: letter = true
            case 0x30...0x39, 0x2D: break
            case 0x2E:
                if previous == 0x2E { return false }
                labelStart = true
                prefix.removeAll(keepingCapacity: true)
                previous = b
                continue
            default: return false
            }
            if labelStart {
                prefix.append(b)
                if prefix.count == 4 {
                    if prefix == [0x78, 0x6E, 0x2D, 0x2D] { return false } // `xn--`
                    labelStart = false
                }
            }
            previous = b
        }
        return letter && previous != 0x2E && rule.first != 0x2E
    }

    /// The public suffix of a normalised host (`co.uk` for `shop.example.co.uk`, `com` for `payex.com`).
    public func publicSuffix(of host: String) -> String {
        let labels = host.split(separator: ".", omittingEmptySubsequences: false)
        let n = labels.count
        guard n > 0 else { return host }
        func suffix(_ k: Int) -> String { labels[(n - k)...].joined(separator: ".") }
        // Only a host with an `xn--` label can meet a non-ASCII rule: normalise those rules for it.
        var idnNormal: Set<String> = [], idnWildcard: Set<String> = [], idnException: Set<String> = []
        if !idn.isEmpty, host.contains("xn--") {
            for (kind, rule) in idn {
                guard let r = HostName.normalize(rule) else { continue }
                switch kind {
                case 1: idnWildcard.insert(r)
                case 2: idnException.insert(r)
                default: idnNormal.insert(r)
                }
            }
        }
        // An exception rule prevails: the public suffix is the rule minus its leftmost label.
        for k in stride(from: n, through: 1, by: -1) where exception.contains(suffix(k)) || idnException.contains(suffix(k)) {
            return k > 1 ? suffix(k - 1) : suffix(k)
        }
        // Otherwise the longest matching normal or wildcard rule; by default the last label.
        for k in stride(from: n, through: 1, by: -1) {
            if normal.contains(suffix(k)) || idnNormal.contains(suffix(k)) { return suffix(k) }
            if k >= 2, wildcard.contains(suffix(k - 1)) || idnWildcard.contains(suffix(k - 1)) { return suffix(k) }
        }
        return suffix(1)
    }

    /// The site of a normalised host as browsers compare them for cookies (its registrable domain, "eTLD+1"):
    /// `example.com` for `acs.example.com`, `bank.co.uk` for `www.bank.co.uk`; a host that is itself a public
    /// suffix (or one label) is its own site.
    public func site(of host: String) -> String {
        let suffix = publicSuffix(of: host)
        guard host.count > suffix.count, host.hasSuffix("." + suffix) else { return host }
        let rest = host.dropLast(suffix.count + 1)
        let label = rest.lastIndex(of: ".").map { rest[rest.index(after: $0)...] } ?? rest
        return label + "." + suffix
    }

    /// True when `host` (normalised) is itself a public suffix: `com`, `co.uk`, `github.io`, anything under a
    /// wildcard rule (`foo.ck`) unless excepted, and every single label (default rule `*`).
    public func isPublicSuffix(_ host: String) -> Bool {
        publicSuffix(of: host) == host
    }
}
