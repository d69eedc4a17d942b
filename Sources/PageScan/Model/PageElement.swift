// One element of a parsed page, for questions a scan does not answer (which attributes a start tag really has,
// what an inline script says).

/// An element as libxml2's HTML parser builds it from the served bytes.
public struct PageElement: Sendable, Hashable {
    /// One attribute: the name in lower case, the value with character references decoded (nil for a bare one).
    public struct Attribute: Sendable, Hashable {
        public var name: String
        public var value: String?
        public init(name: String, value: String?) { self.name = name; self.value = value }
    }

    /// The element's name in lower case.
    public var name: String
    /// The start tag's attributes in source order.
    public var attributes: [Attribute]
    /// The element's own text (its text children joined): a `<script>`'s or `<style>`'s source.
    public var text: String

    public init(name: String, attributes: [Attribute], text: String) {
        self.name = name; self.attributes = attributes; self.text = text
    }

    /// The value of the first attribute named `name`, if the element has it.
    public func attribute(_ name: String) -> String?? { attributes.first { $0.name == name }.map(\.value) }
}
