// Reading YAML/JSON config files through Yams' node tree, so every error can name the file, the line and the key.
import Foundation
import Yams

/// One YAML (or JSON) document, with helpers that turn every mistake into a `ConfigError`.
struct ConfigDocument {
    let file: String
    let root: Node

    /// Reads and parses `path` (shown in errors as `displayName`).
    static func load(path: String, displayName: String? = nil) throws -> ConfigDocument {
        let name = displayName ?? path
        guard let data = FileManager.default.contents(atPath: path) else {
            var isDir: ObjCBool = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDir) {
                throw ConfigError(file: name, isDir.boolValue ? "is a directory, expected a YAML or JSON file" : "cannot be read")
            }
            throw ConfigError(file: name, "no such file")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw ConfigError(file: name, "is not UTF-8 text")
        }
        return try parse(text, file: name)
    }

    static func parse(_ text: String, file: String) throws -> ConfigDocument {
        let node: Node?
        do {
            node = try Yams.compose(yaml: text)
        } catch let error as YamlError {
            switch error {
            case .scanner(_, let problem, let mark, _), .parser(_, let problem, let mark, _):
                throw ConfigError(file: file, line: mark.line, "invalid YAML/JSON: \(problem)")
            default:
                throw ConfigError(file: file, "invalid YAML/JSON: \(error)")
            }
        } catch {
            throw ConfigError(file: file, "invalid YAML/JSON: \(error)")
        }
        guard let node else { throw ConfigError(file: file, "is empty, expected a mapping of keys") }
        return ConfigDocument(file: file, root: node)
    }

    func error(_ node: Node?, _ key: String?, _ message: String) -> ConfigError {
        ConfigError(file: file, line: node?.mark?.line, key: key, message)
    }

    static func isNull(_ node: Node) -> Bool {
        guard case .scalar(let s) = node, s.style == .plain else { return false }
        return ["", "~", "null", "Null", "NULL"].contains(s.string)
    }

    /// The pairs of a mapping node; keys must be scalars and among `allowed`.
    func mapping(_ node: Node, at path: String?, allowed: [String]) throws -> [String: Node] {
        guard case .mapping(let m) = node else {
            throw error(node, path, "expected a mapping with keys \(allowed.joined(separator: ", "))")
        }
        var out: [String: Node] = [:]
        for (k, v) in m {
            guard case .scalar(let ks) = k else { throw error(k, path, "keys must be plain strings") }
            let key = ks.string
            let full = path.map { "\($0).\(key)" } ?? key
            guard allowed.contains(key) else {
                throw error(k, full, "unknown key; expected one of \(allowed.joined(separator: ", "))")
            }
            guard out[key] == nil else { throw error(k, full, "duplicate key") }
            out[key] = v
        }
        return out
    }

    func string(_ node: Node?, _ key: String, required: Bool, parent: Node) throws -> String? {
        guard let node, !ConfigDocument.isNull(node) else {
            if required { throw error(parent, key, "missing required key (expected a string)") }
            return nil
        }
        guard case .scalar(let s) = node else { throw error(node, key, "expected a string, found \(kind(node))") }
        return s.string
    }

    func stringList(_ node: Node?, _ key: String) throws -> [String]? {
        guard let node, !ConfigDocument.isNull(node) else { return nil }
        if case .scalar(let s) = node { return [s.string] }
        guard case .sequence(let seq) = node else { throw error(node, key, "expected a list of strings, found \(kind(node))") }
        var out: [String] = []
        for (i, item) in seq.enumerated() {
            guard case .scalar(let s) = item, !ConfigDocument.isNull(item) else {
                throw error(item, "\(key)[\(i)]", "expected a string, found \(kind(item))")
            }
            out.append(s.string)
        }
        return out
    }

    func list(_ node: Node?, _ key: String) throws -> [Node]? {
        guard let node, !ConfigDocument.isNull(node) else { return nil }
        guard case .sequence(let seq) = node else { throw error(node, key, "expected a list, found \(kind(node))") }
        return Array(seq)
    }

    func kind(_ node: Node) -> String {
        switch node {
        case .scalar(let s): "the scalar '\(s.string)'"
        case .mapping: "a mapping"
        case .sequence: "a list"
        case .alias: "an alias"
        }
    }
}
