/// A property list in Apple's XML format (an Info.plist, an .entitlements file), each value with its line.
public struct PropertyList: Sendable, Hashable {
    public indirect enum Value: Sendable, Hashable {
        case string(String)
        case integer(String)
        case real(String)
        case bool(Bool)
        case date(String)
        case data(String)
        case array([PropertyList])
        case dict([(key: String, value: PropertyList)])

        public static func == (a: Value, b: Value) -> Bool {
            switch (a, b) {
            case (.string(let x), .string(let y)), (.integer(let x), .integer(let y)), (.real(let x), .real(let y)),
                (.date(let x), .date(let y)), (.data(let x), .data(let y)):
                x == y
            case (.bool(let x), .bool(let y)): x == y
            case (.array(let x), .array(let y)): x == y
            case (.dict(let x), .dict(let y)): x.map(\.key) == y.map(\.key) && x.map(\.value) == y.map(\.value)
            default: false
            }
        }

        public func hash(into h: inout Hasher) {
            switch self {
            case .string(let x), .integer(let x), .real(let x), .date(let x), .data(let x): h.combine(x)
            case .bool(let x): h.combine(x)
            case .array(let x): h.combine(x)
            case .dict(let x): for (k, v) in x { h.combine(k); h.combine(v) }
            }
        }

        /// How the plist names this kind (`string`, `array`, `dict`, …), for error messages.
        public var kind: String {
            switch self {
            case .string: "string"
            case .integer: "integer"
            case .real: "real"
            case .bool: "boolean"
            case .date: "date"
            case .data: "data"
            case .array: "array"
            case .dict: "dict"
            }
        }
    }

    public var value: Value
    public var line: Int

    /// The value of `key` when this is a dict.
    public subscript(key: String) -> PropertyList? {
        guard case .dict(let entries) = value else { return nil }
        return entries.first { $0.key == key }?.value
    }

    public var string: String? { if case .string(let s) = value { s } else { nil } }
    public var array: [PropertyList]? { if case .array(let a) = value { a } else { nil } }
    public var bool: Bool? { if case .bool(let b) = value { b } else { nil } }

    /// Reads an XML property list. A binary one (`bplist00`) is an error saying how to convert it; so is any
    /// element that is not a plist value, or a dict whose keys and values do not alternate.
    public static func read(_ bytes: [UInt8], file: String) throws(AppConfigurationError) -> PropertyList {
        if bytes.starts(with: Array("bplist".utf8)) {
            throw AppConfigurationError(
                file: file,
                message: "is a binary property list; expected the XML form (convert it with `plutil -convert xml1 FILE`)")
        }
        let root = try XMLElementNode.parse(bytes, file: file)
        guard root.name == "plist" else {
            throw AppConfigurationError(
                file: file, line: root.line, message: "expected a <plist> root element, found <\(root.name)>")
        }
        guard root.children.count == 1, let top = root.children.first else {
            throw AppConfigurationError(file: file, line: root.line, message: "expected one value inside <plist>")
        }
        return try value(top, file: file)
    }

    private static func value(_ e: XMLElementNode, file: String) throws(AppConfigurationError) -> PropertyList {
        let v: Value
        switch e.name {
        case "string": v = .string(e.text)
        case "integer": v = .integer(e.text.trimmingTrailingWhitespace)
        case "real": v = .real(e.text.trimmingTrailingWhitespace)
        case "true": v = .bool(true)
        case "false": v = .bool(false)
        case "date": v = .date(e.text)
        case "data": v = .data(e.text)
        case "array":
            var items: [PropertyList] = []
            for c in e.children { items.append(try value(c, file: file)) }
            v = .array(items)
        case "dict":
            var entries: [(key: String, value: PropertyList)] = []
            var i = 0
            while i < e.children.count {
                let k = e.children[i]
                guard k.name == "key" else {
                    throw AppConfigurationError(file: file, line: k.line, message: "expected <key> in <dict>, found <\(k.name)>")
                }
                guard i + 1 < e.children.count else {
                    throw AppConfigurationError(file: file, line: k.line, message: "<key>\(k.text)</key> has no value after it")
                }
                entries.append((k.text, try value(e.children[i + 1], file: file)))
                i += 2
            }
            v = .dict(entries)
        default:
            throw AppConfigurationError(
                file: file, line: e.line,
                message: "expected a plist value (string, integer, real, true, false, date, data, array, dict), found <\(e.name)>"
            )
        }
        return PropertyList(value: v, line: e.line)
    }
}
