// Black-box: a config file or goodlist past its cap is an input error (exit 64) naming the file, and it comes
// at once, before the file is parsed, whatever the command.
import Foundation
import Testing
import TestSupport

@Suite struct InputCapCLITests {
    static let policy = """
        platform: ios
        paymentUrl: https://shop.example.com/pay?order=42
        completeUrl: https://shop.example.com/complete
        cancelUrl: https://shop.example.com/cancel

        """

    /// One more than the 4 MiB a config file may hold: a policy with inline goodlist patterns.
    static func overCapPolicy(goodlist: String? = nil) -> String {
        var text = policy + "goodlist:\n" + (goodlist.map { "  - \($0)\n" } ?? "")
        var i = 0
        while text.utf8.count < 4 * 1024 * 1024 + 1 {
            text += "  - acs\(i).bank.example\n"
            i += 1
        }
        return text
    }

    /// One more entry than the 200,000 the lists read together may hold, after a comment line.
    static let overCapGoodlist: String = {
        var out = "# generated\n"
        out.reserveCapacity(200_001 * 26)
        for i in 0...200_000 { out += "acs\(i).bank.example\n" }
        return out
    }()

    @Test(
        arguments: [
            ("decide, a policy past 4 MiB", ["decide", "--policy", "big.yaml", "https://acs1.bank.example/"], "big.yaml: is "),
            (
                "goodlist check, a list past 200,000 entries",
                ["goodlist", "check", "--goodlist", "big.goodlist", "https://acs1.bank.example/"], "big.goodlist:200002: "
            ),
            (
                "decide, a policy naming a list past 200,000 entries",
                ["decide", "--policy", "small.yaml", "https://acs1.bank.example/"], "big.goodlist:200002: "
            ),
            ("goodlist lint, a list past 200,000 entries", ["goodlist", "lint", "big.goodlist"], "big.goodlist:200002: "),
        ] as [(String, [String], String)])
    func anInputPastItsCapExits64NamingTheFile(name: String, args: [String], names: String) throws {
        let dir = try Project.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data(Self.overCapPolicy().utf8).write(to: dir.appendingPathComponent("big.yaml"))
        try Data((Self.policy + "goodlist:\n  - big.goodlist\n").utf8).write(to: dir.appendingPathComponent("small.yaml"))
        try Data(Self.overCapGoodlist.utf8).write(to: dir.appendingPathComponent("big.goodlist"))
        let started = ContinuousClock.now
        let r = try CLI.run(args, in: dir)
        let took = ContinuousClock.now - started
        #expect(r.status == 64, "\(name): \(r)")
        #expect(r.stderr.contains(names), "\(name): \(r)")
        #expect(r.stderr.contains("past the cap of"), "\(name): \(r)")
        // Refused before parsing: a debug build answers in well under this even on a loaded machine.
        #expect(took < .seconds(5), "\(name): took \(took)")
    }

    /// A policy naming a 20,000-entry goodlist with provenance on every line (5 MB, as Plainview's own list is
    /// written) adds at most 5 times the list to `decide`'s peak: the lines are not kept, provenance stays in the
    /// line it was read from, and the list is built once (before: about 9 times, each value held three times and
    /// the list built twice).
    @Test func aLargeGoodlistCostsDecideAFewTimesItsSize() async throws {
        let dir = try Project.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        var list = ""
        for i in 0..<20_000 {
            list +=
                "acs\(i).bank\(i % 997).example issuer=\"Bank number \(i % 997) of the north\" vendor=\"ACS vendor \(i % 13)\" "
                + "added=2026-11-22 verified=2026-11-22 why=\"3-D Secure challenge host seen in recorded checkouts of merchant \(i % 50)\" "
                + "source=\"https://issuer\(i % 997).example/docs/3ds/acs-hosts?rev=\(i)\"\n"
        }
        try Data(list.utf8).write(to: dir.appendingPathComponent("big.goodlist"))
        try Data((Self.policy + "goodlist: [big.goodlist]\n").utf8).write(to: dir.appendingPathComponent("policy.yaml"))
        try Data(Self.policy.utf8).write(to: dir.appendingPathComponent("empty.yaml"))
        let url = "https://acs7.bank7.example/x"
        let with = try await offPool {
            try ExtractLimitsCLITests.peak(["decide", "--policy", dir.appendingPathComponent("policy.yaml").path, url])
        }
        let without = try await offPool {
            try ExtractLimitsCLITests.peak(["decide", "--policy", dir.appendingPathComponent("empty.yaml").path, url])
        }
        #expect(with.status == 0 && without.status == 0)
        let added = Double(with.bytes - without.bytes) / Double(list.utf8.count)
        #expect(added < 5, "a \(list.utf8.count / 1_000_000) MB goodlist added \(added)× its size to decide's peak")
    }
}
