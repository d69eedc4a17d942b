// `plainview goodlist diff OLD NEW`: what a change to the list widens or narrows, on the patterns' languages.
import NavigationPolicy

/// The semantic difference between two lists: which hosts become allowed or disallowed.
///
/// A list's language is the union of its patterns' languages. For the three pattern shapes a pattern is
/// inside a union exactly when it is inside one member (an infinite `*.x`/`**.x` language can only be covered
/// by one wildcard anchored at or above `x`), so "widens" is: a pattern of NEW inside no pattern of OLD;
/// "narrows": a pattern of OLD inside no pattern of NEW. Reordering, moving entries between files, changing
/// provenance, case or comments changes nothing.
public struct GoodlistDiff: Sendable {
    public enum Direction: String, Sendable, Hashable, Codable {
        /// Hosts become allowed.
        case widens
        /// Hosts stop being allowed.
        case narrows
    }

    public struct Change: Sendable, Hashable {
        public var direction: Direction
        /// The pattern that widens (from NEW) or narrows (from OLD).
        public var pattern: HostPattern
        /// Its entry (file, line, provenance).
        public var entry: GoodlistEntry
        /// What hosts change, in words (`any host two or more labels below payex.com`).
        public var hosts: String
        /// Entries of the other list that already cover part of the pattern's language.
        public var overlapping: [GoodlistEntry]
    }

    public var changes: [Change]
    /// Distinct patterns of NEW that allow nothing OLD did not already allow.
    public var unchangedCount: Int

    public var widens: Bool { changes.contains { $0.direction == .widens } }

    public init(old: Goodlist, new: Goodlist) {
        var changes: [Change] = []
        var unchanged = 0
        for (index, change) in GoodlistDiff.uncovered(in: new, by: old) {
            if let change {
                changes.append(
                    Change(
                        direction: .widens, pattern: new.patterns[index], entry: new.entries[index],
                        hosts: change.hosts, overlapping: change.overlapping))
            } else {
                unchanged += 1
            }
        }
        for (index, change) in GoodlistDiff.uncovered(in: old, by: new) {
            guard let change else { continue }
            changes.append(
                Change(
                    direction: .narrows, pattern: old.patterns[index], entry: old.entries[index],
                    hosts: change.hosts, overlapping: change.overlapping))
        }
        self.changes = changes
        self.unchangedCount = unchanged
    }

    /// For each distinct pattern of `list`: nil when `other` covers it, else what it adds and what overlaps.
    static func uncovered(in list: Goodlist, by other: Goodlist) -> [(Int, (hosts: String, overlapping: [GoodlistEntry])?)] {
        var seen = Set<HostPattern>()
        var out: [(Int, (hosts: String, overlapping: [GoodlistEntry])?)] = []
        for (index, pattern) in list.patterns.enumerated() where seen.insert(pattern).inserted {
            if !other.supersetIndices(of: pattern).isEmpty {
                out.append((index, nil))
                continue
            }
            let overlapping = other.overlapIndices(of: pattern)
            let hosts = describe(pattern, minus: overlapping.map { other.patterns[$0] })
            out.append((index, (hosts, overlapping.map { other.entries[$0] })))
        }
        return out
    }

    /// The hosts of `pattern` not admitted by `covered`, in words.
    static func describe(_ pattern: HostPattern, minus covered: [HostPattern]) -> String {
        let x = pattern.base
        let baseCovered = covered.contains { $0.matches(normalizedHost: x) }
        // One-label children are all covered only by `*.x`/`**.y` (y at or above x), which would cover the
        // pattern itself for `*.x`; for `**.x` they are covered by an old `*.x`.
        let childrenCovered = covered.contains { $0.kind == .oneLabel && $0.base == x }
        let below = covered.filter { $0.base != x && pattern.matches(normalizedHost: $0.base) }
        var parts: [String] = []
        switch pattern.kind {
        case .exact:
            parts.append(x)
        case .oneLabel:
            parts.append(
                baseCovered
                    ? "any host one label below \(x) (e.g. acs.\(x))"
                    : "\(x) and any host one label below it (e.g. acs.\(x))")
        case .anyDepth:
            if childrenCovered {
                parts.append("any host two or more labels below \(x) (e.g. a.b.\(x))")
            } else if baseCovered {
                parts.append("any host below \(x) at any depth (e.g. acs.\(x), a.b.\(x))")
            } else {
                parts.append("\(x) and any host below it at any depth (e.g. acs.\(x), a.b.\(x))")
            }
        }
        if !below.isEmpty {
            parts.append("apart from \(below.map(\.description).joined(separator: ", "))")
        }
        return parts.joined(separator: ", ")
    }
}
