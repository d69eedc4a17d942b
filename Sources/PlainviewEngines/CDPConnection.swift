// The Chrome DevTools Protocol over `--remote-debugging-pipe`: one JSON message per command or event, each ended
// by a NUL byte; we write to the engine's fd 3 and read its fd 4. No WebSocket. Reads are synchronous (poll with a
// deadline) because the world that drives the engine is synchronous; events that arrive while a command waits
// for its reply are queued in order.
import FlowSimulator
import Foundation
import NavigationPolicy
import PlainviewSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One message from the engine: a reply (`id`) or an event (`method`).
struct CDPMessage {
    var id: Int?
    var method: String?
    var sessionID: String?
    var params: [String: Any]
    var result: [String: Any]
    var error: String?

    func string(_ key: String) -> String? { params[key] as? String }
}

final class CDPConnection {
    let process: EngineProcess
    private var buffer: [UInt8] = []
    /// How much of `buffer` is known to hold no NUL (a long message is searched once, not once per read).
    private var searched = 0
    private var nextID = 0
    private var queued: [CDPMessage] = []
    /// Set once the engine closed its end or broke the protocol; every later call fails with it.
    private(set) var broken: EngineFailure?

    init(process: EngineProcess) { self.process = process }

    /// Sends a command without waiting for its reply (whose result nobody needs). Returns its id.
    @discardableResult
    func send(_ method: String, _ params: [(String, JSONValue?)] = [], session: String? = nil) throws(EngineFailure) -> Int {
        if let broken { throw broken }
        nextID += 1
        var fields: [(String, JSONValue?)] = [("id", .int(nextID)), ("method", .string(method)), ("params", .object(params))]
        if let session { fields.append(("sessionId", .string(session))) }
        var bytes = Array(JSONWriter.line(.object(fields)).utf8)
        if bytes.last == 10 { bytes.removeLast() }
        bytes.append(0)
        var written = 0
        while written < bytes.count {
            let n = bytes[written...].withUnsafeBytes { write(process.commands, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw fail(EngineFailure(.crashed, "the engine stopped reading commands (\(String(cString: strerror(errno))))"))
            }
            written += n
        }
        return nextID
    }

    /// Sends a command and waits for its reply; a protocol error is thrown with the engine's message. Events that
    /// arrive meanwhile are queued, after `meanwhile` has seen each (a JavaScript dialog opened by the command
    /// blocks its reply until it is answered). No reply by `deadline` breaks the connection, unless the caller can
    /// do without the answer (`breaksOnTimeout: false`: a question about the page, asked of a web process that may
    /// only be busy); its late reply is then dropped, as every reply nobody waits for is.
    func call(
        _ method: String, _ params: [(String, JSONValue?)] = [], session: String? = nil,
        deadline: Date, breaksOnTimeout: Bool = true, meanwhile: ((CDPMessage) -> Void)? = nil
    ) throws(EngineFailure) -> [String: Any] {
        let id = try send(method, params, session: session)
        while true {
            guard let m = try read(until: deadline) else {
                let late = EngineFailure(.timedOut, "no reply to \(method) in time")
                throw breaksOnTimeout ? fail(late) : late
            }
            if m.id == id {
                if let e = m.error { throw EngineFailure(.protocolError, "\(method): \(e)") }
                return m.result
            }
            if m.method != nil {
                meanwhile?(m)
                queued.append(m)
            }
        }
    }

    /// The next event (queued first), or nil when none arrives before `deadline`.
    func nextEvent(until deadline: Date) throws(EngineFailure) -> CDPMessage? {
        if !queued.isEmpty { return queued.removeFirst() }
        while let m = try read(until: deadline) {
            if m.method != nil { return m }
        }
        return nil
    }

    /// True when events arrived while a call waited for its reply (`nextEvent` returns them first).
    var hasQueuedEvents: Bool { !queued.isEmpty }

    /// The engine is gone (killed): every later call fails at once and nothing touches its descriptors again.
    func markClosed() { _ = fail(EngineFailure(.crashed, "the engine was stopped")) }

    private func fail(_ failure: EngineFailure) -> EngineFailure {
        if broken == nil { broken = failure }
        return failure
    }

    /// One message from the pipe, or nil at the deadline.
    private func read(until deadline: Date) throws(EngineFailure) -> CDPMessage? {
        if let broken { throw broken }
        while true {
            if let end = buffer[searched...].firstIndex(of: 0) {
                let data = Data(buffer[..<end])
                buffer.removeSubrange(...end)
                searched = 0
                return try parse(data)
            }
            searched = buffer.count
            let wait = deadline.timeIntervalSinceNow
            if wait <= 0 { return nil }
            var fds = pollfd(fd: process.messages, events: Int16(POLLIN), revents: 0)
            let ready = poll(&fds, 1, Int32(min(wait * 1000, 1000).rounded(.up)))
            if ready < 0 {
                if errno == EINTR { continue }
                throw fail(EngineFailure(.crashed, "reading from the engine: \(String(cString: strerror(errno)))"))
            }
            if ready == 0 { continue }
            var chunk = [UInt8](repeating: 0, count: 1 << 16)
            let n = chunk.withUnsafeMutableBytes { Glibc.read(process.messages, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                throw fail(EngineFailure(.crashed, "reading from the engine: \(String(cString: strerror(errno)))"))
            }
            if n == 0 { throw fail(EngineFailure(.crashed, "the engine process exited")) }
            buffer.append(contentsOf: chunk[..<n])
        }
    }

    private func parse(_ data: Data) throws(EngineFailure) -> CDPMessage {
        guard let object = try? JSONSerialization.jsonObject(with: data), let dict = object as? [String: Any] else {
            throw fail(EngineFailure(.protocolError, "the engine sent a message that is not a JSON object"))
        }
        var error: String?
        if let e = dict["error"] as? [String: Any] { error = (e["message"] as? String) ?? "error" }
        return CDPMessage(
            id: dict["id"] as? Int, method: dict["method"] as? String, sessionID: dict["sessionId"] as? String,
            params: dict["params"] as? [String: Any] ?? [:], result: dict["result"] as? [String: Any] ?? [:],
            error: error)
    }
}
