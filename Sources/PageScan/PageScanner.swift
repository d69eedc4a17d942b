// STUB: the libxml2 scanner is being written.

/// Errors PageScan reports instead of crashing.
public struct PageScanError: Error, Sendable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

public enum PageScanner {
    /// Scans HTML bytes served at `documentURL`. `contentType` is the Content-Type header, if any (for its charset).
    public static func scan(_ bytes: [UInt8], contentType: String? = nil, documentURL: String) throws(PageScanError) -> PageScanResult {
        PageScanResult()
    }
}
