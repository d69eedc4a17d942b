// Finds navigations, form submissions and app hooks in inline JavaScript without running it.
//
// A small tokenizer (strings, template literals, comments, regex literals) feeds a pattern matcher over
// tokens. Only string literals (optionally concatenated with `+` or wrapped in `decodeURIComponent(…)`) count as
// navigation targets: a computed URL cannot be known without running the page.
//
// "On load" is decided per position: top-level code of an inline script or a body `onload` handler runs on
// load; the body of a named function runs on load only when that function is referenced from code that runs on
// load (transitively); other handler attributes (`onclick`…) and click listeners run on a tap.
import PlainviewURL
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One piece of JavaScript: an inline `<script>` or an event-handler attribute.
struct ScriptUnit {
    var source: [UInt8]
    /// True for inline scripts and `<body onload>`; false for handlers that need the user.
    var onLoad: Bool
    /// Forms that precede this script in document order (to resolve `form.submit()` with an unknown receiver).
    var formsBefore: Int

    /// An inline script longer than this is analysed in runs of whole top-level statements (see
    /// `PageCollector`), and no run is longer than `maxBytes`: a unit's tokens cost several times its size.
    static let segmentBytes = 1 << 17
    static let maxBytes = 1 << 18
    /// True for code that runs once the page has parsed: a load-time handler attribute (`<body onload>`,
    /// `onpageshow`, `onerror`) or a module script. A classic inline script runs where the parser meets it.
    var runsAfterParsing = false
    /// Position among the page's script units (set when the unit is added), for document order.
    var index = 0
}

/// When a finding's code runs: while the page parses (an inline script's top level), once it has loaded
/// (`onload` handlers and listeners, `DOMContentLoaded`, jQuery ready), or only on a tap.
enum RunTime: UInt8 { case parse, load, tap }

/// Orders a page's automatic actions as a browser runs them: everything that runs during parsing in document
/// order, then load-time code in document order, then timers (which the simulated clock orders by delay).
struct RunKey: Comparable {
    var phase: UInt8
    var unit: Int
    var token: Int
    static func < (a: RunKey, b: RunKey) -> Bool { (a.phase, a.unit, a.token) < (b.phase, b.unit, b.token) }
}

/// What a `.submit()` call refers to.
enum FormReference: Equatable {
    case index(Int)
    case name(String)
    case id(String)
    case first
    /// The receiver could not be resolved: the nearest preceding form (the 3DS `form.submit()` pattern).
    case unknown(formsBefore: Int)
}

struct ScriptFindings {
    typealias Navigation = PageScanResult.ScriptNavigation
    struct Submit { var form: FormReference; var onLoad: Bool; var key: RunKey }
    var navigations: [Navigation] = []
    /// The run key of each navigation, kept apart so that the navigations are handed over as they are (a page
    /// may hold a million of them; copying them out of a wrapper would hold them twice).
    var navigationKeys: [RunKey] = []
    var hooks: [PageScanResult.Hook] = []
    var submits: [Submit] = []
    /// Findings in the body of a named function: when they run is known only once every script has been read
    /// (whether code that runs calls the function), so `onLoad` and the run key's phase wait for `finish`.
    /// `item` indexes `navigations`, `hooks` or `submits`.
    enum List: UInt8 { case navigation, hook, submit }
    var inFunctions: [(list: List, item: Int32, function: String)] = []
    /// The URLs of plain assignments (`ScriptScanner.plainAssignment`) as bytes, end to end: most are read once,
    /// to be resolved, so no String is made of them. Navigation `plainURLs[k].navigation` (its `url` left empty)
    /// has the bytes from the previous entry's `end` (0 for the first) to its own, in the order found.
    var plainURLBytes: [UInt8] = []
    var plainURLs: [(navigation: Int, end: Int)] = []

    /// Calls `body` with each navigation's index and its URL as bytes (plain assignments) or as its `url`,
    /// in order.
    func forEachNavigationURL(_ body: (Int, UnsafeBufferPointer<UInt8>?) -> Void) {
        plainURLBytes.withUnsafeBufferPointer { bytes in
            var k = 0, start = 0
            for i in navigations.indices {
                if k < plainURLs.count, plainURLs[k].navigation == i {
                    body(i, UnsafeBufferPointer(rebasing: bytes[start..<plainURLs[k].end]))
                    start = plainURLs[k].end
                    k += 1
                } else {
                    body(i, nil)
                }
            }
        }
    }

    /// The findings with plain assignments' URLs as Strings in `navigations` (what tests compare).
    func withPlainURLsAsStrings() -> ScriptFindings {
        var out = self
        forEachNavigationURL { i, bytes in
            if let bytes { out.navigations[i].url = String(decoding: bytes, as: UTF8.self) }
        }
        out.plainURLBytes = []
        out.plainURLs = []
        return out
    }
    /// How many of each were found; past `PageScanner.maxFindingsPerKind` they are counted, not kept.
    var navigationsFound = 0, hooksFound = 0, submitsFound = 0

    /// Counts a navigation; true when it is kept.
    mutating func admitNavigation() -> Bool {
        navigationsFound += 1
        return navigations.count < PageScanner.maxFindingsPerKind
    }
    mutating func admitHook() -> Bool {
        hooksFound += 1
        return hooks.count < PageScanner.maxFindingsPerKind
    }
    mutating func admitSubmit() -> Bool {
        submitsFound += 1
        return submits.count < PageScanner.maxFindingsPerKind
    }
}

enum TokenKind: UInt8 { case ident, string, number, punct, template, regex }

struct Token {
    var kind: TokenKind
    /// Byte range in the source; for strings and templates the inner range (without quotes). Stored as 32-bit
    /// offsets (a script unit is at most `ScriptUnit.maxBytes`), so a token takes 16 bytes, not 32.
    private var start32: UInt32
    private var end32: UInt32
    /// For `(`, `[`, `{` and their closers: the index of the matching bracket token, else -1.
    var partner: Int32 = -1

    init(kind: TokenKind, start: Int, end: Int) {
        self.kind = kind
        start32 = UInt32(truncatingIfNeeded: start)
        end32 = UInt32(truncatingIfNeeded: end)
    }

    var start: Int { Int(start32) }
    var end: Int { Int(end32) }
}

/// The matched brackets open at a token, innermost last, found by one forward sweep over the tokens.
struct EnclosingGroups {
    private(set) var openers: [Int] = []
    private var next = 0
    /// Timer delays already read, by the index of the call's `(`.
    var delays: [Int: Int?] = [:]

    /// Moves the sweep to token `index` (never backwards): `openers` are then the brackets around it.
    mutating func advance(to index: Int, _ t: [Token]) {
        while next < index {
            let partner = Int(t[next].partner)
            if partner > next { openers.append(next) } else if partner >= 0 { openers.removeLast() }
            next += 1
        }
    }
}

/// Tokenizes and analyses all script units of a page together (functions are global across them).
struct ScriptScanner {
    let androidInterfaces: Set<String>
    private let needles: [[UInt8]]
    /// The first bytes of `needles`, so the prefilter compares only where a needle could start.
    private let needleStarts: ByteSet
    /// Identifiers `match` looks at, by first byte and length (a table, so every other identifier is passed
    /// over without building a String).
    private let wanted: [Bool]
    /// Whether a tap handler that is one literal assignment to `location` is read without tokenising it
    /// (`plainAssignment`); off when an Android interface is named like one of its words, and in the test that
    /// compares the two readings.
    var readsPlainAssignments: Bool

    init(androidInterfaces: Set<String>) {
        self.androidInterfaces = androidInterfaces
        readsPlainAssignments = androidInterfaces.isDisjoint(with: ["location", "href"] + Self.windowNames)
        needles = androidInterfaces == PageScanner.defaultAndroidInterfaces
            ? Self.defaultNeedles : Self.baseNeedles + androidInterfaces.map { Array($0.utf8) }
        needleStarts = ByteSet(needles.compactMap(\.first))
        var wanted = [Bool](repeating: false, count: 256 * 32)
        for word in ["location", "open", "submit", "requestSubmit", "messageHandlers"] + Array(androidInterfaces) {
            guard let first = word.utf8.first else { continue }
            wanted[Int(first) * 32 + min(word.utf8.count, 31)] = true
        }
        self.wanted = wanted
    }

    /// True when token `t` may be one of the identifiers `match` handles.
    @inline(__always)
    fileprivate func isWanted(_ t: Token, _ s: [UInt8]) -> Bool {
        wanted[Int(s[t.start]) * 32 + min(t.end - t.start, 31)]
    }

    fileprivate struct Analysed {
        var unit: ScriptUnit
        var tokens: [Token]
        /// Deferred bodies: token ranges, with the function's name when it is a named declaration.
        var deferred: [(range: Range<Int>, name: String?)]
        /// Token indexes that declare a function name (not references).
        var declarationNames: Set<Int>
        /// Per token, the innermost deferred body holding it (-1: top level); empty when there are none.
        var owner: [Int32]
        /// Per token, true inside a load listener (`onload = function…`, `addEventListener("load", …)`,
        /// jQuery ready); empty when there are none.
        var inLoadListener: [Bool] = []
    }

    /// Byte-level prefilter: scripts with none of these words cannot contain anything we report.
    fileprivate func mightMatter(_ s: [UInt8]) -> Bool {
        s.withUnsafeBufferPointer { h in
            let n = h.count
            var i = 0
            while i < n {
                if needleStarts.contains(h[i]) {
                    for needle in needles where needle[0] == h[i] && needle.count <= n - i {
                        var k = 1
                        while k < needle.count && h[i + k] == needle[k] { k += 1 }
                        if k == needle.count { return true }
                    }
                }
                i += 1
            }
            return false
        }
    }

    /// All units of a page at once (see `ScriptAnalysis` for the incremental form the collector uses).
    func scan(_ units: [ScriptUnit]) -> ScriptFindings {
        var analysis = ScriptAnalysis(self)
        for unit in units { analysis.add(unit) }
        return analysis.finish()
    }

    /// Tokens, deferred bodies and, when there are deferred bodies, the owner of each token.
    fileprivate func analyse(_ unit: ScriptUnit) -> Analysed {
        let tokens = Tokenizer(unit.source).tokens()
        let (deferred, declNames) = findDeferred(tokens, unit.source)
        // Load listeners only change when code of a unit that runs on load runs (`runTime`): a tap handler has none.
        let listeners = unit.onLoad ? loadListenerMask(tokens, unit.source) : []
        // owner[i]: the innermost deferred body holding token i (-1: top level; empty when there are no deferred
        // bodies). One sweep with a stack of open bodies (bodies nest or are disjoint), so deeply nested
        // functions stay linear.
        guard !deferred.isEmpty else {
            return Analysed(unit: unit, tokens: tokens, deferred: [], declarationNames: declNames, owner: [],
                            inLoadListener: listeners)
        }
        var owner = [Int32](repeating: -1, count: tokens.count)
        let byStart = deferred.indices.sorted {
            deferred[$0].range.lowerBound != deferred[$1].range.lowerBound
                ? deferred[$0].range.lowerBound < deferred[$1].range.lowerBound
                : deferred[$0].range.count > deferred[$1].range.count
        }
        var next = 0
        var open: [Int] = []
        for k in 0..<tokens.count {
            while let top = open.last, deferred[top].range.upperBound <= k { open.removeLast() }
            while next < byStart.count, deferred[byStart[next]].range.lowerBound <= k {
                if deferred[byStart[next]].range.upperBound > k { open.append(byStart[next]) }
                next += 1
            }
            if let top = open.last { owner[k] = Int32(top) }
        }
        return Analysed(unit: unit, tokens: tokens, deferred: deferred, declarationNames: declNames, owner: owner,
                        inLoadListener: listeners)
    }

    /// Calls `body(name, owner, index)` for each identifier that may refer to a global function: not a
    /// declaration, not a member other than `window.x`; `owner` is the deferred body holding it (-1: top level).
    fileprivate func forEachGlobalReference(_ a: Analysed, _ body: (String, Int32, Int) -> Void) {
        let s = a.unit.source
        for (i, t) in a.tokens.enumerated() where t.kind == .ident && !a.declarationNames.contains(i) {
            if i > 1, isPunct(a.tokens[i - 1], s, "."), text(a.tokens[i - 2], s) != "window" { continue }
            body(text(t, s), i < a.owner.count ? a.owner[i] : -1, i)
        }
    }

    /// When the code at token `index` runs, outside named functions. Top-level code of an inline script runs
    /// while the page parses, except inside a load listener; a handler attribute's code runs on load (`onload`) or
    /// on a tap; an anonymous function body on a tap. (A named function runs when code that runs calls it, during
    /// parsing if any parse-time code does: `ScriptAnalysis.finish` decides, once every script has been read.)
    fileprivate func runTime(_ index: Int, _ a: Analysed) -> RunTime {
        let o = index < a.owner.count ? a.owner[index] : -1
        guard o >= 0 else {
            guard a.unit.onLoad else { return .tap }
            return a.unit.runsAfterParsing || (index < a.inLoadListener.count && a.inLoadListener[index]) ? .load : .parse
        }
        return .tap
    }

    /// The named function whose body holds token `index`, when the code there runs depends on it.
    fileprivate func function(at index: Int, _ a: Analysed) -> String? {
        let o = index < a.owner.count ? a.owner[index] : -1
        return o >= 0 ? a.deferred[Int(o)].name : nil
    }

    /// The ordering key of a finding at token `index` that runs at `time` (`delayed`: inside a `setTimeout`).
    private func runKey(_ time: RunTime, delayed: Bool, _ a: Analysed, _ index: Int) -> RunKey {
        RunKey(phase: delayed ? 2 : time == .parse ? 0 : 1, unit: a.unit.index, token: index)
    }

    /// Per token, whether it lies in the code of a load listener: `onload = function(){…}` / `= () => {…}` /
    /// `= init`, `addEventListener("load", …)` (and the other load events), jQuery's `$(function…)` and
    /// `.ready(…)`. Empty when the script has none. Ranges are marked through a difference array: linear.
    private func loadListenerMask(_ t: [Token], _ s: [UInt8]) -> [Bool] {
        var ranges: [Range<Int>] = []
        func bracketRange(_ open: Int) -> Range<Int>? {
            guard open < t.count, let close = matching(t, s, from: open) else { return nil }
            return (open + 1)..<close
        }
        /// The code of a listener value starting at token k: a function, an arrow function, or a name.
        func valueRange(_ k: Int) -> Range<Int>? {
            guard k < t.count else { return nil }
            if t[k].kind == .ident, isWord(t[k], s, "function") {
                var j = k + 1
                if j < t.count, t[j].kind == .ident { j += 1 }
                return functionBody(t, s, parenAt: j)
            }
            var arrow: Int?
            if isPunct(t[k], s, "("), let close = matching(t, s, from: k) { arrow = close + 1 }
            else if t[k].kind == .ident { arrow = k + 1 }
            if let arrow, arrow + 1 < t.count, isPunct(t[arrow], s, "=>") {
                if isPunct(t[arrow + 1], s, "{") { return bracketRange(arrow + 1) }
                return (arrow + 1)..<min(t.count, arrow + 2)
            }
            return t[k].kind == .ident ? k..<(k + 1) : nil
        }
        /// A function expression (`function…` or an arrow function) starts at token k.
        func isFunctionValue(_ k: Int) -> Bool {
            guard k < t.count else { return false }
            if t[k].kind == .ident, isWord(t[k], s, "function") { return true }
            var arrow = k + 1
            if isPunct(t[k], s, "("), let close = matching(t, s, from: k) { arrow = close + 1 } else if t[k].kind != .ident { return false }
            return arrow < t.count && isPunct(t[arrow], s, "=>")
        }
        // Words are told by their first byte and compared as bytes: no String per token on this hot path.
        for i in 0..<t.count {
            let tok = t[i]
            // An empty token (`''`, or an unterminated string at the end: its inner range starts past the last byte)
            // is no word.
            guard tok.start < tok.end else { continue }
            switch s[tok.start] {
            case UInt8(ascii: "a"):
                if tok.kind == .ident, isWord(tok, s, "addEventListener"), i + 3 < t.count, isPunct(t[i + 1], s, "("),
                   t[i + 2].kind == .string, Self.loadEvents.contains(decodeString(t[i + 2], s)), isPunct(t[i + 3], s, ","),
                   let r = bracketRange(i + 1) {
                    ranges.append(r)
                }
            case UInt8(ascii: "o"):
                guard tok.kind == .ident, tok.end - tok.start > 2, s[tok.start + 1] == UInt8(ascii: "n"),
                      i + 2 < t.count, isPunct(t[i + 1], s, "="),
                      Self.loadEvents.contains(String(decoding: s[(tok.start + 2)..<tok.end], as: UTF8.self)),
                      let r = valueRange(i + 2) else { continue }
                ranges.append(r)
            case UInt8(ascii: "$"), UInt8(ascii: "j"):
                // `$(function(){…})`, `$(() => …)`: runs when the DOM is ready (unlike `$("#id")`).
                guard isWord(tok, s, "$") || (tok.kind == .ident && isWord(tok, s, "jQuery")), i + 2 < t.count,
                      isPunct(t[i + 1], s, "("), let r = bracketRange(i + 1), !r.isEmpty, isFunctionValue(r.lowerBound) else { continue }
                ranges.append(r)
            case UInt8(ascii: "r"):
                guard tok.kind == .ident, isWord(tok, s, "ready"), i > 0, isPunct(t[i - 1], s, "."), i + 1 < t.count,
                      isPunct(t[i + 1], s, "("), let r = bracketRange(i + 1) else { continue }
                ranges.append(r)
            default:
                continue
            }
        }
        guard !ranges.isEmpty else { return [] }
        var depth = [Int32](repeating: 0, count: t.count + 1)
        for r in ranges where r.lowerBound < r.upperBound {
            depth[r.lowerBound] += 1
            depth[min(r.upperBound, t.count)] -= 1
        }
        var mask = [Bool](repeating: false, count: t.count)
        var running: Int32 = 0
        for k in 0..<t.count { running += depth[k]; mask[k] = running > 0 }
        return mask
    }

    // MARK: deferred code

    /// Named function declarations (`function f(){…}`, `var f = function(){…}`) and tap-only listeners
    /// (`x.onclick = function…`, `addEventListener("click", function…)`).
    private func findDeferred(_ t: [Token], _ s: [UInt8]) -> ([(range: Range<Int>, name: String?)], Set<Int>) {
        var out: [(range: Range<Int>, name: String?)] = []
        var declNames: Set<Int> = []
        let loadEvents = Self.loadEvents
        var i = 0
        while i < t.count {
            defer { i += 1 }
            guard t[i].kind == .ident, isWord(t[i], s, "function") else { continue }
            do {
                var j = i + 1
                if j < t.count, isPunct(t[j], s, "*") { j += 1 }
                var name: String?
                var nameIndex: Int?
                if j < t.count, t[j].kind == .ident { name = text(t[j], s); nameIndex = j; j += 1 }
                guard let body = functionBody(t, s, parenAt: j) else { continue }
                let prev = i > 0 ? t[i - 1] : nil
                let prevPrev = i > 1 ? t[i - 2] : nil
                var deferredName: String?? = nil   // .some(name) when deferred
                let declarationPosition = prev.map { isPunct($0, s, ";") || isPunct($0, s, "}") || isPunct($0, s, "{") } ?? true
                if let name, let nameIndex, declarationPosition {
                    deferredName = .some(name); declNames.insert(nameIndex)
                } else if let prev, isPunct(prev, s, "="), let target = prevPrev, target.kind == .ident {
                    let assigned = text(target, s)
                    let member = i > 2 && isPunct(t[i - 3], s, ".")
                    if member {
                        // `el.onclick = function…` needs a tap; `window.onload = function…` runs on load.
                        if assigned.hasPrefix("on") && !loadEvents.contains(String(assigned.dropFirst(2))) {
                            deferredName = .some(nil)
                        }
                    } else if assigned.hasPrefix("on") && loadEvents.contains(String(assigned.dropFirst(2))) {
                        // `onload = function…` at top level runs on load.
                    } else {
                        deferredName = .some(assigned); declNames.insert(i - 2)
                    }
                } else if let prev, isPunct(prev, s, ","), i > 3, t[i - 2].kind == .string,
                          isPunct(t[i - 3], s, "("), text(t[i - 4 < 0 ? 0 : i - 4], s) == "addEventListener" {
                    let event = String(decoding: s[t[i - 2].start..<t[i - 2].end], as: UTF8.self)
                    if !loadEvents.contains(event) { deferredName = .some(nil) }
                }
                if let deferredName { out.append((body, deferredName)) }
            }
        }
        return (out, declNames)
    }

    /// Given the index of `(` of a parameter list, the token range of the function body.
    private func functionBody(_ t: [Token], _ s: [UInt8], parenAt j: Int) -> Range<Int>? {
        guard j < t.count, isPunct(t[j], s, "("), let close = matching(t, s, from: j) else { return nil }
        let open = close + 1
        guard open < t.count, isPunct(t[open], s, "{"), let end = matching(t, s, from: open) else { return nil }
        return (open + 1)..<end
    }

    /// Index of the bracket matching the opener at `from` (`(`, `[`, `{`), or nil. Precomputed: O(1).
    private func matching(_ t: [Token], _ s: [UInt8], from: Int) -> Int? {
        guard from >= 0, from < t.count, t[from].partner > Int32(from) else { return nil }
        return Int(t[from].partner)
    }

    /// Index of the opener matching the closer at `from`.
    private func matchingBackward(_ t: [Token], _ s: [UInt8], from: Int) -> Int? {
        guard from >= 0, from < t.count, t[from].partner >= 0, t[from].partner < Int32(from) else { return nil }
        return Int(t[from].partner)
    }

    // MARK: matching

    /// Words a script must contain to be worth tokenising (case matters: `requestSubmit` has no `submit`).
    private static let baseNeedles: [[UInt8]] = ["location", "open", "submit", "Submit", "messageHandlers"].map { Array($0.utf8) }
    private static let defaultNeedles = baseNeedles + PageScanner.defaultAndroidInterfaces.map { Array($0.utf8) }
    private static let loadEvents: Set<String> = ["load", "DOMContentLoaded", "pageshow", "readystatechange"]
    private static let windowNames: Set<String> = Set(plainWindowNames.map(\.description))
    private static let plainWindowNames: [StaticString] = ["window", "document", "top", "self", "parent", "globalThis", "this"]

    /// The most common tap handler, `location.href = '…'` (or `location = '…'`, either after `window.` or another
    /// name `match` takes for the window, with an optional `;`), read straight from its bytes: the URL's byte
    /// range and the index `match` gives the `location` token. Nil for any other code (a string with an escape or
    /// a line break, a comment, anything after the `;`…): `match` reads that.
    static func plainAssignment(_ s: UnsafeBufferPointer<UInt8>) -> (url: Range<Int>, token: Int)? {
        let n = s.count
        var i = 0
        func blanks() { while i < n, s[i] == 0x20 || s[i] == 0x09 || s[i] == 0x0A || s[i] == 0x0D || s[i] == 0x0C || s[i] == 0x0B { i += 1 } }
        /// An identifier at `i`, its bytes (ASCII letters only: the words matched are).
        func word() -> UnsafeBufferPointer<UInt8> {
            let start = i
            while i < n, (s[i] | 0x20) >= 0x61, (s[i] | 0x20) <= 0x7A { i += 1 }
            // A word goes on through digits, `_`, `$` and non-ASCII bytes: then it is none of ours.
            if i < n, s[i] >= 0x80 || (s[i] >= 0x30 && s[i] <= 0x39) || s[i] == 0x5F || s[i] == 0x24 { return UnsafeBufferPointer(start: nil, count: 0) }
            return UnsafeBufferPointer(rebasing: s[start..<i])
        }
        func equals(_ w: UnsafeBufferPointer<UInt8>, _ literal: StaticString) -> Bool {
            w.count == literal.utf8CodeUnitCount && memcmp(w.baseAddress!, literal.utf8Start, w.count) == 0
        }
        blanks()
        var token = 0
        var w = word()
        blanks()
        if !equals(w, "location"), i < n, s[i] == UInt8(ascii: "."), plainWindowNames.contains(where: { equals(w, $0) }) {
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
        guard i + 1 < n, s[i] == UInt8(ascii: "="), s[i + 1] != UInt8(ascii: "="), s[i + 1] != UInt8(ascii: ">") else { return nil }
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
    fileprivate func addPlainAssignment(_ url: UnsafeBufferPointer<UInt8>, unit: Int, token: Int, into f: inout ScriptFindings) {
        guard f.admitNavigation() else { return }
        f.plainURLBytes.append(contentsOf: url)
        f.plainURLs.append((f.navigations.count, f.plainURLBytes.count))
        f.navigations.append(.init(url: "", kind: .assign, onLoad: false, delay: nil))
        f.navigationKeys.append(RunKey(phase: 1, unit: unit, token: token))
    }

    fileprivate func match(_ a: Analysed, into f: inout ScriptFindings) {
        let t = a.tokens, s = a.unit.source
        func word(_ k: Int) -> String? { k >= 0 && k < t.count && t[k].kind == .ident ? text(t[k], s) : nil }
        func punct(_ k: Int, _ p: StaticString) -> Bool { k >= 0 && k < t.count && isPunct(t[k], s, p) }
        /// `X.` before index k where X is window-like, or nothing (a bare global).
        func globalReceiver(_ k: Int) -> Bool {
            guard punct(k - 1, ".") else { return true }
            guard let w = word(k - 2) else { return false }
            return Self.windowNames.contains(w)
        }
        var groups = EnclosingGroups()
        /// When the code at token i runs: as far as known now (a finding in a named function's body is noted in
        /// `f.inFunctions`, as kind `list`, and decided in `finish`).
        func time(_ i: Int, _ list: ScriptFindings.List, _ item: Int) -> RunTime {
            guard let name = function(at: i, a) else { return runTime(i, a) }
            f.inFunctions.append((list, Int32(item), name))
            return .tap
        }
        /// Records a navigation found at token i.
        func navigation(_ url: String?, _ kind: PageScanResult.ScriptNavigation.Kind, at i: Int) {
            guard let url, f.admitNavigation() else { return }
            let time = time(i, .navigation, f.navigations.count)
            let delay = timerDelay(t, s, at: i, &groups)
            f.navigations.append(.init(url: url, kind: kind, onLoad: time != .tap, delay: delay))
            f.navigationKeys.append(runKey(time, delayed: delay != nil, a, i))
        }
        for i in 0..<t.count where t[i].kind == .ident && isWanted(t[i], s) {
            let w = text(t[i], s)
            switch w {
            case "location":
                guard globalReceiver(i) else { continue }
                if punct(i + 1, "=") {
                    navigation(literalValue(t, s, from: i + 2), .assign, at: i)
                } else if punct(i + 1, "."), let member = word(i + 2) {
                    if member == "href" && punct(i + 3, "=") {
                        navigation(literalValue(t, s, from: i + 4), .assign, at: i)
                    } else if (member == "assign" || member == "replace") && punct(i + 3, "(") {
                        navigation(literalValue(t, s, from: i + 4), member == "replace" ? .replace : .assign, at: i)
                    }
                } else if punct(i + 1, "["), i + 2 < t.count, t[i + 2].kind == .string, punct(i + 3, "]"), punct(i + 4, "="),
                          decodeString(t[i + 2], s) == "href" {
                    navigation(literalValue(t, s, from: i + 5), .assign, at: i)
                }
            case "open":
                guard punct(i - 1, "."), let recv = word(i - 2), ["window", "top", "self", "parent"].contains(recv),
                      punct(i + 1, "(") else { continue }
                navigation(literalValue(t, s, from: i + 2), .windowOpen, at: i)
            case "submit", "requestSubmit":
                guard punct(i - 1, "."), punct(i + 1, "("), punct(i + 2, ")") || w == "requestSubmit", f.admitSubmit() else { continue }
                let ref = formReference(t, s, receiverEnd: i - 2, formsBefore: a.unit.formsBefore, depth: 0)
                let time = time(i, .submit, f.submits.count)
                f.submits.append(.init(form: ref, onLoad: time != .tap,
                                       key: runKey(time, delayed: timerDelay(t, s, at: i, &groups) != nil, a, i)))
            case "messageHandlers":
                // (window.)webkit.messageHandlers.NAME.postMessage(ARGS) or messageHandlers["NAME"]
                guard punct(i - 1, "."), word(i - 2) == "webkit" else { continue }
                var k = i + 1
                var name: String?
                if punct(k, "."), let n = word(k + 1) { name = n; k += 2 }
                else if punct(k, "["), k + 1 < t.count, t[k + 1].kind == .string, punct(k + 2, "]") {
                    name = decodeString(t[k + 1], s); k += 3
                }
                guard let name, punct(k, "."), word(k + 1) == "postMessage", punct(k + 2, "("), f.admitHook() else { continue }
                let onLoad = time(i, .hook, f.hooks.count) != .tap
                f.hooks.append(.init(kind: .webkitMessageHandler, name: name, argument: argumentText(t, s, open: k + 2),
                                     onLoad: onLoad))
            default:
                guard androidInterfaces.contains(w) else { continue }
                // NAME.method(ARGS) or window.NAME.method(ARGS); not `x.NAME` and not an assignment target.
                if punct(i - 1, ".") && word(i - 2) != "window" { continue }
                guard punct(i + 1, "."), let method = word(i + 2), punct(i + 3, "("), f.admitHook() else { continue }
                let onLoad = time(i, .hook, f.hooks.count) != .tap
                f.hooks.append(.init(kind: .androidInterface, name: "\(w).\(method)", argument: argumentText(t, s, open: i + 3),
                                     onLoad: onLoad))
            }
        }
    }

    /// The delay in milliseconds of the `setTimeout(callback, N)` whose callback holds token `index`, when
    /// N is a number literal; nil when the token is not inside such a callback (it runs when reached). Looks
    /// outward through at most 16 enclosing brackets. `groups` follows the brackets open at `index` (calls come
    /// in increasing `index`), so a script's findings cost one sweep of its tokens, however many there are.
    private func timerDelay(_ t: [Token], _ s: [UInt8], at index: Int, _ groups: inout EnclosingGroups) -> Int? {
        groups.advance(to: index, t)
        for k in groups.openers.reversed().prefix(16) {
            guard isPunct(t[k], s, "("), k > 0, t[k - 1].kind == .ident, isWord(t[k - 1], s, "setTimeout") else { continue }
            if let known = groups.delays[k] { return known }
            let delay = callDelay(t, s, open: k)
            groups.delays[k] = delay
            return delay
        }
        return nil
    }

    /// The delay of the `setTimeout(` call whose `(` is token `k`: its last argument when that is a number literal.
    private func callDelay(_ t: [Token], _ s: [UInt8], open k: Int) -> Int? {
        let partner = Int(t[k].partner)
        // The last argument: the tokens after the last comma at this level.
        var j = partner - 1
        while j > k {
            let p = Int(t[j].partner)
            if p >= 0, p < j { j = p - 1; continue }
            if isPunct(t[j], s, ",") { break }
            j -= 1
        }
        guard j > k, j + 2 == partner, t[j + 1].kind == .number else { return nil }
        let literal = String(decoding: s[t[j + 1].start..<t[j + 1].end], as: UTF8.self)
        guard let ms = Double(String(literal.filter { $0 != "_" })), ms.isFinite else { return nil }
        // Browsers clamp to 0…2^31-1 ms (a larger delay fires at once).
        return ms < 0 || ms > 2_147_483_647 ? 0 : Int(ms)
    }

    /// The source text between `(` at `open` and its `)`, trimmed; nil when empty.
    private func argumentText(_ t: [Token], _ s: [UInt8], open: Int) -> String? {
        guard let close = matching(t, s, from: open), close > open + 1 else { return nil }
        let text = String(decoding: s[t[open].end..<t[close].start], as: UTF8.self)
        let trimmed = text.trimmingASCIIWhitespace()
        return trimmed.isEmpty ? nil : trimmed
    }

    /// A URL given as a literal at token `k`: `"…"`, `'…'`, a template without `${}`, `"a" + "b"`,
    /// `decodeURIComponent("…")`/`decodeURI("…")`/`unescape("…")`. Nil for anything computed.
    private func literalValue(_ t: [Token], _ s: [UInt8], from k: Int) -> String? {
        var k = k
        var result = ""
        while true {
            guard k < t.count else { return nil }
            var piece: String
            if t[k].kind == .string {
                piece = decodeString(t[k], s)
                k += 1
            } else if t[k].kind == .ident, ["decodeURIComponent", "decodeURI", "unescape",
                                            // The seed's trampoline page spells it `decodeURLComponent`; a browser
                                            // would throw there, but the page's intent (and the issue) is a decode.
                                            "decodeURLComponent"].contains(text(t[k], s)),
                      k + 3 < t.count, isPunct(t[k + 1], s, "("), t[k + 2].kind == .string, isPunct(t[k + 3], s, ")") {
                piece = PercentEncoding.decode(decodeString(t[k + 2], s))
                k += 4
            } else {
                return nil
            }
            result += piece
            if k < t.count, isPunct(t[k], s, "+") { k += 1; continue }
            // A literal followed by anything but an end (`;`, `)`, `,`, `}`, newline) is computed: `"a" + x`.
            return result
        }
    }

    /// Resolves the receiver of `.submit()` ending at token `end` (inclusive).
    private func formReference(_ t: [Token], _ s: [UInt8], receiverEnd end: Int, formsBefore: Int, depth: Int) -> FormReference {
        guard end >= 0 else { return .unknown(formsBefore: formsBefore) }
        // Walk back over a member chain: ident, `.`, `[..]`, `(..)`.
        var k = end
        var start = end
        while k >= 0 {
            if t[k].kind == .ident || t[k].kind == .string {
                start = k
                if k > 0, isPunct(t[k - 1], s, ".") { k -= 2; continue }
                if k > 0, t[k - 1].kind == .punct, s[t[k - 1].start] == UInt8(ascii: "$") { start = k - 1 }
                break
            } else if isPunct(t[k], s, ")") || isPunct(t[k], s, "]") {
                guard let open = matchingBackward(t, s, from: k) else { break }
                start = open
                k = open - 1
                if k >= 0, t[k].kind == .ident || isPunct(t[k], s, ")") || isPunct(t[k], s, "]") { continue }
                break
            } else {
                break
            }
        }
        let chain = Array(t[start...end])
        return interpret(chain, t, s, formsBefore: formsBefore, depth: depth, at: start)
    }

    /// Reads a receiver chain `c` (which starts at token `here` of `all`).
    private func interpret(_ c: [Token], _ all: [Token], _ s: [UInt8], formsBefore: Int, depth: Int, at here: Int) -> FormReference {
        func w(_ k: Int) -> String? { k < c.count && c[k].kind == .ident ? text(c[k], s) : nil }
        func p(_ k: Int, _ x: StaticString) -> Bool { k < c.count && isPunct(c[k], s, x) }
        func str(_ k: Int) -> String? { k < c.count && c[k].kind == .string ? decodeString(c[k], s) : nil }
        func num(_ k: Int) -> Int? { k < c.count && c[k].kind == .number ? Int(text(c[k], s)) : nil }
        for k in 0..<c.count {
            switch w(k) {
            case "forms":
                if p(k + 1, "[") {
                    if let n = num(k + 2) { return .index(n) }
                    if let name = str(k + 2) { return .name(name) }
                } else if p(k + 1, "."), let name = w(k + 2) { return .name(name) }
                return .first
            case "getElementById":
                if p(k + 1, "("), let id = str(k + 2) { return .id(id) }
            case "querySelector":
                if p(k + 1, "("), let sel = str(k + 2) { return selectorReference(sel, formsBefore: formsBefore) }
            case "getElementsByTagName":
                if p(k + 1, "("), str(k + 2)?.lowercased() == "form" {
                    if p(k + 4, "["), let n = num(k + 5) { return .index(n) }
                    return .first
                }
            case "getElementsByName":
                if p(k + 1, "("), let name = str(k + 2) { return .name(name) }
            case "document":
                if k == 0, p(1, "."), let name = w(2), c.count == 3 { return .name(name) }
            default:
                break
            }
        }
        // jQuery: $("#id") / $("form")
        if c.count >= 4, c[0].kind == .punct, s[c[0].start] == UInt8(ascii: "$"), let sel = str(2) {
            return selectorReference(sel, formsBefore: formsBefore)
        }
        if c.count >= 4, w(0) == "$" || w(0) == "jQuery", let sel = str(2) {
            return selectorReference(sel, formsBefore: formsBefore)
        }
        // A variable: find its last assignment `v = …` before and resolve that once.
        if c.count == 1, c[0].kind == .ident, depth < 3 {
            let name = s[c[0].start..<c[0].end]
            // Look back a bounded window (a page with thousands of `x.submit()` calls must stay linear).
            let window = max(0, here - 512)..<here
            if let assign = all[window].lastIndex(where: { $0.kind == .ident && s[$0.start..<$0.end].elementsEqual(name) }),
               assign + 1 < all.count, isPunct(all[assign + 1], s, "=") {
                // The right-hand side runs to `;`, `,` or a newline-ending token.
                var e = assign + 2
                while e < all.count, !isPunct(all[e], s, ";"), !isPunct(all[e], s, ",") { e += 1 }
                if e > assign + 2 {
                    return formReference(all, s, receiverEnd: e - 1, formsBefore: formsBefore, depth: depth + 1)
                }
            }
        }
        return .unknown(formsBefore: formsBefore)
    }

    private func selectorReference(_ sel: String, formsBefore: Int) -> FormReference {
        let sel = sel.trimmingASCIIWhitespace()
        if sel.hasPrefix("#") { return .id(String(sel.dropFirst())) }
        if sel.lowercased() == "form" { return .first }
        if sel.lowercased().hasPrefix("form#") { return .id(String(sel.dropFirst(5))) }
        if sel.lowercased().hasPrefix("form[name="), sel.hasSuffix("]") {
            var v = sel.dropFirst(10).dropLast()
            if v.hasPrefix("\"") || v.hasPrefix("'") { v = v.dropFirst().dropLast() }
            return .name(String(v))
        }
        return .unknown(formsBefore: formsBefore)
    }

    // MARK: token helpers

    private func text(_ t: Token, _ s: [UInt8]) -> String {
        String(decoding: s[t.start..<t.end], as: UTF8.self)
    }

    /// True when token `t` is the ASCII word `w`, compared as bytes.
    private func isWord(_ t: Token, _ s: [UInt8], _ w: StaticString) -> Bool {
        guard t.end - t.start == w.utf8CodeUnitCount else { return false }
        let p = w.utf8Start
        for k in 0..<w.utf8CodeUnitCount where s[t.start + k] != p[k] { return false }
        return true
    }

    private func isPunct(_ t: Token, _ s: [UInt8], _ p: StaticString) -> Bool {
        t.kind == .punct && isWord(t, s, p)
    }
}

/// Decodes a JavaScript string literal's inner bytes: `\xHH`, `\uHHHH`, `\u{…}`, `\n` etc., line continuations.
func decodeString(_ t: Token, _ s: [UInt8]) -> String {
    let text = String(decoding: s[t.start..<t.end], as: UTF8.self)
    return s[t.start..<t.end].contains(UInt8(ascii: "\\")) ? BrowserEscapes.decodeJavaScriptEscapes(text) : text
}

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
            if c == UInt8(ascii: "<"), i + 3 < n, s[i + 1] == UInt8(ascii: "!"), s[i + 2] == UInt8(ascii: "-"), s[i + 3] == UInt8(ascii: "-") {
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
                    if s[i] == UInt8(ascii: "$"), i + 1 < n, s[i + 1] == UInt8(ascii: "{") { interpolated = true; depth += 1; i += 2; continue }
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
                    if s[i] == UInt8(ascii: "[") { inClass = true }
                    else if s[i] == UInt8(ascii: "]") { inClass = false }
                    else if s[i] == UInt8(ascii: "/") && !inClass { break }
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
                while i < n, s[i] > 0x20, s[i] < 0x7F, operators.contains(s[i]), !(s[i] == UInt8(ascii: "!") || s[i] == UInt8(ascii: "~")) { i += 1 }
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

/// Script units analysed as they arrive, so a page's scripts are never all held at once (a page with 200,000
/// `onclick` handlers). Until some unit might matter (holds a word we report on) units wait unread, and are
/// dropped unread if none ever does. After that, each unit is matched at once and dropped. Whether code in a
/// named function's body runs on load depends on the calls in every other unit: such findings are noted, and
/// decided in `finish` from the call graph (names and calls, interned as numbers). Findings keep document order.
struct ScriptAnalysis {
    private let scanner: ScriptScanner
    /// Units waiting unread: their bytes end to end, and each one's end and particulars (24 bytes, not a unit
    /// with its own array: a page of 300,000 small scripts would hold 4 times its size).
    private var waitingBytes: [UInt8] = []
    private var waiting: [(end: Int, index: Int32, formsBefore: Int32, onLoad: Bool, runsAfterParsing: Bool)] = []
    private var anyMatters = false
    private var findings = ScriptFindings()
    /// Every name seen as a function name or a global reference, as a number; `flags` by number: a function's
    /// name, referenced by top-level code that runs while the page parses, or once it has loaded.
    private var names = NameTable()
    private var flags: [UInt8] = []
    private static let function: UInt8 = 1, parseRoot: UInt8 = 2, loadRoot: UInt8 = 4
    /// The calls from each named function's body (repeats within one body recorded once).
    private var calls: [(caller: Int32, callee: Int32)] = []
    private var lastCaller: Int32 = -1
    private var lastCallees: Set<Int32> = []
    private var units = 0

    init(_ scanner: ScriptScanner) { self.scanner = scanner }

    /// Adds the next unit in document order; returns its index (the `unit` of its findings' run keys).
    @discardableResult
    mutating func add(_ unit: ScriptUnit) -> Int {
        let matters = scanner.mightMatter(unit.source)
        var unit = unit
        unit.index = nextUnit(matters: matters)
        guard anyMatters else { wait(unit); return unit.index }
        analyse(unit, matters: matters)
        return unit.index
    }

    /// Adds an event-handler attribute's code (`onload`: one that runs without the user), borrowed: a plain
    /// assignment to `location` in a tap handler is read in place, anything else is copied into a unit.
    mutating func addHandler(_ source: UnsafeBufferPointer<UInt8>, onLoad: Bool, formsBefore: Int) -> Int {
        if !onLoad, scanner.readsPlainAssignments, let plain = ScriptScanner.plainAssignment(source) {
            let index = nextUnit(matters: true)   // it holds `location`
            scanner.addPlainAssignment(UnsafeBufferPointer(rebasing: source[plain.url]), unit: index, token: plain.token,
                                       into: &findings)
            return index
        }
        return add(ScriptUnit(source: Array(source), onLoad: onLoad, formsBefore: formsBefore, runsAfterParsing: onLoad))
    }

    /// Numbers the next unit. The first that matters first analyses the units kept waiting before it.
    private mutating func nextUnit(matters: Bool) -> Int {
        let index = units
        units += 1
        guard matters, !anyMatters else { return index }
        anyMatters = true
        let bytes = waitingBytes, earlier = waiting
        (waitingBytes, waiting) = ([], [])
        var start = 0
        for w in earlier {
            var u = ScriptUnit(source: Array(bytes[start..<w.end]), onLoad: w.onLoad, formsBefore: Int(w.formsBefore),
                               runsAfterParsing: w.runsAfterParsing)
            u.index = Int(w.index)
            start = w.end
            analyse(u, matters: false)
        }
        return index
    }

    /// Keeps a unit that matters to nothing yet, in case a later one does: it may declare a function or call one.
    /// A handler attribute that declares no function can do neither (its calls run on a tap, which no finding
    /// depends on), so it is dropped at once.
    private mutating func wait(_ unit: ScriptUnit) {
        guard unit.onLoad || unit.runsAfterParsing || Self.contains(unit.source, "function") else { return }
        waitingBytes += unit.source
        waiting.append((waitingBytes.count, Int32(truncatingIfNeeded: unit.index), Int32(truncatingIfNeeded: unit.formsBefore),
                        unit.onLoad, unit.runsAfterParsing))
    }

    private static func contains(_ s: [UInt8], _ word: StaticString) -> Bool {
        let w = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
        guard s.count >= w.count else { return false }
        for i in 0...(s.count - w.count) where s[i] == w[0] && s[i..<(i + w.count)].elementsEqual(w) { return true }
        return false
    }

    private mutating func id(_ name: String) -> Int32 {
        let (id, new) = names.insert(name.utf8)
        if new { flags.append(0) }
        return id
    }

    private mutating func analyse(_ unit: ScriptUnit, matters: Bool) {
        // A tap handler declares and references nothing that runs by itself: all it adds is what `match` finds.
        if matters, !unit.onLoad, !unit.runsAfterParsing, scanner.readsPlainAssignments,
           let plain = unit.source.withUnsafeBufferPointer({ ScriptScanner.plainAssignment($0) }) {
            unit.source.withUnsafeBufferPointer {
                scanner.addPlainAssignment(UnsafeBufferPointer(rebasing: $0[plain.url]), unit: unit.index, token: plain.token,
                                           into: &findings)
            }
            return
        }
        let a = scanner.analyse(unit)
        for d in a.deferred { if let n = d.name { flags[Int(id(n))] |= Self.function } }
        if unit.onLoad || !a.deferred.isEmpty {
            scanner.forEachGlobalReference(a) { name, owner, index in
                if owner < 0 {
                    guard unit.onLoad else { return }
                    flags[Int(id(name))] |= scanner.runTime(index, a) == .parse ? Self.parseRoot : Self.loadRoot
                } else if let caller = a.deferred[Int(owner)].name {
                    let (from, to) = (id(caller), id(name))
                    if from != lastCaller { lastCaller = from; lastCallees.removeAll(keepingCapacity: true) }
                    if lastCallees.insert(to).inserted { calls.append((from, to)) }
                }
            }
        }
        guard matters else { return }
        scanner.match(a, into: &findings)
    }

    /// The named functions reachable through calls from the names flagged `root`; `callees` lists each name's
    /// calls (by `from`).
    private func reachable(from root: UInt8, _ callees: [Int32], _ from: [Int]) -> [Bool] {
        var seen = [Bool](repeating: false, count: flags.count)
        var stack = flags.indices.filter { flags[$0] & root != 0 && flags[$0] & Self.function != 0 }.map { Int32($0) }
        while let f = stack.popLast() {
            guard !seen[Int(f)] else { continue }
            seen[Int(f)] = true
            for c in callees[from[Int(f)]..<from[Int(f) + 1]] where flags[Int(c)] & Self.function != 0 && !seen[Int(c)] { stack.append(c) }
        }
        return seen
    }

    /// The findings of every unit added, in document order.
    mutating func finish() -> ScriptFindings {
        // Hand the findings over rather than share them: the caller resolves them in place, and a second
        // reference here would make that copy every array.
        var out = findings
        findings = ScriptFindings()
        guard !out.inFunctions.isEmpty else { return out }
        // Which named functions run without a tap: reachable from references in code that runs by itself. The
        // calls, grouped by caller (counting sort): `callees[from[f]..<from[f + 1]]` are f's.
        var from = [Int](repeating: 0, count: flags.count + 1)
        for c in calls { from[Int(c.caller) + 1] += 1 }
        for k in 0..<flags.count { from[k + 1] += from[k] }
        var callees = [Int32](repeating: 0, count: calls.count)
        var next = from
        for c in calls { callees[next[Int(c.caller)]] = c.callee; next[Int(c.caller)] += 1 }
        calls = []
        let atParse = reachable(from: Self.parseRoot, callees, from)
        let atLoad = reachable(from: Self.loadRoot, callees, from)
        for p in out.inFunctions {
            let f = names.find(p.function.utf8).map(Int.init)
            let time: RunTime = f.map { atParse[$0] ? .parse : atLoad[$0] ? .load : .tap } ?? .tap
            let item = Int(p.item)
            switch p.list {
            case .navigation:
                out.navigations[item].onLoad = time != .tap
                if out.navigationKeys[item].phase != 2 { out.navigationKeys[item].phase = time == .parse ? 0 : 1 }
            case .hook:
                out.hooks[item].onLoad = time != .tap
            case .submit:
                out.submits[item].onLoad = time != .tap
                if out.submits[item].key.phase != 2 { out.submits[item].key.phase = time == .parse ? 0 : 1 }
            }
        }
        out.inFunctions = []
        return out
    }
}

/// Names numbered in the order first seen: their bytes end to end and an open-addressing table of numbers
/// (about 20 bytes a name; a `[String: Int32]` takes about 50, and a page can declare 200,000 functions).
struct NameTable {
    private var bytes: [UInt8] = []
    private var ends: [Int32] = []
    /// Name numbers by hash, -1 for empty; at most half full.
    private var slots = [Int32](repeating: -1, count: 64)

    /// The number of `name`, and whether it was new.
    mutating func insert<C: Collection<UInt8>>(_ name: C) -> (id: Int32, new: Bool) {
        var k = Self.hash(name) & (slots.count - 1)
        while slots[k] >= 0 {
            if self.name(Int(slots[k])).elementsEqual(name) { return (slots[k], false) }
            k = (k + 1) & (slots.count - 1)
        }
        let id = Int32(ends.count)
        bytes += name
        ends.append(Int32(truncatingIfNeeded: bytes.count))
        slots[k] = id
        if ends.count * 2 > slots.count { grow() }
        return (id, true)
    }

    func find<C: Collection<UInt8>>(_ name: C) -> Int32? {
        var k = Self.hash(name) & (slots.count - 1)
        while slots[k] >= 0 {
            if self.name(Int(slots[k])).elementsEqual(name) { return slots[k] }
            k = (k + 1) & (slots.count - 1)
        }
        return nil
    }

    private func name(_ id: Int) -> ArraySlice<UInt8> { bytes[(id == 0 ? 0 : Int(ends[id - 1]))..<Int(ends[id])] }

    private mutating func grow() {
        slots = [Int32](repeating: -1, count: slots.count * 2)
        for id in ends.indices {
            var k = Self.hash(name(id)) & (slots.count - 1)
            while slots[k] >= 0 { k = (k + 1) & (slots.count - 1) }
            slots[k] = Int32(id)
        }
    }

    /// FNV-1a.
    private static func hash<C: Collection<UInt8>>(_ name: C) -> Int {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in name { h = (h ^ UInt64(b)) &* 0x100_0000_01b3 }
        return Int(truncatingIfNeeded: h ^ (h >> 32))
    }
}

/// A set of ASCII bytes as two bit masks (one test per byte on the scanner's hot loop).
struct ByteSet {
    private var low: UInt64 = 0, high: UInt64 = 0   // bits for bytes 0…63 and 64…127
    init(_ bytes: [UInt8]) {
        for b in bytes where b < 128 { if b < 64 { low |= 1 << UInt64(b) } else { high |= 1 << UInt64(b - 64) } }
    }
    @inline(__always)
    func contains(_ b: UInt8) -> Bool {
        if b >= 128 { return false }
        return b < 64 ? (low >> UInt64(b)) & 1 == 1 : (high >> UInt64(b - 64)) & 1 == 1
    }
}
