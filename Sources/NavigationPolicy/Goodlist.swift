// The known-good 3-D Secure host list and its matcher: a trie over reversed labels, so a lookup costs
// one dictionary step per label of the host, whatever the length of the list.

/// One entry of a goodlist: the pattern and where it came from.
public struct GoodlistEntry: Sendable, Hashable {
    /// The pattern as written (`**.payex.com`, `*.3dsecure.no`, `acs1.luottokunta.fi`).
    public var pattern: String
    /// Where the entry stands: the file as named by the user, and the 1-based line.
    public var file: String?
    public var line: Int?
    /// The entry's provenance (`issuer`, `vendor`, `added`, `verified`, `why`, `source`, …); empty for the
    /// SDK's `good_redirects` format.
    public var provenance: [String: String]

    public init(pattern: String, file: String? = nil, line: Int? = nil, provenance: [String: String] = [:]) {
        self.pattern = pattern
        self.file = file
        self.line = line
        self.provenance = provenance
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
    /// One trie node: children by label, and the entry indices anchored here (-1: none).
    struct Node: Sendable {
        var children: [String: Int32] = [:]
        var exact: Int32 = -1
        var oneLabel: Int32 = -1
        var anyDepth: Int32 = -1
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
        var node = 0
        for label in pattern.reversedLabels {
            if let next = nodes[node].children[label] {
                node = Int(next)
            } else {
                nodes.append(Node())
                let next = nodes.count - 1
                nodes[node].children[label] = Int32(next)
                node = next
            }
        }
        let index = Int32(entries.count)
        entries.append(entry)
        patterns.append(pattern)
        switch pattern.kind {
        case .exact: if nodes[node].exact < 0 { nodes[node].exact = index }
        case .oneLabel: if nodes[node].oneLabel < 0 { nodes[node].oneLabel = index }
        case .anyDepth: if nodes[node].anyDepth < 0 { nodes[node].anyDepth = index }
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

    /// Index into `entries`/`patterns` of the most specific entry admitting `host`.
    public func matchIndex(host: String) -> Int? {
        guard let normalized = HostName.normalize(host), HostPattern.isValidHostShape(normalized) else { return nil }
        return matchIndex(normalizedHost: normalized)
    }

    /// Like `matchIndex(host:)` for a host already normalised and validated (the hot path).
    public func matchIndex(normalizedHost host: String) -> Int? {
        var best: Int32 = -1
        // Walk labels right to left; `remaining` counts labels not yet consumed.
        let labels = host.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        var remaining = labels.count
        var node = 0
        if remaining == 0 { return nil }
        for label in labels.reversed() {
            // Before consuming `label`: node is anchored on the labels consumed so far.
            let n = nodes[node]
            if node != 0 {
                if n.anyDepth >= 0 { best = n.anyDepth }
                if remaining == 1, n.oneLabel >= 0 { best = n.oneLabel }
            }
            guard let key = String(label), let next = n.children[key] else {
                return best >= 0 ? Int(best) : nil
            }
            node = Int(next)
            remaining -= 1
        }
        // All labels consumed: the node is anchored on the host itself.
        let n = nodes[node]
        if n.exact >= 0 { best = n.exact } else if n.oneLabel >= 0 { best = n.oneLabel } else if n.anyDepth >= 0 { best = n.anyDepth }
        return best >= 0 ? Int(best) : nil
    }

    /// Every entry index whose pattern admits `host` (normalised), broadest first. Used by lint (shadowing).
    public func allMatchIndices(normalizedHost host: String) -> [Int] {
        var found: [Int] = []
        let labels = host.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        var remaining = labels.count
        var node = 0
        for label in labels.reversed() {
            let n = nodes[node]
            if node != 0 {
                if n.anyDepth >= 0 { found.append(Int(n.anyDepth)) }
                if remaining == 1, n.oneLabel >= 0 { found.append(Int(n.oneLabel)) }
            }
            guard let key = String(label), let next = n.children[key] else { return found }
            node = Int(next)
            remaining -= 1
        }
        let n = nodes[node]
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
        var node = 0
        for label in pattern.reversedLabels {
            guard let next = nodes[node].children[label] else { return Array(Set(found)).sorted() }
            node = Int(next)
        }
        // Depth-first over the subtree below the base, without recursion.
        var stack: [(node: Int, depth: Int)] = nodes[node].children.values.map { (Int($0), 1) }
        while let (n, depth) = stack.popLast() {
            let here = nodes[n]
            for i in [here.exact, here.oneLabel, here.anyDepth] where i >= 0 { found.append(Int(i)) }
            if pattern.kind == .anyDepth {
                stack += here.children.values.map { (Int($0), depth + 1) }
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
            var node = 0
            for (depth, label) in pattern.reversedLabels.enumerated() {
                guard let next = nodes[node].children[label] else { return found }
                node = Int(next)
                let n = nodes[node]
                if n.anyDepth >= 0 { found.append(Int(n.anyDepth)) }
                if depth == pattern.reversedLabels.count - 1, pattern.kind == .oneLabel, n.oneLabel >= 0 {
                    found.append(Int(n.oneLabel))
                }
            }
            return found
        }
    }
}
