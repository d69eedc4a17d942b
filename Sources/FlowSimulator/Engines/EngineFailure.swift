import NavigationPolicy

/// Why an engine could not be used. `missingEngine` is an input error (exit 64): the message names the Debian
/// package to install; the others end a run in `error`.
public struct EngineFailure: Error, Sendable, CustomStringConvertible {
    public enum Code: String, Sendable { case missingEngine, startFailed, protocolError, crashed, timedOut }
    public var code: Code
    public var message: String
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }
    public var description: String { message }
}
