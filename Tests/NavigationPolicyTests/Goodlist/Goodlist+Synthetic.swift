import NavigationPolicy

// Generated lists for scale tests: realistic shapes (exact hosts, `*.x`, `**.x` at 2–4 labels).

extension Goodlist {
    /// A list of `count` distinct generated entries (deterministic): 70% exact hosts, 20% `*.x`, 10% `**.x`,
    /// spread over many registrable domains so the trie has realistic fan-out.
    static func synthetic(count: Int) -> Goodlist {
        var pairs: [(HostPattern, GoodlistEntry)] = []
        pairs.reserveCapacity(count)
        for i in 0..<max(0, count) {
            let text = syntheticPattern(i)
            if let p = try? HostPattern(text) {
                pairs.append((p, GoodlistEntry(pattern: text, file: "synthetic", line: i + 1)))
            }
        }
        return Goodlist(pairs)
    }

    /// The i-th generated pattern (`acs7.bank42.example`, `*.idp3.bank9.example`, `**.bank5.test`).
    static func syntheticPattern(_ i: Int) -> String {
        let tld = ["example", "test", "invalid", "bank"][i % 4]
        switch i % 10 {
        case 0...6: return "acs\(i).bank\(i / 7).\(tld)"
        case 7, 8: return "*.idp\(i).bank\(i / 7).\(tld)"
        default: return "**.ds\(i).bank\(i / 7).\(tld)"
        }
    }

    /// Hosts to look up against `synthetic(count:)`: a quarter admitted (at various depths), the rest not
    /// (look-alikes that share suffixes, so lookups walk deep before failing).
    static func syntheticHosts(count: Int, listSize: Int) -> [String] {
        let n = max(1, listSize)
        return (0..<max(0, count)).map { k in
            let i = (k &* 7919) % n
            let tld = ["example", "test", "invalid", "bank"][i % 4]
            switch (k % 4, i % 10) {
            case (0, 0...6): return "acs\(i).bank\(i / 7).\(tld)"
            case (0, 7), (0, 8): return "login.idp\(i).bank\(i / 7).\(tld)"
            case (0, _): return "a.b.ds\(i).bank\(i / 7).\(tld)"
            case (1, _): return "www.bank\(i / 7).\(tld)"
            case (2, _): return "evilacs\(i).bank\(i / 7).\(tld)"
            default: return "acs\(i).bank\(i / 7).\(tld).evil.com"
            }
        }
    }
}
