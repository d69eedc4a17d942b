import FlowSimulator
import Foundation
import Testing

@testable import PlainviewEngines

/// The pipe protocol with a real process on the other end (python3 reading fd 3 and writing fd 4, as an engine
/// does): a question the caller can do without survives a late answer, and any other late answer ends the
/// connection. The late answer is the WebKit frame query on a web process busy creating 1,000 frames.
@Suite struct CDPConnectionTests {
    /// Answers every command with its own id and method after `delay` seconds for the first, at once for the rest.
    static let lateFirstAnswer = """
        import json, os, time
        buffer, first = b"", True
        while True:
            chunk = os.read(3, 65536)
            if not chunk: break
            buffer += chunk
            while b"\\0" in buffer:
                raw, buffer = buffer.split(b"\\0", 1)
                command = json.loads(raw)
                if first: time.sleep(1.5)
                first = False
                reply = {"id": command["id"], "result": {"method": command["method"]}}
                os.write(4, json.dumps(reply).encode() + b"\\0")
        """

    static func connection() throws -> CDPConnection {
        let python = try #require(EngineProcess.locate(["python3"]), "python3 is needed (the CI installs it)")
        let process = try EngineProcess(
            executable: python, arguments: ["-c", lateFirstAnswer], environment: ProcessInfo.processInfo.environment,
            log: "/dev/null")
        return CDPConnection(process: process)
    }

    @Test func aQuestionTheCallerCanDoWithoutSurvivesItsLateAnswer() throws {
        let connection = try Self.connection()
        defer { connection.process.terminate() }
        #expect(throws: EngineFailure.self) {
            try connection.call("View.value", deadline: Date().addingTimeInterval(0.3), breaksOnTimeout: false)
        }
        #expect(connection.broken == nil)
        // The first answer arrives late and is dropped; the next call gets its own.
        let next = try connection.call("View.next", deadline: Date().addingTimeInterval(20))
        #expect(next["method"] as? String == "View.next")
        #expect(connection.broken == nil)
    }

    @Test func anyOtherLateAnswerEndsTheConnection() throws {
        let connection = try Self.connection()
        defer { connection.process.terminate() }
        #expect(throws: EngineFailure.self) {
            try connection.call("View.load", deadline: Date().addingTimeInterval(0.3))
        }
        #expect(connection.broken?.message == "no reply to View.load in time")
        #expect(throws: EngineFailure.self) { try connection.call("View.next", deadline: Date().addingTimeInterval(20)) }
    }
}
