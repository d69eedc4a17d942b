/// The matched brackets open at a token, innermost last, found by one forward sweep over the tokens.
struct EnclosingGroups {
    private(set) var openers: [Int] = []
    private var next = 0
    /// Timer delays already read, by the index of the call's `(`.
    var delays: [Int: Int?] = [:]
    /// The first `await` of a request directly in a block, by the index of its `{` (`Int.max`: none).
    var awaits: [Int: Int] = [:]

    /// Moves the sweep to token `index` (never backwards): `openers` are then the brackets around it.
    mutating func advance(to index: Int, _ t: [Token]) {
        while next < index {
            let partner = Int(t[next].partner)
            if partner > next { openers.append(next) } else if partner >= 0 { openers.removeLast() }
            next += 1
        }
    }
}
