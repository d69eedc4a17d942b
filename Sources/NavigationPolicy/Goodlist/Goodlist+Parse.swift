// Goodlist text → entries, with line numbers. Pure (bytes in, values out); files are read by PlainviewConfig.
//
// Two formats, one parser (a line is what decides, so both can be mixed):
//   SDK `good_redirects`:  one pattern a line; lines starting with `#` are comments; blank lines ignored.
//   Plainview `.goodlist`: the pattern, then provenance as `key=value` pairs separated by spaces; a value with
//                          spaces or quotes is written in double quotes with `\"` and `\\` escapes; a `#` that
//                          starts a token ends the line as a comment. See Goodlist/README.md.
//      **.payex.com  issuer="Swedbank Pay" added=2026-11-22 verified=2026-11-22 why="…" source="…"
// Byte-order mark, CRLF or LF line ends, and files without a final newline are accepted; a NUL byte or
// invalid UTF-8 makes the whole file an error (binary data is never half-read as a list).

/// What a goodlist file holds, line by line, exactly as written (so tools can report and rewrite lines).
public struct GoodlistSource: Sendable, Hashable {
    /// The file as named by the user (for messages).
    public var file: String
    public var lines: [Line]
    /// The file started with a UTF-8 byte-order mark (kept when rewriting).
    public var hasByteOrderMark: Bool

    public init(file: String, lines: [Line], hasByteOrderMark: Bool) {
        self.file = file
        self.lines = lines
        self.hasByteOrderMark = hasByteOrderMark
    }

    public struct Line: Sendable, Hashable {
        /// 1-based.
        public var number: Int
        /// The line without its line end.
        public var text: String
        /// `"\n"`, `"\r\n"`, or `""` for a last line without a newline.
        public var ending: String
        public var kind: Kind
    }

    public enum Kind: Sendable, Hashable {
        case blank
        case comment
        case entry(Entry)
    }

    /// One entry line.
    public struct Entry: Sendable, Hashable {
        /// The pattern token as written.
        public var patternText: String
        /// UTF-8 offsets of the pattern token in the line (for rewriting it in place).
        public var patternRange: Range<Int>
        /// The parsed pattern, or why it is not valid.
        public var pattern: Result<HostPattern, HostPatternError>
        /// Syntax problems in the provenance part (unterminated quote, not key=value, duplicate key, …).
        public var problems: [String]
        /// The line the entry was read from; its provenance is read from it when asked for (a list of 200,000
        /// entries holds each line once, not its values again as strings and dictionaries).
        let text: String
        /// The line holds provenance (its pairs are read from `text` when asked for).
        let hasProvenance: Bool

        /// Provenance `key=value` pairs in the order written (a repeated key's later values dropped).
        public var attributes: [Attribute] {
            GoodlistSource.parseAttributes(Array(text.utf8), from: patternRange.upperBound).attributes
        }

        /// Provenance as a dictionary (the first value of a repeated key).
        public var provenance: [String: String] {
            GoodlistEntry(pattern: patternText, attributes: attributes).provenance
        }
    }

    public struct Attribute: Sendable, Hashable {
        public var key: String
        public var value: String
        public init(key: String, value: String) { self.key = key; self.value = value }
    }

    /// How many entry lines the file has.
    public var entryCount: Int {
        lines.reduce(0) { n, line in
            if case .entry = line.kind { return n + 1 }
            return n
        }
    }

    /// The entry lines with their line numbers.
    public var entries: [(line: Line, entry: Entry)] {
        lines.compactMap { line in
            if case .entry(let e) = line.kind { return (line, e) }
            return nil
        }
    }
}

/// A goodlist file that cannot be used: where, and what was expected.
public struct GoodlistFileError: Error, Sendable, Hashable, CustomStringConvertible {
    public var file: String
    public var line: Int?
    public var message: String
    public init(file: String, line: Int?, _ message: String) {
        self.file = file; self.line = line; self.message = message
    }
    public var description: String {
        (line.map { "\(file):\($0)" } ?? file) + ": " + message
    }
}

extension GoodlistSource {
    /// Parses a goodlist file (either format). Throws for a file that is not text (NUL byte, invalid UTF-8), and
    /// for one whose entries, after `entriesBefore` read from other lists, pass `Goodlist.maximumEntries` (counted
    /// before anything is parsed, naming the line of the first entry past the cap); problems of single lines are
    /// kept on the lines for lint to report.
    public static func parse(_ bytes: [UInt8], file: String, entriesBefore: Int = 0) throws(GoodlistFileError)
        -> GoodlistSource
    {
        var lines: [Line] = []
        lines.reserveCapacity(bytes.count / 24)
        let bom = try forEachLine(bytes, file: file, entriesBefore: entriesBefore) { number, text, ending in
            lines.append(Line(number: number, text: text, ending: ending, kind: parseLine(text)))
            return true
        }
        return GoodlistSource(file: file, lines: lines, hasByteOrderMark: bom)
    }

    /// The entries of a goodlist file with their parsed patterns, read line by line without keeping the lines (what
    /// a list used for decisions needs; lint and fix keep the whole `GoodlistSource`). Throws what `parse` throws,
    /// and the first invalid pattern or provenance syntax with its line.
    public static func patternEntries(_ bytes: [UInt8], file: String, entriesBefore: Int = 0) throws(GoodlistFileError)
        -> [(HostPattern, GoodlistEntry)]
    {
        var pairs: [(HostPattern, GoodlistEntry)] = []
        var failure: GoodlistFileError?
        try forEachLine(bytes, file: file, entriesBefore: entriesBefore) { number, text, _ in
            guard case .entry(let e) = parseLine(text) else { return true }
            do throws(GoodlistFileError) {
                pairs.append(try Self.pair(e, file: file, line: number))
                return true
            } catch {
                failure = error
                return false
            }
        }
        if let failure { throw failure }
        return pairs
    }

    /// One entry line as a pattern and entry, or its first problem.
    static func pair(_ e: Entry, file: String, line: Int) throws(GoodlistFileError) -> (HostPattern, GoodlistEntry) {
        switch e.pattern {
        case .failure(let error):
            throw GoodlistFileError(file: file, line: line, error.description)
        case .success(let pattern):
            if let problem = e.problems.first { throw GoodlistFileError(file: file, line: line, problem) }
            return (pattern, GoodlistEntry(pattern: e.patternText, file: file, line: line, entry: e))
        }
    }

    /// Calls `body` with each line's 1-based number, text and line end, until it returns false; returns whether
    /// the file starts with a byte-order mark. Throws for a file that is not text, and past the entry caps.
    @discardableResult
    static func forEachLine(
        _ bytes: [UInt8], file: String, entriesBefore: Int, _ body: (Int, String, String) -> Bool
    ) throws(GoodlistFileError) -> Bool {
        var start = 0
        var bom = false
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {
            start = 3
            bom = true
        }
        try refuseEntriesPastTheCap(bytes, from: start, file: file, entriesBefore: entriesBefore)
        var number = 0
        var lineStart = start
        while lineStart < bytes.count {
            var i = lineStart
            while i < bytes.count, bytes[i] != UInt8(ascii: "\n") {
                if bytes[i] == 0 {
                    throw GoodlistFileError(
                        file: file, line: number + 1,
                        "binary data (a NUL byte): expected a text goodlist, one host pattern a line")
                }
                i += 1
            }
            number += 1
            var end = i
            var ending = ""
            if i < bytes.count {
                ending = "\n"
                if end > lineStart, bytes[end - 1] == UInt8(ascii: "\r") { end -= 1; ending = "\r\n" }
            }
            guard let text = String(validating: bytes[lineStart..<end], as: UTF8.self) else {
                throw GoodlistFileError(
                    file: file, line: number,
                    "not valid UTF-8: expected a text goodlist, one host pattern a line")
            }
            guard body(number, text, ending) else { break }
            lineStart = i + 1
        }
        return bom
    }

    /// Counts lines, and entry lines as `parseLine` tells them (the first byte that is not a space or tab, on a line without
    /// the CR of its CR LF, is there and is not `#`) and throws at the line of the first one past the cap.
    static func refuseEntriesPastTheCap(_ bytes: [UInt8], from start: Int, file: String, entriesBefore: Int)
        throws(GoodlistFileError)
    {
        let cap = Goodlist.maximumEntries
        // A line takes at least one byte (and an entry line two, but the last), so a small file passes neither cap.
        guard entriesBefore + (bytes.count - start + 1) / 2 > cap || bytes.count - start > Goodlist.maximumLinesPerFile
        else { return }
        var count = entriesBefore
        var line = 0
        var i = start
        let n = bytes.count
        while i < n {
            line += 1
            if line > Goodlist.maximumLinesPerFile {
                throw GoodlistFileError(
                    file: file, line: line,
                    "past the cap of \(Goodlist.maximumLinesPerFile) lines in one goodlist file (comments and blank lines included): a goodlist names hosts a payment may pass through, hundreds at most; check that this is the intended list"
                )
            }
            var first = i
            while first < n, bytes[first] == 0x20 || bytes[first] == 0x09 { first += 1 }
            var end = first
            while end < n, bytes[end] != UInt8(ascii: "\n") { end += 1 }
            let blank = first == end || (first + 1 == end && end < n && bytes[first] == UInt8(ascii: "\r"))
            if !blank, bytes[first] != UInt8(ascii: "#") {
                count += 1
                if count > cap {
                    throw GoodlistFileError(
                        file: file, line: line,
                        "past the cap of \(cap) goodlist entries (\(entriesBefore) in the lists read before this file, inline patterns included): a goodlist names the 3-D Secure and bank hosts a payment may pass through, hundreds at most; check that this is the intended list"
                    )
                }
            }
            i = end + 1
        }
    }

    /// Parses text that is already a `String` (tests, inline lists).
    public static func parse(text: String, file: String) throws(GoodlistFileError) -> GoodlistSource {
        try parse(Array(text.utf8), file: file)
    }

    /// The file's bytes again, with each line's text and line end as now held (a byte-order mark is kept).
    public func rendered() -> [UInt8] {
        var out: [UInt8] = hasByteOrderMark ? [0xEF, 0xBB, 0xBF] : []
        for line in lines {
            out.append(contentsOf: line.text.utf8)
            out.append(contentsOf: line.ending.utf8)
        }
        return out
    }

    // MARK: One line

    static func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 }

    /// Classifies and tokenises one line.
    public static func parseLine(_ text: String) -> Kind {
        let u = Array(text.utf8)
        var i = 0
        while i < u.count, isSpace(u[i]) { i += 1 }
        if i == u.count { return .blank }
        if u[i] == UInt8(ascii: "#") { return .comment }
        let patternStart = i
        while i < u.count, !isSpace(u[i]) { i += 1 }
        let patternText = String(decoding: u[patternStart..<i], as: UTF8.self)
        let pattern: Result<HostPattern, HostPatternError>
        do throws(HostPatternError) { pattern = .success(try HostPattern(patternText)) } catch { pattern = .failure(error) }
        let provenance = parseAttributes(u, from: i)
        return .entry(
            Entry(
                patternText: patternText, patternRange: patternStart..<i, pattern: pattern, problems: provenance.problems,
                text: text, hasProvenance: !provenance.attributes.isEmpty))
    }

    /// The provenance part of an entry line, from UTF-8 offset `start` (just after the pattern): its pairs and
    /// its syntax problems.
    static func parseAttributes(_ u: [UInt8], from start: Int) -> (attributes: [Attribute], problems: [String]) {
        var i = start
        var entry: (attributes: [Attribute], problems: [String]) = ([], [])
        var seen = Set<String>()
        while true {
            while i < u.count, isSpace(u[i]) { i += 1 }
            if i >= u.count { break }
            if u[i] == UInt8(ascii: "#") { break } // trailing comment
            // key
            let keyStart = i
            while i < u.count, !isSpace(u[i]), u[i] != UInt8(ascii: "=") { i += 1 }
            let key = String(decoding: u[keyStart..<i], as: UTF8.self)
            guard i < u.count, u[i] == UInt8(ascii: "=") else {
                entry.problems.append(
                    "expected key=value after the pattern, found '\(key)' (a pattern has no spaces; provenance is written key=value)"
                )
                // Skip the rest of this token.
                while i < u.count, !isSpace(u[i]) { i += 1 }
                continue
            }
            i += 1 // '='
            if !isValidKey(key) {
                entry.problems.append("'\(key)' is not a provenance key: keys are lower-case letters, digits, '-' and '_'")
            }
            // value
            var value: [UInt8] = []
            if i < u.count, u[i] == UInt8(ascii: "\"") {
                i += 1
                var closed = false
                var badEscape = false
                while i < u.count {
                    let b = u[i]
                    if b == UInt8(ascii: "\\"), i + 1 < u.count, u[i + 1] == UInt8(ascii: "\"") || u[i + 1] == UInt8(ascii: "\\")
                    {
                        value.append(u[i + 1]); i += 2; continue
                    }
                    if b == UInt8(ascii: "\\") { badEscape = true }
                    if b == UInt8(ascii: "\"") { closed = true; i += 1; break }
                    value.append(b); i += 1
                }
                if !closed {
                    entry.problems.append("\(key): unterminated quoted value (expected a closing '\"')")
                } else if i < u.count, !isSpace(u[i]) {
                    entry.problems.append("\(key): expected a space after the closing quote")
                    while i < u.count, !isSpace(u[i]) { i += 1 }
                }
                if badEscape {
                    entry.problems.append("\(key): in a quoted value only \\\" and \\\\ are escapes; write a backslash as \\\\")
                }
            } else {
                let valueStart = i
                while i < u.count, !isSpace(u[i]) { i += 1 }
                value = Array(u[valueStart..<i])
                if value.contains(UInt8(ascii: "\"")) {
                    entry.problems.append("\(key): a quote inside an unquoted value; quote the whole value: \(key)=\"…\"")
                }
            }
            let valueText = String(decoding: value, as: UTF8.self)
            if let bad = valueText.unicodeScalars.first(where: { $0.value < 0x20 && $0 != "\t" || $0.value == 0x7F }) {
                entry.problems.append("\(key): control character U+\(hex4(bad.value)) in the value")
            }
            if seen.contains(key) {
                entry.problems.append("duplicate key '\(key)' on one line")
            } else {
                seen.insert(key)
                entry.attributes.append(Attribute(key: key, value: valueText))
            }
        }
        return entry
    }

    static func isValidKey(_ key: String) -> Bool {
        guard let first = key.utf8.first, first >= 0x61 && first <= 0x7A else { return false }
        return key.utf8.allSatisfy { ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2D || $0 == 0x5F }
    }

    static func hex4(_ v: UInt32) -> String {
        let s = String(v, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - s.count)) + s
    }

    /// A provenance value as written in a `.goodlist` line: bare when it is simple, else quoted.
    public static func formatValue(_ value: String) -> String {
        let simple =
            !value.isEmpty
            && value.utf8.allSatisfy { b in
                (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A)
                    || "-._:/@+,%".utf8.contains(b)
            }
        if simple { return value }
        var out = "\""
        for ch in value.unicodeScalars {
            switch ch {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n", "\r", "\t": out += " "
            default: out.unicodeScalars.append(ch)
            }
        }
        return out + "\""
    }

    /// One `.goodlist` line for a pattern and its provenance (in the order given).
    public static func formatLine(pattern: String, attributes: [Attribute]) -> String {
        ([pattern] + attributes.map { "\($0.key)=\(formatValue($0.value))" }).joined(separator: " ")
    }
}

extension Goodlist {
    /// A list from a parsed source. Throws the first problem (invalid pattern or provenance syntax) with its
    /// line: a list used for decisions is either fully understood or refused.
    public init(source: GoodlistSource) throws(GoodlistFileError) {
        self.init(try source.patternEntries())
    }

    /// A list parsed from text (either format); see `GoodlistSource.parse`.
    public init(text: String, file: String) throws(GoodlistFileError) {
        try self.init(source: try GoodlistSource.parse(text: text, file: file))
    }
}

extension GoodlistSource {
    /// Every entry line's parsed pattern and entry, in order, for building a list (`Goodlist(_:)`). Throws the first
    /// problem (invalid pattern or provenance syntax) with its line: a list used for decisions is either fully
    /// understood or refused.
    public func patternEntries() throws(GoodlistFileError) -> [(HostPattern, GoodlistEntry)] {
        var pairs: [(HostPattern, GoodlistEntry)] = []
        pairs.reserveCapacity(lines.count)
        for line in lines {
            guard case .entry(let e) = line.kind else { continue }
            pairs.append(try Self.pair(e, file: file, line: line.number))
        }
        return pairs
    }
}
