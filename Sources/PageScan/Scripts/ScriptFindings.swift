struct ScriptFindings {
    typealias Navigation = PageScanResult.ScriptNavigation
    struct Submit {
        var form: FormReference
        var onLoad: Bool
        var key: RunKey
        var condition: PageScanResult.ScriptCondition? = nil
    }
    var navigations: [Navigation] = []
    /// The run key of each navigation, kept apart so that the navigations are handed over as they are (a page
    /// may hold a million of them; copying them out of a wrapper would hold them twice).
    var navigationKeys: [RunKey] = []
    var hooks: [PageScanResult.Hook] = []
    var submits: [Submit] = []
    /// `….click()` on an element found by id: resolved against the page's links and submit buttons at the end.
    struct Click {
        var id: String
        var onLoad: Bool
        var key: RunKey
        var condition: PageScanResult.ScriptCondition?
    }
    var clicks: [Click] = []
    /// `form.action = "…"` in code that runs by itself (top level, load listeners, named functions): the form's
    /// action as the page's scripts leave it, applied before the forms are resolved.
    var actions: [(form: FormReference, url: String)] = []
    /// Findings in the body of a named function: when they run is known only once every script has been read
    /// (whether code that runs calls the function), so `onLoad` and the run key's phase wait for `finish`.
    /// `item` indexes `navigations`, `hooks` or `submits`.
    enum List: UInt8 { case navigation, hook, submit, click }
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
