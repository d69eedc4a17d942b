// The known-good 3-D Secure host list and its matcher: a trie over reversed labels (for lint: overlaps,
// shadowing) plus a flat table of anchored bases for lookups, so a lookup costs one independent hash probe per
// label of the host, whatever the length of the list.
import PlainviewURL

/// One entry of a goodlist: the pattern and where it came from.
public struct GoodlistEntry: Sendable, Hashable {
    /// The pattern as written (`**.payex.com`, `*.3dsecure.no`, `acs1.luottokunta.fi`).
    public var pattern: String
    /// Where the entry stands: the file as named by the user, and the 1-based line.
    public var file: String?
    public var line: Int?
    /// The provenance pairs in the order written.
    public var attributes: [GoodlistSource.Attribute] {
        get {
            switch provenanceSource {
            case .given(let attributes): attributes
            case .line(let text, let from): GoodlistSource.parseAttributes(Array(text.utf8), from: from).attributes
            }
        }
        set { provenanceSource = .given(newValue) }
    }

    /// The entry's provenance (`issuer`, `vendor`, `added`, `verified`, `why`, `source`, …; the first value of a
    /// repeated key); empty for the SDK's `good_redirects` format.
    public var provenance: [String: String] {
        get {
            var d: [String: String] = [:]
            for a in attributes where d[a.key] == nil { d[a.key] = a.value }
            return d
        }
        set { attributes = newValue.sorted { $0.key < $1.key }.map { GoodlistSource.Attribute(key: $0.key, value: $0.value) } }
    }

    /// Where the provenance is: given as pairs, or still in the line the entry was read from (read when asked for:
    /// a list of 200,000 entries with provenance then holds each line once, not its values again).
    private var provenanceSource: ProvenanceSource
    private enum ProvenanceSource: Sendable, Hashable {
        case given([GoodlistSource.Attribute])
        /// The line's text and the UTF-8 offset where its provenance starts.
        case line(String, from: Int)
    }

    public init(pattern: String, file: String? = nil, line: Int? = nil, provenance: [String: String] = [:]) {
        self.init(pattern: pattern, file: file, line: line, attributes: [])
        self.provenance = provenance
    }

    public init(pattern: String, file: String? = nil, line: Int? = nil, attributes: [GoodlistSource.Attribute]) {
        self.pattern = pattern
        self.file = file
        self.line = line
        self.provenanceSource = .given(attributes)
    }

    /// The entry of a parsed line (its provenance read from the line when asked for).
    public init(pattern: String, file: String?, line: Int?, entry: GoodlistSource.Entry) {
        self.pattern = pattern
        self.file = file
        self.line = line
        self.provenanceSource = entry.hasProvenance ? .line(entry.text, from: entry.patternRange.upperBound) : .given([])
    }

    public static func == (a: GoodlistEntry, b: GoodlistEntry) -> Bool {
        a.pattern == b.pattern && a.file == b.file && a.line == b.line && a.attributes == b.attributes
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(pattern)
        hasher.combine(file)
        hasher.combine(line)
    }

    /// `file:line` when both are known, else the file, else nil.
    public var location: String? {
        guard let file else { return line.map { "line \($0)" } }
        return line.map { "\(file):\($0)" } ?? file
    }
}

/// The known-good host list. Matching is on normalised hosts and label-boundary correct.
///
/// Cost of `match(host:)` is one dictionary lookup per label of the host: independent of the number of
/// entries. When several entries admit a host, the **most specific** one is returned: the one anchored
/// deepest (`*.acs.bank.example` before `**.bank.example`); at equal depth an exact entry before `*.x` before
/// `**.x`. When two entries have the same pattern, the first one given wins.
public struct Goodlist: Sendable {
    /// One trie node: the entry indices anchored here (-1: none), and its children as a linked list (only for
    /// walks over a subtree; lookups go through `edges`).
    struct Node: Sendable {
        var exact: Int32 = -1
        var oneLabel: Int32 = -1
        var anyDepth: Int32 = -1
        var firstChild: Int32 = -1
        var nextSibling: Int32 = -1
    }

    /// A trie edge: from `parent` by one label. One flat table for all edges keeps a lookup to one probe.
    struct Edge: Hashable, Sendable {
        var parent: Int32
        var label: String
    }

    /// Every accepted entry, in the order given.
    public private(set) var entries: [GoodlistEntry] = []
    /// The parsed pattern of each entry in `entries` (same index).
    public private(set) var patterns: [HostPattern] = []
    /// Entries given to `init(entries:)` whose pattern is not valid (skipped), with the reason.
    public private(set) var rejected: [Rejected] = []

    /// An entry that was skipped because its pattern is not valid.
    public struct Rejected: Sendable, Hashable {
        public var entry: GoodlistEntry
        public var error: HostPatternError
    }
    private var nodes: [Node] = [Node()]
    private var edges: [Edge: Int32] = [:]
    /// Every anchored base with its entries, for lookups (GoodlistTable.swift): one independent probe per suffix.
    private var table = GoodlistAnchorTable()

    /// The most entries the lists read together may hold (files, folders, the built-in list and a policy's
    /// inline patterns): a goodlist names hosts a payment may pass through, hundreds at most, so this is far
    /// beyond any real list while bounding what loading one costs (Goodlist/README.md).
    public static let maximumEntries = 200_000

    /// The most lines one goodlist file may have, comments and blank lines included (twice the entries: one
    /// comment for each): every line is kept for lint and fix, so this bounds what a file of nothing but short
    /// comment lines costs.
    public static let maximumLinesPerFile = 400_000

    /// An empty list: admits nothing.
    public init() {}

    /// A list of the given entries. Entries whose pattern is invalid are skipped and listed in `rejected`;
    /// use `init(validating:)` to fail instead.
    public init(entries: [GoodlistEntry]) {
        self.entries.reserveCapacity(entries.count)
        self.patterns.reserveCapacity(entries.count)
        for entry in entries {
            do throws(HostPatternError) {
                let pattern = try HostPattern(entry.pattern)
                insert(entry, pattern)
            } catch {
                rejected.append(Rejected(entry: entry, error: error))
            }
        }
    }

    /// A list of the given entries; throws the first invalid pattern.
    public init(validating entries: [GoodlistEntry]) throws(HostPatternError) {
        for entry in entries {
            insert(entry, try HostPattern(entry.pattern))
        }
    }

    /// A list of already-parsed patterns with their entries (same order, same count).
    public init(_ pairs: [(HostPattern, GoodlistEntry)]) {
        self.entries.reserveCapacity(pairs.count)
        self.patterns.reserveCapacity(pairs.count)
        for (pattern, entry) in pairs { insert(entry, pattern) }
    }

    /// A list from bare pattern strings (inline patterns in a policy file); invalid ones go to `rejected`.
    public init(patterns: [String], file: String? = nil) {
        self.init(entries: patterns.map { GoodlistEntry(pattern: $0, file: file) })
    }

    /// Number of entries.
    public var count: Int { entries.count }
    public var isEmpty: Bool { entries.isEmpty }

    /// Adds one entry (a later duplicate of a pattern never replaces the first).
    public mutating func append(_ entry: GoodlistEntry) throws(HostPatternError) {
        insert(entry, try HostPattern(entry.pattern))
    }

    /// This list followed by `other` (on equal patterns, this list's entries win).
    public func merged(with other: Goodlist) -> Goodlist {
        var result = self
        for (entry, pattern) in zip(other.entries, other.patterns) { result.insert(entry, pattern) }
        result.rejected += other.rejected
        return result
    }

    private mutating func insert(_ entry: GoodlistEntry, _ pattern: HostPattern) {
        var node: Int32 = 0
        for label in pattern.reversedLabels {
            let edge = Edge(parent: node, label: label)
            if let next = edges[edge] {
                node = next
            } else {
                let next = Int32(nodes.count)
                nodes.append(Node(nextSibling: nodes[Int(node)].firstChild))
                nodes[Int(node)].firstChild = next
                edges[edge] = next
                node = next
            }
        }
        defer {
            let anchored = nodes[Int(node)]
            table.set(base: pattern.base, exact: anchored.exact, oneLabel: anchored.oneLabel, anyDepth: anchored.anyDepth)
        }
        let n = Int(node)
        let index = Int32(entries.count)
        entries.append(entry)
        patterns.append(pattern)
        switch pattern.kind {
        case .exact: if nodes[n].exact < 0 { nodes[n].exact = index }
        case .oneLabel: if nodes[n].oneLabel < 0 { nodes[n].oneLabel = index }
        case .anyDepth: if nodes[n].anyDepth < 0 { nodes[n].anyDepth = index }
        }
    }

    /// The entry that admits this host, if any (the most specific one). The host is normalised first with
    /// `HostName.normalize` (case, trailing dot, IDN); a host that is not a valid host name matches nothing.
    /// Pass a host, not a URL: `payex.com:443` or `user@payex.com` match nothing.
    public func match(host: String) -> GoodlistEntry? {
        matchIndex(host: host).map { entries[$0] }
    }

    /// True when some entry admits the host.
    public func allows(host: String) -> Bool { matchIndex(host: host) != nil }

    /// Like `match(host:)` for a URL's `WebURL.comparableHost`, whose one trailing dot is already gone: a host
    /// still ending in `.` came from `a.payex.com..` and matches nothing (at most one trailing dot is stripped).
    public func match(comparableHost host: String) -> GoodlistEntry? {
        if host.utf8.last == UInt8(ascii: ".") { return nil }
        return match(host: host)
    }

    /// Index into `entries`/`patterns` of the most specific entry admitting `host`.
    public func matchIndex(host: String) -> Int? {
        var h = host
        // Fast path: a host already in canonical form (lower-case LDH, no xn-- label, not an IPv4 form) is what
        // `HostName.normalize` would return; skip it.
        let fast: Int?? = h.withUTF8 { buf in Goodlist.isCanonicalFast(buf) ? .some(walk(buf)) : nil }
        if let fast { return fast }
        guard let normalized = HostName.normalize(host), HostPattern.isValidHostShape(normalized) else { return nil }
        return matchIndex(normalizedHost: normalized)
    }

    /// Like `matchIndex(host:)` for a host already normalised and validated (the hot path).
    public func matchIndex(normalizedHost host: String) -> Int? {
        var h = host
        return h.withUTF8 { walk($0) }
    }

    /// Lower-case letters, digits, '-', '_' in non-empty labels; no label starting `xn--`; the last label starts
    /// with a letter (so it is no IPv4 form). Such a host is its own normal form.
    static func isCanonicalFast(_ buf: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let last = buf.last, last != UInt8(ascii: ".") else { return false }
        var labelStart = 0
        for i in 0..<buf.count {
            let b = buf[i]
            if b == UInt8(ascii: ".") {
                if i == labelStart { return false }
                labelStart = i + 1
                continue
            }
            guard HostPattern.isLabelByte(b) else { return false }
            if i == labelStart + 3, b == UInt8(ascii: "-"), buf[i - 1] == UInt8(ascii: "-"),
                buf[i - 2] == UInt8(ascii: "n"), buf[i - 3] == UInt8(ascii: "x")
            {
                return false
            }
        }
        let first = buf[labelStart]
        return first >= UInt8(ascii: "a") && first <= UInt8(ascii: "z")
    }

    /// Walks the labels right to left; returns the most specific entry. One hash probe per label.
    private func walk(_ buf: UnsafeBufferPointer<UInt8>) -> Int? {
        // Each suffix of the host that starts at a label boundary (shortest first) is a possible anchor; the
        // deepest one that admits the host wins, as in a walk down the trie (an anchor implies every shorter
        // suffix is a trie node, so probing all suffixes finds exactly what the walk would).
        var best: Int32 = -1
        var h = GoodlistAnchorTable.seed
        var end = buf.count
        var start = end
        while start > 0, buf[start - 1] != UInt8(ascii: ".") { start -= 1 }
        while true {
            h = GoodlistAnchorTable.combine(h, UnsafeBufferPointer(rebasing: buf[start..<end]))
            var nextStart = 0
            if start > 0 {
                nextStart = start - 1
                while nextStart > 0, buf[nextStart - 1] != UInt8(ascii: ".") { nextStart -= 1 }
            }
            if let s = table.find(hash: h, UnsafeBufferPointer(rebasing: buf[start...])) {
                if start == 0 {
                    // The anchor is the host itself.
                    if s.exact >= 0 {
                        best = s.exact
                    } else if s.oneLabel >= 0 {
                        best = s.oneLabel
                    } else if s.anyDepth >= 0 {
                        best = s.anyDepth
                    }
                    break
                }
                if s.anyDepth >= 0 { best = s.anyDepth }
                if nextStart == 0, s.oneLabel >= 0 { best = s.oneLabel } // exactly one label left
            }
            if start == 0 { break }
            end = start - 1
            start = nextStart
        }
        return best >= 0 ? Int(best) : nil
    }

    /// The node reached by following labels (rightmost first), if the trie has it.
    private func node(for reversedLabels: [String]) -> Int32? {
        var node: Int32 = 0
        for label in reversedLabels {
            guard let next = edges[Edge(parent: node, label: label)] else { return nil }
            node = next
        }
        return node
    }

    /// Every entry index whose pattern admits `host` (normalised), broadest first. Used by lint (shadowing).
    public func allMatchIndices(normalizedHost host: String) -> [Int] {
        var found: [Int] = []
        let labels = host.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        var remaining = labels.count
        var node: Int32 = 0
        for raw in labels.reversed() {
            let n = nodes[Int(node)]
            if node != 0 {
                if n.anyDepth >= 0 { found.append(Int(n.anyDepth)) }
                if remaining == 1, n.oneLabel >= 0 { found.append(Int(n.oneLabel)) }
            }
            guard let next = edges[Edge(parent: node, label: String(decoding: raw, as: UTF8.self))] else { return found }
            node = next
            remaining -= 1
        }
        let n = nodes[Int(node)]
        for i in [n.anyDepth, n.oneLabel, n.exact] where i >= 0 { found.append(Int(i)) }
        return found
    }

    /// Indices of entries whose language meets `pattern`'s (some host admitted by both), sorted. Two of these
    /// languages meet exactly when one base lies in the other's language: entries admitting the base, plus
    /// entries anchored below it within the pattern's depth window (one label for `*.x`, any for `**.x`).
    /// Cost: the labels of the base plus the entries found (and, for `**.x`, the trie below x).
    public func overlapIndices(of pattern: HostPattern) -> [Int] {
        var found = allMatchIndices(normalizedHost: pattern.base)
        guard pattern.kind != .exact else { return Array(Set(found)).sorted() }
        guard let base = node(for: pattern.reversedLabels) else { return Array(Set(found)).sorted() }
        // Depth-first over the subtree below the base, without recursion.
        var stack: [Int32] = []
        var child = nodes[Int(base)].firstChild
        while child >= 0 { stack.append(child); child = nodes[Int(child)].nextSibling }
        while let n = stack.popLast() {
            let here = nodes[Int(n)]
            for i in [here.exact, here.oneLabel, here.anyDepth] where i >= 0 { found.append(Int(i)) }
            if pattern.kind == .anyDepth {
                var c = here.firstChild
                while c >= 0 { stack.append(c); c = nodes[Int(c)].nextSibling }
            }
        }
        return Array(Set(found)).sorted()
    }

    /// Indices of entries whose language contains the whole language of `pattern` (including equal patterns),
    /// broadest first. `x` ⊆ `*.x` ⊆ `**.x`; `*.a.x` ⊆ `**.x`.
    public func supersetIndices(of pattern: HostPattern) -> [Int] {
        switch pattern.kind {
        case .exact:
            return allMatchIndices(normalizedHost: pattern.base)
        case .oneLabel, .anyDepth:
            // Only `**.y` with y an ancestor-or-self of the base, or the very same `*.x`, can contain it.
            var found: [Int] = []
            var node: Int32 = 0
            for (depth, label) in pattern.reversedLabels.enumerated() {
                guard let next = edges[Edge(parent: node, label: label)] else { return found }
                node = next
                let n = nodes[Int(node)]
                if n.anyDepth >= 0 { found.append(Int(n.anyDepth)) }
                if depth == pattern.reversedLabels.count - 1, pattern.kind == .oneLabel, n.oneLabel >= 0 {
                    found.append(Int(n.oneLabel))
                }
            }
            return found
        }
    }
}

extension Goodlist {
    /// The goodlist's verdict on a web URL, exactly as `decide` applies it under redirectPolicy goodlist: the
    /// entry admitting the URL's host as the URL parser sees it (`comparableHost`), over https and on its
    /// default port only (plain http and a port must not widen the list). nil: not admitted. `goodlist check`
    /// asks this same function.
    public func entry(admitting url: WebURL) -> GoodlistEntry? {
        guard url.scheme == "https", url.port == nil, let host = url.comparableHost else { return nil }
        // `comparableHost` has already lost its one trailing dot: a second one must not be stripped again.
        return match(comparableHost: host)
    }
}
