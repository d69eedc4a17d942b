// The known-good 3-D Secure host list. STUB: the matcher is being written (goodlist issue).

/// One entry of a goodlist: the pattern and where it came from.
public struct GoodlistEntry: Sendable, Hashable {
    /// The pattern as written (`**.payex.com`, `*.3dsecure.no`, `acs1.luottokunta.fi`).
    public var pattern: String
    /// Where the entry stands: the file as named by the user, and the 1-based line.
    public var file: String?
    public var line: Int?
    public init(pattern: String, file: String? = nil, line: Int? = nil) {
        self.pattern = pattern; self.file = file; self.line = line
    }
}

/// The known-good host list. Matching is on normalised hosts and label-boundary correct.
public struct Goodlist: Sendable {
    public init() {}
    public init(entries: [GoodlistEntry]) {}
    /// The entry that admits this (already normalised) host, if any.
    public func match(host: String) -> GoodlistEntry? { nil }
}
