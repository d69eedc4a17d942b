// The fast paths added for speed (issue 9) must answer exactly what the general code answers.
@testable import PlainviewURL
import Testing
@testable import NavigationPolicy

@Suite struct FastPathEquivalenceTests {
    /// A list with anchors nested at several depths, every kind at several of them.
    static let patterns: [String] = {
        var out: [String] = []
        let words = ["a", "bank", "acs", "x", "secure-3ds", "averyveryverylonglabelname", "ko"]
        for (i, w) in words.enumerated() {
            for (j, v) in words.enumerated() where (i + j) % 2 == 0 {
                let base = "\(v).\(w).example"
                switch (i * 7 + j) % 3 {
                case 0: out.append(base)
                case 1: out.append("*.\(base)")
                default: out.append("**.\(base)")
                }
            }
            out.append(["**.", "*.", ""][i % 3] + "\(w).example")
        }
        out += ["**.example", "*.com", "com", "acs.bank.example", "*.acs.bank.example", "**.acs.bank.example"]
        return out
    }()

    @Test func tableLookupEqualsTheTrieWalk() {
        let list = Goodlist(entries: Self.patterns.map { GoodlistEntry(pattern: $0) })
        #expect(list.rejected.isEmpty)
        let words = ["a", "bank", "acs", "x", "secure-3ds", "averyveryverylonglabelname", "ko", "zz", "example", "com"]
        var hosts: [String] = ["example", "com", "x.com", "a.b.com", "notexample", "xexample"]
        for a in words {
            hosts.append("\(a).example")
            for b in words {
                hosts.append("\(a).\(b).example")
                for c in words.prefix(4) { hosts.append("\(c).\(a).\(b).example") }
            }
        }
        for host in hosts {
            let reference = list.allMatchIndices(normalizedHost: host).last
            #expect(list.matchIndex(normalizedHost: host) == reference, "\(host)")
            #expect(list.matchIndex(host: host.uppercased() + ".") == reference, "\(host)")
        }
    }
}

@Suite struct GoodlistTableCopyTests {
    /// The table's storage is shared between copies; appending to one copy must not disturb the other.
    @Test func copiesStayIndependent() throws {
        let original = Goodlist(entries: (0..<40).map { GoodlistEntry(pattern: "*.host\($0).example") })
        var copy = original
        for i in 40..<80 { try copy.append(GoodlistEntry(pattern: "**.host\(i).example")) }
        for i in 0..<80 {
            #expect((original.match(host: "a.host\(i).example") != nil) == (i < 40), "\(i)")
            #expect(copy.match(host: "a.b.host\(i).example")?.pattern == (i < 40 ? nil : "**.host\(i).example"), "\(i)")
            #expect(copy.match(host: "a.host\(i).example") != nil, "\(i)")
        }
    }
}
