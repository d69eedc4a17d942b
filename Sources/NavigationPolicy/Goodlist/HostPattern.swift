// Host patterns of the goodlist: `a.b.c`, `*.x`, `**.x`. Pure; matching is on normalised hosts.
import PlainviewSupport
import PlainviewURL

/// A goodlist host pattern.
///
/// - `a.b.c` (exact): exactly that host.
/// - `*.x`: `x` itself **or** exactly one more label (`a.x`, not `a.b.x`).
/// - `**.x`: `x` itself or any depth below it (`a.x`, `a.b.x`, …).
///
/// `*.x` also admits `x`: that is the Swedbank Pay iOS SDK's semantics (`WebViewRedirects.swift`,
/// `DomainOrSubdomain(allowNestedSubdomains: false)` returns true when `host == suffix`), and lists written for
/// that SDK rely on it. Unlike the SDK, `**.x` is label-boundary correct: it never admits `evilx` (the SDK
/// used a raw `hasSuffix`, so `**.payex.com` admitted `evilpayex.com`).
///
/// Patterns are stored normalised (lower case, no trailing dot, IDN as punycode via `HostName.normalize`);
/// `description` is the canonical text.
public struct HostPattern: Sendable, Hashable, CustomStringConvertible {
    public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
        /// `a.b.c`
        case exact
        /// `*.x`: x or exactly one more label.
        case oneLabel
        /// `**.x`: x or any depth below.
        case anyDepth

        /// The pattern prefix written before the base (`""`, `"*."`, `"**."`).
        public var prefix: String {
            switch self {
            case .exact: ""
            case .oneLabel: "*."
            case .anyDepth: "**."
            }
        }
    }

    public let kind: Kind
    /// The normalised host the pattern is anchored on (`payex.com` for `**.payex.com`).
    public let base: String
    /// `base` split into labels, rightmost first (`["com", "payex"]`).
    public let reversedLabels: [String]

    /// Parses and validates a pattern; normalises case, trailing dot and IDN.
    public init(_ text: String) throws(HostPatternError) {
        let (kind, baseText) = try HostPattern.split(text)
        let base: String
        var validated: [String]? = nil
        if ASCII.isASCII(baseText) {
            // ASCII: check the structure first, so the error names the actual problem.
            var ascii = baseText.lowercased()
            if ascii.hasSuffix(".") { ascii.removeLast() }
            let checked = try HostPattern.validatedLabels(ascii, pattern: text)
            guard let normalized = HostName.normalize(ascii) else {
                throw HostPatternError(.invalidHost, pattern: text, detail: "'\(baseText)' is not a valid host name")
            }
            base = normalized
            validated = normalized == ascii ? checked : nil
        } else {
            guard let normalized = HostName.normalize(String(baseText)) else {
                throw HostPatternError(
                    .invalidHost, pattern: text,
                    detail: "'\(baseText)' is not a valid internationalised host name")
            }
            base = normalized
        }
        let labels: [String]
        if let validated { labels = validated } else { labels = try HostPattern.validatedLabels(base, pattern: text) }
        if kind != .exact, let last = labels.first, last.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) {
            throw HostPatternError(
                .wildcardOverAddress, pattern: text,
                detail: "a wildcard cannot stand over an IP address ('\(base)')")
        }
        self.kind = kind
        self.base = base
        self.reversedLabels = labels
    }

    /// Builds a pattern from an already-normalised base; nil when the base is not a valid host.
    public init?(kind: Kind, base: String) {
        guard let p = try? HostPattern(kind.prefix + base), p.base == base else { return nil }
        self = p
    }

    /// The canonical text (`**.payex.com`).
    public var description: String { kind.prefix + base }

    /// True when `host` (normalised: lower case, no trailing dot, punycode) is in the pattern's language.
    /// Label-boundary correct: `**.payex.com` admits `a.payex.com` and `payex.com`, never `evilpayex.com`.
    public func matches(normalizedHost host: String) -> Bool {
        if host == base { return true }
        switch kind {
        case .exact:
            return false
        case .oneLabel:
            // host = <label> "." base, the label non-empty and dot-free.
            guard host.utf8.count > base.utf8.count + 1, host.hasSuffix("." + base) else { return false }
            let label = host.utf8.dropLast(base.utf8.count + 1)
            return !label.contains(UInt8(ascii: "."))
        case .anyDepth:
            guard host.utf8.count > base.utf8.count + 1, host.hasSuffix("." + base) else { return false }
            let rest = host.utf8.dropLast(base.utf8.count + 1)
            // No empty label right before the boundary (`a..payex.com`).
            return rest.last != UInt8(ascii: ".") && rest.first != UInt8(ascii: ".")
        }
    }

    /// Normalises `host` with `HostName.normalize` and matches it; false for an invalid host.
    public func matches(host: String) -> Bool {
        guard let h = HostName.normalize(host), HostPattern.isValidHostShape(h) else { return false }
        return matches(normalizedHost: h)
    }

    // MARK: Languages (for shadowing and semantic diffs)

    /// True when every host this pattern admits is also admitted by `other` (language inclusion).
    /// `x` ⊆ `*.x` ⊆ `**.x`; `*.a.x` ⊆ `**.x`; `*.a.x` ⊄ `*.x` (`b.a.x` is two labels below `x`).
    public func isSubset(of other: HostPattern) -> Bool {
        switch (kind, other.kind) {
        case (.exact, _):
            return other.matches(normalizedHost: base)
        case (.oneLabel, .exact), (.anyDepth, .exact), (.anyDepth, .oneLabel):
            return false // an infinite language is never inside a finite or depth-bounded one
        case (.oneLabel, .oneLabel):
            return base == other.base
        case (.oneLabel, .anyDepth), (.anyDepth, .anyDepth):
            return other.matches(normalizedHost: base)
        }
    }

    /// True when some host is admitted by both patterns.
    /// For these three shapes (each language is its base plus a depth window below it) the languages meet
    /// exactly when one base lies in the other's language.
    public func overlaps(_ other: HostPattern) -> Bool {
        matches(normalizedHost: other.base) || other.matches(normalizedHost: base)
    }

    /// A strictly narrower-first order: deeper base first; at equal depth exact, then `*.`, then `**.`.
    /// The goodlist reports the most specific entry that admits a host.
    public var specificity: Int {
        let kindRank =
            switch kind {
            case .exact: 2;
            case .oneLabel: 1;
            case .anyDepth: 0
            }
        return reversedLabels.count * 4 + kindRank
    }
}

/// Why a host pattern is not valid. `code` is stable; `description` says what to write instead.
public struct HostPatternError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Code: String, Sendable, Hashable, Codable {
        case empty
        case whitespace
        case scheme
        case path
        case query
        case userinfo
        case port
        case misplacedWildcard = "misplaced-wildcard"
        case emptyLabel = "empty-label"
        case labelTooLong = "label-too-long"
        case hostTooLong = "host-too-long"
        case invalidCharacter = "invalid-character"
        case invalidHost = "invalid-host"
        case wildcardOverAddress = "wildcard-over-address"
    }

    public var code: Code
    /// The pattern as written.
    public var pattern: String
    /// What is wrong and what to write instead.
    public var detail: String

    public init(_ code: Code, pattern: String, detail: String) {
        self.code = code
        self.pattern = pattern
        self.detail = detail
    }

    public var description: String { "invalid host pattern '\(pattern)': \(detail)" }
}

extension HostPattern {
    /// Splits `**.x` / `*.x` / `x` and rejects everything that is not a host pattern, naming what to write.
    static func split(_ text: String) throws(HostPatternError) -> (Kind, Substring) {
        if text.isEmpty { throw HostPatternError(.empty, pattern: text, detail: "the pattern is empty") }
        // Letters, digits, '-', '_', '.', '*' only: none of the URL-part checks below can fire.
        let simple = text.utf8.allSatisfy {
            isLabelByte($0) || ($0 >= 0x41 && $0 <= 0x5A) || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "*")
        }
        if !simple { try diagnoseURLParts(text) }
        return try splitWildcard(text)
    }

    /// Rejects whitespace, schemes, paths, queries, user info and ports, naming what to write instead.
    static func diagnoseURLParts(_ text: String) throws(HostPatternError) {
        if text.unicodeScalars.contains(where: { $0.properties.isWhitespace || $0.value < 0x20 || $0.value == 0x7F }) {
            throw HostPatternError(
                .whitespace, pattern: text,
                detail: "spaces or control characters are not allowed in a host pattern")
        }
        let hostOnly = hostPart(of: text)
        if let schemeEnd = schemeEnd(of: text) {
            let scheme = text[..<schemeEnd]
            throw HostPatternError(
                .scheme, pattern: text,
                detail: "it has a scheme ('\(scheme):'); write the host only: '\(hostOnly)'")
        }
        if text.contains("/") || text.contains("\\") {
            throw HostPatternError(
                .path, pattern: text,
                detail: "it has a path; write the host only: '\(hostOnly)'")
        }
        if text.contains("?") || text.contains("#") {
            throw HostPatternError(
                .query, pattern: text,
                detail: "it has a query or fragment; write the host only: '\(hostOnly)'")
        }
        if text.contains("@") {
            throw HostPatternError(
                .userinfo, pattern: text,
                detail: "it has user info ('…@'); write the host only: '\(hostOnly)'")
        }
        if text.contains(":") || text.contains("[") || text.contains("]") {
            throw HostPatternError(
                .port, pattern: text,
                detail: "it has a port or an IPv6 literal; ports are not part of a host pattern: '\(hostOnly)'")
        }
    }

    static func splitWildcard(_ text: String) throws(HostPatternError) -> (Kind, Substring) {
        let kind: Kind
        let base: Substring
        if text.hasPrefix("**.") {
            kind = .anyDepth; base = text.dropFirst(3)
        } else if text.hasPrefix("*.") {
            kind = .oneLabel; base = text.dropFirst(2)
        } else {
            kind = .exact; base = Substring(text)
        }
        if base.contains("*") {
            let detail =
                text.first == "*" && kind == .exact
                ? "'*' must be a whole leading label: write '*.x' (x or one more label) or '**.x' (any depth)"
                : "'*' is only allowed as the whole leading label ('*.x' or '**.x'), not in the middle"
            throw HostPatternError(.misplacedWildcard, pattern: text, detail: detail)
        }
        if base.isEmpty || base == "." {
            throw HostPatternError(.empty, pattern: text, detail: "the wildcard has no host after it")
        }
        return (kind, base)
    }

    /// Checks the labels of a normalised host; returns them rightmost first.
    static func validatedLabels(_ host: String, pattern: String) throws(HostPatternError) -> [String] {
        if host.utf8.count > 253 {
            throw HostPatternError(.hostTooLong, pattern: pattern, detail: "the host is longer than 253 characters")
        }
        var labels: [String] = []
        for raw in host.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false).reversed() {
            let label = String(decoding: raw, as: UTF8.self)
            if raw.isEmpty {
                throw HostPatternError(
                    .emptyLabel, pattern: pattern,
                    detail: "it has an empty label ('..', or a leading or doubled dot)")
            }
            if raw.count > 63 {
                throw HostPatternError(
                    .labelTooLong, pattern: pattern,
                    detail: "the label '\(label.prefix(20))…' is longer than 63 characters")
            }
            for b in raw where !isLabelByte(b) {
                throw HostPatternError(
                    .invalidCharacter, pattern: pattern,
                    detail: "'\(Character(Unicode.Scalar(b)))' is not allowed in a host name (letters, digits, '-', '_')")
            }
            if raw.first == UInt8(ascii: "-") || raw.last == UInt8(ascii: "-") {
                throw HostPatternError(
                    .invalidCharacter, pattern: pattern,
                    detail: "the label '\(label)' starts or ends with '-'")
            }
            labels.append(label)
        }
        return labels
    }

    /// Lower-case letters, digits, `-` and `_` (seen in real hosts; WHATWG accepts it).
    @inline(__always) static func isLabelByte(_ b: UInt8) -> Bool {
        (b >= 0x61 && b <= 0x7A) || (b >= 0x30 && b <= 0x39) || b == 0x2D || b == 0x5F
    }

    /// A normalised host with no empty labels and only label bytes and dots.
    static func isValidHostShape(_ host: String) -> Bool {
        var previous: UInt8 = UInt8(ascii: ".")
        for b in host.utf8 {
            if b == UInt8(ascii: ".") {
                if previous == UInt8(ascii: ".") { return false }
            } else if !isLabelByte(b) {
                return false
            }
            previous = b
        }
        return previous != UInt8(ascii: ".")
    }

    /// Where a `scheme:` prefix ends, if the text has one (`https://x`, `javascript:x`); `host:443` is a port.
    static func schemeEnd(of text: String) -> String.Index? {
        if let r = text.firstRange(of: "://") { return r.lowerBound }
        guard let colon = text.firstIndex(of: ":") else { return nil }
        let scheme = text[..<colon]
        let after = text[text.index(after: colon)...]
        guard let first = scheme.unicodeScalars.first, first.isASCIILetter, !scheme.contains("."),
            scheme.unicodeScalars.allSatisfy({ $0.isASCIILetter || ("0"..."9").contains($0) || $0 == "+" || $0 == "-" })
        else { return nil }
        // `localhost:443` (or `localhost:`) is a host with a port, not a scheme.
        if after.unicodeScalars.allSatisfy({ ("0"..."9").contains($0) }) { return nil }
        return colon
    }

    /// Best effort "the host only" suggestion for an error message.
    static func hostPart(of text: String) -> String {
        var s = Substring(text)
        if let r = s.firstRange(of: "://") { s = s[r.upperBound...] }
        if let i = s.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" || $0 == "\\" }) { s = s[..<i] }
        if let at = s.lastIndex(of: "@") { s = s[s.index(after: at)...] }
        if !s.hasPrefix("["), let colon = s.lastIndex(of: ":") { s = s[..<colon] }
        return String(s)
    }
}

extension Unicode.Scalar {
    fileprivate var isASCIILetter: Bool { ("a"..."z").contains(self) || ("A"..."Z").contains(self) }
}
