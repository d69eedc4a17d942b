// Pretty-printed JSON written as it is produced, for outputs that can be large (`extract` on a 50 MB page
// lists hundreds of thousands of links): only one item is ever held as a JSON value, never the document.
#if canImport(Glibc)
import Glibc
#endif
import NavigationPolicy

/// One JSON value, small enough to build for one output item.
enum JSONValue {
    case string(String)
    case int(Int)
    case bool(Bool)
    case null
    case array([JSONValue])
    /// Written with its keys sorted; a nil value leaves the key out (as Codable does for an absent optional).
    case object([(String, JSONValue?)])
}

/// Writes JSON in the layout of Foundation's JSONEncoder with `.prettyPrinted, .sortedKeys,
/// .withoutEscapingSlashes` (two-space indent, `"key" : value`), except that an empty array is `[]`. Strings
/// escape only what JSON requires. Output goes to a file descriptor through a 64 kB buffer.
struct PrettyJSONWriter {
    private let fd: Int32
    private var buffer: [UInt8] = []
    /// The first write error (errno), if any; later writes are dropped.
    private(set) var writeError: Int32?

    init(fd: Int32 = 1) {
        self.fd = fd
        buffer.reserveCapacity(1 << 16)
    }

    mutating func raw(_ s: String) {
        buffer.append(contentsOf: s.utf8)
        if buffer.count >= 1 << 16 { flush() }
    }

    private mutating func newline(_ indent: Int) {
        buffer.append(UInt8(ascii: "\n"))
        buffer.append(contentsOf: repeatElement(UInt8(ascii: " "), count: indent))
    }

    /// `"key" : ` at the current position.
    mutating func key(_ name: String) {
        JSONEscaping.append(name, to: &buffer, htmlSafe: false)
        buffer.append(contentsOf: " : ".utf8)
    }

    mutating func value(_ v: JSONValue, indent: Int) {
        switch v {
        case .string(let s): JSONEscaping.append(s, to: &buffer, htmlSafe: false)
        case .int(let i): buffer.append(contentsOf: String(i).utf8)
        case .bool(let b): buffer.append(contentsOf: (b ? "true" : "false").utf8)
        case .null: buffer.append(contentsOf: "null".utf8)
        case .array(let items): array(items, indent: indent) { $0 }
        case .object(let fields):
            let present = fields.compactMap { k, v in v.map { (k, $0) } }.sorted { $0.0 < $1.0 }
            buffer.append(UInt8(ascii: "{"))
            for (i, (k, v)) in present.enumerated() {
                if i > 0 { buffer.append(UInt8(ascii: ",")) }
                newline(indent + 2)
                key(k)
                value(v, indent: indent + 2)
            }
            newline(indent)
            buffer.append(UInt8(ascii: "}"))
        }
        if buffer.count >= 1 << 16 { flush() }
    }

    /// An array whose items are turned into JSON one at a time, as they are written.
    mutating func array<S: Sequence>(_ items: S, indent: Int, _ json: (S.Element) -> JSONValue) {
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

    /// Writes out what is buffered.
    mutating func flush() {
        defer { buffer.removeAll(keepingCapacity: true) }
        guard writeError == nil else { return }
        var offset = 0
        while offset < buffer.count {
            let n = buffer.withUnsafeBytes { write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if n < 0 {
                if errno == EINTR { continue }
                writeError = errno
                return
            }
            offset += n
        }
    }
}
