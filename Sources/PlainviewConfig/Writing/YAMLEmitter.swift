// The one way Plainview writes YAML (ConfigNode is the one way it reads it). Block mappings and sequences are
// built line by line from typed values; every string is a double-quoted scalar with every character that
// could end it, end the line or not be printable written as an escape, and every comment has such characters
// spelled out, so no recorded value can add a key, end a comment, or change the document's structure.
public struct YAMLEmitter: Sendable {
    /// A value on one line.
    public enum Scalar: Sendable, Hashable {
        case string(String)
        case int(Int)
        case bool(Bool)
        /// `{key: value, …}`
        case flowMap([Pair])
        /// `[value, …]`
        case flowSequence([Scalar])
    }

    public struct Pair: Sendable, Hashable {
        public var key: String
        public var value: Scalar
        public init(_ key: String, _ value: Scalar) {
            self.key = key
            self.value = value
        }
    }

    public private(set) var text = ""
    public init() {}

    /// `# text` on its own line, indented by `indent` levels (two spaces each).
    public mutating func comment(_ s: String, indent: Int = 0) {
        text += String(repeating: "  ", count: indent) + YAMLEmitter.comment(s) + "\n"
    }

    /// `key: value`, or `key:` opening a block when `value` is nil, indented by `indent` levels; with `item`,
    /// `- key: …` starting a sequence item whose keys are at `indent` (≥ 1). An optional trailing comment.
    public mutating func pair(_ key: String, _ value: Scalar?, indent: Int = 0, item: Bool = false, comment: String? = nil) {
        // An item's first key sits where its other keys do: `- ` fills the last two columns of the indent.
        var line = String(repeating: "  ", count: item ? max(indent - 1, 0) : indent)
        if item { line += "- " }
        line += YAMLEmitter.key(key) + ":"
        if let value { line += " " + YAMLEmitter.render(value) }
        if let comment { line += "  " + YAMLEmitter.comment(comment) }
        text += line + "\n"
    }

    /// `- value` at `indent` levels.
    public mutating func item(_ value: Scalar, indent: Int = 0, comment: String? = nil) {
        var line = String(repeating: "  ", count: indent) + "- " + YAMLEmitter.render(value)
        if let comment { line += "  " + YAMLEmitter.comment(comment) }
        text += line + "\n"
    }

    // MARK: - Pieces

    public static func render(_ v: Scalar) -> String {
        switch v {
        case .string(let s): return quoted(s)
        case .int(let n): return String(n)
        case .bool(let b): return b ? "true" : "false"
        case .flowMap(let pairs): return "{" + pairs.map { key($0.key) + ": " + render($0.value) }.joined(separator: ", ") + "}"
        case .flowSequence(let items): return "[" + items.map(render).joined(separator: ", ") + "]"
        }
    }

    /// A key: plain when it is a simple identifier (`status`, `setCookie`), else double-quoted.
    public static func key(_ s: String) -> String {
        let simple =
            !s.isEmpty
            && s.utf8.allSatisfy { b in
                (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(b) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(b)
                    || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(b) || b == UInt8(ascii: "_")
            } && !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(s.utf8.first!)
            && !["true", "false", "yes", "no", "on", "off", "null", "y", "n"].contains(s.lowercased())
        return simple ? s : quoted(s)
    }

    /// A double-quoted scalar that reads back as exactly `s`.
    public static func quoted(_ s: String) -> String {
        // Printable ASCII without a quote or backslash (most keys, URLs and names) is written as it is.
        if s.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F && $0 != 0x22 && $0 != 0x5C }) { return "\"" + s + "\"" }
        var out = "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            default:
                if mustEscape(u) { out += escape(u) } else { out.unicodeScalars.append(u) }
            }
        }
        return out + "\""
    }

    /// `# s` with every character that would end the comment (any line or paragraph separator) or that YAML
    /// does not allow written as `\uXXXX`, so the comment stays one comment.
    public static func comment(_ s: String) -> String {
        if s.utf8.allSatisfy({ ($0 >= 0x20 && $0 < 0x7F) || $0 == 0x09 }) { return "# " + s }
        var out = "# "
        for u in s.unicodeScalars {
            if u == "\t" || !mustEscape(u) { out.unicodeScalars.append(u) } else { out += escape(u) }
        }
        return out
    }

    /// Line breaks in any YAML version (LF, CR, NEL, LS, PS), other C0/C1 controls, DEL, the byte-order mark and
    /// the noncharacters U+FFFE/U+FFFF.
    static func mustEscape(_ u: Unicode.Scalar) -> Bool {
        let v = u.value
        return v < 0x20 || (0x7F...0x9F).contains(v) || ConfigNode.hiddenLineBreaks[u] != nil || v == 0xFEFF || v == 0xFFFE
            || v == 0xFFFF
    }

    static func escape(_ u: Unicode.Scalar) -> String {
        let hex = String(u.value, radix: 16, uppercase: true)
        return "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }
}
