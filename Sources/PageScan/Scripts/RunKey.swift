/// Orders a page's automatic actions as a browser runs them: everything that runs during parsing in document
/// order, then load-time code in document order, then timers (which the simulated clock orders by delay).
struct RunKey: Comparable {
    var phase: UInt8
    var unit: Int
    var token: Int
    static func < (a: RunKey, b: RunKey) -> Bool { (a.phase, a.unit, a.token) < (b.phase, b.unit, b.token) }
}
