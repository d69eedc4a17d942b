// `plainview goodlist lint`: every problem of one or more list files, each once, with its line.
import Foundation
import NavigationPolicy

/// One problem found by lint.
public struct GoodlistProblem: Sendable, Hashable, CustomStringConvertible {
    public enum Severity: String, Sendable, Hashable, Codable { case error, warning }

    /// Stable problem codes (for tools and tests).
    public enum Code: String, Sendable, Hashable, Codable, CaseIterable {
        case invalidPattern = "invalid-pattern"
        case syntax
        case notCanonical = "not-canonical"
        case publicSuffix = "public-suffix"
        case duplicate
        case shadowed
        case missingProvenance = "missing-provenance"
        case badDate = "bad-date"
        case stale
        case futureDate = "future-date"
        case unknownKey = "unknown-key"
    }

    public var severity: Severity
    public var code: Code
    public var file: String
    public var line: Int
    public var message: String
    /// `lint --fix` can repair it without a person deciding anything.
    public var fixable: Bool

    public init(_ severity: Severity, _ code: Code, file: String, line: Int, _ message: String, fixable: Bool = false) {
        self.severity = severity; self.code = code; self.file = file; self.line = line
        self.message = message; self.fixable = fixable
    }

    /// `file:line: error: message [code]`
    public var description: String { "\(file):\(line): \(severity.rawValue): \(message) [\(code.rawValue)]" }
}

/// A calendar date `YYYY-MM-DD` (proleptic Gregorian), as used by `added=` and `verified=`.
public struct GoodlistDate: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Days since 1970-01-01.
    public let day: Int

    public init?(_ text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            parts.allSatisfy({ $0.allSatisfy(\.isASCII) }),
            let y = Int(parts[0]), let m = Int(parts[1]), let d = Int(parts[2]),
            (1...12).contains(m), d >= 1, d <= GoodlistDate.daysIn(month: m, year: y)
        else { return nil }
        day = GoodlistDate.daysFromCivil(y, m, d)
    }

    public init(daysSinceEpoch: Int) { day = daysSinceEpoch }

    /// Today in UTC.
    public static func today(_ now: Date = Date()) -> GoodlistDate {
        GoodlistDate(daysSinceEpoch: Int((now.timeIntervalSince1970 / 86_400).rounded(.down)))
    }

    public static func < (a: GoodlistDate, b: GoodlistDate) -> Bool { a.day < b.day }

    public var description: String {
        let (y, m, d) = GoodlistDate.civil(fromDays: day)
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(y)-\(two(m))-\(two(d))"
    }

    static func daysIn(month m: Int, year y: Int) -> Int {
        switch m {
        case 2: return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    // Howard Hinnant's days_from_civil / civil_from_days.
    static func daysFromCivil(_ y0: Int, _ m: Int, _ d: Int) -> Int {
        let y = m <= 2 ? y0 - 1 : y0
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    static func civil(fromDays z0: Int) -> (Int, Int, Int) {
        let z = z0 + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
    }
}

/// Checks goodlist files.
public struct GoodlistLinter: Sendable {
    /// Provenance keys every entry needs (non-empty), plus one of `whoKeys`.
    public static let requiredKeys = ["added", "why", "source"]
    /// Who or what the host is: at least one of these.
    public static let whoKeys = ["issuer", "vendor"]
    /// Every key lint knows; others are warned about (likely typos).
    public static let knownKeys: Set<String> = ["issuer", "vendor", "added", "verified", "why", "source", "note"]

    /// Entries not verified for more than this many days are warned about.
    public var maxAgeDays: Int
    public var today: GoodlistDate
    public var suffixes: PublicSuffixRules

    public init(suffixes: PublicSuffixRules, maxAgeDays: Int = 365, today: GoodlistDate = .today()) {
        self.suffixes = suffixes
        self.maxAgeDays = maxAgeDays
        self.today = today
    }

    /// Every problem of the given files (taken together: duplicates and shadowing are found across files),
    /// sorted by file order, then line.
    public func lint(_ sources: [GoodlistSource]) -> [GoodlistProblem] {
        var problems: [GoodlistProblem] = []
        // Entries that take part in duplicate/shadow checks: valid patterns that are not wildcards over a
        // public suffix (those are errors of their own and would shadow everything).
        var pairs: [(HostPattern, GoodlistEntry)] = []
        var fileOrder: [String: Int] = [:]
        for (i, source) in sources.enumerated() where fileOrder[source.file] == nil { fileOrder[source.file] = i }

        for source in sources {
            for (line, entry) in source.entries {
                let at = { (sev: GoodlistProblem.Severity, code: GoodlistProblem.Code, msg: String, fix: Bool) in
                    problems.append(GoodlistProblem(sev, code, file: source.file, line: line.number, msg, fixable: fix))
                }
                switch entry.pattern {
                case .failure(let error):
                    at(.error, .invalidPattern, error.description, false)
                case .success(let pattern):
                    if let message = Self.canonicalProblem(written: entry.patternText, pattern: pattern) {
                        at(.error, .notCanonical, message, true)
                    }
                    if pattern.kind != .exact, suffixes.isPublicSuffix(pattern.base) {
                        at(
                            .error, .publicSuffix,
                            "'\(entry.patternText)' is a wildcard over the public suffix '\(pattern.base)': it admits every site registered under it; list the bank's own hosts instead",
                            false)
                    } else {
                        pairs.append(
                            (
                                pattern,
                                GoodlistEntry(
                                    pattern: entry.patternText, file: source.file,
                                    line: line.number, entry: entry)
                            ))
                    }
                }
                for problem in entry.problems { at(.error, .syntax, problem, false) }
                lintProvenance(entry, report: at)
            }
        }

        // Duplicates and shadowing, through the same trie the matcher uses (no quadratic scan).
        let list = Goodlist(pairs)
        for (i, pattern) in list.patterns.enumerated() {
            let entry = list.entries[i]
            let supersets = list.supersetIndices(of: pattern)
            if let first = supersets.first(where: { list.patterns[$0] == pattern }), first != i {
                problems.append(
                    GoodlistProblem(
                        .error, .duplicate, file: entry.file ?? "", line: entry.line ?? 0,
                        "'\(entry.pattern)' duplicates '\(list.entries[first].pattern)' at \(list.entries[first].location ?? "?"); remove one (keep the provenance you trust)",
                        fixable: list.entries[first].file == entry.file))
                continue
            }
            if let broader = supersets.first(where: { list.patterns[$0] != pattern }) {
                problems.append(
                    GoodlistProblem(
                        .error, .shadowed, file: entry.file ?? "", line: entry.line ?? 0,
                        "'\(entry.pattern)' is shadowed by the broader '\(list.entries[broader].pattern)' at \(list.entries[broader].location ?? "?"), which already admits every host it admits; remove it or narrow the broader entry"
                    ))
            }
        }

        problems.sort { a, b in
            let fa = fileOrder[a.file] ?? Int.max, fb = fileOrder[b.file] ?? Int.max
            if fa != fb { return fa < fb }
            if a.line != b.line { return a.line < b.line }
            return a.code.rawValue < b.code.rawValue
        }
        return problems
    }

    /// Why the written pattern is not its canonical form, and what to write; nil when it is canonical.
    static func canonicalProblem(written: String, pattern: HostPattern) -> String? {
        let canonical = pattern.description
        guard written != canonical else { return nil }
        var reasons: [String] = []
        if written.unicodeScalars.contains(where: { !$0.isASCII }) {
            reasons.append("an internationalised name not written in punycode")
        }
        if written.unicodeScalars.contains(where: { ("A"..."Z").contains($0) }) { reasons.append("upper-case letters") }
        if written.hasSuffix(".") { reasons.append("a trailing dot") }
        if reasons.isEmpty { reasons.append("not in canonical form") }
        return "'\(written)' has \(reasons.joined(separator: " and ")); write '\(canonical)' (lint --fix does it)"
    }

    private func lintProvenance(
        _ entry: GoodlistSource.Entry,
        report: (GoodlistProblem.Severity, GoodlistProblem.Code, String, Bool) -> Void
    ) {
        let p = entry.provenance
        func has(_ k: String) -> Bool { !(p[k] ?? "").trimmingCharacters(in: .whitespaces).isEmpty }
        var missing = Self.requiredKeys.filter { !has($0) }
        if !Self.whoKeys.contains(where: has) { missing.append("issuer or vendor") }
        if !missing.isEmpty {
            let what = missing.map { $0 == "added" ? "added=YYYY-MM-DD" : $0.contains(" or ") ? $0 : "\($0)=…" }
            report(
                .error, .missingProvenance,
                "'\(entry.patternText)' has no provenance for: \(what.joined(separator: ", ")) (write key=value after the pattern; see Goodlist/README.md)",
                false)
        }
        for a in entry.attributes where !Self.knownKeys.contains(a.key) {
            report(
                .warning, .unknownKey,
                "unknown provenance key '\(a.key)' (known: \(Self.knownKeys.sorted().joined(separator: ", ")))", false)
        }
        var dates: [String: GoodlistDate] = [:]
        for key in ["added", "verified"] {
            guard let text = p[key], !text.isEmpty else { continue }
            guard let date = GoodlistDate(text) else {
                report(.error, .badDate, "\(key)=\(text) is not a date (expected YYYY-MM-DD)", false)
                continue
            }
            if date > today {
                report(.warning, .futureDate, "\(key)=\(text) is in the future (today is \(today))", false)
            }
            dates[key] = date
        }
        if let added = dates["added"], let verified = dates["verified"], verified < added {
            report(.error, .badDate, "verified=\(verified) is before added=\(added)", false)
        }
        if let last = dates["verified"] ?? dates["added"] {
            let age = today.day - last.day
            if age > maxAgeDays {
                let what = dates["verified"] != nil ? "last verified \(last)" : "never verified (added \(last))"
                report(
                    .warning, .stale,
                    "'\(entry.patternText)' \(what), \(age) days ago (more than \(maxAgeDays)): check it still works in a web view and set verified=\(today)",
                    false)
            }
        }
    }
}
