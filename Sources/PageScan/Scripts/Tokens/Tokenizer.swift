/// JavaScript tokenizer: enough to know where strings, comments and regexes are.
struct Tokenizer {
    private static let operators = ByteSet(Array("=!<>+-*%&|^~?".utf8))
    let s: [UInt8]
    init(_ s: [UInt8]) { self.s = s }

    func tokens() -> [Token] {
        var out: [Token] = []
        out.reserveCapacity(s.count / 4)
        var i = 0
        let n = s.count
        func isIdentStart(_ c: UInt8) -> Bool {
            (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) || c == 0x5F || c == 0x24 || c >= 0x80
        }
        func isIdentPart(_ c: UInt8) -> Bool { isIdentStart(c) || (c >= 0x30 && c <= 0x39) }
        func regexAllowed() -> Bool {
            guard let last = out.last else { return true }
            switch last.kind {
            case .ident:
                let w = String(decoding: s[last.start..<last.end], as: UTF8.self)
                return ["return", "typeof", "case", "do", "else", "in", "of", "new", "delete", "void", "throw"].contains(w)
            case .number, .string, .template, .regex: return false
            case .punct:
                let c = s[last.start]
                return !(c == UInt8(ascii: ")") || c == UInt8(ascii: "]") || c == UInt8(ascii: "}"))
            }
        }
        let operators = Self.operators
        while i < n {
            let c = s[i]
            if c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D || c == 0x0C || c == 0x0B { i += 1; continue }
            // Comments, including the legacy `<!--` and `-->` line comments.
            if c == UInt8(ascii: "/"), i + 1 < n, s[i + 1] == UInt8(ascii: "/") {
                while i < n, s[i] != 0x0A { i += 1 }
                continue
            }
            if c == UInt8(ascii: "/"), i + 1 < n, s[i + 1] == UInt8(ascii: "*") {
                i += 2
                while i + 1 < n, !(s[i] == UInt8(ascii: "*") && s[i + 1] == UInt8(ascii: "/")) { i += 1 }
                i = min(n, i + 2)
                continue
            }
            if c == UInt8(ascii: "<"), i + 3 < n, s[i + 1] == UInt8(ascii: "!"), s[i + 2] == UInt8(ascii: "-"),
                s[i + 3] == UInt8(ascii: "-")
            {
                while i < n, s[i] != 0x0A { i += 1 }
                continue
            }
            if c == UInt8(ascii: "-"), i + 2 < n, s[i + 1] == UInt8(ascii: "-"), s[i + 2] == UInt8(ascii: ">"), regexAllowed() {
                while i < n, s[i] != 0x0A { i += 1 }
                continue
            }
            if c == UInt8(ascii: "\"") || c == UInt8(ascii: "'") {
                let start = i + 1
                i += 1
                while i < n, s[i] != c, s[i] != 0x0A {
                    if s[i] == UInt8(ascii: "\\") { i += 1 }
                    i += 1
                }
                let end = min(i, n)
                out.append(Token(kind: .string, start: start, end: end))
                i = min(n, i + 1)
                continue
            }
            if c == UInt8(ascii: "`") {
                let start = i + 1
                i += 1
                var interpolated = false
                var depth = 0
                while i < n {
                    if s[i] == UInt8(ascii: "\\") { i += 2; continue }
                    if depth == 0 && s[i] == UInt8(ascii: "`") { break }
                    if s[i] == UInt8(ascii: "$"), i + 1 < n, s[i + 1] == UInt8(ascii: "{") {
                        interpolated = true; depth += 1; i += 2; continue
                    }
                    if depth > 0 && s[i] == UInt8(ascii: "{") { depth += 1 }
                    if depth > 0 && s[i] == UInt8(ascii: "}") { depth -= 1 }
                    i += 1
                }
                let end = min(i, n)
                out.append(Token(kind: interpolated ? .template : .string, start: start, end: end))
                i = min(n, i + 1)
                continue
            }
            if c == UInt8(ascii: "/"), regexAllowed() {
                let start = i
                i += 1
                var inClass = false
                while i < n, s[i] != 0x0A {
                    if s[i] == UInt8(ascii: "\\") { i += 2; continue }
                    if s[i] == UInt8(ascii: "[") {
                        inClass = true
                    } else if s[i] == UInt8(ascii: "]") {
                        inClass = false
                    } else if s[i] == UInt8(ascii: "/") && !inClass {
                        break
                    }
                    i += 1
                }
                i = min(n, i + 1)
                while i < n, isIdentPart(s[i]) { i += 1 }
                out.append(Token(kind: .regex, start: start, end: i))
                continue
            }
            if isIdentStart(c) {
                let start = i
                while i < n, isIdentPart(s[i]) { i += 1 }
                out.append(Token(kind: .ident, start: start, end: i))
                continue
            }
            if (c >= 0x30 && c <= 0x39) || (c == UInt8(ascii: ".") && i + 1 < n && s[i + 1] >= 0x30 && s[i + 1] <= 0x39) {
                let start = i
                while i < n, isIdentPart(s[i]) || s[i] == UInt8(ascii: ".") { i += 1 }
                out.append(Token(kind: .number, start: start, end: i))
                continue
            }
            if operators.contains(c) && c > 0x20 && c < 0x7F {
                let start = i
                // `=` alone is an assignment; `==`, `===`, `=>`, `+=`… are longer tokens.
                i += 1
                while i < n, s[i] > 0x20, s[i] < 0x7F, operators.contains(s[i]),
                    !(s[i] == UInt8(ascii: "!") || s[i] == UInt8(ascii: "~"))
                { i += 1 }
                out.append(Token(kind: .punct, start: start, end: i))
                continue
            }
            out.append(Token(kind: .punct, start: i, end: i + 1))
            i += 1
        }
        // Pair brackets once (a closer pops whatever opener is innermost), so lookups later are O(1).
        var stack: [Int] = []
        for k in out.indices where out[k].kind == .punct && out[k].end - out[k].start == 1 {
            let c = s[out[k].start]
            if c == UInt8(ascii: "(") || c == UInt8(ascii: "[") || c == UInt8(ascii: "{") {
                stack.append(k)
            } else if c == UInt8(ascii: ")") || c == UInt8(ascii: "]") || c == UInt8(ascii: "}"), let o = stack.popLast() {
                out[o].partner = Int32(k)
                out[k].partner = Int32(o)
            }
        }
        return out
    }
}
