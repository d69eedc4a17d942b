// `plainview goodlist lint --fix`: rewrite what needs no judgement, never lose an entry, never half-write.
import NavigationPolicy
import PlainviewConfig

/// Repairs the normalisable problems of one list file.
public enum GoodlistFixer {
    /// What `fix` did to one file.
    public struct Result: Sendable {
        /// The file with the repairs applied (same line ends and byte-order mark as before).
        public var source: GoodlistSource
        /// One sentence per repair, `file:line: …` (line numbers of the original file).
        public var changes: [String]
        public var changed: Bool { !changes.isEmpty }
    }

    /// The repairs: each valid pattern rewritten in canonical form (case, trailing dot, IDN → punycode), and
    /// an exact duplicate line removed when it adds nothing (its provenance is already on the first one).
    /// Lines that are invalid, comments and blank lines are kept byte for byte. Pure: writes nothing.
    public static func fix(_ source: GoodlistSource) -> Result {
        var out = source
        var changes: [String] = []
        var firstByPattern: [HostPattern: (index: Int, attributes: [GoodlistSource.Attribute])] = [:]
        var remove = Set<Int>()
        for (index, line) in source.lines.enumerated() {
            guard case .entry(var entry) = line.kind, case .success(let pattern) = entry.pattern else { continue }
            let canonical = pattern.description
            if entry.patternText != canonical {
                var bytes = Array(line.text.utf8)
                bytes.replaceSubrange(entry.patternRange, with: Array(canonical.utf8))
                let text = String(decoding: bytes, as: UTF8.self)
                changes.append("\(source.file):\(line.number): wrote '\(canonical)' for '\(entry.patternText)'")
                entry.patternRange = entry.patternRange.lowerBound..<(entry.patternRange.lowerBound + canonical.utf8.count)
                entry.patternText = canonical
                out.lines[index].text = text
                out.lines[index].kind = .entry(entry)
            }
            if let first = firstByPattern[pattern] {
                // Removable only when every key=value of this line is already on the first one, and the
                // line has no trailing comment or syntax problem that would be lost.
                let firstSet = Set(first.attributes)
                let addsNothing =
                    entry.problems.isEmpty && entry.attributes.allSatisfy(firstSet.contains)
                    && !hasTrailingComment(line.text)
                if addsNothing {
                    remove.insert(index)
                    changes.append(
                        "\(source.file):\(line.number): removed '\(canonical)', a duplicate of line \(source.lines[first.index].number) with nothing of its own"
                    )
                }
            } else {
                firstByPattern[pattern] = (index, entry.attributes)
            }
        }
        if !remove.isEmpty {
            let lastKept = out.lines.indices.last { !remove.contains($0) }
            // Keep the file's final-newline state if the last line goes.
            if let lastKept, let lastRemoved = remove.max(), lastRemoved > lastKept, out.lines.last?.ending == "" {
                out.lines[lastKept].ending = ""
            }
            out.lines = out.lines.enumerated().filter { !remove.contains($0.offset) }.map(\.element)
        }
        return Result(source: out, changes: changes)
    }

    /// True when the text after the pattern and key=value pairs has a `# comment` (outside quotes).
    static func hasTrailingComment(_ text: String) -> Bool {
        var inQuotes = false
        var previous: Character = " "
        var escaped = false
        for ch in text {
            if inQuotes {
                if escaped { escaped = false } else if ch == "\\" { escaped = true } else if ch == "\"" { inQuotes = false }
            } else if ch == "\"" {
                inQuotes = true
            } else if ch == "#", previous == " " || previous == "\t" {
                return true
            }
            previous = ch
        }
        return false
    }

    /// The patterns (canonical) a source admits, as a set: a fix must leave it unchanged.
    public static func patternSet(_ source: GoodlistSource) -> Set<HostPattern> {
        var set = Set<HostPattern>()
        for (_, e) in source.entries { if case .success(let p) = e.pattern { set.insert(p) } }
        return set
    }

    /// The invalid entry lines, as written: a fix must keep every one of them.
    public static func invalidLines(_ source: GoodlistSource) -> [String] {
        source.entries.compactMap { line, e in
            if case .failure = e.pattern { return line.text }
            return nil
        }
    }

    /// Fixes and writes the file atomically when something changed. Before writing, the result is parsed
    /// back and checked to admit exactly the same patterns and keep every invalid line; otherwise nothing
    /// is written and an error is thrown.
    public static func fixFile(_ source: GoodlistSource, path: String) throws(ConfigError) -> Result {
        let result = fix(source)
        guard result.changed else { return result }
        let bytes = result.source.rendered()
        let reparsed: GoodlistSource
        do {
            reparsed = try GoodlistSource.parse(bytes, file: source.file)
        } catch {
            throw ConfigError(
                file: path, "internal check failed: the fixed list does not parse (\(error.message)); the file is unchanged")
        }
        guard patternSet(reparsed) == patternSet(source), invalidLines(reparsed) == invalidLines(source) else {
            throw ConfigError(
                file: path, "internal check failed: the fixed list would not admit the same hosts; the file is unchanged")
        }
        try GoodlistIO.writeAtomically(bytes, to: path)
        return result
    }
}
