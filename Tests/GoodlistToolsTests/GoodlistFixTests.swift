import Foundation
import Testing
import NavigationPolicy
import PlainviewConfig
import TestSupport
import GoodlistTools

@Suite struct GoodlistFixTests {
    static let p = "issuer=X added=2026-01-10 why=w source=s"

    func bytes(_ s: String) -> [UInt8] { Array(s.utf8) }

    @Test func canonicalisesPatternsAndKeepsEverythingElseByteForByte() throws {
        let text = "\u{FEFF}# header\r\n**.PayEx.COM. \(Self.p)  # why this\r\nhttps://bad.example/ \(Self.p)\r\n\r\nAcs.Op.fi"
        let src = try GoodlistSource.parse(bytes(text), file: "f")
        let result = GoodlistFixer.fix(src)
        let out = String(decoding: result.source.rendered(), as: UTF8.self)
        #expect(
            out == "\u{FEFF}# header\r\n**.payex.com \(Self.p)  # why this\r\nhttps://bad.example/ \(Self.p)\r\n\r\nacs.op.fi")
        #expect(
            result.changes == [
                "f:2: wrote '**.payex.com' for '**.PayEx.COM.'",
                "f:5: wrote 'acs.op.fi' for 'Acs.Op.fi'",
            ])
    }

    @Test func removesOnlyDuplicatesThatAddNothing() throws {
        let text = """
            **.payex.com \(Self.p) note=first
            **.PAYEX.com \(Self.p)
            **.payex.com
            **.payex.com \(Self.p) note=different
            **.payex.com \(Self.p) # a comment worth keeping
            a.example \(Self.p)

            """
        let result = GoodlistFixer.fix(try GoodlistSource.parse(text: text, file: "f"))
        let out = String(decoding: result.source.rendered(), as: UTF8.self)
        #expect(
            out == """
                **.payex.com \(Self.p) note=first
                **.payex.com \(Self.p) note=different
                **.payex.com \(Self.p) # a comment worth keeping
                a.example \(Self.p)

                """)
    }

    @Test func removingTheLastLineKeepsTheMissingFinalNewline() throws {
        let text = "a.example \(Self.p)\nA.example \(Self.p)"
        let out = String(
            decoding: GoodlistFixer.fix(try GoodlistSource.parse(text: text, file: "f")).source.rendered(), as: UTF8.self)
        #expect(out == "a.example \(Self.p)")
    }

    @Test func nothingToFixChangesNothing() throws {
        let src = try GoodlistSource.parse(text: "# c\na.example \(Self.p)\n", file: "f")
        let r = GoodlistFixer.fix(src)
        #expect(!r.changed)
        #expect(r.source == src)
    }

    @Test func fixFileRewritesAtomicallyAndLeavesNoTemporaryFiles() throws {
        let dir = try Project.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("list.goodlist")
        let original = "**.PayEx.com \(Self.p)\n*.op.fi \(Self.p)\nbad..example \(Self.p)\n"
        try Data(original.utf8).write(to: file)
        try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: file.path)
        let src = try GoodlistFiles.readSource(file.path)
        let before = GoodlistFixer.patternSet(src)
        let result = try GoodlistFixer.fixFile(src, path: file.path)
        #expect(result.changed)
        let after = try GoodlistFiles.readSource(file.path)
        #expect(GoodlistFixer.patternSet(after) == before)
        #expect(GoodlistFixer.invalidLines(after) == ["bad..example \(Self.p)"])
        #expect(try String(contentsOf: file, encoding: .utf8) == original.replacingOccurrences(of: "PayEx", with: "payex"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["list.goodlist"])
        let mode = try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? NSNumber
        #expect(mode?.intValue == 0o640)
    }

    @Test func fixFollowsASymlinkAndKeepsIt() throws {
        let dir = try Project.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let real = dir.appendingPathComponent("real.goodlist")
        let link = dir.appendingPathComponent("link.goodlist")
        try Data("A.example \(Self.p)\n".utf8).write(to: real)
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: real)
        _ = try GoodlistFixer.fixFile(try GoodlistFiles.readSource(link.path), path: link.path)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link.path) == real.path)
        #expect(try String(contentsOf: real, encoding: .utf8) == "a.example \(Self.p)\n")
    }

    @Test func unwritableFolderIsAnErrorAndTheFileIsUnchanged() throws {
        let dir = try Project.temporaryDirectory()
        defer {
            try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: dir.path)
            try? FileManager.default.removeItem(at: dir)
        }
        let file = dir.appendingPathComponent("list.goodlist")
        let original = "A.example \(Self.p)\n"
        try Data(original.utf8).write(to: file)
        let src = try GoodlistFiles.readSource(file.path)
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: dir.path)
        if getuid() != 0 { // root ignores folder permissions
            #expect(throws: ConfigError.self) { try GoodlistFixer.fixFile(src, path: file.path) }
            #expect(try String(contentsOf: file, encoding: .utf8) == original)
            #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["list.goodlist"])
        }
    }

    @Test func failedRenameRemovesTheTemporaryFile() throws {
        let dir = try Project.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        // The target is a non-empty folder: the temporary file is written, the rename fails.
        let target = dir.appendingPathComponent("target")
        try FileManager.default.createDirectory(at: target, withIntermediateDirectories: false)
        try Data("keep".utf8).write(to: target.appendingPathComponent("inside"))
        do {
            try GoodlistIO.writeAtomically(Array("x".utf8), to: target.path)
            Issue.record("replaced a folder")
        } catch {
            #expect(error.message.contains("the file is unchanged"), "\(error)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["target"])
        #expect(try String(contentsOf: target.appendingPathComponent("inside"), encoding: .utf8) == "keep")
    }

    @Test func writeAtomicallyReplacesContent() throws {
        let dir = try Project.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("x")
        try Data("old".utf8).write(to: file)
        try GoodlistIO.writeAtomically(Array("new".utf8), to: file.path)
        #expect(try String(contentsOf: file, encoding: .utf8) == "new")
        #expect(throws: ConfigError.self) {
            try GoodlistIO.writeAtomically([1], to: dir.appendingPathComponent("no/such/dir/x").path)
        }
    }
}
