// The one strict reader of Plainview's config files (policy, environment, flow, redaction, goodlist YAML/JSON):
// a YAML node that knows its file, line and key path, so every mistake becomes a `ConfigError` that names
// all three. Every key is checked against the keys a mapping may have; a duplicate key is an error.
import Foundation
import Yams

/// A node of a YAML (or JSON) config file with where it came from. Values are read through the typed
/// accessors (`string()`, `int()`, `bool()`, `fields(_:)`, `sequence()`, …), which throw a `ConfigError`
/// naming the file, the line and the key path (`apps[2].schemes`) when the value has the wrong shape.
public struct ConfigNode {
    /// The parsed node (Yams' tree); only the package reads it directly.
    package let node: Node
    /// The file, as the user named it.
    public let file: String
    /// The key path from the document root (`pages[0].url`); empty for the root.
    public let path: String

    package init(node: Node, file: String, path: String = "") {
        self.node = node
        self.file = file
        self.path = path
    }

    /// The 1-based line of the node, when known.
    public var line: Int? { node.mark?.line }

    // MARK: reading a document

    /// Reads and parses the file at `path` (named `displayName` in errors). An empty document is an error.
    public static func load(path: String, displayName: String? = nil) throws(ConfigError) -> ConfigNode {
        let name = displayName ?? path
        guard let root = try loadOptional(path: path, displayName: name) else {
            throw ConfigError(file: name, "is empty, expected a mapping of keys")
        }
        return root
    }

    /// Reads and parses the file at `path`; nil when the document is empty.
    public static func loadOptional(path: String, displayName: String? = nil) throws(ConfigError) -> ConfigNode? {
        let name = displayName ?? path
        return try parseOptional(readText(path: path, displayName: name), file: name)
    }

    /// The largest policy, environment, flow or redaction file read: 4 MiB. The shipped ones are under 4 kB and a
    /// flow imported from a HAR keeps its page bodies in files of their own, so this is a thousand times what any
    /// needs; past it a file is refused before it is parsed, as a file of hundreds of megabytes would cost Yams
    /// minutes and gigabytes.
    public static let maximumFileSize = 4 * 1024 * 1024

    /// The text of a config file, named `displayName` in errors: refused when missing, a folder, unreadable, past
    /// `maximumFileSize` (checked before reading, and the read stops there for a file that grows), or not UTF-8.
    public static func readText(path: String, displayName: String? = nil) throws(ConfigError) -> String {
        let name = displayName ?? path
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDir) else {
            throw ConfigError(file: name, "no such file")
        }
        if isDir.boolValue { throw ConfigError(file: name, "is a directory, expected a YAML or JSON file") }
        if let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue {
            try refuseOversized(size, file: name)
        }
        guard let handle = FileHandle(forReadingAtPath: path) else { throw ConfigError(file: name, "cannot be read") }
        defer { try? handle.close() }
        let data: Data
        do {
            data = try handle.read(upToCount: maximumFileSize + 1) ?? Data()
        } catch {
            throw ConfigError(file: name, "cannot be read (\(error.localizedDescription))")
        }
        // A file that grew after the check above (or reports no size, like a pipe) was read only this far.
        if data.count > maximumFileSize { throw oversized("more than \(maximumFileSize)", file: name) }
        guard let text = String(data: data, encoding: .utf8) else {
            throw ConfigError(file: name, "is not UTF-8 text")
        }
        return text
    }

    /// Throws when `size` bytes are past `maximumFileSize`, naming the file, its size and the cap.
    static func refuseOversized(_ size: Int, file: String) throws(ConfigError) {
        if size > maximumFileSize { throw oversized("\(size)", file: file) }
    }

    private static func oversized(_ size: String, file: String) -> ConfigError {
        ConfigError(
            file: file,
            "is \(size) bytes, past the cap of \(maximumFileSize / 1024 / 1024) MiB (\(maximumFileSize) bytes) for a config file: expected a policy, environment, flow or redaction file, which is a few kB"
        )
    }

    /// Parses YAML or JSON text; `file` names it in errors. An empty document is an error.
    public static func parse(_ text: String, file: String) throws(ConfigError) -> ConfigNode {
        guard let root = try parseOptional(text, file: file) else {
            throw ConfigError(file: file, "is empty, expected a mapping of keys")
        }
        return root
    }

    /// Parses YAML or JSON text; nil when the document is empty (only comments or nothing).
    public static func parseOptional(_ text: String, file: String) throws(ConfigError) -> ConfigNode? {
        try refuseOversized(text.utf8.count, file: file)
        try refuseHiddenLineBreaks(in: text, file: file)
        let node: Node?
        do {
            node = try Yams.compose(yaml: text)
        } catch let error as YamlError {
            switch error {
            case .duplicatedKeysInMapping(let duplicates, let context):
                // Yams refuses a mapping with a key given twice before there is a tree; it names the key and where
                // it is first given. Renaming that first one and reading again finds the key path and the repeat.
                let key = duplicates.first ?? ""
                if let (path, line) = locateDuplicate(in: text, key: key, first: context.mark) {
                    throw ConfigError(file: file, line: line, key: path, "duplicate key")
                }
                throw ConfigError(file: file, line: context.mark.line, key: key, "duplicate key")
            case .scanner(_, let problem, let mark, _), .parser(_, let problem, let mark, _),
                .composer(_, let problem, let mark, _):
                throw ConfigError(file: file, line: mark.line, "invalid YAML/JSON: \(problem)")
            default:
                throw ConfigError(file: file, "invalid YAML/JSON: \(error)")
            }
        } catch {
            throw ConfigError(file: file, "invalid YAML/JSON: \(error)")
        }
        return node.map { ConfigNode(node: $0, file: file) }
    }

    /// The characters YAML (1.1, as libyaml reads it) takes for a line break but editors, `grep`, `diff` and code
    /// review show none for, by name. The reader refuses them (`refuseHiddenLineBreaks`); the YAML emitter always
    /// writes them as escapes.
    public static let hiddenLineBreaks: [Unicode.Scalar: String] = [
        "\u{85}": "U+0085 NEXT LINE", "\u{2028}": "U+2028 LINE SEPARATOR", "\u{2029}": "U+2029 PARAGRAPH SEPARATOR",
    ]

    /// Refuses a hidden line break (`hiddenLineBreaks`) anywhere in a config file. Behind one, a key
    /// (`redirectPolicy: webview`) reads as part of the line before it, a comment say, to a reviewer, and as a key of its
    /// own to the reader; inside a quoted string YAML folds it into a space. The line named is the one editors show
    /// (counted by `\n`). Only lines holding a byte past ASCII are decoded.
    static func refuseHiddenLineBreaks(in text: String, file: String) throws(ConfigError) {
        var lineNumber = 0
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            lineNumber += 1
            guard line.utf8.contains(where: { $0 >= 0x80 }),
                let name = line.unicodeScalars.lazy.compactMap({ hiddenLineBreaks[$0] }).first
            else { continue }
            throw ConfigError(
                file: file, line: lineNumber,
                "a \(name): YAML reads it as a line break, but editors, grep and diff show none, so it can hide a "
                    + "key from review; remove it (inside a double-quoted string, write it as an escape such as \\u2028)")
        }
    }

    /// The key path and line of the repeated `key` whose first occurrence is at `first`: that occurrence is renamed
    /// and the text read again; nil when the key is not written plainly there or the text still does not compose.
    private static func locateDuplicate(in text: String, key: String, first: Mark) -> (String, Int)? {
        let stand = "plainview-first-of-a-duplicate-key"
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { Array(String($0).unicodeScalars) }
        guard first.line >= 1, first.line <= lines.count, first.column >= 1 else { return nil }
        let row = lines[first.line - 1], start = first.column - 1
        var spelling: [Unicode.Scalar] = []
        for quote in ["", "\"", "'"] {
            let candidate = Array((quote + key + quote).unicodeScalars)
            if start + candidate.count <= row.count, Array(row[start..<start + candidate.count]) == candidate {
                spelling = candidate; break
            }
        }
        guard !spelling.isEmpty else { return nil }
        lines[first.line - 1] = Array(row[..<start]) + Array(stand.unicodeScalars) + Array(row[(start + spelling.count)...])
        let renamed = lines.map { String(String.UnicodeScalarView($0)) }.joined(separator: "\n")
        guard let root = try? Yams.compose(yaml: renamed) else { return nil }
        func search(_ node: Node, _ path: String) -> (String, Int)? {
            switch node {
            case .mapping(let m):
                if m.contains(where: { $0.key.string == stand }), let again = m.first(where: { $0.key.string == key }) {
                    return (path.isEmpty ? key : "\(path).\(key)", again.key.mark?.line ?? first.line)
                }
                for (k, v) in m {
                    let name = k.string ?? ""
                    if let found = search(v, path.isEmpty ? name : "\(path).\(name)") { return found }
                }
            case .sequence(let items):
                for (i, item) in items.enumerated() {
                    if let found = search(item, "\(path)[\(i)]") { return found }
                }
            default: break
            }
            return nil
        }
        return search(root, "")
    }

    /// The same node, named as another file and key path (an inline `policy:` mapping read as a policy file).
    public func rebased(file: String? = nil, path: String) -> ConfigNode {
        ConfigNode(node: node, file: file ?? self.file, path: path)
    }

    // MARK: errors

    /// An error at this node: its file, its line, and `key` (default: this node's key path).
    public func error(_ message: String, key: String? = nil) -> ConfigError {
        ConfigError(file: file, line: line, key: key ?? (path.isEmpty ? nil : path), message)
    }

    /// The key path of `key` under this node.
    public func keyPath(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    func child(_ node: Node, key: String) -> ConfigNode { ConfigNode(node: node, file: file, path: keyPath(key)) }
    func item(_ node: Node, index: Int) -> ConfigNode { ConfigNode(node: node, file: file, path: "\(path)[\(index)]") }

    // MARK: shapes

    /// `~`, `null` or nothing, unquoted.
    public var isNull: Bool {
        guard case .scalar(let s) = node, s.style == .plain else { return false }
        return ["", "~", "null", "Null", "NULL"].contains(s.string)
    }

    public var isMapping: Bool { if case .mapping = node { true } else { false } }
    public var isSequence: Bool { if case .sequence = node { true } else { false } }
    public var isScalar: Bool { if case .scalar = node { true } else { false } }

    /// What the node is, for messages: `the scalar 'x'`, `a mapping`, `a list`.
    public var kind: String {
        switch node {
        case .scalar(let s): "the scalar '\(s.string)'"
        case .mapping: "a mapping"
        case .sequence: "a list"
        case .alias: "an alias"
        }
    }

    // MARK: typed values

    /// A scalar's text.
    public func string() throws(ConfigError) -> String {
        guard case .scalar(let s) = node, !isNull else { throw error("expected a string, found \(isNull ? "nothing" : kind)") }
        return s.string
    }

    /// A scalar that YAML reads as text (quoted, or plain but not a number, boolean or null): for lists of
    /// names, where `1` or `true` is a mistake rather than a name.
    public func text() throws(ConfigError) -> String {
        guard case .scalar(let s) = node, node.tag.description == Tag.Name.str.rawValue else {
            throw error("expected a string, found \(isNull ? "nothing" : kind)")
        }
        return s.string
    }

    /// A list of text values (see `text()`), or a single text value.
    public func textList() throws(ConfigError) -> [String] {
        if isScalar, (try? text()) != nil { return [try text()] }
        guard isSequence else { throw error("expected a list of strings, found \(kind)") }
        var out: [String] = []
        for item in try sequence() { out.append(try item.text()) }
        return out
    }

    /// One of an enumeration's names (see `text()`); anything else is an error listing them all.
    public func choice<Choice: RawRepresentable & CaseIterable>(_: Choice.Type) throws(ConfigError) -> Choice
    where Choice.RawValue == String {
        let name = try text()
        guard let value = Choice(rawValue: name) else {
            throw error("expected one of \(Choice.allCases.map(\.rawValue).joined(separator: ", ")), found '\(name)'")
        }
        return value
    }

    /// A whole number.
    public func int() throws(ConfigError) -> Int {
        guard case .scalar(let s) = node, let v = Int(s.string) else { throw error("expected a whole number, found \(kind)") }
        return v
    }

    /// true/false (also yes/no, on/off).
    public func bool() throws(ConfigError) -> Bool {
        guard case .scalar(let s) = node else { throw error("expected true or false, found \(kind)") }
        switch s.string.lowercased() {
        case "true", "yes", "on": return true
        case "false", "no", "off": return false
        default: throw error("expected true or false, got '\(s.string)'")
        }
    }

    /// The entries of a mapping with any keys, in file order. Keys must be scalars; a duplicate key is an error.
    public func mapping() throws(ConfigError) -> [(key: String, value: ConfigNode)] {
        guard case .mapping(let m) = node else { throw error("expected a mapping (key: value lines), found \(kind)") }
        return try entries(m)
    }

    private func entries(_ m: Node.Mapping) throws(ConfigError) -> [(key: String, value: ConfigNode)] {
        var out: [(key: String, value: ConfigNode)] = []
        var seen = Set<String>()
        for (k, v) in m {
            guard case .scalar(let ks) = k else {
                throw ConfigError(file: file, line: k.mark?.line, key: path.isEmpty ? nil : path, "keys must be plain strings")
            }
            guard seen.insert(ks.string).inserted else {
                throw ConfigError(file: file, line: k.mark?.line, key: keyPath(ks.string), "duplicate key")
            }
            out.append((ks.string, child(v, key: ks.string)))
        }
        return out
    }

    /// A mapping whose keys must be among `allowed`: an unknown key is an error that lists the known ones.
    public func fields(_ allowed: [String]) throws(ConfigError) -> Fields {
        guard case .mapping(let m) = node else {
            throw error("expected a mapping with keys \(allowed.joined(separator: ", ")), found \(kind)")
        }
        for (k, _) in m {
            if case .scalar(let ks) = k, !allowed.contains(ks.string) {
                throw ConfigError(
                    file: file, line: k.mark?.line, key: keyPath(ks.string),
                    "unknown key '\(ks.string)'; expected one of \(allowed.joined(separator: ", "))")
            }
        }
        return Fields(owner: self, entries: try entries(m))
    }

    /// A list's items.
    public func sequence() throws(ConfigError) -> [ConfigNode] {
        guard case .sequence(let s) = node else { throw error("expected a list, found \(kind)") }
        return s.enumerated().map { i, n in item(n, index: i) }
    }

    /// A list, or a single value taken as a one-element list (the item keeps this node's key path).
    public func list() throws(ConfigError) -> [ConfigNode] {
        if isSequence { return try sequence() }
        return [self]
    }

    /// A list's items, or a single value as item `[0]` (its key path says `[0]`).
    public func items() throws(ConfigError) -> [ConfigNode] {
        if isSequence { return try sequence() }
        return [item(node, index: 0)]
    }

    /// A list of strings, or a single string.
    public func strings() throws(ConfigError) -> [String] {
        var out: [String] = []
        for n in try list() { out.append(try n.string()) }
        return out
    }

    /// The keys of one mapping, after the unknown-key check.
    public struct Fields {
        public let owner: ConfigNode
        public let entries: [(key: String, value: ConfigNode)]

        /// The value of `key`, as written (a `~`/empty value is a null node).
        public subscript(_ key: String) -> ConfigNode? { entries.first { $0.key == key }?.value }

        /// The value of `key`, nil when it is absent or null.
        public func value(_ key: String) -> ConfigNode? {
            guard let v = self[key], !v.isNull else { return nil }
            return v
        }

        /// The value of `key`; absent (or null) is an error at the mapping's line.
        public func required(_ key: String, expecting what: String? = nil) throws(ConfigError) -> ConfigNode {
            guard let v = value(key) else {
                throw ConfigError(
                    file: owner.file, line: owner.line, key: owner.keyPath(key),
                    "missing required key '\(key)'" + (what.map { " (expected \($0))" } ?? ""))
            }
            return v
        }
    }
}
