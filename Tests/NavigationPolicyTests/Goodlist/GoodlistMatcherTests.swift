import PlainviewURL
import Testing
import NavigationPolicy

/// The 12 patterns of the Swedbank Pay iOS SDK's `good_redirects` (Tests/Vectors/reference/swedbank-ios-good_redirects.txt).
let sdkPatterns = [
    "**.payex.com", "acs4.sparebank1.no", "*.3dsecure.no", "*.3ds.modirum.com",
    "idcheck.acs.touchtechpayments.com", "verifiedbyvisa.acs.touchtechpayments.com", "*.wlp-acs.com",
    "*.op.fi", "acs1.luottokunta.fi", "online.s-pankki.fi", "identify.nordea.com", "verifiedbyvisa.skandia.se",
]

@Suite struct GoodlistMatcherTests {
    let list = Goodlist(
        entries: sdkPatterns.enumerated().map {
            GoodlistEntry(pattern: $1, file: "good_redirects", line: $0 + 1)
        })

    @Test(arguments: [
        ("ecom.payex.com", "**.payex.com"),
        ("payex.com", "**.payex.com"),
        ("a.b.c.payex.com", "**.payex.com"),
        ("acs4.sparebank1.no", "acs4.sparebank1.no"),
        ("3dsecure.no", "*.3dsecure.no"),
        ("acs.3dsecure.no", "*.3dsecure.no"),
        ("secure5.3ds.modirum.com", "*.3ds.modirum.com"),
        ("ACS1.LUOTTOKUNTA.FI.", "acs1.luottokunta.fi"),
        ("verifiedbyvisa.skandia.se", "verifiedbyvisa.skandia.se"),
        ("x.wlp-acs.com", "*.wlp-acs.com"),
    ])
    func admitsListedHosts(_ host: String, _ pattern: String) {
        #expect(list.match(host: host)?.pattern == pattern, "\(host)")
    }

    @Test(arguments: [
        "evilpayex.com", "xpayex.com", "payex.com.evil.com", "payex.co", "a.b.3dsecure.no", "evil3dsecure.no",
        "sparebank1.no", "x.acs4.sparebank1.no", "cs4.sparebank1.no", "a.b.wlp-acs.com", "touchtechpayments.com",
        "acs.touchtechpayments.com", "nordea.com", "skandia.se", "op.fi.evil.com", "xop.fi", "a.b.op.fi",
        "payex.com:443", "user:pw@payex.com", "payex.com@evil.com", "evil.com#.payex.com", "evil.com/.payex.com",
        "a..payex.com", "payex.com..", "", ".", "com", "fi", "localhost", "192.0.2.1",
    ])
    func rejectsEverythingElse(_ host: String) {
        #expect(list.match(host: host) == nil, "\(host) was admitted by \(list.match(host: host)?.pattern ?? "")")
    }

    @Test func reportsFileAndLineOfTheAdmittingEntry() throws {
        let entry = try #require(list.match(host: "acs.3dsecure.no"))
        #expect(entry.file == "good_redirects")
        #expect(entry.line == 3)
        #expect(entry.location == "good_redirects:3")
    }

    @Test(arguments: [
        // host, expected pattern (the most specific of several)
        ("acs.bank.example", "acs.bank.example"),
        ("bank.example", "bank.example"),
        ("x.bank.example", "**.x.bank.example"), // anchored on the host itself: deeper wins
        ("w.bank.example", "*.bank.example"),
        ("y.x.bank.example", "**.x.bank.example"),
        ("z.y.x.bank.example", "**.x.bank.example"),
        ("z.y.bank.example", "**.bank.example"),
        ("q.deep.bank.example", "*.deep.bank.example"),
        ("deep.bank.example", "*.deep.bank.example"),
    ])
    func prefersTheMostSpecificEntry(_ host: String, _ expected: String) {
        let l = Goodlist(patterns: [
            "**.bank.example", "*.bank.example", "bank.example", "acs.bank.example",
            "**.x.bank.example", "**.deep.bank.example", "*.deep.bank.example",
        ])
        #expect(l.match(host: host)?.pattern == expected, "\(host)")
    }

    @Test func firstOfTwoEqualPatternsWins() {
        let l = Goodlist(entries: [
            GoodlistEntry(pattern: "**.payex.com", file: "a", line: 1),
            GoodlistEntry(pattern: "**.PAYEX.com.", file: "b", line: 7),
        ])
        #expect(l.match(host: "x.payex.com")?.file == "a")
        #expect(l.count == 2)
    }

    @Test func invalidEntriesAreRejectedNotMatched() throws {
        let l = Goodlist(patterns: ["https://payex.com", "*payex.com", "ok.example"])
        #expect(l.count == 1)
        #expect(l.rejected.map(\.entry.pattern) == ["https://payex.com", "*payex.com"])
        #expect(l.rejected.map(\.error.code) == [.scheme, .misplacedWildcard])
        #expect(l.match(host: "payex.com") == nil)
        #expect(throws: HostPatternError.self) { try Goodlist(validating: [GoodlistEntry(pattern: "a.*.b")]) }
    }

    @Test func emptyListAdmitsNothing() {
        #expect(Goodlist().match(host: "payex.com") == nil)
        #expect(Goodlist().isEmpty)
    }

    @Test func mergedListsKeepTheFirstListsEntry() {
        let a = Goodlist(patterns: ["**.payex.com"], file: "a")
        let b = Goodlist(patterns: ["**.payex.com", "*.op.fi"], file: "b")
        let m = a.merged(with: b)
        #expect(m.match(host: "payex.com")?.file == "a")
        #expect(m.match(host: "x.op.fi")?.file == "b")
    }

    @Test func largeListsStillMatchCorrectly() {
        // 20k generated entries: the trie must keep both answers and bypass rejections right.
        var patterns = (0..<20_000).map { "acs\($0).bank\($0 % 97).example" }
        patterns += ["**.payex.com", "*.3dsecure.no"]
        let big = Goodlist(patterns: patterns)
        #expect(big.count == 20_002)
        #expect(big.match(host: "acs19999.bank17.example")?.pattern == "acs19999.bank17.example")
        #expect(big.match(host: "acs19999.bank16.example") == nil)
        #expect(big.match(host: "evilpayex.com") == nil)
        #expect(big.match(host: "a.payex.com")?.pattern == "**.payex.com")
    }

    @Test func supersetQueriesFindBroaderEntries() throws {
        let l = Goodlist(patterns: ["**.payex.com", "*.payex.com", "a.payex.com", "*.a.payex.com"])
        let sup = l.supersetIndices(of: try HostPattern("*.a.payex.com")).map { l.patterns[$0].description }
        #expect(sup == ["**.payex.com", "*.a.payex.com"])
        let supExact = l.supersetIndices(of: try HostPattern("b.a.payex.com")).map { l.patterns[$0].description }
        #expect(supExact == ["**.payex.com", "*.a.payex.com"])
        let supA = l.supersetIndices(of: try HostPattern("a.payex.com")).map { l.patterns[$0].description }
        #expect(supA == ["**.payex.com", "*.payex.com", "*.a.payex.com", "a.payex.com"])
    }
}

@Suite struct GoodlistFastPathTests {
    /// Bases and labels around the table's word size (8 bytes), inline limit (32 bytes) and beyond (pool): a
    /// host differing from a base in any one byte, or one byte longer or shorter, is not admitted.
    @Test(arguments: [7, 8, 9, 15, 16, 17, 31, 32, 33, 40, 63])
    func basesOfEveryLengthMatchExactly(_ length: Int) {
        let label = String(repeating: "k", count: max(1, length - 4))
        let base = "\(label).bnk" // length bytes, one long label then a short one
        let list = Goodlist(patterns: [base, "**.w\(label).bnk"])
        #expect(list.match(host: base)?.pattern == base)
        #expect(list.match(host: "a.w\(label).bnk")?.pattern == "**.w\(label).bnk")
        var bytes = Array(base.utf8)
        for i in bytes.indices where bytes[i] != UInt8(ascii: ".") {
            let saved = bytes[i]
            bytes[i] = UInt8(ascii: "q")
            #expect(list.match(host: String(decoding: bytes, as: UTF8.self)) == nil, "byte \(i) changed")
            bytes[i] = saved
        }
        #expect(list.match(host: "k" + base) == nil)
        #expect(list.match(host: String(base.dropFirst())) == nil)
        #expect(list.match(host: "x." + base) == nil)
    }

    /// The canonical-host fast path must give exactly the answer of normalising first.
    @Test(arguments: [
        "ecom.payex.com", "ECOM.payex.com", "ecom.payex.com.", "xn--bcher-kva.payex.com", "a.xn--zz.payex.com",
        "payex.com", "1.payex.com", "payex.123", "192.0.2.1", "0x7f.1", "a-.payex.com", "_x.payex.com",
        "a..payex.com", ".payex.com", "", "evilpayex.com", "a.b.3dsecure.no", "acs.3dsecure.no", "3dsecure.no",
        "pay%65x.com", "payex.com:443",
    ])
    func fastPathAgreesWithNormalising(_ host: String) {
        let list = Goodlist(patterns: sdkPatterns)
        let slow = HostName.normalize(host).flatMap { h in
            h.isEmpty || h.hasPrefix(".") || h.hasSuffix(".") || h.contains("..") ? nil : list.matchIndex(normalizedHost: h)
        }
        #expect(list.matchIndex(host: host) == slow, "\(host)")
    }

    @Test func syntheticListsHaveTheRequestedSizeAndMatch() {
        let list = Goodlist.synthetic(count: 1000)
        #expect(list.count == 1000)
        #expect(list.rejected.isEmpty)
        let hosts = Goodlist.syntheticHosts(count: 400, listSize: 1000)
        let admitted = hosts.filter { list.match(host: $0) != nil }.count
        #expect(admitted == 100)
        #expect(hosts.filter { $0.contains("evil") }.allSatisfy { list.match(host: $0) == nil })
    }
}
