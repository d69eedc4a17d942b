import AppSwitch
import Foundation
import NavigationPolicy

/// One HTTP response.
public struct RecordedResponse: Sendable, Hashable {
    public var status: Int
    /// Header name/value pairs in order (names as written).
    public var headers: [Header]
    /// The body. A response whose body is still a page file (`FlowLoader`'s `readingPagesWhenRun`) reads it at
    /// each access (an empty body when the file went away); `Flow.loadingPageFiles()` reads it once for a run.
    public var body: [UInt8] {
        get {
            switch storage {
            case .bytes(let bytes): bytes
            case .file(let file): file.read() ?? []
            }
        }
        set { storage = .bytes(newValue) }
    }
    /// The page file the body is still to be read from, if any.
    public var file: PageFile? {
        if case .file(let f) = storage { return f }
        return nil
    }
    private var storage: Storage
    private enum Storage: Sendable, Hashable {
        case bytes([UInt8])
        case file(PageFile)
    }
    public struct Header: Sendable, Hashable {
        public var name: String
        public var value: String
        public init(_ name: String, _ value: String) { self.name = name; self.value = value }
    }

    public init(status: Int = 200, headers: [Header] = [], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.storage = .bytes(body)
    }

    /// A response whose body is read from `file` when it is needed.
    public init(status: Int = 200, headers: [Header] = [], file: PageFile) {
        self.status = status
        self.headers = headers
        self.storage = .file(file)
    }

    /// The same response with its page file read into memory; nil when the file cannot be read.
    public func loadingFile() -> RecordedResponse? {
        guard case .file(let f) = storage else { return self }
        guard let bytes = f.read() else { return nil }
        return RecordedResponse(status: status, headers: headers, body: bytes)
    }

    public static func == (a: RecordedResponse, b: RecordedResponse) -> Bool {
        a.status == b.status && a.headers == b.headers && (a.storage == b.storage || a.body == b.body)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(status)
        hasher.combine(headers)
        hasher.combine(body)
    }

    public init(status: Int = 200, headers: [Header] = [], html: String) {
        self.init(status: status, headers: headers, body: Array(html.utf8))
    }

    /// The first header with this name (case-insensitive).
    public func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    public func headers(_ name: String) -> [String] {
        headers.filter { $0.name.lowercased() == name.lowercased() }.map(\.value)
    }
}
