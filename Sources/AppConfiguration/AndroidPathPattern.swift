/// One path rule of an intent filter's `<data>`, matched as Android's `PatternMatcher` matches it.
public struct AndroidPathPattern: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// The whole path, exactly.
        case path
        /// The path starts with it.
        case pathPrefix
        /// A simple glob over the whole path: `.` any character, `*` any number of the character before it
        /// (`.*` anything), `\` escapes the next character (written `\\` in the XML).
        case pathPattern
        /// An advanced glob (API 26): the simple glob plus `[…]` sets, `+` and `{m,n}`.
        case pathAdvancedPattern
        /// The path ends with it (API 31).
        case pathSuffix
    }

    public var kind: Kind
    public var pattern: String

    public init(kind: Kind, pattern: String) {
        self.kind = kind
        self.pattern = pattern
    }

    public func matches(_ path: String) -> Bool {
        switch kind {
        case .path: path == pattern
        case .pathPrefix: path.hasPrefix(pattern)
        case .pathSuffix: path.hasSuffix(pattern)
        case .pathPattern: Self.simpleGlob(Array(pattern.unicodeScalars), Array(path.unicodeScalars))
        case .pathAdvancedPattern: AndroidAdvancedGlob(pattern)?.matches(Array(path.unicodeScalars)) ?? false
        }
    }

    /// `PatternMatcher.matchGlobPattern`: one pass, `x*` consuming as many `x` as it can (the platform does not
    /// backtrack, so `.*a` stops at the first `a` after the `.*` only when `a` is the next pattern character).
    static func simpleGlob(_ p: [Unicode.Scalar], _ s: [Unicode.Scalar]) -> Bool {
        let np = p.count, ns = s.count
        if np == 0 { return ns == 0 }
        var ip = 0, iS = 0
        var next = p[0]
        while ip < np && iS < ns {
            var c = next
            ip += 1
            next = ip < np ? p[ip] : "\0"
            let escaped = c == "\\"
            if escaped {
                c = next
                ip += 1
                next = ip < np ? p[ip] : "\0"
            }
            if next == "*" {
                if !escaped && c == "." {
                    if ip >= np - 1 { return true } // `.*` at the end matches the rest
                    ip += 1
                    next = p[ip]
                    // Consume up to the first occurrence of the character after `.*`.
                    if next == "\\" {
                        ip += 1
                        next = ip < np ? p[ip] : "\0"
                    }
                    repeat {
                        if s[iS] == next { break }
                        iS += 1
                    } while iS < ns
                    if iS == ns { return false }
                    ip += 1
                    next = ip < np ? p[ip] : "\0"
                    iS += 1
                } else {
                    // Consume any number of `c`.
                    repeat {
                        if s[iS] != c { break }
                        iS += 1
                    } while iS < ns
                    ip += 1
                    next = ip < np ? p[ip] : "\0"
                }
            } else {
                if (escaped || c != ".") && s[iS] != c { return false }
                iS += 1
            }
        }
        if ip >= np && iS >= ns { return true } // both done
        // The pattern may end with `x*` that matched nothing.
        if ip == np - 2 && p[ip] == "." && p[ip + 1] == "*" { return true }
        return false
    }
}
