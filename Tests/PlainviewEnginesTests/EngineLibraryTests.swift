import FlowSimulator
import Foundation
import PlainviewEngines
import Testing
import TestSupport

/// The engines as a library: a WebEngine made once drives several flows through the simulator in process, and its
/// verdicts are the model's on the shipped pages that both can read (the CLI tests cover `simulate --engine`).
/// Where an engine is absent the test is skipped with the Debian package to install; under CI=true it runs and fails.
@Suite(.serialized) struct EngineLibraryTests {
    static let chromiumMissing =
        ChromiumEngine.locate() == nil ? "Chromium is not installed (apt-get install chromium-headless-shell)" : nil
    static let webKitMissing = WebKitEngine.missing()

    /// Shipped flows whose pages navigate by markup the model reads as the engines run it.
    static let flows = ["01-ios-card-3ds-goodlisted", "02-ios-3ds-not-goodlisted", "08-ios-user-cancels"]

    static func loadFlows() throws -> [Flow] {
        try flows.map { try FlowLoader.load(file: Project.path("Pages/\($0)/flow.yaml").path) }
    }

    /// Runs every flow on one engine and checks each against the model: same outcome, every expectation met.
    static func agreeWithTheModel(_ engine: any WebEngine) throws {
        defer { engine.shutdown() }
        for flow in try loadFlows() {
            let model = Simulator.run(flow)
            let real = Simulator.run(flow, engine: engine)
            #expect(real.passed, "\(engine.name) \(flow.name): \(real.failures)")
            #expect(real.branches.map(\.outcome.kind) == model.branches.map(\.outcome.kind), "\(engine.name) \(flow.name)")
        }
    }

    @Test(.enabled(if: chromiumMissing == nil || Program.isCI, "\(chromiumMissing ?? "")"))
    func chromiumRunsSeveralFlowsAsTheModelDoes() async throws {
        try await offPool { try Self.agreeWithTheModel(try ChromiumEngine(timeout: 60)) }
    }

    @Test(.enabled(if: webKitMissing == nil || Program.isCI, "\(webKitMissing ?? "")"))
    func webKitRunsSeveralFlowsAsTheModelDoes() async throws {
        try await offPool { try Self.agreeWithTheModel(try WebKitEngine(timeout: 60)) }
    }

    /// A Chromium named by the caller (the bench's browser row) is found on PATH or by path, and one that is not
    /// there is a missing engine, never a silent fall-back to the one `locate()` finds.
    @Test func aNamedChromiumIsThatBinaryOrMissing() throws {
        #expect(try ChromiumEngine(executable: "sh").executable.hasSuffix("/sh"))
        #expect(try ChromiumEngine(executable: "/bin/sh").executable == "/bin/sh")
        #expect(throws: EngineFailure.self) { try ChromiumEngine(executable: "/no/such/chromium") }
        do {
            _ = try ChromiumEngine(executable: "no-such-chromium-on-path")
            Issue.record("a binary that is not on PATH made an engine")
        } catch {
            #expect(error.code == .missingEngine)
            #expect(error.message.contains(ChromiumEngine.debianPackage))
        }
        // Only an executable regular file is a binary: not an empty name (which would find a PATH directory), a
        // directory, or a file without the execute bit; a link to a binary is one.
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("plainview-locate-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let plain = dir.appendingPathComponent("chromium").path
        #expect(FileManager.default.createFile(atPath: plain, contents: Data("#!/bin/sh\n".utf8)))
        let link = dir.appendingPathComponent("linked").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "/bin/sh")
        for notABinary in ["", dir.path, plain] {
            do {
                _ = try ChromiumEngine(executable: notABinary)
                Issue.record("\"\(notABinary)\" made an engine")
            } catch {
                #expect(error.code == .missingEngine, "\(notABinary)")
            }
        }
        #expect(try ChromiumEngine(executable: link).executable == link)
    }
}
