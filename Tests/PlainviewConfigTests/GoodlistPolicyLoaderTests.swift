import Foundation
import Testing
import NavigationPolicy
import PlainviewConfig
import TestSupport

@Suite struct GoodlistPolicyLoaderTests {
    @Test func loadByDisplayNameForPolicyFiles() throws {
        let dir = try Project.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data("# x\n**.payex.com issuer=X\n".utf8).write(to: dir.appendingPathComponent("a.goodlist"))
        let entries = try GoodlistFiles.load(path: dir.path, displayName: "../Goodlist", isDirectory: true)
        #expect(entries.map(\.pattern) == ["**.payex.com"])
        #expect(entries.first?.location == "../Goodlist/a.goodlist:2")
        #expect(entries.first?.provenance["issuer"] == "X")
        try Data("ok.example\nhttps://bad/\n".utf8).write(to: dir.appendingPathComponent("b.goodlist"))
        #expect(
            throws: ConfigError(
                file: "../Goodlist/b.goodlist", line: 2,
                "invalid host pattern 'https://bad/': it has a scheme ('https:'); write the host only: 'bad'")
        ) {
            try GoodlistFiles.load(path: dir.path, displayName: "../Goodlist", isDirectory: true)
        }
        #expect(GoodlistFiles.isPattern("*.op.fi"))
        #expect(!GoodlistFiles.isPattern("a.*.op.fi"))
        #expect(!GoodlistFiles.isPattern("https://op.fi"))
    }
}
