import Foundation
import Testing
import TestSupport

@Suite struct ImportCLITests {
    static func fixture(_ name: String) -> String { Project.path("Tests/FlowImportTests/Fixtures/har/\(name)").path }

    /// Every file of a folder, as text (bytes decoded leniently).
    static func allText(_ folder: URL) throws -> String {
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        return try names.map { String(decoding: try Data(contentsOf: folder.appendingPathComponent($0)), as: UTF8.self) }.joined(
            separator: "\n")
    }

    @Test func importWritesARedactedFlowFolderAndReportsWhatWasRedacted() throws {
        let dir = try Project.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("Pages/threeds")
        let r = try CLI.run(["import", Self.fixture("auto_post_3ds.har"), "--out", out.path, "--expect", "complete"])
        #expect(r.status == 0, "\(r)")
        #expect(r.stdout.contains("wrote \(out.path)/flow.yaml and 3 page file(s)"))
        #expect(
            r.stdout.contains(
                "redacted 29 value(s), 12 distinct: cookie 5, credential 1, token 18, card 1, personal-number 1, email 3"))
        #expect(r.stdout.contains("recording ends:"))
        let text = try Self.allText(out)
        for secret in [
            "9f8e7d6c5b4a3921", "S3SS10N-7d1e2f3a4b5c", "eJxVUk1vgjAYvvsrGu8KBQwzzZhxiRkHNkjkEO0bcmgnvvBGQvNdKsQnPjUwSz4MXlIOgP",
            "md-7f3a9c21e5", "eJzVWNmyokgQfZ9fAAXAyOPWfT9", "tk_live_51HxYzAbCdEf", "anna.svensson",
            "4111 1111 1111 1111", "19811218-9876", "ak_93jf83jf93jf",
        ] {
            #expect(!text.contains(secret), "\(secret) survived the import")
            #expect(!r.stdout.contains(secret) && !r.stderr.contains(secret), "\(secret) printed")
        }
        #expect(text.contains("expect:\n  outcome: \"complete\""))
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
        let r = try CLI.run([
            "import", Self.fixture("auto_post_3ds.har"), "--out", dir.appendingPathComponent("f").path,
            "--redact-config", bad.path,
        ])
        #expect(r.status == 64, "\(r)")
        #expect(r.stderr.contains("bad.yaml:1: nmes: unknown key 'nmes'"), "\(r)")

        let good = dir.appendingPathComponent("good.yaml")
        try Data("keep: [MD]\nemails: false\n".utf8).write(to: good)
        let policy = dir.appendingPathComponent("common/policy.yaml")
        try FileManager.default.createDirectory(at: policy.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("platform: ios\n".utf8).write(to: policy)
        let ok = try CLI.run([
            "import", Self.fixture("auto_post_3ds.har"), "--out", dir.appendingPathComponent("Pages/f").path,
            "--redact-config", good.path, "--policy", policy.path,
        ])
        #expect(ok.status == 0, "\(ok)")
        let text = try Self.allText(dir.appendingPathComponent("Pages/f"))
        #expect(text.contains("md-7f3a9c21e5"))
        #expect(text.contains("anna.svensson@example.se"))
        #expect(!text.contains("tk_live_51HxYzAbCdEf"))
        #expect(text.contains("policy: \"../../common/policy.yaml\""))
    }

    @Test func usageErrorsExit64() throws {
        #expect(try CLI.run(["import"]).status == 64)
        #expect(try CLI.run(["import", Self.fixture("redirect_chain.har")]).status == 64) // no --out
        let r = try CLI.run(["import", Self.fixture("redirect_chain.har"), "--out", "/tmp/x", "--expect", "maybe"])
        #expect(r.status == 64)
        #expect(r.stderr.contains("--expect"))
    }

    @Test func theSecretsCorpusImportsUnderStrictWithEveryKindReported() throws {
        let dir = try Project.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("corpus")
        let r = try CLI.run(["import", Self.fixture("secrets_corpus.har"), "--out", out.path, "--strict"])
        #expect(r.status == 0, "\(r)")
        for kind in ["cookie", "credential", "token", "card", "personal-number", "organisation-number", "email", "jwt"] {
            #expect(r.stdout.contains(" \(kind) "), "\(kind) missing from the report")
        }
        #expect(!r.stdout.contains("warning:"))
        let text = try Self.allText(out)
        for secret in [
            "4111 1111 1111 1111", "5555&nbsp;5555", "3782.822463.10005", "811218 9876", "19811218%2D9876",
            "kalle&#64;example.se", "eva\\u0040example.se", "c2Vzc2lvbi12YWx1ZS0xMjM0NTY3OA", "5105105105105100",
        ] {
            #expect(!text.contains(secret), "\(secret) survived")
        }
    }

    /// A value that looks like a secret but fits no detector: written with a warning, or refused with --strict.
    @Test func strictFailsClosedOnWhatLooksLikeASecret() throws {
        let dir = try Project.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let har = dir.appendingPathComponent("account.har")
        let body = "<p>Konto 12345678901234</p>"
        let json =
            #"{"log":{"version":"1.2","creator":{"name":"t","version":"1"},"pages":[],"entries":[{"_resourceType":"document","startedDateTime":"2026-11-20T10:00:00.000Z","request":{"method":"GET","url":"https://shop.example.com/pay?order=42","httpVersion":"h2","headers":[],"queryString":[],"cookies":[]},"response":{"status":200,"statusText":"","httpVersion":"h2","headers":[{"name":"Content-Type","value":"text/html"}],"cookies":[],"content":{"size":1,"mimeType":"text/html","text":"BODY"},"redirectURL":""},"cache":{},"timings":{}}]}}"#
        try Data(json.replacingOccurrences(of: "BODY", with: body).utf8).write(to: har)
        let refused = try CLI.run(["import", har.path, "--out", dir.appendingPathComponent("strict").path, "--strict"])
        #expect(refused.status == 1, "\(refused)")
        #expect(refused.stderr.contains("nothing was written"), "\(refused)")
        #expect(refused.stderr.contains(": long-digit-run (14 characters) not redacted"), "\(refused)")
        #expect(!refused.stderr.contains("12345678901234"))
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("strict").path))
        let warned = try CLI.run(["import", har.path, "--out", dir.appendingPathComponent("lenient").path])
        #expect(warned.status == 0, "\(warned)")
        #expect(warned.stdout.contains("warning: 1 value(s) look like secrets but were not redacted"), "\(warned)")
    }

    /// A URL holding a line separator and a YAML key cannot add that key: the flow runs to its true outcome.
    @Test func aHostileURLCannotInjectIntoTheFlowFile() throws {
        let dir = try Project.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let har = dir.appendingPathComponent("hostile.har")
        let json =
            #"{"log":{"version":"1.2","creator":{"name":"t","version":"1"},"pages":[],"entries":[{"_resourceType":"document","startedDateTime":"2026-11-20T10:00:00.000Z","request":{"method":"GET","url":"https://shop.example.com/pay?order=42","httpVersion":"h2","headers":[],"queryString":[],"cookies":[]},"response":{"status":302,"statusText":"","httpVersion":"h2","headers":[{"name":"Location","value":"https://shop.example.com/complete"}],"cookies":[],"content":{"size":0,"mimeType":"text/html","text":""},"redirectURL":""},"cache":{},"timings":{}},{"_resourceType":"document","startedDateTime":"2026-11-20T10:00:01.000Z","request":{"method":"GET","url":"https://shop.example.com/complete","httpVersion":"h2","headers":[],"queryString":[],"cookies":[]},"response":{"status":200,"statusText":"","httpVersion":"h2","headers":[{"name":"Content-Type","value":"text/html"}],"cookies":[],"content":{"size":1,"mimeType":"text/html","text":"<p>ok</p>"},"redirectURL":""},"cache":{},"timings":{}},{"_resourceType":"document","startedDateTime":"2026-11-20T10:00:02.000Z","request":{"method":"GET","url":"https://shop.example.com/x? expect: {outcome: stuck}expect: {outcome: stuck}","httpVersion":"h2","headers":[],"queryString":[],"cookies":[]},"response":{"status":200,"statusText":"","httpVersion":"h2","headers":[{"name":"Content-Type","value":"text/html"}],"cookies":[],"content":{"size":1,"mimeType":"text/html","text":"<p>x</p>"},"redirectURL":""},"cache":{},"timings":{}}]}}"#
        try Data(json.utf8).write(to: har)
        let policy = Project.path("Tests/FlowImportTests/Fixtures/har/policy-ios.yaml").path
        let out = dir.appendingPathComponent("flow")
        let imported = try CLI.run(["import", har.path, "--out", out.path, "--policy", policy])
        #expect(imported.status == 0, "\(imported)")
        let yaml = try String(contentsOf: out.appendingPathComponent("flow.yaml"), encoding: .utf8)
        #expect(!yaml.contains("\u{2028}") && !yaml.contains("\u{85}"))
        #expect(yaml.contains(#"\u2028expect: {outcome: stuck}\u0085expect"#))
        // No `expect:` was smuggled in: the run reports the true outcome.
        let run = try CLI.run(["simulate", out.path])
        #expect(run.status == 0, "\(run)")
        #expect(run.stdout.contains("complete in web view"), "\(run)")
    }
}
