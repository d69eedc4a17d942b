// Where JSON text first breaks the grammar: shared by the AASA reader and the app-switch protocols.

/// Finds where JSON text first breaks the grammar, to say so in an error (the platform decoder on Linux
/// reports only "not valid JSON"). Iterative: no recursion, whatever the nesting.
package enum JSONSyntax {
    private enum State { case value, valueOrClose, keyOrClose, key, colon, commaOrClose, end }

    /// Foundation's JSONDecoder refuses deeper nesting.
    package static let maximumDepth = 512

    /// "line L, column C: what was expected", or nil when the text is well-formed JSON.
    package static func firstError(in bytes: [UInt8]) -> String? {
        var stack: [UInt8] = []
        var state = State.value
        var i = 0
        func afterValue() -> State { stack.isEmpty ? .end : .commaOrClose }
        func at(_ index: Int, _ message: String) -> String {
            var line = 1, column = 1
            for b in bytes[..<min(index, bytes.count)] {
                if b == UInt8(ascii: "\n") { line += 1; column = 1 } else if b & 0xC0 != 0x80 { column += 1 }
            }
            return "line \(line), column \(column): \(message)"
        }
        /// Scans a string starting at the opening quote; returns the index after the closing quote.
        func string(_ start: Int) -> Int? {
            var j = start + 1
            while j < bytes.count {
                switch bytes[j] {
                case UInt8(ascii: "\""): return j + 1
                case UInt8(ascii: "\\"): j += 2
                case 0..<0x20: return nil
                default: j += 1
                }
            }
            return nil
        }
        func literal(_ start: Int) -> Int? {
            for word in ["true", "false", "null"] {
                let w = Array(word.utf8)
                if bytes.count - start >= w.count, Array(bytes[start..<(start + w.count)]) == w { return start + w.count }
            }
            return nil
        }
        func number(_ start: Int) -> Int {
            var j = start
            let numberBytes = Array("0123456789+-.eE".utf8)
            while j < bytes.count, numberBytes.contains(bytes[j]) { j += 1 }
            return j
        }
        while i < bytes.count {
            let c = bytes[i]
            if c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D { i += 1; continue }
            switch state {
            case .value, .valueOrClose:
                if state == .valueOrClose, c == UInt8(ascii: "]") { stack.removeLast(); i += 1; state = afterValue(); continue }
                switch c {
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    // The platform decoder stops at this depth and reports only "not valid JSON".
                    if stack.count == maximumDepth { return at(i, "nested more than \(maximumDepth) levels deep") }
                    stack.append(c); i += 1; state = c == UInt8(ascii: "{") ? .keyOrClose : .valueOrClose
                case UInt8(ascii: "\""):
                    guard let next = string(i) else { return at(i, "unterminated string or a control character in it") }
                    i = next; state = afterValue()
                case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): i = number(i); state = afterValue()
                default:
                    guard let next = literal(i) else { return at(i, "expected a value") }
                    i = next; state = afterValue()
                }
            case .keyOrClose, .key:
                if state == .keyOrClose, c == UInt8(ascii: "}") { stack.removeLast(); i += 1; state = afterValue(); continue }
                guard c == UInt8(ascii: "\""), let next = string(i) else {
                    return at(i, state == .key ? "expected a key after ',' (a trailing comma?)" : "expected a key or '}'")
                }
                i = next; state = .colon
            case .colon:
                guard c == UInt8(ascii: ":") else { return at(i, "expected ':'") }
                i += 1; state = .value
            case .commaOrClose:
                let top = stack.last ?? 0
                if c == UInt8(ascii: ",") { i += 1; state = top == UInt8(ascii: "{") ? .key : .value; continue }
                if (c == UInt8(ascii: "}") && top == UInt8(ascii: "{")) || (c == UInt8(ascii: "]") && top == UInt8(ascii: "[")) {
                    stack.removeLast(); i += 1; state = afterValue(); continue
                }
                return at(
                    i,
                    top == UInt8(ascii: "{") ? "expected ',' or '}' (a missing comma?)" : "expected ',' or ']' (a missing comma?)"
                )
            case .end:
                return at(i, "unexpected text after the JSON value")
            }
        }
        return state == .end ? nil : at(bytes.count, "unexpected end of the text")
    }
}
