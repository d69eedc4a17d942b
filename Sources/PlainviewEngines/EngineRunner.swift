// What every engine driver does with its process: start it when a run needs it, hand each run (branch) a session
// bounded by its own deadline, and kill and restart it after a crash or a hang. One place for Chromium and WebKit.
import FlowSimulator
import Foundation

final class EngineRunner {
    /// The engine's scratch folder (profile, caches, log), removed with the process.
    let scratch: String
    /// Real seconds one run may take before it ends in `error` and the engine is restarted.
    let timeout: TimeInterval
    private var connection: CDPConnection?

    init(name: String, timeout: TimeInterval) {
        scratch = NSTemporaryDirectory() + "plainview-\(name)-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        self.timeout = timeout
    }

    /// A session for one run on the running engine (started by `start` when none runs or the last one broke); a
    /// session that cannot open takes the engine down with it.
    func open(
        start: () throws(EngineFailure) -> CDPConnection,
        session: (CDPConnection, Date, @escaping () -> Void) throws(EngineFailure) -> any EngineSession
    )
        throws(EngineFailure) -> any EngineSession
    {
        let deadline = Date().addingTimeInterval(timeout)
        let connection = try running(start)
        do {
            return try session(connection, deadline) { [weak self] in self?.shutdown() }
        } catch {
            shutdown()
            throw error
        }
    }

    /// The running engine, started (or restarted after a crash or a hang) when needed.
    func running(_ start: () throws(EngineFailure) -> CDPConnection) throws(EngineFailure) -> CDPConnection {
        if let c = connection, c.broken == nil, c.process.isRunning { return c }
        shutdown()
        try? FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        do {
            let c = try start()
            connection = c
            return c
        } catch {
            try? FileManager.default.removeItem(atPath: scratch)
            throw error
        }
    }

    /// Ends the engine's process group and removes its scratch folder. The next `open` starts a new one.
    func shutdown() {
        guard let c = connection else { return }
        connection = nil
        c.markClosed()
        c.process.terminate()
        try? FileManager.default.removeItem(atPath: scratch)
    }
}
