// One error type for every file Plainview reads: what file, where in it, and what was expected.

/// An input file was missing, unreadable or not what was expected.
public struct ConfigError: Error, Sendable, CustomStringConvertible, Equatable {
    /// The file, as the user named it.
    public var file: String
    /// 1-based line, when known.
    public var line: Int?
    /// The key path (`apps[2].schemes`), when known.
    public var key: String?
    /// What was wrong and what was expected.
    public var message: String

    public init(file: String, line: Int? = nil, key: String? = nil, _ message: String) {
        self.file = file
        self.line = line
        self.key = key
        self.message = message
    }

    /// `file:line: key: message`, leaving out what is not known.
    public var description: String {
        var where_ = file
        if let line { where_ += ":\(line)" }
        if let key { where_ += ": \(key)" }
        return "\(where_): \(message)"
    }
}
