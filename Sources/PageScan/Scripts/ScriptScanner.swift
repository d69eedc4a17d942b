// Finds navigations, form submissions and app hooks in inline JavaScript without running it.
//
// A small tokenizer (strings, template literals, comments, regex literals) feeds a pattern matcher over
// tokens. Only string literals (optionally concatenated with `+` or wrapped in `decodeURIComponent(…)`) count as
// navigation targets: a computed URL cannot be known without running the page.
//
// "On load" is decided per position: top-level code of an inline script or a body `onload` handler runs on
// load; the body of a named function runs on load only when that function is referenced from code that runs on
// load (transitively); other handler attributes (`onclick`…) and click listeners run on a tap.
//
// The scanner is one file but for the plain-assignment fast path (`ScriptScanner+PlainAssignment`): a release build
// compiles each source file to its own LLVM module, and the token helpers (`isWord`, `isPunct`…) are inlined into
// the loops that call them only where they share a file. `ScriptAnalysis` feeds the scanner a page's units as they
// arrive; the types it works with (`ScriptUnit`, `Token`, `ScriptFindings`…) have files of their own.
import PlainviewURL

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
        needles =
            androidInterfaces == PageScanner.defaultAndroidInterfaces
            ? Self.defaultNeedles : Self.baseNeedles + androidInterfaces.map { Array($0.utf8) }
        needleStarts = ByteSet(needles.compactMap(\.first))
        var wanted = [Bool](repeating: false, count: 256 * 32)
        for word in ["location", "open", "submit", "requestSubmit", "messageHandlers", "click", "action"]
            + Array(androidInterfaces)
        {
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

    struct Analysed {
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
        /// The first top-level use of jQuery in a unit where none can be loaded (`ScriptUnit.librariesLoaded`):
        /// its ReferenceError ends the script there, so its top-level code from this token on never runs, nor do
        /// listeners it would have added. `Int.max`: none.
        var deadFrom = Int.max
        /// True when the unit defines `$` or `jQuery` itself (a later script may then use them).
        var definesLibrary = false

        /// True when the code at token `i` never runs (see `deadFrom`): top-level code, or an anonymous listener
        /// added, from `deadFrom` on. A named function declared after it is hoisted and may still be called.
        func isDead(_ i: Int) -> Bool {
            guard i >= deadFrom else { return false }
            let o = i < owner.count ? Int(owner[i]) : -1
            return o < 0 || (deferred[o].name == nil && deferred[o].range.lowerBound >= deadFrom)
        }
    }

    /// Byte-level prefilter: scripts with none of these words cannot contain anything we report.
    func mightMatter(_ s: [UInt8]) -> Bool {
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
    func analyse(_ unit: ScriptUnit) -> Analysed {
        let tokens = Tokenizer(unit.source).tokens()
        let (deferred, declNames) = findDeferred(tokens, unit.source)
        // Load listeners only change when code of a unit that runs on load runs (`runTime`): a tap handler has none.
        let listeners = unit.onLoad ? loadListenerMask(tokens, unit.source) : []
        // owner[i]: the innermost deferred body holding token i (-1: top level; empty when there are no deferred
        // bodies). One sweep with a stack of open bodies (bodies nest or are disjoint), so deeply nested
        // functions stay linear.
        let definesLibrary = defines(libraryIn: tokens, unit.source)
        guard !deferred.isEmpty else {
            var a = Analysed(
                unit: unit, tokens: tokens, deferred: [], declarationNames: declNames, owner: [],
                inLoadListener: listeners)
            a.definesLibrary = definesLibrary
            if !unit.librariesLoaded, !definesLibrary { a.deadFrom = firstLibraryUse(tokens, unit.source, owner: []) ?? .max }
            return a
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
        var a = Analysed(
            unit: unit, tokens: tokens, deferred: deferred, declarationNames: declNames, owner: owner,
            inLoadListener: listeners)
        a.definesLibrary = definesLibrary
        if !unit.librariesLoaded, !definesLibrary { a.deadFrom = firstLibraryUse(tokens, unit.source, owner: owner) ?? .max }
        return a
    }

    /// Calls `body(name, owner, index)` for each identifier that may refer to a global function: not a
    /// declaration, not a member other than `window.x`; `owner` is the deferred body holding it (-1: top level).
    func forEachGlobalReference(_ a: Analysed, _ body: (String, Int32, Int) -> Void) {
        let s = a.unit.source
        for (i, t) in a.tokens.enumerated() where t.kind == .ident && !a.declarationNames.contains(i) {
            if i > 1, isPunct(a.tokens[i - 1], s, "."), text(a.tokens[i - 2], s) != "window" { continue }
            if a.isDead(i) { continue }
            body(text(t, s), i < a.owner.count ? a.owner[i] : -1, i)
        }
    }

    /// When the code at token `index` runs, outside named functions. Top-level code of an inline script runs
    /// while the page parses, except inside a load listener; a handler attribute's code runs on load (`onload`) or
    /// on a tap; an anonymous function body on a tap. (A named function runs when code that runs calls it, during
    /// parsing if any parse-time code does: `ScriptAnalysis.finish` decides, once every script has been read.)
    func runTime(_ index: Int, _ a: Analysed) -> RunTime {
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
            if isPunct(t[k], s, "("), let close = matching(t, s, from: k) {
                arrow = close + 1
            } else if t[k].kind == .ident {
                arrow = k + 1
            }
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
            if isPunct(t[k], s, "("), let close = matching(t, s, from: k) {
                arrow = close + 1
            } else if t[k].kind != .ident {
                return false
            }
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
                    let r = bracketRange(i + 1)
                {
                    ranges.append(r)
                }
            case UInt8(ascii: "o"):
                guard tok.kind == .ident, tok.end - tok.start > 2, s[tok.start + 1] == UInt8(ascii: "n"),
                    i + 2 < t.count, isPunct(t[i + 1], s, "="),
                    Self.loadEvents.contains(String(decoding: s[(tok.start + 2)..<tok.end], as: UTF8.self)),
                    let r = valueRange(i + 2)
                else { continue }
                ranges.append(r)
            case UInt8(ascii: "$"), UInt8(ascii: "j"):
                // `$(function(){…})`, `$(() => …)`: runs when the DOM is ready (unlike `$("#id")`).
                guard isWord(tok, s, "$") || (tok.kind == .ident && isWord(tok, s, "jQuery")), i + 2 < t.count,
                    isPunct(t[i + 1], s, "("), let r = bracketRange(i + 1), !r.isEmpty, isFunctionValue(r.lowerBound)
                else { continue }
                ranges.append(r)
            case UInt8(ascii: "r"):
                guard tok.kind == .ident, isWord(tok, s, "ready"), i > 0, isPunct(t[i - 1], s, "."), i + 1 < t.count,
                    isPunct(t[i + 1], s, "("), let r = bracketRange(i + 1)
                else { continue }
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
                var deferredName: String?? = nil // .some(name) when deferred
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
                    isPunct(t[i - 3], s, "("), text(t[i - 4 < 0 ? 0 : i - 4], s) == "addEventListener"
                {
                    let event = String(decoding: s[t[i - 2].start..<t[i - 2].end], as: UTF8.self)
                    if !loadEvents.contains(event) { deferredName = .some(nil) }
                }
                if let deferredName { out.append((body, deferredName)) }
            }
        }
        // Arrow functions as tap listeners: `addEventListener("click", (e) => {…})` (also `async`, one bare
        // parameter) and `el.onclick = () => {…}`.
        for k in t.indices where isPunct(t[k], s, "=>") && k > 0 && k + 1 < t.count {
            // The body: a block, or an expression up to the `,`, `;` or closing bracket that ends it.
            let body: Range<Int>
            if isPunct(t[k + 1], s, "{") {
                guard let end = matching(t, s, from: k + 1) else { continue }
                body = (k + 2)..<end
            } else {
                var j = k + 1
                while j < t.count {
                    if let close = matching(t, s, from: j) {
                        j = close + 1
                        continue
                    }
                    if isPunct(t[j], s, ",") || isPunct(t[j], s, ";") || matchingBackward(t, s, from: j) != nil { break }
                    j += 1
                }
                body = (k + 1)..<j
            }
            var start = k - 1
            if isPunct(t[start], s, ")") {
                guard let open = matchingBackward(t, s, from: start) else { continue }
                start = open
            } else if t[start].kind != .ident {
                continue
            }
            if start > 0, t[start - 1].kind == .ident, isWord(t[start - 1], s, "async") { start -= 1 }
            guard start > 0 else { continue }
            let prev = t[start - 1]
            var tapOnly = false
            if isPunct(prev, s, ","), start > 3, t[start - 2].kind == .string, isPunct(t[start - 3], s, "("),
                text(t[start - 4], s) == "addEventListener"
            {
                tapOnly = !loadEvents.contains(String(decoding: s[t[start - 2].start..<t[start - 2].end], as: UTF8.self))
            } else if isPunct(prev, s, "="), start > 2, t[start - 2].kind == .ident, isPunct(t[start - 3], s, ".") {
                let assigned = text(t[start - 2], s)
                tapOnly = assigned.hasPrefix("on") && !loadEvents.contains(String(assigned.dropFirst(2)))
            }
            if tapOnly { out.append((body, nil)) }
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
    func matchingBackward(_ t: [Token], _ s: [UInt8], from: Int) -> Int? {
        guard from >= 0, from < t.count, t[from].partner >= 0, t[from].partner < Int32(from) else { return nil }
        return Int(t[from].partner)
    }

    // MARK: matching

    /// Words a script must contain to be worth tokenising (case matters: `requestSubmit` has no `submit`).
    private static let baseNeedles: [[UInt8]] = ["location", "open", "submit", "Submit", "messageHandlers", ".click(", ".action"]
        .map {
            Array($0.utf8)
        }
    private static let defaultNeedles = baseNeedles + PageScanner.defaultAndroidInterfaces.map { Array($0.utf8) }
    private static let loadEvents: Set<String> = ["load", "DOMContentLoaded", "pageshow", "readystatechange"]
    static let windowNames: Set<String> = Set(plainWindowNames.map(\.description))
    static let plainWindowNames: [StaticString] = ["window", "document", "top", "self", "parent", "globalThis", "this"]

    func match(_ a: Analysed, into f: inout ScriptFindings) {
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
            let delay = timerDelay(t, s, at: i, &groups) ?? a.unit.timerDelay
            // `top.location …` and `parent.location …` (also after `window.`) navigate that window, not the script's.
            let receiver = kind == .windowOpen ? nil : (punct(i - 1, ".") ? word(i - 2) : nil)
            let target = receiver == "top" ? "_top" : receiver == "parent" ? "_parent" : nil
            let condition = condition(t, s, at: i, statementStart: memberChainStart(t, s, end: i), &groups)
            f.navigations.append(
                .init(url: url, kind: kind, onLoad: time != .tap, delay: delay, target: target, condition: condition))
            f.navigationKeys.append(runKey(time, delayed: delay != nil, a, i))
        }
        for i in 0..<t.count where t[i].kind == .ident && isWanted(t[i], s) && !a.isDead(i) {
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
                    decodeString(t[i + 2], s) == "href"
                {
                    navigation(literalValue(t, s, from: i + 5), .assign, at: i)
                }
            case "open":
                guard punct(i - 1, "."), let recv = word(i - 2), ["window", "top", "self", "parent"].contains(recv),
                    punct(i + 1, "(")
                else { continue }
                navigation(literalValue(t, s, from: i + 2), .windowOpen, at: i)
            case "submit", "requestSubmit":
                guard punct(i - 1, "."), punct(i + 1, "("), punct(i + 2, ")") || w == "requestSubmit", f.admitSubmit() else {
                    continue
                }
                let ref = formReference(t, s, receiverEnd: i - 2, formsBefore: a.unit.formsBefore, depth: 0)
                let time = time(i, .submit, f.submits.count)
                let delayed = timerDelay(t, s, at: i, &groups) != nil || a.unit.timerDelay != nil
                let condition = condition(t, s, at: i, statementStart: memberChainStart(t, s, end: i - 2), &groups)
                f.submits.append(
                    .init(form: ref, onLoad: time != .tap, key: runKey(time, delayed: delayed, a, i), condition: condition))
            case "click":
                // document.getElementById("ID").click() / document.querySelector("#ID").click()
                guard punct(i - 1, "."), punct(i + 1, "("), punct(i + 2, ")"), punct(i - 2, ")"),
                    let open = matchingBackward(t, s, from: i - 2), open == i - 4, t[open + 1].kind == .string,
                    let finder = word(open - 1), finder == "getElementById" || finder == "querySelector"
                else { continue }
                var id = decodeString(t[open + 1], s)
                if finder == "querySelector" {
                    guard id.hasPrefix("#"), id.count > 1,
                        id.dropFirst().allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" })
                    else { continue }
                    id.removeFirst()
                }
                guard !id.isEmpty, f.clicks.count < PageScanner.maxFindingsPerKind else { continue }
                let time = time(i, .click, f.clicks.count)
                let delayed = timerDelay(t, s, at: i, &groups) != nil || a.unit.timerDelay != nil
                let condition = condition(t, s, at: i, statementStart: memberChainStart(t, s, end: i - 2), &groups)
                f.clicks.append(
                    .init(id: id, onLoad: time != .tap, key: runKey(time, delayed: delayed, a, i), condition: condition))
            case "action":
                // form.action = "…" (a 3-D Secure page that sets where its form posts before submitting it).
                guard punct(i - 1, "."), punct(i + 1, "="), let url = literalValue(t, s, from: i + 2),
                    function(at: i, a) != nil || runTime(i, a) != .tap, f.actions.count < PageScanner.maxFindingsPerKind
                else { continue }
                f.actions.append((formReference(t, s, receiverEnd: i - 2, formsBefore: a.unit.formsBefore, depth: 0), url))
            case "messageHandlers":
                // (window.)webkit.messageHandlers.NAME.postMessage(ARGS) or messageHandlers["NAME"]
                guard punct(i - 1, "."), word(i - 2) == "webkit" else { continue }
                var k = i + 1
                var name: String?
                if punct(k, "."), let n = word(k + 1) {
                    name = n; k += 2
                } else if punct(k, "["), k + 1 < t.count, t[k + 1].kind == .string, punct(k + 2, "]") {
                    name = decodeString(t[k + 1], s); k += 3
                }
                guard let name, punct(k, "."), word(k + 1) == "postMessage", punct(k + 2, "("), f.admitHook() else { continue }
                let onLoad = time(i, .hook, f.hooks.count) != .tap
                f.hooks.append(
                    .init(
                        kind: .webkitMessageHandler, name: name, argument: argumentText(t, s, open: k + 2),
                        onLoad: onLoad))
            default:
                guard androidInterfaces.contains(w) else { continue }
                // NAME.method(ARGS) or window.NAME.method(ARGS); not `x.NAME` and not an assignment target.
                if punct(i - 1, ".") && word(i - 2) != "window" { continue }
                guard punct(i + 1, "."), let method = word(i + 2), punct(i + 3, "("), f.admitHook() else { continue }
                let onLoad = time(i, .hook, f.hooks.count) != .tap
                f.hooks.append(
                    .init(
                        kind: .androidInterface, name: "\(w).\(method)", argument: argumentText(t, s, open: i + 3),
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
    func callDelay(_ t: [Token], _ s: [UInt8], open k: Int) -> Int? {
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
            } else if t[k].kind == .ident,
                [
                    "decodeURIComponent", "decodeURI", "unescape",
                    // The seed's trampoline page spells it `decodeURLComponent`; a browser
                    // would throw there, but the page's intent (and the issue) is a decode.
                    "decodeURLComponent",
                ].contains(text(t[k], s)),
                k + 3 < t.count, isPunct(t[k + 1], s, "("), t[k + 2].kind == .string, isPunct(t[k + 3], s, ")")
            {
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
        let start = memberChainStart(t, s, end: end)
        let chain = Array(t[start...end])
        return interpret(chain, t, s, formsBefore: formsBefore, depth: depth, at: start)
    }

    /// Reads a receiver chain `c` (which starts at token `here` of `all`).
    private func interpret(_ c: [Token], _ all: [Token], _ s: [UInt8], formsBefore: Int, depth: Int, at here: Int)
        -> FormReference
    {
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
                } else if p(k + 1, "."), let name = w(k + 2) {
                    return .name(name)
                }
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
            // The last assignment to it (`f = …`), not its last use (`f.action = …`).
            if let assign = window.last(where: { k in
                all[k].kind == .ident && s[all[k].start..<all[k].end].elementsEqual(name) && k + 1 < all.count
                    && isPunct(all[k + 1], s, "=")
            }) {
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

    func text(_ t: Token, _ s: [UInt8]) -> String {
        String(decoding: s[t.start..<t.end], as: UTF8.self)
    }

    /// True when token `t` is the ASCII word `w`, compared as bytes.
    func isWord(_ t: Token, _ s: [UInt8], _ w: StaticString) -> Bool {
        guard t.end - t.start == w.utf8CodeUnitCount else { return false }
        let p = w.utf8Start
        for k in 0..<w.utf8CodeUnitCount where s[t.start + k] != p[k] { return false }
        return true
    }

    func isPunct(_ t: Token, _ s: [UInt8], _ p: StaticString) -> Bool {
        t.kind == .punct && isWord(t, s, p)
    }
}

/// Decodes a JavaScript string literal's inner bytes: `\xHH`, `\uHHHH`, `\u{…}`, `\n` etc., line continuations.
func decodeString(_ t: Token, _ s: [UInt8]) -> String {
    let text = String(decoding: s[t.start..<t.end], as: UTF8.self)
    return s[t.start..<t.end].contains(UInt8(ascii: "\\")) ? BrowserEscapes.decodeJavaScriptEscapes(text) : text
}
