// Resolving many references against one base (every link of a page): the base is serialised once, and a
// reference that the URL parser would copy through unchanged (a plain `/path?query#fragment` or `path…`) is
// appended to it directly. Anything else goes through `WebURL(_:relativeTo:)`, so results are the same.

extension WebURL {
    /// `input` resolved against a fixed base, as an href; the same answer as `WebURL(input, relativeTo: base)?.href`.
    public struct Resolver: Sendable {
        public let base: WebURL
        /// `scheme://userinfo@host:port` of an http(s) base; nil when the fast path does not apply.
        private let origin: [UInt8]?
        /// The base path up to and including its last `/` (what a path-relative reference is appended to).
        private let directory: [UInt8]

        public init(base: WebURL) {
            self.base = base
            if (base.scheme == "https" || base.scheme == "http"), base.host != nil, !base.hasOpaquePath,
                base.path.utf8.first == UInt8(ascii: "/")
            {
                // The href is the origin, then the path, `?query` and `#fragment`.
                let href = Array(base.href.utf8)
                let rest =
                    base.path.utf8.count + (base.query.map { $0.utf8.count + 1 } ?? 0)
                    + (base.fragment.map { $0.utf8.count + 1 } ?? 0)
                origin = Array(href[..<(href.count - rest)])
                let path = Array(base.path.utf8)
                directory = Array(path[...(path.lastIndex(of: UInt8(ascii: "/")) ?? 0)])
            } else {
                origin = nil
                directory = []
            }
        }

        /// The resolved href, nil when a browser would fail to resolve `input`.
        public func href(_ input: String) -> String? {
            if origin != nil {
                var input = input
                if let fast = input.withUTF8({ plainReference($0) }) { return fast }
            }
            return WebURL(input, relativeTo: base)?.href
        }

        /// The same for a reference given as UTF-8 bytes (invalid sequences read as U+FFFD, as in `String(decoding:)`).
        public func href(utf8 input: UnsafeBufferPointer<UInt8>) -> String? {
            if origin != nil, let fast = plainReference(input) { return fast }
            return WebURL(String(decoding: input, as: UTF8.self), relativeTo: base)?.href
        }

        /// For a reference the parser would keep byte for byte (no scheme, no authority, no dot segments, no
        /// byte it would percent-encode or treat specially), the base's origin (and directory) followed by it.
        private func plainReference(_ b: UnsafeBufferPointer<UInt8>) -> String? {
            guard let origin else { return nil }
            return Self.classes.withUnsafeBufferPointer { classes -> String? in
                // One table lookup per byte (the table fetched once per reference, not once per byte).
                @inline(__always) func pathSafe(_ c: UInt8) -> Bool { classes[Int(c)] & 1 != 0 }
                @inline(__always) func querySafe(_ c: UInt8) -> Bool { classes[Int(c)] & 2 != 0 }
                @inline(__always) func fragmentSafe(_ c: UInt8) -> Bool { classes[Int(c)] & 4 != 0 }
                guard let first = b.first, first != UInt8(ascii: "?"), first != UInt8(ascii: "#") else { return nil }
                let absolute = first == UInt8(ascii: "/")
                if absolute, b.count > 1, b[1] == UInt8(ascii: "/") || b[1] == UInt8(ascii: "\\") { return nil }
                // The path: safe bytes only, and no `.` or `..` segment.
                var i = 0
                var segmentStart = 0
                var sawSlash = absolute
                while i < b.count {
                    let c = b[i]
                    if c == UInt8(ascii: "/") || c == UInt8(ascii: "?") || c == UInt8(ascii: "#") {
                        if Self.isDotSegment(b, segmentStart, i) { return nil }
                        if c != UInt8(ascii: "/") { break }
                        sawSlash = true
                        segmentStart = i + 1
                    } else if c == UInt8(ascii: ":") {
                        if !sawSlash { return nil } // `a:b` may be a scheme
                    } else if !pathSafe(c) {
                        return nil
                    }
                    i += 1
                }
                if i == b.count, Self.isDotSegment(b, segmentStart, i) { return nil }
                // The query, then the fragment.
                if i < b.count, b[i] == UInt8(ascii: "?") {
                    i += 1
                    while i < b.count, b[i] != UInt8(ascii: "#") {
                        guard querySafe(b[i]) else { return nil }
                        i += 1
                    }
                }
                if i < b.count { // at `#`
                    i += 1
                    while i < b.count {
                        guard fragmentSafe(b[i]) else { return nil }
                        i += 1
                    }
                }
                let prefixCount = origin.count + (absolute ? 0 : directory.count)
                return String(unsafeUninitializedCapacity: prefixCount + b.count) { out in
                    var n = origin.withUnsafeBufferPointer {
                        UnsafeMutableBufferPointer(rebasing: out[0...]).initialize(fromContentsOf: $0)
                    }
                    if !absolute {
                        n += self.directory.withUnsafeBufferPointer {
                            UnsafeMutableBufferPointer(rebasing: out[n...]).initialize(fromContentsOf: $0)
                        }
                    }
                    n += UnsafeMutableBufferPointer(rebasing: out[n...]).initialize(fromContentsOf: b)
                    return n
                }
            }
        }

        /// `.` or `..` (the parser removes these, and their percent-encoded forms, which `%` excludes anyway).
        @inline(__always)
        private static func isDotSegment(_ b: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Bool {
            let n = end - start
            return (n == 1 && b[start] == UInt8(ascii: "."))
                || (n == 2 && b[start] == UInt8(ascii: ".") && b[start + 1] == UInt8(ascii: "."))
        }

        /// Byte classes: bit 0 path, bit 1 query, bit 2 fragment (kept as they are).
        /// Path: letters, digits and `-._~!$&'()*+,;=@` (not `%`, backslash, `:`, which the caller handles or refuses).
        /// Query (special URLs): printable ASCII but `"`, `'`, `<`, `>`. Fragment: printable ASCII but `"`, `<`, `>`, backtick.
        private static let classes: [UInt8] = (0..<256).map { i in
            let c = UInt8(i)
            let printable = c > 0x20 && c < 0x7F
            let letterOrDigit = (c >= 0x61 && c <= 0x7A) || (c >= 0x41 && c <= 0x5A) || (c >= 0x30 && c <= 0x39)
            let path = letterOrDigit || Array("-._~!$&'()*+,;=@".utf8).contains(c)
            let query = printable && !Array("\"'<>".utf8).contains(c)
            let fragment = printable && !Array("\"<>`".utf8).contains(c)
            return (path ? 1 : 0) | (query ? 2 : 0) | (fragment ? 4 : 0)
        }
    }
}
