// The open connections with no request in progress (accepted and not yet sent a byte, or between two requests),
// idlest first, so that at the connection cap the server can close one to serve a new client promptly, as nginx
// reuses idle keep-alive connections when it runs out of worker connections.
import NIOCore
import Synchronization

/// Each connection is registered when it is set up; `RequestClock` marks it busy when a request's first byte
/// arrives and idle again once its responses are written. `ConnectionCap` closes the idlest when a connection
/// past the cap is accepted. A connection chosen for closing can no longer be marked busy, so a request that
/// arrives as it is being closed is dropped with it (the race every keep-alive close has: RFC 9112, section
/// 9.3.1, has clients retry), never one whose bytes the server has begun to read.
final class IdleConnections: Sendable {
    private enum Entry {
        case busy(any Channel)
        case idle(any Channel, order: UInt64)
        case closing
    }

    private struct State {
        var entries: [ObjectIdentifier: Entry] = [:]
        /// Idle connections by the order in which they became idle; the lowest key is the idlest.
        var idleOrder: [UInt64: ObjectIdentifier] = [:]
        var nextOrder: UInt64 = 0
        /// No idle connection has an order below this one.
        var oldestOrder: UInt64 = 0
        /// The listening socket stopped accepting at the cap with none idle; the next connection to become idle
        /// wakes it.
        var acceptingStopped = false
        var server: (any Channel)?

        mutating func makeIdle(_ id: ObjectIdentifier, _ channel: any Channel) {
            entries[id] = .idle(channel, order: nextOrder)
            idleOrder[nextOrder] = id
            nextOrder += 1
        }

        mutating func forget(_ id: ObjectIdentifier) {
            if case .idle(_, let order) = entries[id] { idleOrder[order] = nil }
        }

        /// The listening channel to read from, once, if accepting stopped for want of an idle connection.
        mutating func wakeServer() -> (any Channel)? {
            guard acceptingStopped else { return nil }
            acceptingStopped = false
            return server
        }
    }

    private let state = Mutex(State())

    init() {}

    /// The listening channel, read again when a connection becomes idle while accepting had stopped.
    func setServer(_ channel: any Channel) { state.withLock { $0.server = channel } }

    /// A new connection: idle until its first request begins.
    func register(_ channel: any Channel) {
        let id = ObjectIdentifier(channel)
        let server = state.withLock { s -> (any Channel)? in
            s.makeIdle(id, channel)
            return s.wakeServer()
        }
        server?.read()
    }

    /// A request has begun. False: the connection is being closed to make room, and the request goes with it.
    func markBusy(_ channel: any Channel) -> Bool {
        let id = ObjectIdentifier(channel)
        return state.withLock { s in
            switch s.entries[id] {
            case .closing: return false
            case .idle(_, let order):
                s.idleOrder[order] = nil
                s.entries[id] = .busy(channel)
                return true
            case .busy, nil: return true
            }
        }
    }

    /// Every request has been read and answered.
    func markIdle(_ channel: any Channel) {
        let id = ObjectIdentifier(channel)
        let server = state.withLock { s -> (any Channel)? in
            guard case .busy = s.entries[id] else { return nil }
            s.makeIdle(id, channel)
            return s.wakeServer()
        }
        server?.read()
    }

    /// The connection has closed.
    func remove(_ channel: any Channel) {
        let id = ObjectIdentifier(channel)
        state.withLock { s in
            s.forget(id)
            s.entries[id] = nil
        }
    }

    /// Whether a connection could be closed to make room; if none could, the listening socket stops accepting
    /// and the next connection to become idle wakes it.
    func hasIdleElseStopAccepting() -> Bool {
        state.withLock { s in
            if !s.idleOrder.isEmpty { return true }
            s.acceptingStopped = true
            return false
        }
    }

    /// Closes the connection that has been idle longest; false if none is idle.
    @discardableResult
    func closeIdlest() -> Bool {
        let channel = state.withLock { s -> (any Channel)? in
            while !s.idleOrder.isEmpty {
                defer { s.oldestOrder += 1 }
                guard let id = s.idleOrder.removeValue(forKey: s.oldestOrder) else { continue }
                guard case .idle(let channel, _) = s.entries[id] else { continue }
                s.entries[id] = .closing
                return channel
            }
            return nil
        }
        channel?.close(promise: nil)
        return channel != nil
    }
}
