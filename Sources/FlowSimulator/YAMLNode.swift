// A strict reader over Yams nodes: every key is checked, every error names the file, line and key path.
import Foundation
import PlainviewConfig
import Yams

/// A YAML node with where it came from (file, key path), for precise `ConfigError`s.
struct YNode {
    let node: Node
    let file: String
    let path: String

    var line: Int? { node.mark.map { $0.line } }

    func error(_ message: String, key: String? = nil) -> ConfigError {
        ConfigError(file: file, line: line, key: key ?? (path.isEmpty ? nil : path), message)
    }

    static func parse(_ text: String, file: String) throws(ConfigError) -> YNode {
        do {
            guard let node = try Yams.compose(yaml: text) else {
                throw ConfigError(file: file, line: nil, key: nil, "the file is empty; expected a mapping")
            }
            return YNode(node: node, file: file, path: "")
        } catch let e as ConfigError {
            throw e
        } catch let e as YamlError {
            throw ConfigError(file: file, line: Self.line(of: e), key: nil, "not valid YAML: \(Self.describe(e))")
        } catch {
            throw ConfigError(file: file, line: nil, key: nil, "not valid YAML: \(error)")
        }
    }

    private static func line(of e: YamlError) -> Int? {
        switch e {
        case .scanner(_, _, let mark, _), .parser(_, _, let mark, _), .composer(_, _, let mark, _): return mark.line
        default: return nil
        }
    }

    private static func describe(_ e: YamlError) -> String {
        switch e {
        case .scanner(_, let problem, _, _), .parser(_, let problem, _, _), .composer(_, let problem, _, _): return problem
        default: return "\(e)"
        }
    }

    func child(_ node: Node, _ key: String) -> YNode {
        YNode(node: node, file: file, path: path.isEmpty ? key : "\(path).\(key)")
    }

    // MARK: shapes

    var isNull: Bool {
        if case .scalar(let s) = node { return s.tag == .implicit && (s.string == "~" || s.string == "null" || s.string.isEmpty) && s.style == .plain }
        return false
    }

    func string() throws(ConfigError) -> String {
        guard case .scalar(let s) = node else { throw error("expected a text value") }
        return s.string
    }

    func int() throws(ConfigError) -> Int {
        guard case .scalar(let s) = node, let v = Int(s.string) else { throw error("expected a whole number") }
        return v
    }

    func bool() throws(ConfigError) -> Bool {
        guard case .scalar(let s) = node else { throw error("expected true or false") }
        switch s.string.lowercased() {
        case "true", "yes", "on": return true
        case "false", "no", "off": return false
        default: throw error("expected true or false, got '\(s.string)'")
        }
    }

    var isMapping: Bool { if case .mapping = node { return true } else { return false } }
    var isSequence: Bool { if case .sequence = node { return true } else { return false } }
    var isScalar: Bool { if case .scalar = node { return true } else { return false } }

    /// The entries of a mapping, keys as text, in file order. Duplicate keys are an error.
    func mapping() throws(ConfigError) -> [(key: String, value: YNode)] {
        guard case .mapping(let m) = node else { throw error("expected a mapping (key: value lines)") }
        var out: [(String, YNode)] = []
        var seen = Set<String>()
        for (k, v) in m {
            guard case .scalar(let ks) = k else { throw error("expected text keys") }
            let key = ks.string
            if !seen.insert(key).inserted {
                throw ConfigError(file: file, line: k.mark?.line, key: path.isEmpty ? key : "\(path).\(key)", "duplicate key")
            }
            out.append((key, child(v, key)))
        }
        return out
    }

    /// A mapping checked against the allowed keys: an unknown key is an error that lists the known ones.
    func fields(_ allowed: [String]) throws(ConfigError) -> Fields {
        let entries = try mapping()
        for (k, v) in entries where !allowed.contains(k) {
            throw ConfigError(file: file, line: v.line ?? line, key: v.path,
                              "unknown key '\(k)'; expected one of: \(allowed.joined(separator: ", "))")
        }
        return Fields(owner: self, entries: entries)
    }

    func sequence() throws(ConfigError) -> [YNode] {
        guard case .sequence(let s) = node else { throw error("expected a list") }
        return s.enumerated().map { i, n in YNode(node: n, file: file, path: "\(path)[\(i)]") }
    }

    /// A list, or a single value taken as a one-element list.
    func list() throws(ConfigError) -> [YNode] {
        if isSequence { return try sequence() }
        return [self]
    }

    func strings() throws(ConfigError) -> [String] {
        var out: [String] = []
        for n in try list() { out.append(try n.string()) }
        return out
    }

    /// The node as YAML text again (for handing an inline mapping to a file loader).
    func serialized() -> String {
        (try? Yams.serialize(node: node)) ?? ""
    }

    struct Fields {
        let owner: YNode
        let entries: [(key: String, value: YNode)]
        subscript(_ key: String) -> YNode? { entries.first { $0.key == key }?.value }
        func required(_ key: String) throws(ConfigError) -> YNode {
            guard let v = self[key] else {
                throw ConfigError(file: owner.file, line: owner.line, key: owner.path.isEmpty ? key : "\(owner.path).\(key)",
                                  "missing required key '\(key)'")
            }
            return v
        }
    }
}
