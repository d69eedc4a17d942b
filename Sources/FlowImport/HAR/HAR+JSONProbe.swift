// Finds where and why JSON is invalid, for error messages (JSONDecoder only says "not valid JSON").
// Runs only after decoding failed. Iterative (an explicit stack), so deep nesting cannot overflow.
import Foundation

enum JSONProbe {
    struct Problem: Equatable {
        var offset: Int
        var line: Int
        var column: Int
        var message: String
    }

    static func firstProblem(in data: Data) -> Problem? {
        data.withUnsafeBytes { raw in
            let b = raw.bindMemory(to: UInt8.self)
            return scan(b)
        }
    }

    private enum State { case value, objectKeyOrEnd, objectKey, colon, commaOrEnd, done }

    private static func scan(_ b: UnsafeBufferPointer<UInt8>) -> Problem? {
        var i = 0
        var line = 1
        var lineStart = 0
        var stack: [UInt8] = [] // '{' or '['
        var state = State.value
        var firstValueInArray = false

        func problem(_ message: String, at offset: Int) -> Problem {
            // Columns count bytes from the line start, 1-based.
            Problem(offset: offset, line: line, column: offset - lineStart + 1, message: message)
        }
        func describe(_ c: UInt8) -> String {
            if c >= 0x21, c < 0x7F { return "'\(Character(UnicodeScalar(c)))'" }
            return "byte 0x\(String(c, radix: 16, uppercase: true))"
        }
        func truncated(_ expected: String) -> Problem {
            var p = problem("the file ends early (truncated?); expected \(expected)", at: b.count)
            if !stack.isEmpty { p.message += "; \(stack.count) open bracket(s) unclosed" }
            return p
        }

        while true {
            // whitespace
            while i < b.count {
                let c = b[i]
                if c == 0x0A {
                    line += 1
                    lineStart = i + 1
                } else if c != 0x20, c != 0x09, c != 0x0D {
                    break
                }
                i += 1
            }
            if i >= b.count {
                switch state {
                case .done: return nil
                case .value: return truncated(stack.isEmpty && i == 0 ? "a JSON value (the file is empty)" : "a value")
                case .objectKeyOrEnd, .objectKey: return truncated("a \"key\"")
                case .colon: return truncated("':'")
                case .commaOrEnd: return truncated(stack.last == 0x7B ? "',' or '}'" : "',' or ']'")
                }
            }
            let c = b[i]
            switch state {
            case .done:
                return problem("unexpected \(describe(c)) after the end of the JSON value", at: i)
            case .colon:
                guard c == 0x3A else { return problem("unexpected \(describe(c)); expected ':'", at: i) }
                i += 1
                state = .value
            case .commaOrEnd:
                if c == 0x2C {
                    i += 1
                    state = stack.last == 0x7B ? .objectKey : .value
                    firstValueInArray = false
                } else if (c == 0x7D && stack.last == 0x7B) || (c == 0x5D && stack.last == 0x5B) {
                    i += 1
                    stack.removeLast()
                    state = stack.isEmpty ? .done : .commaOrEnd
                } else {
                    return problem(
                        "unexpected \(describe(c)); expected \(stack.last == 0x7B ? "',' or '}'" : "',' or ']'")", at: i)
                }
            case .objectKeyOrEnd, .objectKey:
                if c == 0x7D, state == .objectKeyOrEnd {
                    i += 1
                    stack.removeLast()
                    state = stack.isEmpty ? .done : .commaOrEnd
                } else if c == 0x22 {
                    if let p = scanString(b, &i, problem) { return p }
                    state = .colon
                } else {
                    return problem("unexpected \(describe(c)); expected a \"key\"", at: i)
                }
            case .value:
                switch c {
                case 0x7B:
                    stack.append(c)
                    i += 1
                    state = .objectKeyOrEnd
                case 0x5B:
                    stack.append(c)
                    i += 1
                    firstValueInArray = true
                    state = .value
                case 0x5D where firstValueInArray:
                    i += 1
                    stack.removeLast()
                    firstValueInArray = false
                    state = stack.isEmpty ? .done : .commaOrEnd
                case 0x22:
                    if let p = scanString(b, &i, problem) { return p }
                    firstValueInArray = false
                    state = stack.isEmpty ? .done : .commaOrEnd
                case 0x2D, 0x30...0x39:
                    let start = i
                    i += 1
                    while i < b.count, (0x30...0x39).contains(b[i]) || [0x2E, 0x65, 0x45, 0x2B, 0x2D].contains(b[i]) { i += 1 }
                    if i - start == 1, c == 0x2D { return problem("'-' not followed by digits; expected a number", at: start) }
                    firstValueInArray = false
                    state = stack.isEmpty ? .done : .commaOrEnd
                case 0x74, 0x66, 0x6E:
                    let word: [UInt8] = c == 0x74 ? Array("true".utf8) : c == 0x66 ? Array("false".utf8) : Array("null".utf8)
                    for (k, w) in word.enumerated() {
                        guard i + k < b.count else { return truncated("'\(String(decoding: word, as: UTF8.self))'") }
                        guard b[i + k] == w else {
                            return problem("unexpected \(describe(b[i + k])); expected a value", at: i + k)
                        }
                    }
                    i += word.count
                    firstValueInArray = false
                    state = stack.isEmpty ? .done : .commaOrEnd
                default:
                    return problem("unexpected \(describe(c)); expected a value", at: i)
                }
            }
        }
    }

    /// Scans a string starting at the opening quote; validates escapes, surrogate pairs and UTF-8.
    private static func scanString(
        _ b: UnsafeBufferPointer<UInt8>, _ i: inout Int,
        _ problem: (String, Int) -> Problem
    ) -> Problem? {
        let open = i
        i += 1
        func hex4(_ at: Int) -> UInt32? {
            guard at + 4 <= b.count else { return nil }
            var v: UInt32 = 0
            for k in 0..<4 {
                let c = b[at + k]
                let d: UInt32
                switch c {
                case 0x30...0x39: d = UInt32(c - 0x30)
                case 0x41...0x46: d = UInt32(c - 0x41 + 10)
                case 0x61...0x66: d = UInt32(c - 0x61 + 10)
                default: return nil
                }
                v = v * 16 + d
            }
            return v
        }
        while i < b.count {
            let c = b[i]
            if c == 0x22 {
                i += 1
                return nil
            }
            if c == 0x5C {
                guard i + 1 < b.count else { break }
                let e = b[i + 1]
                if e == 0x75 {
                    guard let u = hex4(i + 2) else {
                        if i + 6 > b.count { break }
                        return problem("invalid \\u escape; expected four hex digits", i)
                    }
                    if (0xD800...0xDBFF).contains(u) {
                        guard i + 12 <= b.count, b[i + 6] == 0x5C, b[i + 7] == 0x75, let lo = hex4(i + 8),
                            (0xDC00...0xDFFF).contains(lo)
                        else {
                            return problem(
                                "unpaired surrogate escape \\u\(String(u, radix: 16)); expected a low surrogate \\uDC00…\\uDFFF after it (the recorder wrote invalid Unicode)",
                                i)
                        }
                        i += 12
                    } else if (0xDC00...0xDFFF).contains(u) {
                        return problem(
                            "unpaired low surrogate escape \\u\(String(u, radix: 16)) (the recorder wrote invalid Unicode)", i)
                    } else {
                        i += 6
                    }
                } else if [0x22, 0x5C, 0x2F, 0x62, 0x66, 0x6E, 0x72, 0x74].contains(e) {
                    i += 2
                } else {
                    return problem("invalid escape '\\\(Character(UnicodeScalar(e)))' in a string", i)
                }
                continue
            }
            if c < 0x20 {
                return problem(
                    "control character 0x\(String(c, radix: 16)) inside a string (a raw line break?); expected it escaped", i)
            }
            if c < 0x80 {
                i += 1
                continue
            }
            // UTF-8 multi-byte sequence.
            let need: Int
            switch c {
            case 0xC2...0xDF: need = 1
            case 0xE0...0xEF: need = 2
            case 0xF0...0xF4: need = 3
            default:
                return problem(
                    "not UTF-8 (byte 0x\(String(c, radix: 16, uppercase: true)) at byte offset \(i)); HAR files are UTF-8 JSON: re-export, or convert with iconv",
                    i)
            }
            guard i + need < b.count else { break }
            for k in 1...need where b[i + k] & 0xC0 != 0x80 {
                return problem(
                    "not UTF-8 (byte 0x\(String(c, radix: 16, uppercase: true)) at byte offset \(i) starts a sequence that is cut short); HAR files are UTF-8 JSON: re-export, or convert with iconv",
                    i)
            }
            i += need + 1
        }
        return problem("the file ends inside a string (truncated?); the string starts here and has no closing '\"'", open)
    }
}
