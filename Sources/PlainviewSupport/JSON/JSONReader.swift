// The one JSON reader: a pull reader that hands over one value at a time, in file order, from bytes held in
// memory or read piece by piece (a file). The caller decodes what it needs and skips the rest, so a reader
// holds one buffer of input and the string being decoded, whatever the size of the document; nothing is
// built for the values skipped. Iterative: no recursion, whatever the nesting.
//
// Errors (`JSONReader.Failure`) say where (byte offset, line, byte column) and what was expected. Strings are
// checked when decoded: invalid UTF-8 and unpaired surrogate escapes are errors of the string read (the
// reader moves past it and can go on), never of a string skipped.

/// A pull reader of JSON. Used in place: `object` and `array` call back for each member, the other calls
/// read one value. A member the callback leaves unread is skipped.
package final class JSONReader {
    package enum Kind: Sendable, Hashable {
        case object, array, string, number, bool, null
    }

    /// Where and why the input is not JSON, or a string read is not valid text.
    package struct Failure: Error, Sendable, Hashable, CustomStringConvertible {
        /// Bytes from the start of the input.
        package var offset: Int
        /// 1-based line and column; the column counts bytes from the start of the line.
        package var line: Int
        package var column: Int
        package var message: String
        /// True when the JSON is well-formed but the string read is not valid text (invalid UTF-8 or an unpaired
        /// surrogate escape): the reader has moved past the string and can go on.
        package var isContent: Bool

        package var description: String { "line \(line), column \(column): \(message)" }
    }

    /// Hands the reader up to `buffer.count` more bytes; 0 at the end of the input.
    package typealias Source = (UnsafeMutableRawBufferPointer) throws -> Int

    private var buffer: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    private var pos = 0
    private var end = 0
    /// The input offset of `buffer[0]`.
    private var base = 0
    private var line = 1
    /// The input offset where the current line starts.
    private var lineStart = 0
    private var atEOF = false
    private let source: Source?
    /// Containers open around the reader (`{` or `[`), for messages.
    private var open = 0
    /// Values read (or skipped) so far, counted when each ends: `object` and `array` skip a member whose
    /// callback left the count unchanged.
    private var valuesRead = 0
    /// The string bytes decoded last (reused between strings).
    private var scratch: [UInt8] = []

    /// A reader over bytes in memory.
    package init<Bytes: Collection>(bytes: Bytes) where Bytes.Element == UInt8 {
        capacity = Swift.max(bytes.count, 1)
        buffer = .allocate(capacity: capacity)
        _ = UnsafeMutableBufferPointer(start: buffer, count: capacity).initialize(from: bytes)
        end = bytes.count
        atEOF = true
        source = nil
    }

    /// A reader that pulls its input from `source` in pieces of up to `chunk` bytes.
    package init(chunk: Int = 1 << 16, source: @escaping Source) {
        capacity = Swift.max(chunk, 64)
        buffer = .allocate(capacity: capacity)
        self.source = source
    }

    deinit { buffer.deallocate() }

    /// The input offset of the next byte.
    package var offset: Int { base + pos }

    // MARK: - Reading values

    /// The kind of the next value, without reading it.
    package func peek() throws -> Kind {
        try skipWhitespace()
        guard try ensure(1) else { throw truncated("a value") }
        switch buffer[pos] {
        case UInt8(ascii: "{"): return .object
        case UInt8(ascii: "["): return .array
        case UInt8(ascii: "\""): return .string
        case UInt8(ascii: "t"), UInt8(ascii: "f"): return .bool
        case UInt8(ascii: "n"): return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number
        case let c: throw failure("unexpected \(describe(c)); expected a value", at: offset)
        }
    }

    /// Reads an object, calling `member` with each key, the reader at its value. Throws when the next value is
    /// not an object (`peek` first to tell).
    package func object(_ member: (String) throws -> Void) throws {
        try skipWhitespace()
        try expect(UInt8(ascii: "{"), "'{'")
        open += 1
        try skipWhitespace()
        guard try ensure(1) else { throw truncated("a \"key\" or '}'") }
        if buffer[pos] == UInt8(ascii: "}") {
            pos += 1
            return closed()
        }
        while true {
            try skipWhitespace()
            guard try ensure(1) else { throw truncated("a \"key\"") }
            guard buffer[pos] == UInt8(ascii: "\"") else {
                throw failure("unexpected \(describe(buffer[pos])); expected a \"key\"", at: offset)
            }
            var key = "\u{FFFD}" // a key that is not valid text names no field the caller reads
            do {
                try decodeString()
                key = String(decoding: scratch, as: UTF8.self)
            } catch let error as Failure where error.isContent {}
            try skipWhitespace()
            try expect(UInt8(ascii: ":"), "':'")
            let before = valuesRead
            try member(key)
            if valuesRead == before { try skip() }
            if try endOfMember(close: UInt8(ascii: "}")) { return closed() }
        }
    }

    /// Reads an array, calling `element` with each index, the reader at the element.
    package func array(_ element: (Int) throws -> Void) throws {
        try skipWhitespace()
        try expect(UInt8(ascii: "["), "'['")
        open += 1
        try skipWhitespace()
        guard try ensure(1) else { throw truncated("a value or ']'") }
        if buffer[pos] == UInt8(ascii: "]") {
            pos += 1
            return closed()
        }
        var index = 0
        while true {
            let before = valuesRead
            try element(index)
            if valuesRead == before { try skip() }
            index += 1
            if try endOfMember(close: UInt8(ascii: "]")) { return closed() }
        }
    }

    /// Reads a string (decoding escapes, checking UTF-8 and surrogate pairs).
    package func string() throws -> String {
        try skipWhitespace()
        try decodeString()
        return String(decoding: scratch, as: UTF8.self)
    }

    /// Reads a string as its UTF-8 bytes (for bodies: no String is made).
    package func stringBytes() throws -> [UInt8] {
        try skipWhitespace()
        try decodeString()
        return scratch
    }

    /// Reads a number as written (`-1.5e3`).
    package func numberText() throws -> String {
        try skipWhitespace()
        guard try ensure(1) else { throw truncated("a number") }
        let start = offset
        var text: [UInt8] = []
        while try ensure(1) {
            let c = buffer[pos]
            guard
                (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(c) || c == UInt8(ascii: "-") || c == UInt8(ascii: "+")
                    || c == UInt8(ascii: ".") || c == UInt8(ascii: "e") || c == UInt8(ascii: "E")
            else { break }
            text.append(c)
            pos += 1
        }
        guard Self.isNumber(text) else {
            if !(try ensure(1)) { throw truncated("a number") }
            throw failure(
                text.isEmpty ? "unexpected \(describe(buffer[pos])); expected a number" : "not a JSON number; expected a number",
                at: start)
        }
        valuesRead += 1
        return String(decoding: text, as: UTF8.self)
    }

    /// Reads `true` or `false`.
    package func bool() throws -> Bool {
        try skipWhitespace()
        guard try ensure(1) else { throw truncated("true or false") }
        let value = buffer[pos] == UInt8(ascii: "t")
        try literal(value ? "true" : "false")
        return value
    }

    /// Reads `null`.
    package func null() throws {
        try skipWhitespace()
        try literal("null")
    }

    /// Skips the next value, whatever it holds (strings are not decoded, so not checked as text).
    package func skip() throws {
        var stack: [UInt8] = []
        defer { open -= stack.count }
        while true {
            // A value.
            try skipWhitespace()
            guard try ensure(1) else { throw truncated("a value") }
            let c = buffer[pos]
            switch c {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                pos += 1
                stack.append(c)
                open += 1
                try skipWhitespace()
                guard try ensure(1) else { throw truncated(c == UInt8(ascii: "{") ? "a \"key\" or '}'" : "a value or ']'") }
                let close = c == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: "]")
                if buffer[pos] == close {
                    pos += 1
                    stack.removeLast()
                    open -= 1
                } else {
                    if c == UInt8(ascii: "{") { try skipKey() }
                    continue
                }
            case UInt8(ascii: "\""): try skipString()
            case UInt8(ascii: "t"): try literal("true", counted: false)
            case UInt8(ascii: "f"): try literal("false", counted: false)
            case UInt8(ascii: "n"): try literal("null", counted: false)
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                _ = try numberText()
                valuesRead -= 1
            default:
                throw failure("unexpected \(describe(c)); expected a value", at: offset)
            }
            // After a value: close what ends here, up to the next member.
            while let top = stack.last {
                try skipWhitespace()
                let close = top == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: "]")
                guard try ensure(1) else { throw truncated(top == UInt8(ascii: "{") ? "',' or '}'" : "',' or ']'") }
                let d = buffer[pos]
                if d == close {
                    pos += 1
                    stack.removeLast()
                    open -= 1
                } else if d == UInt8(ascii: ",") {
                    pos += 1
                    if top == UInt8(ascii: "{") { try skipKey() }
                    break
                } else {
                    throw failure(
                        "unexpected \(describe(d)); expected \(top == UInt8(ascii: "{") ? "',' or '}'" : "',' or ']'")",
                        at: offset)
                }
            }
            if stack.isEmpty {
                valuesRead += 1
                return
            }
        }
    }

    /// Checks that nothing but whitespace follows the value read.
    package func expectEnd() throws {
        try skipWhitespace()
        if try ensure(1) { throw failure("unexpected \(describe(buffer[pos])) after the end of the JSON value", at: offset) }
    }

    /// Skips a UTF-8 byte order mark at the start of the input (Fiddler writes one).
    package func skipByteOrderMark() throws {
        guard offset == 0, try ensure(3) else { return }
        if buffer[0] == 0xEF, buffer[1] == 0xBB, buffer[2] == 0xBF {
            pos = 3
            lineStart = 3
        }
    }

    /// Skips every value and closing bracket left in the input, checking its syntax (after the caller stopped
    /// early: a syntax error later in the input is reported before the caller's own).
    package func finish() throws {
        while open > 0 {
            try skipWhitespace()
            guard try ensure(1) else { throw truncated("',' or a closing bracket") }
            switch buffer[pos] {
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                pos += 1
                open -= 1
            case UInt8(ascii: ","), UInt8(ascii: ":"):
                pos += 1
            case UInt8(ascii: "\""):
                try skipString()
            default:
                try skip()
            }
        }
        try expectEnd()
    }

    // MARK: - Members

    /// After a member: `,` (true: another follows) or the closing bracket (false).
    private func endOfMember(close: UInt8) throws -> Bool {
        try skipWhitespace()
        let expected = close == UInt8(ascii: "}") ? "',' or '}'" : "',' or ']'"
        guard try ensure(1) else { throw truncated(expected) }
        let c = buffer[pos]
        pos += 1
        if c == UInt8(ascii: ",") { return false }
        if c == close { return true }
        pos -= 1
        throw failure("unexpected \(describe(c)); expected \(expected)", at: offset)
    }

    private func closed() {
        open -= 1
        valuesRead += 1
    }

    /// `"key"` and `:` inside an object being skipped.
    private func skipKey() throws {
        try skipWhitespace()
        guard try ensure(1) else { throw truncated("a \"key\"") }
        guard buffer[pos] == UInt8(ascii: "\"") else {
            throw failure("unexpected \(describe(buffer[pos])); expected a \"key\"", at: offset)
        }
        try skipString()
        try skipWhitespace()
        try expect(UInt8(ascii: ":"), "':'")
    }

    private func literal(_ word: StaticString, counted: Bool = true) throws {
        let w = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
        _ = try ensure(w.count)
        for k in 0..<w.count {
            guard pos + k < end else { throw truncated("'\(word)'") }
            guard buffer[pos + k] == w[k] else {
                throw failure("unexpected \(describe(buffer[pos + k])); expected a value", at: offset + k)
            }
        }
        pos += w.count
        if counted { valuesRead += 1 }
    }

    private func expect(_ byte: UInt8, _ what: String) throws {
        guard try ensure(1) else { throw truncated(what) }
        guard buffer[pos] == byte else { throw failure("unexpected \(describe(buffer[pos])); expected \(what)", at: offset) }
        pos += 1
    }

    static func isNumber(_ t: [UInt8]) -> Bool {
        var i = 0
        func digits() -> Int {
            let s = i
            while i < t.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(t[i]) { i += 1 }
            return i - s
        }
        if i < t.count, t[i] == UInt8(ascii: "-") { i += 1 }
        let leadingZero = i < t.count && t[i] == UInt8(ascii: "0")
        let whole = digits()
        guard whole > 0, !leadingZero || whole == 1 else { return false }
        if i < t.count, t[i] == UInt8(ascii: ".") {
            i += 1
            guard digits() > 0 else { return false }
        }
        if i < t.count, t[i] == UInt8(ascii: "e") || t[i] == UInt8(ascii: "E") {
            i += 1
            if i < t.count, t[i] == UInt8(ascii: "+") || t[i] == UInt8(ascii: "-") { i += 1 }
            guard digits() > 0 else { return false }
        }
        return i == t.count
    }

    // MARK: - Strings

    /// Skips a string at its opening quote: only its end is looked for.
    private func skipString() throws {
        let open = offset
        pos += 1
        while true {
            // Eight bytes at a time while none is a quote or a backslash.
            while pos + 8 <= end,
                !Self.hasQuoteOrBackslash(UnsafeRawPointer(buffer + pos).loadUnaligned(as: UInt64.self))
            {
                pos += 8
            }
            while pos < end {
                let c = buffer[pos]
                if c == UInt8(ascii: "\"") {
                    pos += 1
                    valuesRead += 1
                    return
                }
                if c == UInt8(ascii: "\\") {
                    guard try ensure(2) else { throw unterminated(open) }
                    pos += 2
                    continue
                }
                pos += 1
                if pos + 8 <= end { break }
            }
            if pos >= end, !(try ensure(1)) { throw unterminated(open) }
        }
    }

    /// Decodes the string at the reader into `scratch`. A content error is thrown once the string is passed.
    private func decodeString() throws {
        scratch.removeAll(keepingCapacity: true)
        if scratch.capacity > 1 << 20 { scratch = [] } // a huge body's buffer is not kept for the rest
        let open = offset
        pos += 1
        var problem: Failure?
        while true {
            // Plain bytes: a run without quote, backslash, control character or non-ASCII byte.
            let run = pos
            while pos + 8 <= end, !Self.needsLook(UnsafeRawPointer(buffer + pos).loadUnaligned(as: UInt64.self)) {
                pos += 8
            }
            while pos < end {
                let c = buffer[pos]
                if c == UInt8(ascii: "\"") || c == UInt8(ascii: "\\") || c < 0x20 || c >= 0x80 { break }
                pos += 1
            }
            if pos > run { scratch.append(contentsOf: UnsafeBufferPointer(start: buffer + run, count: pos - run)) }
            guard try ensure(1) else { throw unterminated(open) }
            let c = buffer[pos]
            if c == UInt8(ascii: "\"") {
                pos += 1
                valuesRead += 1
                if let problem { throw problem }
                return
            }
            if c == UInt8(ascii: "\\") {
                try decodeEscape(open: open, problem: &problem)
            } else if c < 0x20 {
                throw controlCharacter(c)
            } else if c >= 0x80 {
                _ = try ensure(4)
                if let n = Self.validUTF8Length(buffer, pos, end) {
                    scratch.append(contentsOf: UnsafeBufferPointer(start: buffer + pos, count: n))
                    pos += n
                } else {
                    if problem == nil {
                        problem = failure(
                            "not UTF-8 (byte 0x\(String(c, radix: 16, uppercase: true)) at byte offset \(offset)); JSON is UTF-8: re-export the file, or convert it with iconv",
                            at: offset, content: true)
                    }
                    pos += 1
                }
            }
        }
    }

    private func decodeEscape(open: Int, problem: inout Failure?) throws {
        guard try ensure(2) else { throw unterminated(open) }
        let e = buffer[pos + 1]
        let simple: UInt8?
        switch e {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): simple = e
        case UInt8(ascii: "b"): simple = 0x08
        case UInt8(ascii: "f"): simple = 0x0C
        case UInt8(ascii: "n"): simple = 0x0A
        case UInt8(ascii: "r"): simple = 0x0D
        case UInt8(ascii: "t"): simple = 0x09
        case UInt8(ascii: "u"): simple = nil
        default: throw failure("invalid escape '\\\(Character(Unicode.Scalar(e)))' in a string", at: offset)
        }
        if let simple {
            scratch.append(simple)
            pos += 2
            return
        }
        _ = try ensure(12)
        guard let u = hex4(pos + 2) else {
            if pos + 6 > end { throw unterminated(open) }
            throw failure("invalid \\u escape; expected four hex digits", at: offset)
        }
        var scalar = u
        var length = 6
        if (0xD800...0xDBFF).contains(u) {
            if pos + 12 <= end, buffer[pos + 6] == UInt8(ascii: "\\"), buffer[pos + 7] == UInt8(ascii: "u"),
                let lo = hex4(pos + 8), (0xDC00...0xDFFF).contains(lo)
            {
                scalar = 0x10000 + ((u - 0xD800) << 10) + (lo - 0xDC00)
                length = 12
            } else {
                if problem == nil {
                    problem = failure(
                        "unpaired surrogate escape \\u\(String(u, radix: 16)); expected a low surrogate \\uDC00…\\uDFFF after it (the recorder wrote invalid Unicode)",
                        at: offset, content: true)
                }
                scalar = 0xFFFD
            }
        } else if (0xDC00...0xDFFF).contains(u) {
            if problem == nil {
                problem = failure(
                    "unpaired low surrogate escape \\u\(String(u, radix: 16)) (the recorder wrote invalid Unicode)", at: offset,
                    content: true)
            }
            scalar = 0xFFFD
        }
        scratch.append(contentsOf: Unicode.UTF8.encode(Unicode.Scalar(scalar)!)!)
        pos += length
    }

    private func hex4(_ at: Int) -> UInt32? {
        guard at + 4 <= end else { return nil }
        var v: UInt32 = 0
        for k in 0..<4 {
            let c = buffer[at + k]
            let d: UInt32
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): d = UInt32(c - UInt8(ascii: "0"))
            case UInt8(ascii: "A")...UInt8(ascii: "F"): d = UInt32(c - UInt8(ascii: "A") + 10)
            case UInt8(ascii: "a")...UInt8(ascii: "f"): d = UInt32(c - UInt8(ascii: "a") + 10)
            default: return nil
            }
            v = v << 4 | d
        }
        return v
    }

    /// The length of the valid UTF-8 sequence at `i` (a lead byte ≥ 0x80), or nil (overlong forms, surrogates
    /// and values past U+10FFFF are not UTF-8).
    private static func validUTF8Length(_ b: UnsafeMutablePointer<UInt8>, _ i: Int, _ end: Int) -> Int? {
        let c = b[i]
        let n: Int
        var low: UInt8 = 0x80, high: UInt8 = 0xBF
        switch c {
        case 0xC2...0xDF: n = 2
        case 0xE0: n = 3; low = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: n = 3
        case 0xED: n = 3; high = 0x9F
        case 0xF0: n = 4; low = 0x90
        case 0xF1...0xF3: n = 4
        case 0xF4: n = 4; high = 0x8F
        default: return nil
        }
        guard i + n <= end, (low...high).contains(b[i + 1]) else { return nil }
        for k in 2..<n where b[i + k] & 0xC0 != 0x80 { return nil }
        return n
    }

    // MARK: - Bytes

    @inline(__always)
    private func skipWhitespace() throws {
        while true {
            while pos < end {
                let c = buffer[pos]
                if c == 0x20 || c == 0x09 || c == 0x0D {
                    pos += 1
                } else if c == 0x0A {
                    pos += 1
                    line += 1
                    lineStart = base + pos
                } else {
                    return
                }
            }
            guard try ensure(1) else { return }
        }
    }

    /// Makes at least `n` bytes available from `pos` when the input has them; false when it ends first.
    @inline(__always)
    private func ensure(_ n: Int) throws -> Bool {
        if end - pos >= n { return true }
        return try refill(n)
    }

    private func refill(_ n: Int) throws -> Bool {
        guard let source, !atEOF else { return end - pos >= n }
        if pos > 0 {
            let kept = end - pos
            if kept > 0 { buffer.update(from: buffer + pos, count: kept) }
            base += pos
            end = kept
            pos = 0
        }
        if n > capacity {
            let bigger = UnsafeMutablePointer<UInt8>.allocate(capacity: n)
            bigger.update(from: buffer, count: end)
            buffer.deallocate()
            buffer = bigger
            capacity = n
        }
        while end - pos < n, !atEOF {
            let got: Int
            do {
                got = try source(UnsafeMutableRawBufferPointer(start: buffer + end, count: capacity - end))
            } catch {
                throw failure("cannot read on (\(error))", at: offset)
            }
            if got <= 0 { atEOF = true } else { end += got }
        }
        return end - pos >= n
    }

    // MARK: - Failures

    private func failure(_ message: String, at offset: Int, content: Bool = false) -> Failure {
        Failure(offset: offset, line: line, column: offset - lineStart + 1, message: message, isContent: content)
    }

    private func truncated(_ expected: String) -> Failure {
        let empty = offset == 0 || (offset == 3 && lineStart == 3)
        var message =
            "the file ends early (truncated?); expected \(empty && open == 0 ? "a JSON value (the file is empty)" : expected)"
        if open > 0 { message += "; \(open) open bracket(s) unclosed" }
        return failure(message, at: offset)
    }

    private func unterminated(_ open: Int) -> Failure {
        failure("the file ends inside a string (truncated?); the string starts here and has no closing '\"'", at: open)
    }

    private func controlCharacter(_ c: UInt8) -> Failure {
        failure(
            "control character 0x\(String(c, radix: 16)) inside a string (a raw line break?); expected it escaped", at: offset)
    }

    private func describe(_ c: UInt8) -> String {
        if c >= 0x21, c < 0x7F { return "'\(Character(Unicode.Scalar(c)))'" }
        return "byte 0x\(String(c, radix: 16, uppercase: true))"
    }

    // MARK: - Words

    @inline(__always)
    private static func hasByte(_ w: UInt64, _ c: UInt8) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
        let v = w ^ (ones &* UInt64(c))
        return (v &- ones) & ~v & highs != 0
    }

    @inline(__always)
    private static func hasQuoteOrBackslash(_ w: UInt64) -> Bool {
        hasByte(w, UInt8(ascii: "\"")) || hasByte(w, UInt8(ascii: "\\"))
    }

    /// True when one of the eight bytes is a quote, a backslash, a control character or not ASCII.
    @inline(__always)
    private static func needsLook(_ w: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
        if w & highs != 0 { return true }
        let below20 = (w &- ones &* 0x20) & ~w & highs != 0
        return below20 || hasQuoteOrBackslash(w)
    }
}
