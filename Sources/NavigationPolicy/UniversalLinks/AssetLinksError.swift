/// A statement of an assetlinks.json that Android would not read, with where it is.
public struct AssetLinksError: Error, Sendable, Hashable, CustomStringConvertible {
    public var keyPath: String
    public var message: String
    public init(keyPath: String, message: String) {
        self.keyPath = keyPath
        self.message = message
    }
    public var description: String { "assetlinks.json \(keyPath): \(message)" }
}
