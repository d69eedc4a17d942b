import Foundation
import Testing
import TestSupport

@Suite struct ImportCLITests {
    static func fixture(_ name: String) -> String { Project.path("Tests/FlowSimulatorTests/Fixtures/har/\(name)").path }

    /// Every file of a folder, as text (bytes decoded leniently).
    static func allText(_ folder: URL) throws -> String {
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        return try names.map { String(decoding: try Data(contentsOf: folder.appendingPathComponent($0)), as: UTF8.self) }.joined(separator: "\n")
    }

    @Test func importWritesARedactedFlowFolderAndReportsWhatWasRedacted() throws {
        let dir = try Project.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("Pages/threeds")
        let r = try CLI.run(["import", Self.fixture("auto_post_3ds.har"), "--out", out.path, "--expect", "complete"])
        #expect(r.status == 0, "\(r)")
        #expect(r.stdout.contains("wrote \(out.path)/flow.yaml and 3 page file(s)"))
        #expect(r.stdout.contains("redacted 29 value(s), 12 distinct: cookie 5, credential 1, token 18, card 1, personal-number 1, email 3"))
        #expect(r.stdout.contains("recording ends:"))
        let text = try Self.allText(out)
        for secret in ["9f8e7d6c5b4a3921", "S3SS10N-7d1e2f3a4b5c", "eJxVUk1vgjAYvvsrGu8KBQwzzZhxiRkHNkjkEO0bcmgnvvBGQvNdKsQnPjUwSz4MXlIOgP",
                       "md-7f3a9c21e5", "eJzVWNmyokgQfZ9fAAXAyOPWfT9", "tk_live_51HxYzAbCdEf", "anna.svensson",
                       "4111 1111 1111 1111", "19811218-9876", "ak_93jf83jf93jf"] {
            #expect(!text.contains(secret), "\(secret) survived the import")
            #expect(!r.stdout.contains(secret) && !r.stderr.contains(secret), "\(secret) printed")
        }
        #expect(text.contains("expect:\n  outcome: complete"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("Pages").path) == ["threeds"])
    }

    @Test func noRedactKeepsTheRecordingAsIs() throws {
        let dir = try Project.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("flow")
        let r = try CLI.run(["import", Self.fixture("auto_post_3ds.har"), "--out", out.path, "--no-redact"])
        #expect(r.status == 0, "\(r)")
        #expect(r.stdout.contains("NOT redacted"))
        #expect(try Self.allText(out).contains("tk_live_51HxYzAbCdEf"))
    }

    @Test func existingFolderIsRefusedUnlessForced() throws {
        let dir = try Project.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("flow")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        try Data("mine".utf8).write(to: out.appendingPathComponent("notes.txt"))
        let refused = try CLI.run(["import", Self.fixture("redirect_chain.har"), "--out", out.path])
        #expect(refused.status == 64, "\(refused)")
        #expect(refused.stderr.contains("already exists"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: out.path) == ["notes.txt"])
        let forced = try CLI.run(["import", Self.fixture("redirect_chain.har"), "--out", out.path, "--force"])
        #expect(forced.status == 0, "\(forced)")
        #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("flow.yaml").path))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["flow"])
    }

    /// Black-box rows (exit 64, nothing written); every HAR reading error is tested in-process in HARReaderTests
    /// (missing fields with their JSON path, invalid UTF-8 at its byte, truncation at its line and column).
    @Test(arguments: [
        ("truncated.har", "truncated.har:", "truncated"),
        ("no-such-file.har", "cannot read the file", "no-such-file.har"),
    ])
    func badRecordingsExit64AndWriteNothing(name: String, mentions: String, also: String) throws {
        let dir = try Project.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try CLI.run(["import", Self.fixture(name), "--out", dir.appendingPathComponent("flow").path])
        #expect(r.status == 64, "\(r)")
        #expect(r.stderr.contains(mentions), "\(r)")
        #expect(r.stderr.contains(also), "\(r)")
        #expect(!r.stderr.contains("Fatal error"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).isEmpty)
    }

    @Test func redactConfigIsReadAndCheckedAndPolicyPathIsRelative() throws {
        let dir = try Project.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let bad = dir.appendingPathComponent("bad.yaml")
        try Data("nmes: [x]\n".utf8).write(to: bad)
        let r = try CLI.run(["import", Self.fixture("auto_post_3ds.har"), "--out", dir.appendingPathComponent("f").path,
                             "--redact-config", bad.path])
        #expect(r.status == 64, "\(r)")
        #expect(r.stderr.contains("bad.yaml:1: nmes: unknown key 'nmes'"), "\(r)")

        let good = dir.appendingPathComponent("good.yaml")
        try Data("keep: [MD]\nemails: false\n".utf8).write(to: good)
        let policy = dir.appendingPathComponent("common/policy.yaml")
        try FileManager.default.createDirectory(at: policy.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("platform: ios\n".utf8).write(to: policy)
        let ok = try CLI.run(["import", Self.fixture("auto_post_3ds.har"), "--out", dir.appendingPathComponent("Pages/f").path,
                              "--redact-config", good.path, "--policy", policy.path])
        #expect(ok.status == 0, "\(ok)")
        let text = try Self.allText(dir.appendingPathComponent("Pages/f"))
        #expect(text.contains("md-7f3a9c21e5"))
        #expect(text.contains("anna.svensson@example.se"))
        #expect(!text.contains("tk_live_51HxYzAbCdEf"))
        #expect(text.contains("policy: \"../../common/policy.yaml\""))
    }

    @Test func usageErrorsExit64() throws {
        #expect(try CLI.run(["import"]).status == 64)
        #expect(try CLI.run(["import", Self.fixture("redirect_chain.har")]).status == 64)  // no --out
        let r = try CLI.run(["import", Self.fixture("redirect_chain.har"), "--out", "/tmp/x", "--expect", "maybe"])
        #expect(r.status == 64)
        #expect(r.stderr.contains("--expect"))
    }
}
