import Foundation
import Testing
import NavigationPolicy
import PlainviewConfig
import TestSupport

@Suite struct GoodlistFilesTests {
    @Test func unreadableInputsNameThePath() throws {
        let dir = try Project.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(
            throws: ConfigError(
                file: dir.appendingPathComponent("none").path,
                "no such file or folder (expected a goodlist file, a folder of *.goodlist files, or plainview:3ds for the built-in list)"
            )
        ) {
            try GoodlistFiles.readSources([dir.appendingPathComponent("none").path])
        }
        // A folder with no list files.
        do {
            _ = try GoodlistFiles.readSources([dir.path])
            Issue.record("accepted an empty folder")
        } catch {
            #expect(error.file == dir.path)
        }
        // Binary data.
        let bin = dir.appendingPathComponent("bin.goodlist")
        try Data([0x61, 0x2E, 0x62, 0x0A, 0x00, 0xFF]).write(to: bin)
        do {
            _ = try GoodlistFiles.readSources([dir.path])
            Issue.record("accepted binary data")
        } catch {
            #expect(
                error.description == "\(bin.path):2: binary data (a NUL byte): expected a text goodlist, one host pattern a line")
        }
    }

    @Test func folderExpandsToListFilesInNameOrder() throws {
        let dir = try Project.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data("b.example\n".utf8).write(to: dir.appendingPathComponent("b.goodlist"))
        try Data("a.example\n".utf8).write(to: dir.appendingPathComponent("a.goodlist"))
        try Data("sdk.example\n".utf8).write(to: dir.appendingPathComponent("good_redirects"))
        try Data("ignored\n".utf8).write(to: dir.appendingPathComponent("README.md"))
        try Data("ignored.example\n".utf8).write(to: dir.appendingPathComponent(".hidden.goodlist"))
        let paths = try GoodlistFiles.expand([dir.path])
        #expect(paths.map { URL(fileURLWithPath: $0).lastPathComponent } == ["a.goodlist", "b.goodlist", "good_redirects"])
        let list = try GoodlistFiles.load([dir.path])
        #expect(list.entries.map(\.pattern) == ["a.example", "b.example", "sdk.example"])
    }

    @Test func tenMegabyteListLoads() throws {
        let dir = try Project.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("big.goodlist")
        var text = "\u{FEFF}"
        var n = 0
        while text.utf8.count < 10_000_000 {
            text += "acs\(n).bank\(n % 1000).example issuer=Bank added=2026-01-01 why=\"generated\" source=test\r\n"
            n += 1
        }
        try Data(text.utf8).write(to: file)
        let list = try GoodlistFiles.load([file.path])
        #expect(list.count == n)
        #expect(list.match(host: "acs\(n - 1).bank\((n - 1) % 1000).example")?.line == n)
    }

    @Test func theBuiltInListIsNamedPlainview3ds() throws {
        #expect(GoodlistFiles.defaultReferences == ["plainview:3ds"])
        let list = try GoodlistFiles.load(["plainview:3ds"])
        #expect(list.count == DefaultGoodlist.entries.count)
        #expect(list.match(host: "ecom.payex.com")?.location == "Goodlist/3ds.goodlist:12")
        let sources = try GoodlistFiles.readSources(["plainview:3ds"])
        #expect(sources.map(\.file) == ["Goodlist/3ds.goodlist"])
        #expect(throws: ConfigError.self) { try GoodlistFiles.load(["plainview:3d"]) }
    }
}
