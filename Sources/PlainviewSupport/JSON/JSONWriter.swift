// The one JSON writer of Plainview's outputs: `decide` lines, `extract`'s document, simulate's reports and
// traces, and goodlist check/diff/learn. Values are built one output item at a time (`JSONValue`, JSONValue.swift) and written
// through `JSONEscaping` (readable: `&`, `<`, `>` are not escaped) in one of two layouts.

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
    // What the hot paths touch is `@usableFromInline`, so that `array(_:indent:objects:)` and `field` are
    // specialised for the caller's element type (without it, every item went through witness calls and copies).
    /// The bytes written and not yet handed to the sink. A writer is used in place (passed `inout`), never copied:
    /// copies would share the buffer.
    @usableFromInline let buffer: JSONBuffer
    /// What is buffered (everything written, without a sink).
    package var bytes: [UInt8] { buffer.bytes }
    /// The object `field` writes into: its indent, and whether a field has been written yet.
    @usableFromInline var objectIndent = 0
    @usableFromInline var objectEmpty = true
    @usableFromInline var sink: (([UInt8]) -> Void)? { buffer.sink }
    @usableFromInline static let chunk = JSONBuffer.chunk

    /// `sink` receives the buffer each time it holds 64 kB, and at `flush()`; without one, `bytes` keeps all.
    /// With a sink the buffer never grows past 64 kB: a long string (an 8 MB textarea's value) is handed over in
    /// 64 kB pieces as it is escaped.
    package init(_ layout: Layout, sink: (([UInt8]) -> Void)? = nil) {
        self.layout = layout
        self.buffer = JSONBuffer(sink: sink)
    }

    /// One value in the compact layout, as text.
    package static func line(_ value: JSONValue) -> String {
        var w = JSONWriter(.compact)
        w.value(value)
        return String(decoding: w.bytes, as: UTF8.self)
    }

    package mutating func raw(_ s: String) {
        buffer.appendUTF8(s)
        spill()
    }

    /// `"key" : ` (pretty) or `"key":` (compact) at the current position.
    package mutating func key(_ name: String) {
        buffer.appendString(name)
        buffer.appendUTF8(layout == .pretty ? " : " : ":")
    }

    package mutating func value(_ v: JSONValue, indent: Int = 0) {
        switch v {
        case .string(let s): buffer.appendString(s)
        case .int(let i): appendDecimal(i)
        case .bool(let b): buffer.appendUTF8(b ? "true" : "false")
        case .null: buffer.appendUTF8("null")
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
        buffer.append(UInt8(ascii: "{"))
        var first = true
        for (k, v) in fields {
            guard let v else { continue }
            if !first { buffer.append(UInt8(ascii: ",")) }
            first = false
            newline(indent + 2)
            key(k)
            value(v, indent: indent + 2)
        }
        newline(indent)
        buffer.append(UInt8(ascii: "}"))
    }

    /// An array of objects written straight from `items`, field by field (`fields` calls `field` on the writer it
    /// is given), with no `JSONValue` built per item. Fields are written in the order given, so the pretty
    /// layout needs them given in key order.
    @inlinable
    package mutating func array<S: Sequence>(_ items: S, indent: Int = 0, objects fields: (S.Element, inout JSONWriter) -> Void) {
        buffer.append(UInt8(ascii: "["))
        var empty = true
        let saved = (objectIndent, objectEmpty)
        for item in items {
            if !empty { buffer.append(UInt8(ascii: ",")) }
            empty = false
            newline(indent + 2)
            buffer.append(UInt8(ascii: "{"))
            (objectIndent, objectEmpty) = (indent + 2, true)
            fields(item, &self)
            newline(indent + 2)
            buffer.append(UInt8(ascii: "}"))
            spill()
        }
        (objectIndent, objectEmpty) = saved
        if !empty { newline(indent) }
        buffer.append(UInt8(ascii: "]"))
    }

    /// A field of the object `array(_:indent:objects:)` is writing; a nil value leaves the key out. Names are
    /// literals (ASCII that needs no escape), written as they are.
    @inlinable
    package mutating func field(_ name: StaticString, _ value: String?) {
        guard let value else { return }
        fieldKey(name)
        buffer.appendString(value)
    }

    @inlinable
    package mutating func field(_ name: StaticString, _ value: Int?) {
        guard let value else { return }
        fieldKey(name)
        appendDecimal(value)
    }

    @inlinable
    package mutating func field(_ name: StaticString, _ value: Bool) {
        fieldKey(name)
        buffer.appendUTF8(value ? "true" : "false")
    }

    /// Any value (`.null` writes `null`; nil leaves the key out).
    package mutating func field(_ name: StaticString, _ value: JSONValue?) {
        guard let value else { return }
        fieldKey(name)
        self.value(value, indent: objectIndent)
    }

    @inlinable
    mutating func fieldKey(_ name: StaticString) {
        if !objectEmpty { buffer.append(UInt8(ascii: ",")) }
        objectEmpty = false
        newline(objectIndent + 2)
        let literal = UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount)
        assert(literal.allSatisfy { $0 >= 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") })
        buffer.append(UInt8(ascii: "\""))
        buffer.append(literal)
        let colon: StaticString = layout == .pretty ? "\" : " : "\":"
        buffer.append(UnsafeBufferPointer(start: colon.utf8Start, count: colon.utf8CodeUnitCount))
    }

    /// An array whose items are turned into JSON one at a time, as they are written.
    package mutating func array<S: Sequence>(_ items: S, indent: Int = 0, _ json: (S.Element) -> JSONValue) {
        buffer.append(UInt8(ascii: "["))
        var empty = true
        for item in items {
            if !empty { buffer.append(UInt8(ascii: ",")) }
            empty = false
            newline(indent + 2)
            value(json(item), indent: indent + 2)
        }
        if !empty { newline(indent) }
        buffer.append(UInt8(ascii: "]"))
    }

    /// Hands what is buffered to the sink.
    @inlinable
    package mutating func flush() {
        buffer.drain()
    }

    @inlinable
    mutating func newline(_ indent: Int) {
        guard layout == .pretty else { return }
        // A line break and the indent, in one append while the indent is short (it always is in Plainview's output).
        let lineStart: StaticString = "\n                                "
        if indent < lineStart.utf8CodeUnitCount {
            buffer.append(UnsafeBufferPointer(start: lineStart.utf8Start, count: indent + 1))
            return
        }
        buffer.append(UInt8(ascii: "\n"))
        for _ in 0..<indent { buffer.append(UInt8(ascii: " ")) }
    }

    /// `i` in decimal, written straight into the buffer (no String per number).
    @usableFromInline
    mutating func appendDecimal(_ i: Int) {
        if i < 0 { buffer.append(UInt8(ascii: "-")) }
        var m = i.magnitude
        var digits:
            (
                UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8
            ) =
                (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var n = 0
        withUnsafeMutableBytes(of: &digits) { d in
            repeat {
                d[19 - n] = UInt8(ascii: "0") + UInt8(m % 10)
                m /= 10
                n += 1
            } while m > 0
            let digits = UnsafeRawBufferPointer(rebasing: d[(20 - n)...])
            buffer.append(digits.assumingMemoryBound(to: UInt8.self))
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

    @inlinable
    mutating func spill() {
        if sink != nil, buffer.count >= Self.chunk { flush() }
    }
}

/// The writer's bytes: a growing buffer written with plain copies (an array's append checks uniqueness and
/// capacity on every call, which cost more than the bytes themselves in `extract`'s output).
@usableFromInline
final class JSONBuffer {
    @exclusivity(unchecked) @usableFromInline var base: UnsafeMutablePointer<UInt8>
    @exclusivity(unchecked) @usableFromInline var count = 0
    @exclusivity(unchecked) @usableFromInline var capacity: Int

    /// Where full buffers go; nil keeps every byte (the buffer grows instead).
    @usableFromInline let sink: (([UInt8]) -> Void)?
    @usableFromInline static let chunk = 1 << 16

    @usableFromInline init(sink: (([UInt8]) -> Void)?) {
        self.sink = sink
        capacity = sink == nil ? 1 << 12 : Self.chunk
        base = .allocate(capacity: capacity)
    }

    /// Hands what is buffered to the sink (nothing without one).
    @usableFromInline func drain() {
        guard let sink, count > 0 else { return }
        sink(bytes)
        count = 0
    }

    deinit { base.deallocate() }

    @usableFromInline var bytes: [UInt8] { Array(UnsafeBufferPointer(start: base, count: count)) }

    @inlinable func append(_ b: UInt8) {
        if count == capacity { makeRoom(1) }
        base[count] = b
        count += 1
    }

    @inlinable func append(_ p: UnsafeBufferPointer<UInt8>) {
        guard let from = p.baseAddress, p.count > 0 else { return }
        if capacity - count < p.count {
            // With a sink, a run longer than the buffer goes to it in buffer-sized pieces, never held whole.
            if sink != nil, p.count > capacity {
                drain()
                var start = 0
                while start < p.count {
                    let end = min(start + capacity, p.count)
                    sink!(Array(UnsafeBufferPointer(start: from + start, count: end - start)))
                    start = end
                }
                return
            }
            makeRoom(p.count)
        }
        (base + count).update(from: from, count: p.count)
        count += p.count
    }

    @usableFromInline func appendUTF8(_ s: String) {
        var s = s
        s.withUTF8 { append($0) }
    }

    /// `s` as a JSON string literal, escaped as `JSONEscaping.append(_:to:htmlSafe: false)` does.
    @usableFromInline func appendString(_ s: String) {
        var s = s
        s.withUTF8 { utf8 in
            append(UInt8(ascii: "\""))
            JSONEscaping.escape(utf8, htmlSafe: false, runs: { append($0) }, byte: { append($0) })
            append(UInt8(ascii: "\""))
        }
    }

    /// Room for `n` more bytes: with a sink the buffer is handed over (`n` never exceeds its capacity then),
    /// without one it grows.
    @usableFromInline func makeRoom(_ n: Int) {
        if sink != nil, count > 0 {
            drain()
            if capacity >= n { return }
        }
        grow(n)
    }

    @usableFromInline func grow(_ n: Int) {
        let bigger = max(capacity * 2, count + n)
        let new = UnsafeMutablePointer<UInt8>.allocate(capacity: bigger)
        new.update(from: base, count: count)
        base.deallocate()
        base = new
        capacity = bigger
    }
}
