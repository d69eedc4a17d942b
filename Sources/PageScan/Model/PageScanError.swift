/// Errors PageScan reports instead of crashing.
public struct PageScanError: Error, Sendable, CustomStringConvertible, Equatable {
    /// What went wrong, for callers that branch on it.
    public enum Code: String, Sendable, Equatable {
        /// The document URL is not an absolute URL (it is the base every link resolves against).
        case invalidDocumentURL = "invalid-document-url"
        /// Reading the page failed part-way (an I/O error on the file or pipe).
        case unreadable
        /// libxml2 could not allocate its parser.
        case outOfMemory = "out-of-memory"
        case other
    }
    public var code: Code
    public var message: String
    public init(_ message: String) { self.code = .other; self.message = message }
    public init(_ code: Code, _ message: String) { self.code = code; self.message = message }
    public var description: String { message }
}
