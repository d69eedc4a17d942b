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
    /// The object `field` writes into: its indent, and whether a field has been written yet.
    private var objectIndent = 0
    private var objectEmpty = true
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
        case .int(let i): appendDecimal(i)
        case .bool(let b): bytes.append(contentsOf: (b ? "true" : "false").utf8)
        case .null: bytes.append(contentsOf: "null".utf8)
        case .array(let items): array(items, indent: indent) { $0 }
        case .object(let fields):
            // Fields already in key order (or the compact layout, which keeps the given order) are written as they
            // are; only an out-of-order pretty object is sorted first.
            if layout == .pretty, !Self.presentKeysSorted(fields) {
                object(fields.compactMap { k, v in v.map { (k, Optional($0)) } }.sorted { $0.0 < $1.0 }, indent: indent)
            } else {
                object(fields, indent: indent)
            }
        }
        spill()
    }

    /// The fields in the order given, nil ones left out.
    private mutating func object(_ fields: [(String, JSONValue?)], indent: Int) {
        bytes.append(UInt8(ascii: "{"))
        var first = true
        for (k, v) in fields {
            guard let v else { continue }
            if !first { bytes.append(UInt8(ascii: ",")) }
            first = false
            newline(indent + 2)
            key(k)
            value(v, indent: indent + 2)
        }
        newline(indent)
        bytes.append(UInt8(ascii: "}"))
    }

    /// An array of objects written straight from `items`, field by field (`fields` calls `field` on the writer it
    /// is given), with no `JSONValue` built per item. Fields are written in the order given, so the pretty
    /// layout needs them given in key order.
    package mutating func array<S: Sequence>(_ items: S, indent: Int = 0, objects fields: (S.Element, inout JSONWriter) -> Void) {
        bytes.append(UInt8(ascii: "["))
        var empty = true
        let saved = (objectIndent, objectEmpty)
        for item in items {
            if !empty { bytes.append(UInt8(ascii: ",")) }
            empty = false
            newline(indent + 2)
            bytes.append(UInt8(ascii: "{"))
            (objectIndent, objectEmpty) = (indent + 2, true)
            fields(item, &self)
            newline(indent + 2)
            bytes.append(UInt8(ascii: "}"))
            spill()
        }
        (objectIndent, objectEmpty) = saved
        if !empty { newline(indent) }
        bytes.append(UInt8(ascii: "]"))
    }

    /// A field of the object `array(_:indent:objects:)` is writing; a nil value leaves the key out.
    package mutating func field(_ name: String, _ value: String?) {
        guard let value else { return }
        fieldKey(name)
        JSONEscaping.append(value, to: &bytes, htmlSafe: false)
    }

    package mutating func field(_ name: String, _ value: Int?) {
        guard let value else { return }
        fieldKey(name)
        appendDecimal(value)
    }

    package mutating func field(_ name: String, _ value: Bool) {
        fieldKey(name)
        bytes.append(contentsOf: (value ? "true" : "false").utf8)
    }

    /// Any value (`.null` writes `null`; nil leaves the key out).
    package mutating func field(_ name: String, _ value: JSONValue?) {
        guard let value else { return }
        fieldKey(name)
        self.value(value, indent: objectIndent)
    }

    private mutating func fieldKey(_ name: String) {
        if !objectEmpty { bytes.append(UInt8(ascii: ",")) }
        objectEmpty = false
        newline(objectIndent + 2)
        key(name)
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
        var left = indent
        while left > 0 {
            let n = min(left, Self.spaces.count)
            bytes.append(contentsOf: Self.spaces[..<n])
            left -= n
        }
    }

    private static let spaces = [UInt8](repeating: UInt8(ascii: " "), count: 32)

    /// `i` in decimal, written straight into the buffer (no String per number).
    private mutating func appendDecimal(_ i: Int) {
        if i < 0 { bytes.append(UInt8(ascii: "-")) }
        var m = i.magnitude
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                      UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var n = 0
        withUnsafeMutableBytes(of: &digits) { d in
            repeat {
                d[19 - n] = UInt8(ascii: "0") + UInt8(m % 10)
                m /= 10
                n += 1
            } while m > 0
            bytes.append(contentsOf: d[(20 - n)...])
        }
    }

    /// True when the keys of the non-nil fields are in ascending order.
    private static func presentKeysSorted(_ fields: [(String, JSONValue?)]) -> Bool {
        var previous: String?
        for (k, v) in fields where v != nil {
            if let p = previous, !(p < k) { return false }
            previous = k
        }
        return true
    }

    private mutating func spill() {
        if sink != nil, bytes.count >= Self.chunk { flush() }
    }
}
