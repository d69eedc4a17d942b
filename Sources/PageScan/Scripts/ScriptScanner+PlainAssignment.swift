// The most common tap handler, a literal assignment to `location`, read from its bytes without tokenising it.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension ScriptScanner {
    /// The most common tap handler, `location.href = '…'` (or `location = '…'`, either after `window.` or another
    /// name `match` takes for the window, with an optional `;`), read straight from its bytes: the URL's byte
    /// range and the index `match` gives the `location` token. Nil for any other code (a string with an escape or
    /// a line break, a comment, anything after the `;`…): `match` reads that.
    static func plainAssignment(_ s: UnsafeBufferPointer<UInt8>) -> (url: Range<Int>, token: Int)? {
        let n = s.count
        var i = 0
        func blanks() {
            while i < n, s[i] == 0x20 || s[i] == 0x09 || s[i] == 0x0A || s[i] == 0x0D || s[i] == 0x0C || s[i] == 0x0B { i += 1 }
        }
        /// An identifier at `i`, its bytes (ASCII letters only: the words matched are).
        func word() -> UnsafeBufferPointer<UInt8> {
            let start = i
            while i < n, (s[i] | 0x20) >= 0x61, (s[i] | 0x20) <= 0x7A { i += 1 }
            // A word goes on through digits, `_`, `$` and non-ASCII bytes: then it is none of ours.
            if i < n, s[i] >= 0x80 || (s[i] >= 0x30 && s[i] <= 0x39) || s[i] == 0x5F || s[i] == 0x24 {
                return UnsafeBufferPointer(start: nil, count: 0)
            }
            return UnsafeBufferPointer(rebasing: s[start..<i])
        }
        func equals(_ w: UnsafeBufferPointer<UInt8>, _ literal: StaticString) -> Bool {
            w.count == literal.utf8CodeUnitCount && memcmp(w.baseAddress!, literal.utf8Start, w.count) == 0
        }
        blanks()
        var token = 0
        var w = word()
        blanks()
        // `top.` and `parent.` name another window: `match` reads those (its navigation has a target).
        if !equals(w, "location"), i < n, s[i] == UInt8(ascii: "."), !equals(w, "top"), !equals(w, "parent"),
            plainWindowNames.contains(where: { equals(w, $0) })
        {
            i += 1; blanks(); w = word(); blanks()
            token = 2
        }
        guard equals(w, "location") else { return nil }
        if i < n, s[i] == UInt8(ascii: ".") {
            i += 1; blanks()
            guard equals(word(), "href") else { return nil }
            blanks()
        }
        // `=` and not `==` or `=>`, then a quoted string with no escape or line break.
        guard i + 1 < n, s[i] == UInt8(ascii: "="), s[i + 1] != UInt8(ascii: "="), s[i + 1] != UInt8(ascii: ">") else {
            return nil
        }
        i += 1; blanks()
        guard i < n, s[i] == UInt8(ascii: "'") || s[i] == UInt8(ascii: "\"") else { return nil }
        let quote = s[i]
        let start = i + 1
        i = start
        while i < n, s[i] != quote, s[i] != UInt8(ascii: "\\"), s[i] != 0x0A, s[i] != 0x0D { i += 1 }
        guard i < n, s[i] == quote else { return nil }
        let end = i
        i += 1; blanks()
        if i < n, s[i] == UInt8(ascii: ";") { i += 1; blanks() }
        return i == n ? (start..<end, token) : nil
    }

    /// Adds what `match` adds for a plain assignment (`plainAssignment`) of `url` in tap handler `unit`.
    func addPlainAssignment(_ url: UnsafeBufferPointer<UInt8>, unit: Int, token: Int, into f: inout ScriptFindings) {
        guard f.admitNavigation() else { return }
        f.plainURLBytes.append(contentsOf: url)
        f.plainURLs.append((f.navigations.count, f.plainURLBytes.count))
        f.navigations.append(.init(url: "", kind: .assign, onLoad: false, delay: nil))
        f.navigationKeys.append(RunKey(phase: 1, unit: unit, token: token))
    }
}
