import AppSwitch
import Foundation
import NavigationPolicy

/// One HTTP response.
public struct RecordedResponse: Sendable, Hashable {
    public var status: Int
    /// Header name/value pairs in order (names as written).
    public var headers: [Header]
    public var body: [UInt8]
    public struct Header: Sendable, Hashable {
        public var name: String
        public var value: String
        public init(_ name: String, _ value: String) { self.name = name; self.value = value }
    }

    public init(status: Int = 200, headers: [Header] = [], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
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
