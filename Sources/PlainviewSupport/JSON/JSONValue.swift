// One JSON value of Plainview's outputs, built one output item at a time and written by JSONWriter.

/// One JSON value, small enough to build for one output item.
package enum JSONValue: Sendable {
    case string(String)
    case int(Int)
    case bool(Bool)
    case null
    case array([JSONValue])
    /// A nil value leaves the key out (as Codable does for an absent optional); `.null` writes `null`.
    case object([(String, JSONValue?)])

    /// The string, or `null`.
    package static func string(orNull s: String?) -> JSONValue { s.map { .string($0) } ?? .null }
    /// The number, or `null`.
    package static func int(orNull n: Int?) -> JSONValue { n.map { .int($0) } ?? .null }
}
