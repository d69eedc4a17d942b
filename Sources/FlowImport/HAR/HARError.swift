// The one error type of HAR reading: which file, where in it (a JSON path or a line/column), what was expected.

/// A HAR file could not be read. `description` names the file, the place and what was expected.
public struct HARError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Code: String, Sendable, Hashable {
        /// The file could not be opened or read.
        case unreadable
        /// Not JSON: truncated, a syntax error, invalid UTF-8 or an unpaired surrogate escape.
        case invalidJSON
        /// JSON, but not a HAR (no `log`, no `log.entries`).
        case notHAR
        /// A field the replay needs is absent.
        case missingField
        /// A field has the wrong JSON type or an unusable value.
        case invalidValue
    }

    public var code: Code
    /// The file as the user named it (empty for in-memory data).
    public var file: String
    /// JSON path such as `log.entries[12].response.status` (empty for syntax errors).
    public var path: String
    /// 1-based line and column for syntax errors.
    public var line: Int?
    public var column: Int?
    /// What was wrong and what was expected.
    public var message: String

    public init(
        _ code: Code, file: String = "", path: String = "", line: Int? = nil, column: Int? = nil,
        _ message: String
    ) {
        self.code = code
        self.file = file
        self.path = path
        self.line = line
        self.column = column
        self.message = message
    }

    /// `file:line:column: path: message`, leaving out what is not known.
    public var description: String {
        var place = file.isEmpty ? "HAR" : file
        if let line {
            place += ":\(line)"
            if let column { place += ":\(column)" }
        }
        if !path.isEmpty { place += ": \(path)" }
        return "\(place): \(message)"
    }

    func inFile(_ name: String) -> HARError {
        var copy = self
        copy.file = name
        return copy
    }
}
