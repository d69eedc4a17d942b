// Helpers for the test targets (and the bench's generated pages): where the project is, loading the test vectors kept in
// Tests/Vectors (conformance/ and reference/, each file's origin in Tests/Vectors/SOURCES.md),
// and running the built `plainview` binary as a black box.
import Foundation
import PlainviewSupport

public enum Project {
    /// The package root (the folder holding Package.swift).
    public static let root: URL = {
        URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent() // TestSupport
            .deletingLastPathComponent() // Sources
            .deletingLastPathComponent() // root
    }()

    /// `Tests/Vectors`: other projects' test vectors (`conformance/`), reference data (`reference/`) and the vectors
    /// this project generates; Tests/Vectors/SOURCES.md names each file's origin and licence.
    public static let vectors: URL = root.appendingPathComponent("Tests/Vectors")

    /// `Tests/Vectors/reference/NAME`.
    public static func reference(_ name: String) -> URL {
        vectors.appendingPathComponent("reference").appendingPathComponent(name)
    }

    public static func path(_ relative: String) -> URL { root.appendingPathComponent(relative) }

    /// The JSON of `Tests/Vectors/conformance/NAME.json`.
    public static func conformance(_ name: String) throws -> Data {
        try Data(contentsOf: vectors.appendingPathComponent("conformance").appendingPathComponent(name))
    }

    /// The JSON of a conformance file that must be there: a missing or unreadable vector file stops the test run with
    /// its path, so a suite can never pass on no cases.
    public static func requiredConformance(_ name: String) -> Data {
        do { return try conformance(name) } catch {
            fatalError("Tests/Vectors/conformance/\(name) cannot be read (\(error)); the vector files are part of the repository")
        }
    }

    /// The `cases` of a conformance file that must be there and decode (see `requiredConformance`).
    public static func requiredConformanceCases<Case: Decodable>(_ name: String, as: Case.Type = Case.self) -> [Case] {
        do { return try JSONDecoder().decode(ConformanceFile<Case>.self, from: requiredConformance(name)).cases } catch {
            fatalError("Tests/Vectors/conformance/\(name) does not decode as this test's cases: \(error)")
        }
    }

    /// Decodes the `cases` array of a conformance file.
    public static func conformanceCases<Case: Decodable>(_ name: String, as: Case.Type = Case.self) throws -> [Case] {
        try JSONDecoder().decode(ConformanceFile<Case>.self, from: conformance(name)).cases
    }

    /// A fresh temporary directory holding one folder per flow (folder name → `flow.yaml` text), removed by the
    /// caller when done.
    public static func temporaryFlows(_ flows: [String: String]) throws -> URL {
        let dir = try temporaryDirectory()
        for (name, text) in flows {
            let sub = dir.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: sub, withIntermediateDirectories: true)
            try Data(text.utf8).write(to: sub.appendingPathComponent("flow.yaml"))
        }
        return dir
    }

    /// A fresh temporary directory, removed by the caller when done.
    public static func temporaryDirectory() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("plainview-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }
}

/// The shape of every `Tests/Vectors/conformance/*.json` file this project reads: its `cases`.
public struct ConformanceFile<Case: Decodable>: Decodable { public var cases: [Case] }

/// What one run of the CLI produced.
public struct CLIResult: Sendable, CustomStringConvertible {
    public var status: Int32
    public var stdout: String
    public var stderr: String
    public var stdoutLines: [String] { stdout.split(separator: "\n", omittingEmptySubsequences: true).map(String.init) }
    public var description: String { "exit \(status)\n--- stdout\n\(stdout)--- stderr\n\(stderr)" }
}

public enum CLI {
    /// The built `plainview` executable: beside the test bundle, or `PLAINVIEW_BIN`.
    public static let executable: URL = {
        if let env = ProcessInfo.processInfo.environment["PLAINVIEW_BIN"] { return URL(fileURLWithPath: env) }
        let selfExe = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        var candidates = [selfExe.deletingLastPathComponent().appendingPathComponent("plainview")]
        for bundle in Bundle.allBundles {
            candidates.append(bundle.bundleURL.deletingLastPathComponent().appendingPathComponent("plainview"))
        }
        candidates.append(Project.path(".build/debug/plainview"))
        return candidates.first { Program.isRunnable($0.path) } ?? candidates.last!
    }()

    /// Runs `plainview ARGS…` (see `Program.run`).
    public static func run(
        _ arguments: [String], stdin: Data? = nil, in directory: URL? = nil,
        environment: [String: String] = [:], timeout: Double = 120
    ) throws -> CLIResult {
        try Program.run(executable, arguments, stdin: stdin, in: directory, environment: environment, timeout: timeout)
    }
}

/// Programs other than `plainview` that some tests drive (python3 with jsonschema, headless Chromium).
public enum Program {
    /// True under CI (`CI=true`): a test that needs a missing program fails there instead of being skipped.
    public static let isCI = ProcessInfo.processInfo.environment["CI"] == "true"

    /// The executable `name` on PATH, nil when there is none.
    public static func find(_ name: String) -> URL? {
        Executable.find([name]).map { URL(fileURLWithPath: $0) }
    }

    /// An executable regular file (or a link to one) at `path`: what Plainview's own search for programs takes.
    public static func isRunnable(_ path: String) -> Bool { Executable.isRunnable(path) }

    /// Runs `executable ARGS…` in `directory` (default: the project root), feeding `stdin`, and waits at most
    /// `timeout` seconds: a child still running then is killed, and its status is SIGKILL's (never a hung run).
    public static func run(
        _ executable: URL, _ arguments: [String], stdin: Data? = nil, in directory: URL? = nil,
        environment: [String: String] = [:], timeout: Double = 120
    ) throws -> CLIResult {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = directory ?? Project.root
        var env = ProcessInfo.processInfo.environment
        for (k, v) in environment { env[k] = v }
        process.environment = env
        let out = Pipe(), err = Pipe(), input = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = input
        try process.run()
        // Read both pipes concurrently so a chatty child never blocks on a full pipe.
        let group = DispatchGroup()
        nonisolated(unsafe) var outData = Data(), errData = Data()
        group.enter()
        DispatchQueue.global().async {
            outData = out.fileHandleForReading.readDataToEndOfFile(); group.leave()
        }
        group.enter()
        DispatchQueue.global().async {
            errData = err.fileHandleForReading.readDataToEndOfFile(); group.leave()
        }
        let pid = process.processIdentifier
        let watchdog = DispatchWorkItem { kill(pid, SIGKILL) }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: watchdog)
        defer { watchdog.cancel() }
        if let stdin { input.fileHandleForWriting.write(stdin) }
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
        group.wait()
        return CLIResult(
            status: process.terminationStatus,
            stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errData, as: UTF8.self))
    }
}
