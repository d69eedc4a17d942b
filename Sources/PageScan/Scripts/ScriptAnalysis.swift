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
    /// True once a script has defined `$` or `jQuery` itself: later scripts may use them.
    private var libraryDefined = false

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
            let index = nextUnit(matters: true) // it holds `location`
            scanner.addPlainAssignment(
                UnsafeBufferPointer(rebasing: source[plain.url]), unit: index, token: plain.token,
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
            var u = ScriptUnit(
                source: Array(bytes[start..<w.end]), onLoad: w.onLoad, formsBefore: Int(w.formsBefore),
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
        waiting.append(
            (
                waitingBytes.count, Int32(truncatingIfNeeded: unit.index), Int32(truncatingIfNeeded: unit.formsBefore),
                unit.onLoad, unit.runsAfterParsing
            ))
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
            let plain = unit.source.withUnsafeBufferPointer({ ScriptScanner.plainAssignment($0) })
        {
            unit.source.withUnsafeBufferPointer {
                scanner.addPlainAssignment(
                    UnsafeBufferPointer(rebasing: $0[plain.url]), unit: unit.index, token: plain.token,
                    into: &findings)
            }
            return
        }
        var unit = unit
        if libraryDefined { unit.librariesLoaded = true }
        let a = scanner.analyse(unit)
        if a.definesLibrary { libraryDefined = true }
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
        // `setTimeout("code", N)`: the code is a script of its own, run as a timer.
        for timer in scanner.stringTimers(a) {
            var inner = ScriptUnit(
                source: timer.source, onLoad: true, formsBefore: unit.formsBefore, runsAfterParsing: unit.runsAfterParsing)
            inner.timerDelay = timer.delay
            inner.librariesLoaded = unit.librariesLoaded
            add(inner)
        }
    }

    /// The named functions reachable through calls from the names flagged `root`; `callees` lists each name's
    /// calls (by `from`).
    private func reachable(from root: UInt8, _ callees: [Int32], _ from: [Int]) -> [Bool] {
        var seen = [Bool](repeating: false, count: flags.count)
        var stack = flags.indices.filter { flags[$0] & root != 0 && flags[$0] & Self.function != 0 }.map { Int32($0) }
        while let f = stack.popLast() {
            guard !seen[Int(f)] else { continue }
            seen[Int(f)] = true
            for c in callees[from[Int(f)]..<from[Int(f) + 1]] where flags[Int(c)] & Self.function != 0 && !seen[Int(c)] {
                stack.append(c)
            }
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
            case .click:
                out.clicks[item].onLoad = time != .tap
                if out.clicks[item].key.phase != 2 { out.clicks[item].key.phase = time == .parse ? 0 : 1 }
            }
        }
        out.inFunctions = []
        return out
    }
}
