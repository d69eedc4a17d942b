import Foundation

/// `pathAdvancedPattern` (Android's `PatternMatcher.PATTERN_ADVANCED_GLOB`, API 26): `.` any character,
/// `[a-z]` and `[^…]` sets, `*` `+` and `{m,n}` after a character or set, `\` escapes. Matched over the whole
/// path, by translation into an anchored regular expression (every other character literal).
struct AndroidAdvancedGlob {
    private let expression: NSRegularExpression

    init?(_ pattern: String) {
        var out = "^"
        var chars = Array(pattern)[...]
        while let c = chars.popFirst() {
            switch c {
            case "\\":
                guard let next = chars.popFirst() else { return nil }
                out += NSRegularExpression.escapedPattern(for: String(next))
            case ".", "*", "+": out.append(c)
            case "[":
                guard let close = chars.firstIndex(of: "]") else { return nil }
                out += "[" + chars[..<close].map { $0 == "\\" || $0 == "[" ? "\\\($0)" : String($0) }.joined() + "]"
                chars = chars[(close + 1)...]
            case "{":
                guard let close = chars.firstIndex(of: "}"),
                    chars[..<close].allSatisfy({ $0.isNumber || $0 == "," })
                else { return nil }
                out += "{" + String(chars[..<close]) + "}"
                chars = chars[(close + 1)...]
            default: out += NSRegularExpression.escapedPattern(for: String(c))
            }
        }
        guard let expression = try? NSRegularExpression(pattern: out + "$", options: [.dotMatchesLineSeparators]) else {
            return nil
        }
        self.expression = expression
    }

    func matches(_ path: [Unicode.Scalar]) -> Bool {
        var s = ""
        s.unicodeScalars.append(contentsOf: path)
        return expression.firstMatch(in: s, range: NSRange(s.startIndex..., in: s)) != nil
    }
}
