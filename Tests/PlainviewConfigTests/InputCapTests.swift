// The caps on what a config or goodlist file may hold: a config file past 4 MiB is refused before Yams parses it,
// and the goodlists read together (files, folders, the built-in list and a policy's inline patterns) may hold at
// most `Goodlist.maximumEntries` entries; each error names the file (and the line where the cap was passed).
import Foundation
import NavigationPolicy
import PlainviewConfig
import Testing
import TestSupport

/// The documented caps (docs/policy.md, Goodlist/README.md), written out so a change to either is deliberate.
private let configCap = 4 * 1024 * 1024
private let entryCap = 200_000

private let policy = """
    platform: ios
    paymentUrl: https://shop.example.com/pay?order=42
    completeUrl: https://shop.example.com/complete
    cancelUrl: https://shop.example.com/cancel

    """

/// `text` padded with comment lines to exactly `size` bytes.
private func padded(_ text: String, to size: Int) -> String {
    var out = text
    let line = "# " + String(repeating: "x", count: 97) + "\n"
    while out.utf8.count + line.utf8.count <= size { out += line }
    let rest = size - out.utf8.count
    if rest > 0 { out += rest == 1 ? "\n" : "#" + String(repeating: "x", count: rest - 2) + "\n" }
    return out
}

/// `count` bare host patterns, one a line, after a comment line.
private func goodlist(_ count: Int, from start: Int = 0) -> String {
    var out = "# generated\n"
    out.reserveCapacity(count * 28)
    for i in start..<start + count { out += "acs\(i).bank.example\n" }
    return out
}

@Suite struct ConfigFileCapTests {
    enum Kind: String, CaseIterable, Sendable {
        case policy, environment, text
    }

    @Test(arguments: Kind.allCases)
    func aConfigFilePastTheCapIsRefusedNamingItsSizeAndTheCap(kind: Kind) throws {
        let dir = try Project.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let size = configCap + 1
        let text = padded(kind == .environment ? "apps: []\n" : policy, to: size)
        let path = dir.appendingPathComponent("big.yaml").path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        let started = ContinuousClock.now
        let error = #expect(throws: ConfigError.self) {
            switch kind {
            case .policy: _ = try PolicyFile.load(path: path)
            case .environment: _ = try EnvironmentFile.load(path: path)
            case .text: _ = try ConfigNode.parse(text, file: path)
            }
        }
        #expect(ContinuousClock.now - started < .seconds(2))
        #expect(error?.file == path, "\(String(describing: error))")
        #expect(
            error?.message.hasPrefix("is \(size) bytes, past the cap of 4 MiB (4194304 bytes)") == true,
            "\(String(describing: error))")
    }

    @Test func aPolicyAtTheCapLoads() throws {
        let dir = try Project.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("policy.yaml").path
        try Data(padded(policy, to: configCap).utf8).write(to: URL(fileURLWithPath: path))
        #expect(try PolicyFile.load(path: path).paymentURL == "https://shop.example.com/pay?order=42")
    }
}

@Suite struct GoodlistEntryCapTests {
    @Test func theEntryThatPassesTheCapIsNamedByFileAndLineAcrossFiles() throws {
        let dir = try Project.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let a = dir.appendingPathComponent("a.goodlist").path
        let b = dir.appendingPathComponent("b.goodlist").path
        try Data(goodlist(2).utf8).write(to: URL(fileURLWithPath: a))
        try Data(goodlist(entryCap, from: 2).utf8).write(to: URL(fileURLWithPath: b))
        let started = ContinuousClock.now
        // Two in a.goodlist, so b.goodlist's entry 199,999 (line 200,000, after its comment line) is one too many.
        let error = #expect(throws: ConfigError.self) { try GoodlistFiles.load([a, b]) }
        #expect(ContinuousClock.now - started < .seconds(3))
        #expect(error?.file == b, "\(String(describing: error))")
        #expect(error?.line == entryCap, "\(String(describing: error))")
        #expect(error?.message.contains("past the cap of 200000 goodlist entries") == true, "\(String(describing: error))")
        // One file alone at the cap is counted but not refused by the count (lint reads it too).
        #expect(try GoodlistFiles.readSources([b]).count == 1)
    }

    @Test func aPolicysInlinePatternsCountTowardTheCap() throws {
        let dir = try Project.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data(goodlist(entryCap).utf8).write(to: dir.appendingPathComponent("big.goodlist"))
        let path = dir.appendingPathComponent("policy.yaml").path
        try Data((policy + "goodlist:\n  - extra.example\n  - big.goodlist\n").utf8).write(to: URL(fileURLWithPath: path))
        let error = #expect(throws: ConfigError.self) { try PolicyFile.load(path: path) }
        // The inline pattern is the first entry, so the file's last line is the one past the cap.
        #expect(error?.file == "big.goodlist", "\(String(describing: error))")
        #expect(error?.line == entryCap + 1, "\(String(describing: error))")
    }

    @Test func aGoodlistWellUnderTheCapLoads() throws {
        let dir = try Project.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("list.goodlist").path
        try Data(goodlist(20_000).utf8).write(to: URL(fileURLWithPath: path))
        let list = try GoodlistFiles.load([path])
        #expect(list.count == 20_000)
        #expect(list.allows(host: "acs19999.bank.example"))
    }
}

@Suite struct InputCapConstantTests {
    @Test func theCapsAreTheDocumentedOnes() {
        #expect(ConfigNode.maximumFileSize == configCap)
        #expect(Goodlist.maximumEntries == entryCap)
    }
}
