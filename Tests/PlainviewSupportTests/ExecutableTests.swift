import Foundation
import Testing

@testable import PlainviewSupport

/// Finding a program as a shell does (`Executable`): what the engines, the WebKit driver's Xvfb and the tests'
/// helper programs are looked up with.
@Suite struct ExecutableTests {
    /// A folder holding: `tool` (executable), `plain` (no execute bit), `folder` (a directory), `linked` (a link
    /// to `tool`) and `dangling` (a link to nothing).
    static func fixture() throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("plainview-exe-\(UUID().uuidString)").path
        let files = FileManager.default
        try files.createDirectory(atPath: dir + "/folder", withIntermediateDirectories: true)
        let script = Data("#!/bin/sh\n".utf8)
        #expect(files.createFile(atPath: dir + "/tool", contents: script, attributes: [.posixPermissions: 0o755]))
        #expect(files.createFile(atPath: dir + "/plain", contents: script, attributes: [.posixPermissions: 0o644]))
        try files.createSymbolicLink(atPath: dir + "/linked", withDestinationPath: dir + "/tool")
        try files.createSymbolicLink(atPath: dir + "/dangling", withDestinationPath: dir + "/none")
        return dir
    }

    @Test func onlyAnExecutableRegularFileRuns() throws {
        let dir = try Self.fixture()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        #expect(Executable.isRunnable(dir + "/tool"))
        #expect(Executable.isRunnable(dir + "/linked"))
        for no in ["", dir + "/plain", dir + "/folder", dir, dir + "/dangling", dir + "/none"] {
            #expect(!Executable.isRunnable(no), "\(no)")
        }
    }

    @Test func foundAsAShellFindsACommand() throws {
        let dir = try Self.fixture()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // Each folder of the search path in order; an empty folder (a leading, doubled or trailing `:`) is skipped,
        // not taken as the working folder.
        let path = ":\(dir)/folder::\(dir):/bin:"
        #expect(Executable.find(["tool"], path: path) == dir + "/tool")
        #expect(Executable.find(["linked"], path: path) == dir + "/linked")
        // The first name found wins; names that are not there, or not runnable, are passed over.
        #expect(Executable.find(["plain", "folder", "dangling", "", "linked", "tool"], path: path) == dir + "/linked")
        #expect(Executable.find(["plain"], path: path) == nil)
        // A name with a slash is a path, never searched for; an empty name is never found (it would name a folder).
        #expect(Executable.find([dir + "/tool"], path: "/nowhere") == dir + "/tool")
        #expect(Executable.find(["folder/x", dir + "/plain"], path: path) == nil)
        #expect(Executable.find([""], path: dir) == nil)
        #expect(Executable.find([], path: path) == nil)
        // The environment's PATH when none is given.
        #expect(Executable.find(["sh"])?.hasSuffix("/sh") == true)
    }
}
