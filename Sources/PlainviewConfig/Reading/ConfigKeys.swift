// The keys each strict reader accepts, as a tree, taken from the very lists the readers pass to
// `ConfigNode.fields(_:)`: one place, so the JSON Schemas in schemas/ can be checked against the readers.

/// The keys of one kind of mapping, and for keys whose value holds mappings (directly, as list items or as
/// one of several shapes), the keys of those mappings.
public struct ConfigKeys: Sendable, Hashable {
    public var keys: [String]
    public var nested: [String: ConfigKeys]

    public init(_ keys: [String], nested: [String: ConfigKeys] = [:]) {
        self.keys = keys
        self.nested = nested
    }

    /// The same tree with `keys` at `path` (a key path into `nested`) replaced by `shape`.
    public func replacing(_ path: [String], with shape: ConfigKeys) -> ConfigKeys {
        guard let first = path.first else { return shape }
        var copy = self
        copy.nested[first] = (nested[first] ?? ConfigKeys([])).replacing(Array(path.dropFirst()), with: shape)
        return copy
    }
}
