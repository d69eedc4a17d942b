import CLibXML2

/// An element of a host-app XML file (an Android manifest, a property list), with its line, read by libxml2.
/// Attributes keep their namespace URI: Android's are found by URI, whatever prefix the file binds to it.
public struct XMLElementNode: Sendable, Hashable {
    public struct Attribute: Sendable, Hashable {
        public var namespace: String?
        public var name: String
        public var value: String
    }

    public var name: String
    public var line: Int
    public var attributes: [Attribute]
    public var children: [XMLElementNode]
    /// The element's text (its text and CDATA children, end to end).
    public var text: String

    /// The value of the attribute `name` in `namespace` (nil: no namespace).
    public func attribute(_ name: String, namespace: String? = nil) -> String? {
        attributes.first { $0.name == name && $0.namespace == namespace }?.value
    }

    public func children(named name: String) -> [XMLElementNode] { children.filter { $0.name == name } }

    /// The largest file read (16 MiB): a manifest or a plist is kilobytes; a larger file is not one.
    public static let maxFileSize = 16 << 20

    /// Parses `bytes` as XML (no network, no external entities, no entity expansion) and returns the root
    /// element. A file that is not well-formed XML is an error naming the line and libxml2's reason.
    public static func parse(_ bytes: [UInt8], file: String) throws(AppConfigurationError) -> XMLElementNode {
        guard bytes.count <= maxFileSize else {
            throw AppConfigurationError(file: file, message: "is \(bytes.count) bytes; expected at most \(maxFileSize)")
        }
        guard let context = xmlNewParserCtxt() else {
            throw AppConfigurationError(file: file, message: "libxml2 could not start a parser")
        }
        defer { xmlFreeParserCtxt(context) }
        let options = Int32(XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue | XML_PARSE_NOWARNING.rawValue)
        let document = bytes.withUnsafeBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: max(buffer.count, 1)) {
                xmlCtxtReadMemory(context, $0, Int32(buffer.count), file, nil, options)
            }
        }
        guard let document, context.pointee.wellFormed != 0 else {
            if let document { xmlFreeDoc(document) }
            let error = context.pointee.lastError
            let reason = error.message.map { String(cString: $0).trimmingTrailingWhitespace } ?? "not well-formed"
            throw AppConfigurationError(
                file: file, line: error.line > 0 ? Int(error.line) : nil, message: "not well-formed XML: \(reason)")
        }
        defer { xmlFreeDoc(document) }
        guard let root = xmlDocGetRootElement(document) else {
            throw AppConfigurationError(file: file, message: "holds no XML element")
        }
        return element(root)
    }

    private static func element(_ node: xmlNodePtr) -> XMLElementNode {
        var out = XMLElementNode(
            name: string(node.pointee.name), line: Int(xmlGetLineNo(node)), attributes: [], children: [], text: "")
        var attribute = node.pointee.properties
        while let a = attribute {
            let value = xmlNodeListGetString(node.pointee.doc, a.pointee.children, 1)
            out.attributes.append(
                Attribute(
                    namespace: a.pointee.ns.map { string($0.pointee.href) }, name: string(a.pointee.name),
                    value: value.map { String(cString: $0) } ?? ""))
            if let value { plainview_xmlFree(value) }
            attribute = a.pointee.next
        }
        var child = node.pointee.children
        while let c = child {
            switch c.pointee.type {
            case XML_ELEMENT_NODE: out.children.append(element(c))
            case XML_TEXT_NODE, XML_CDATA_SECTION_NODE: out.text += c.pointee.content.map { String(cString: $0) } ?? ""
            default: break
            }
            child = c.pointee.next
        }
        return out
    }

    private static func string(_ p: UnsafePointer<xmlChar>?) -> String {
        p.map { String(cString: $0) } ?? ""
    }
}

extension String {
    var trimmingTrailingWhitespace: String {
        var s = Substring(self)
        while let last = s.last, last.isWhitespace { s = s.dropLast() }
        return String(s)
    }
}
