// The only file that calls libxml2. A SAX run over libxml2's HTML parser, pulling its input from a ByteSource:
// no tree is built and consumed input is dropped, so the parser's memory stays at a few kB whatever the page's
// size (the collector keeps only what it reports), and deep nesting cannot overflow any stack of ours.
// Errors go to structured handlers that drop them: libraries never print.
internal import CLibXML2

// Events go to a `PageCollector` (`startElement`, `endElement`, `characters`); names and attribute names arrive
// in lower case (libxml2's HTML parser folds them). The callbacks name the collector's own final class, not a
// protocol, so each event borrows it: no reference counting on the parser's hottest path.

/// A borrowed view of one start tag's attributes; valid only during `startElement`.
struct AttributeList {
    fileprivate let atts: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?

    /// Calls `body(name, value)` for each attribute; `value` is nil for a bare attribute (`<input checked>`).
    func forEach(_ body: (UnsafePointer<UInt8>, UnsafePointer<UInt8>?) -> Void) {
        guard let atts else { return }
        var i = 0
        while let name = atts[i] {
            body(name, atts[i + 1])
            i += 2
        }
    }
}

enum LibXML2 {
    /// libxml2 wants one global initialisation before use from several threads.
    private static let initialised: Bool = {
        xmlInitParser(); return true
    }()

    /// Options: recover from broken markup, never touch the network, report nothing, no implied html/body.
    private static var options: Int32 {
        Int32(
            HTML_PARSE_RECOVER.rawValue | HTML_PARSE_NONET.rawValue | HTML_PARSE_NOERROR.rawValue
                | HTML_PARSE_NOWARNING.rawValue | HTML_PARSE_NOIMPLIED.rawValue)
    }

    enum Failure: Error { case outOfMemory, unreadable }

    /// Runs the HTML SAX parser over the bytes `source` delivers, delivering events to `sink`. libxml2 pulls
    /// the input a few kB at a time and drops what it has consumed, so a page is never held whole by the
    /// parser (the caller decides whether it is held at all). `encoding` (a charset label such as
    /// `windows-1252`) overrides sniffing when libxml2 knows it; unknown labels are ignored (sniffing decides).
    static func parse(_ source: ByteSource, encoding: String?, into sink: PageCollector) throws(Failure) {
        _ = initialised
        guard let ctxt = htmlNewParserCtxt() else { throw .outOfMemory }
        defer { htmlFreeParserCtxt(ctxt) }
        guard let sax = ctxt.pointee.sax else { throw .outOfMemory }

        // Replace the tree-building handlers with ours; everything else stays nil.
        sax.pointee = htmlSAXHandler()
        sax.pointee.initialized = XML_SAX2_MAGIC // makes libxml2 use `serror` below instead of stderr
        sax.pointee.serror = { _, _ in }
        // The callbacks get the parser context (the start tag needs its element stack) and find the sink in its
        // `_private`. The caller holds the sink for the whole parse, so the callbacks borrow it.
        sax.pointee.startElement = { ctx, name, atts in
            guard let ctx, let name else { return }
            let ctxt = ctx.assumingMemoryBound(to: xmlParserCtxt.self)
            let sink = Unmanaged<PageCollector>.fromOpaque(ctxt.pointee._private)
            if ctxt.pointee.nameNr > LibXML2.maxDepth + 1 { LibXML2.flattenDeepElement(ctxt, name, sink) }
            sink._withUnsafeGuaranteedRef { $0.startElement(name, AttributeList(atts: atts)) }
        }
        sax.pointee.endElement = { ctx, name in
            guard let ctx, let name else { return }
            let ctxt = ctx.assumingMemoryBound(to: xmlParserCtxt.self)
            Unmanaged<PageCollector>.fromOpaque(ctxt.pointee._private)._withUnsafeGuaranteedRef { $0.endElement(name) }
        }
        let text: charactersSAXFunc = { ctx, ch, len in
            guard let ctx, let ch, len > 0 else { return }
            let ctxt = ctx.assumingMemoryBound(to: xmlParserCtxt.self)
            Unmanaged<PageCollector>.fromOpaque(ctxt.pointee._private)._withUnsafeGuaranteedRef {
                $0.characters(UnsafeBufferPointer(start: ch, count: Int(len)))
            }
        }
        sax.pointee.characters = text
        sax.pointee.cdataBlock = text // <script> and <style> bodies arrive here
        ctxt.pointee._private = Unmanaged.passUnretained(sink).toOpaque()
        ctxt.pointee.userData = UnsafeMutableRawPointer(ctxt)

        // The input: libxml2 calls `read` whenever it needs more bytes. The source stays retained by the
        // caller for the whole parse; the buffer only borrows it.
        let reader: xmlInputReadCallback = { context, buffer, length in
            guard let context, let buffer, length > 0 else { return 0 }
            let source = Unmanaged<ByteSource>.fromOpaque(context).takeUnretainedValue()
            return Int32(source.read(into: UnsafeMutableRawBufferPointer(start: buffer, count: Int(length))))
        }
        let sourcePointer = Unmanaged.passUnretained(source).toOpaque()
        guard let input = xmlParserInputBufferCreateIO(reader, nil, sourcePointer, XML_CHAR_ENCODING_NONE) else {
            throw .outOfMemory
        }
        guard let stream = xmlNewIOInputStream(ctxt, input, XML_CHAR_ENCODING_NONE) else {
            xmlFreeParserInputBuffer(input)
            throw .outOfMemory
        }
        guard inputPush(ctxt, stream) >= 0 else { throw .outOfMemory } // the context frees the stream

        // A charset from the header wins over `<meta charset>` (as in browsers): once libxml2 has a converter it
        // ignores the document's own declaration.
        if let encoding, let handler = xmlFindCharEncodingHandler(encoding) {
            xmlSwitchToEncoding(ctxt, handler)
        }
        _ = htmlCtxtUseOptions(ctxt, options)
        // Input-conversion errors (a byte the declared charset cannot hold) are raised by the input buffer,
        // outside the context's handler, to a per-thread global one that prints: silence it for this parse and
        // put back whatever handler this thread had.
        let previous = (__xmlStructuredError().pointee, __xmlStructuredErrorContext().pointee)
        xmlSetStructuredErrorFunc(nil, { _, _ in })
        defer { xmlSetStructuredErrorFunc(previous.1, previous.0) }
        withExtendedLifetime(sink) { _ = htmlParseDocument(ctxt) }
        if source.failure != nil { throw .unreadable }
    }

    /// Open elements libxml2 keeps nested (see `PageScanner.maxElementDepth`).
    static let maxDepth = PageScanner.maxElementDepth

    /// A start tag opened an element deeper than `maxDepth`: the element before it at that depth closes now, so
    /// elements past the limit are siblings, one open at a time, as a browser makes them (it attaches each to
    /// the element at the limit). libxml2's element stack then never holds more than `maxDepth + 1` names,
    /// whatever the page: without this, 60 MB of `<b>` held 20 million names (8 bytes each), and every stray
    /// end tag (`</i>` where no `i` is open) searched all of them: 100,000 `<b>` and then 100,000 `</i>`, a
    /// 0.7 MB page, cost 16 s. A void element (`<br>`) is left alone: libxml2 closes it as soon as it is open.
    private static func flattenDeepElement(
        _ ctxt: UnsafeMutablePointer<xmlParserCtxt>, _ name: UnsafePointer<xmlChar>,
        _ sink: Unmanaged<PageCollector>
    ) {
        if let info = htmlTagLookup(name), info.pointee.empty != 0 { return }
        guard let names = ctxt.pointee.nameTab else { return }
        let count = Int(ctxt.pointee.nameNr)
        // The stack is `maxDepth` kept names, the deep element open before, and the new one (pushed before this
        // callback, as libxml2 does): the one before closes and the new one takes its place.
        let deep = maxDepth
        if let closing = names[deep] {
            sink._withUnsafeGuaranteedRef { $0.endElement(closing) }
        }
        for i in deep..<(count - 1) { names[i] = names[i + 1] }
        names[count - 1] = nil
        ctxt.pointee.nameNr = Int32(count - 1)
        ctxt.pointee.name = names[count - 2]
        sink._withUnsafeGuaranteedRef { $0.elementPastDepthLimit() }
    }

    /// Every element of the tree libxml2 builds from `bytes` (this file's options), in document order. The tree
    /// is walked without recursion and freed before returning.
    static func elements(_ bytes: [UInt8]) -> [PageElement] {
        var out: [PageElement] = []
        withMemoryParser(bytes) { ctxt in
            _ = htmlParseDocument(ctxt)
            guard let doc = ctxt.pointee.myDoc else { return }
            defer {
                xmlFreeDoc(doc)
                ctxt.pointee.myDoc = nil
            }
            let docNode = UnsafeMutableRawPointer(doc)
            var next: xmlNodePtr? = doc.pointee.children
            while let node = next {
                if node.pointee.type == XML_ELEMENT_NODE {
                    out.append(element(node))
                    if let child = node.pointee.children {
                        next = child
                        continue
                    }
                }
                // Up to the first ancestor with a next sibling (stopping at the document).
                var current = node
                while current.pointee.next == nil {
                    guard let parent = current.pointee.parent, UnsafeMutableRawPointer(parent) != docNode else { return }
                    current = parent
                }
                next = current.pointee.next
            }
        }
        return out
    }

    /// One element node: its name, its attributes (values joined from their text children) and its own text.
    private static func element(_ node: xmlNodePtr) -> PageElement {
        func text(of first: xmlNodePtr?) -> String {
            var s = ""
            var child = first
            while let c = child {
                if c.pointee.type == XML_TEXT_NODE || c.pointee.type == XML_CDATA_SECTION_NODE, let content = c.pointee.content {
                    s += String(cString: content)
                }
                child = c.pointee.next
            }
            return s
        }
        var attributes: [PageElement.Attribute] = []
        var attribute = node.pointee.properties
        while let a = attribute {
            let name = a.pointee.name.map { String(cString: $0) } ?? ""
            attributes.append(.init(name: name, value: a.pointee.children == nil ? nil : text(of: a.pointee.children)))
            attribute = a.pointee.next
        }
        let name = node.pointee.name.map { String(cString: $0) } ?? ""
        return PageElement(name: name, attributes: attributes, text: text(of: node.pointee.children))
    }

    /// The tree parse: libxml2 builds its tree and frees it (the benchmark's second baseline).
    static func parseAndFree(_ bytes: [UInt8]) {
        withMemoryParser(bytes) { ctxt in
            _ = htmlParseDocument(ctxt)
            if let doc = ctxt.pointee.myDoc {
                xmlFreeDoc(doc)
                ctxt.pointee.myDoc = nil
            }
        }
    }

    /// The floor: libxml2's SAX parse of `bytes` in memory with callbacks that do nothing (start and end
    /// element, characters, CDATA). No extractor over libxml2 can be cheaper; the benchmark's baseline.
    static func parseWithEmptyCallbacks(_ bytes: [UInt8]) {
        withMemoryParser(bytes) { ctxt in
            guard let sax = ctxt.pointee.sax else { return }
            sax.pointee = htmlSAXHandler()
            sax.pointee.startElement = { _, _, _ in }
            sax.pointee.endElement = { _, _ in }
            sax.pointee.characters = { _, _, _ in }
            sax.pointee.cdataBlock = { _, _, _ in }
            _ = htmlParseDocument(ctxt)
        }
    }

    /// A parser over `bytes` in memory with this file's options, freed after `body`.
    private static func withMemoryParser(_ bytes: [UInt8], _ body: (htmlParserCtxtPtr) -> Void) {
        _ = initialised
        guard bytes.count < Int(Int32.max) else { return }
        bytes.withUnsafeBufferPointer { buf in
            guard let base = buf.baseAddress,
                let ctxt = base.withMemoryRebound(
                    to: CChar.self, capacity: buf.count,
                    {
                        htmlCreateMemoryParserCtxt($0, Int32(buf.count))
                    })
            else { return }
            defer { htmlFreeParserCtxt(ctxt) }
            _ = htmlCtxtUseOptions(ctxt, options)
            body(ctxt)
        }
    }
}
