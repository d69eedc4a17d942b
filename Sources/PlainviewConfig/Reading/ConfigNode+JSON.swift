// A config document as JSON values, typed the way YAML resolves plain scalars (`13` a number, `true` a
// boolean, `~` null, anything quoted a string): what a JSON Schema validator or an editor sees of the file.
import NavigationPolicy
import Yams
import PlainviewSupport

extension ConfigNode {
    /// The node as a JSON value. Numbers that are not whole become strings (no config key takes one).
    package func jsonValue() -> JSONValue {
        switch node {
        case .scalar(let s):
            if isNull { return .null }
            switch node.tag.description {
            case Tag.Name.int.rawValue: if let i = Int(s.string) { return .int(i) }
            case Tag.Name.bool.rawValue: if let b = try? bool() { return .bool(b) }
            default: break
            }
            return .string(s.string)
        case .mapping(let m):
            return .object(m.map { (k, v) in (k.string ?? "", child(v, key: k.string ?? "").jsonValue()) })
        case .sequence(let items):
            return .array(items.enumerated().map { i, n in item(n, index: i).jsonValue() })
        case .alias:
            return .null
        }
    }
}
