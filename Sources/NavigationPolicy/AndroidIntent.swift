// Android `intent:` / `android-app:` URLs (Intent.parseUri). STUB: the parser is being written.

/// An Android intent as parsed from an `intent:` or `android-app:` URL.
public struct AndroidIntent: Sendable, Hashable {
    /// The intent's data URI (for `intent://host/path#Intent;scheme=https;…`: `https://host/path`).
    public var data: String?
    public var action: String?
    public var categories: [String] = []
    public var type: String?
    public var package: String?
    public var component: String?
    public var flags: Int = 0
    /// Typed extras, by key. Values keep their Android type.
    public var extras: [String: IntentExtra] = [:]
    public var selector: Box?
    /// `S.browser_fallback_url`, if any.
    public var browserFallbackURL: String? {
        if case .string(let s)? = extras["browser_fallback_url"] { return s }
        return nil
    }

    /// Indirection so a selector intent can nest.
    public final class Box: Sendable, Hashable {
        public let intent: AndroidIntent
        public init(_ intent: AndroidIntent) { self.intent = intent }
        public static func == (a: Box, b: Box) -> Bool { a.intent == b.intent }
        public func hash(into h: inout Hasher) { h.combine(intent) }
    }

    public init() {}
}

/// A typed intent extra (`S.`, `B.`, `b.`, `c.`, `d.`, `f.`, `i.`, `l.`, `s.`).
public enum IntentExtra: Sendable, Hashable {
    case string(String)
    case bool(Bool)
    case byte(Int8)
    case char(String)
    case double(Double)
    case float(Float)
    case int(Int32)
    case long(Int64)
    case short(Int16)
}
