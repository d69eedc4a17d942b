// The one JSON writer of Plainview's outputs: `decide` lines, `extract`'s document, simulate's reports and
// traces, and goodlist check/diff/learn. Values are built one output item at a time (`JSONValue`) and written
// through `JSONEscaping` (readable: `&`, `<`, `>` are not escaped) in one of two layouts.

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

/// Writes JSON into a byte buffer, handing full buffers to `sink` (so a huge output is never held whole).
package struct JSONWriter {
    package enum Layout: Sendable {
        /// One line, keys in the order given, no spaces: `{"url":"…","action":"allow"}`.
        case compact
        /// Foundation's JSONEncoder layout with `.prettyPrinted, .sortedKeys, .withoutEscapingSlashes`
        /// (two-space indent, `"key" : value`), except that an empty array is `[]`.
        case pretty
    }

    package let layout: Layout
    package private(set) var bytes: [UInt8] = []
    private let sink: (([UInt8]) -> Void)?
    private static let chunk = 1 << 16

    /// `sink` receives the buffer each time it holds 64 kB, and at `flush()`; without one, `bytes` keeps all.
    package init(_ layout: Layout, sink: (([UInt8]) -> Void)? = nil) {
        self.layout = layout
        self.sink = sink
        if sink != nil { bytes.reserveCapacity(Self.chunk) }
    }

    /// One value in the compact layout, as text.
    package static func line(_ value: JSONValue) -> String {
        var w = JSONWriter(.compact)
        w.value(value)
        return String(decoding: w.bytes, as: UTF8.self)
    }

    package mutating func raw(_ s: String) {
        bytes.append(contentsOf: s.utf8)
        spill()
    }

    /// `"key" : ` (pretty) or `"key":` (compact) at the current position.
    package mutating func key(_ name: String) {
        JSONEscaping.append(name, to: &bytes, htmlSafe: false)
        bytes.append(contentsOf: layout == .pretty ? " : ".utf8 : ":".utf8)
    }

    package mutating func value(_ v: JSONValue, indent: Int = 0) {
        switch v {
        case .string(let s): JSONEscaping.append(s, to: &bytes, htmlSafe: false)
        case .int(let i): bytes.append(contentsOf: String(i).utf8)
        case .bool(let b): bytes.append(contentsOf: (b ? "true" : "false").utf8)
        case .null: bytes.append(contentsOf: "null".utf8)
        case .array(let items): array(items, indent: indent) { $0 }
        case .object(let fields):
            var present = fields.compactMap { k, v in v.map { (k, $0) } }
            if layout == .pretty, !zip(present, present.dropFirst()).allSatisfy({ $0.0 < $1.0 }) { present.sort { $0.0 < $1.0 } }
            bytes.append(UInt8(ascii: "{"))
            for (i, (k, v)) in present.enumerated() {
                if i > 0 { bytes.append(UInt8(ascii: ",")) }
                newline(indent + 2)
                key(k)
                value(v, indent: indent + 2)
            }
            newline(indent)
            bytes.append(UInt8(ascii: "}"))
        }
        spill()
    }

    /// An array whose items are turned into JSON one at a time, as they are written.
    package mutating func array<S: Sequence>(_ items: S, indent: Int = 0, _ json: (S.Element) -> JSONValue) {
        bytes.append(UInt8(ascii: "["))
        var empty = true
        for item in items {
            if !empty { bytes.append(UInt8(ascii: ",")) }
            empty = false
            newline(indent + 2)
            value(json(item), indent: indent + 2)
        }
        if !empty { newline(indent) }
        bytes.append(UInt8(ascii: "]"))
    }

    /// Hands what is buffered to the sink.
    package mutating func flush() {
        guard let sink, !bytes.isEmpty else { return }
        sink(bytes)
        bytes.removeAll(keepingCapacity: true)
    }

    private mutating func newline(_ indent: Int) {
        guard layout == .pretty else { return }
        bytes.append(UInt8(ascii: "\n"))
        bytes.append(contentsOf: repeatElement(UInt8(ascii: " "), count: indent))
    }

    private mutating func spill() {
        if sink != nil, bytes.count >= Self.chunk { flush() }
    }
}
