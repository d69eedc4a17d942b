// A swift-log handler that keeps what was logged, for tests that assert what a server logs.
import Foundation
import Logging

/// Collects log lines (and their levels) so what the server logs can be asserted.
public final class LineCollector: LogHandler, @unchecked Sendable {
    private let lock = NSLock()
    public var lines: [String] = []
    public var levels: [Logger.Level] = []
    public var metadata: Logger.Metadata = [:]
    public var logLevel: Logger.Level
    public init(level: Logger.Level = .info) { logLevel = level }
    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }
    /// swift-log 1.16 hands a handler one event (the flat-parameter method is deprecated).
    public func log(event: LogEvent) {
        lock.lock(); lines.append(event.message.description); levels.append(event.level); lock.unlock()
    }
    public var snapshot: [String] { lock.lock(); defer { lock.unlock() }; return lines }
    /// The lines logged at `level`.
    public func lines(at level: Logger.Level) -> [String] {
        lock.lock(); defer { lock.unlock() }
        return zip(lines, levels).filter { $0.1 == level }.map(\.0)
    }
}
