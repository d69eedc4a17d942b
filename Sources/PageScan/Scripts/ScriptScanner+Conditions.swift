// What the scanner reads around a finding besides the finding itself: what it waits on (a `confirm()` answer, a
// network answer), jQuery on a page that cannot have loaded it, and timers given code as a string. Per finding, not
// per token: nothing here is on the tokens' hot loop.
extension ScriptScanner {
    /// The first top-level use of jQuery (`$(…)`, `$.x`, `jQuery(…)`, `jQuery.x`): nil when there is none.
    func firstLibraryUse(_ t: [Token], _ s: [UInt8], owner: [Int32]) -> Int? {
        for i in t.indices where (i >= owner.count || owner[i] < 0) && isLibraryName(t[i], s) {
            if i > 0, isPunct(t[i - 1], s, ".") { continue }
            if i + 1 < t.count, isPunct(t[i + 1], s, "(") || isPunct(t[i + 1], s, ".") { return i }
        }
        return nil
    }

    /// True when the script defines `$` or `jQuery`: `function $(`, `var|let|const $`, `$ =`, `window.$ =`.
    func defines(libraryIn t: [Token], _ s: [UInt8]) -> Bool {
        for i in t.indices where isLibraryName(t[i], s) {
            if i > 0, t[i - 1].kind == .ident,
                isWord(t[i - 1], s, "function") || isWord(t[i - 1], s, "var") || isWord(t[i - 1], s, "let")
                    || isWord(t[i - 1], s, "const")
            {
                return true
            }
            if i + 1 < t.count, isPunct(t[i + 1], s, "=") { return true }
        }
        return false
    }

    func isLibraryName(_ t: Token, _ s: [UInt8]) -> Bool {
        ((t.kind == .punct || t.kind == .ident) && isWord(t, s, "$")) || (t.kind == .ident && isWord(t, s, "jQuery"))
    }

    /// The first token of the member chain ending at token `end` (inclusive): idents, strings, `.`, `[..]`, `(..)`,
    /// and a leading `$` (`document.forms[0]`, `$("#pay")`, `window.location`).
    func memberChainStart(_ t: [Token], _ s: [UInt8], end: Int) -> Int {
        var k = end
        var start = max(end, 0)
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
        return start
    }

    /// What the navigation or submission at token `index` (its statement starting at `statementStart`) waits on:
    /// the innermost of an `if` on `confirm(…)` around it (its block, its `else` block, or the one statement
    /// after a braceless `if (…)`) and a request's promise callback or an awaited request. `groups` has been
    /// advanced to `index`.
    func condition(
        _ t: [Token], _ s: [UInt8], at index: Int, statementStart: Int, _ groups: inout EnclosingGroups
    ) -> PageScanResult.ScriptCondition? {
        // A braceless `if (confirm(…)) location.href = …`.
        if statementStart > 0, isPunct(t[statementStart - 1], s, ")"),
            let open = matchingBackward(t, s, from: statementStart - 1), open > 0, isWord(t[open - 1], s, "if"),
            let answer = confirmAnswer(t, s, (open + 1)..<(statementStart - 1))
        {
            return answer
        }
        for k in groups.openers.reversed().prefix(16) {
            if isPunct(t[k], s, "{"), k > 0 {
                // `if (…) {` and `} else {`
                if isPunct(t[k - 1], s, ")"), let open = matchingBackward(t, s, from: k - 1), open > 0,
                    isWord(t[open - 1], s, "if")
                {
                    if let answer = confirmAnswer(t, s, (open + 1)..<(k - 1)) { return answer }
                } else if isWord(t[k - 1], s, "else"), k > 1, isPunct(t[k - 2], s, "}"),
                    let block = matchingBackward(t, s, from: k - 2), block > 0, isPunct(t[block - 1], s, ")"),
                    let open = matchingBackward(t, s, from: block - 1), open > 0, isWord(t[open - 1], s, "if"),
                    let answer = confirmAnswer(t, s, (open + 1)..<(block - 1))
                {
                    return answer == .confirmAccepted ? .confirmDismissed : .confirmAccepted
                }
                // Code after `await fetch(…)` in this block runs once the network has answered. (Each block is
                // read once: a block of many navigations stays linear.)
                let firstAwait =
                    groups.awaits[k]
                    ?? {
                        var j = k + 1
                        let end = Int(t[k].partner)
                        while j < end {
                            if isWord(t[j], s, "await"), awaitsRequest(t, s, after: j + 1) { return j }
                            let p = Int(t[j].partner)
                            j = p > j ? p + 1 : j + 1
                        }
                        return Int.max
                    }()
                groups.awaits[k] = firstAwait
                if firstAwait < index { return .networkAnswer }
            } else if isPunct(t[k], s, "("), k > 1, t[k - 1].kind == .ident, isPunct(t[k - 2], s, "."),
                Self.promiseCallbacks.contains(text(t[k - 1], s)), isRequest(t, s, chainEndingAt: k - 3)
            {
                return .networkAnswer
            }
        }
        return nil
    }

    /// True when what an `await` at `start - 1` waits on begins with a request (`fetch(…)`, `axios…`), also
    /// inside parentheses and another `await`: `await (await fetch(…)).json()`.
    private func awaitsRequest(_ t: [Token], _ s: [UInt8], after start: Int) -> Bool {
        var m = start
        while m < t.count, isPunct(t[m], s, "(") || isWord(t[m], s, "await") { m += 1 }
        return m < t.count && Self.requestHeads.contains(text(t[m], s))
    }

    /// The answer of the `confirm(…)` a condition's tokens test: accepted (`confirm(…)`), dismissed
    /// (`!confirm(…)`); nil when they call no `confirm`.
    private func confirmAnswer(_ t: [Token], _ s: [UInt8], _ range: Range<Int>) -> PageScanResult.ScriptCondition? {
        for k in range where t[k].kind == .ident && isWord(t[k], s, "confirm") && k + 1 < t.count && isPunct(t[k + 1], s, "(") {
            var before = k - 1
            if before > range.lowerBound, isPunct(t[before], s, "."), isWord(t[before - 1], s, "window") { before -= 2 }
            if before >= range.lowerBound, isPunct(t[before], s, ".") { continue }
            return before >= range.lowerBound && isPunct(t[before], s, "!") ? .confirmDismissed : .confirmAccepted
        }
        return nil
    }

    /// True when the member chain ending at token `end` starts with a request: `fetch(…)`, `axios…`,
    /// `$.ajax|get|post|getJSON(…)`, `jQuery.…`, `navigator.sendBeacon` excepted (no answer to wait for).
    private func isRequest(_ t: [Token], _ s: [UInt8], chainEndingAt end: Int) -> Bool {
        guard end >= 0 else { return false }
        let start = memberChainStart(t, s, end: end)
        guard start <= end else { return false }
        if Self.requestHeads.contains(text(t[start], s)) { return true }
        if isLibraryName(t[start], s), start + 2 <= end, isPunct(t[start + 1], s, "."), t[start + 2].kind == .ident {
            return ["ajax", "get", "post", "getJSON"].contains(text(t[start + 2], s))
        }
        return false
    }

    private static let requestHeads: Set<String> = ["fetch", "axios"]
    private static let promiseCallbacks: Set<String> = ["then", "catch", "finally", "done", "fail", "always"]

    /// The code strings of `setTimeout("…", N)` and `setInterval("…", N)` calls in code that runs by itself (top
    /// level, not after a jQuery failure), with their delays (0 when not a number literal): old 3-D Secure pages
    /// submit their form this way. A browser compiles the string as a script when the timer fires.
    func stringTimers(_ a: Analysed) -> [(source: [UInt8], delay: Int)] {
        let t = a.tokens, s = a.unit.source
        var out: [(source: [UInt8], delay: Int)] = []
        for i in t.indices where t[i].kind == .ident && (isWord(t[i], s, "setTimeout") || isWord(t[i], s, "setInterval")) {
            guard i + 3 < t.count, isPunct(t[i + 1], s, "("), t[i + 2].kind == .string,
                isPunct(t[i + 3], s, ",") || isPunct(t[i + 3], s, ")"), !a.isDead(i), runTime(i, a) != .tap
            else { continue }
            if i > 1, isPunct(t[i - 1], s, "."), !Self.windowNames.contains(text(t[i - 2], s)) { continue }
            out.append((Array(decodeString(t[i + 2], s).utf8), callDelay(t, s, open: i + 1) ?? 0))
        }
        return out
    }
}
