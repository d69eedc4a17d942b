// Turns parser events into a PageScanResult, the way a browser with scripting enabled sees the page:
// `<noscript>`, `<template>`, `<noembed>` and `<noframes>` contents are not part of the document there, so
// nothing inside them counts; comments never reach us; URLs resolve once `<base href>` is known.
import PlainviewURL

/// The parser's event sink. The collected state is a struct behind a pointer: its fields are then checked for
/// exclusive access when compiled, not at run time on every event (a class's stored properties are checked on
/// each access, which cost about as much as the rest of the callbacks together).
final class PageCollector {
    private let state: UnsafeMutablePointer<PageCollectorState>

    init(androidInterfaces: Set<String>) {
        state = .allocate(capacity: 1)
        state.initialize(to: PageCollectorState(androidInterfaces: androidInterfaces))
    }

    deinit {
        state.deinitialize(count: 1)
        state.deallocate()
    }

    func startElement(_ name: UnsafePointer<UInt8>, _ attributes: AttributeList) { state.pointee.startElement(name, attributes) }
    func endElement(_ name: UnsafePointer<UInt8>) { state.pointee.endElement(name) }
    func characters(_ text: UnsafeBufferPointer<UInt8>) { state.pointee.characters(text) }
    /// An element opened past the parser's depth limit (the element open before it at that depth was closed).
    func elementPastDepthLimit() { state.pointee.deepElements += 1 }

    /// The page's findings, every URL resolved. Call once, after the parse.
    func result(document: WebURL) -> PageScanResult { state.pointee.result(document: document) }

    /// The charset the page declares in its first `<meta charset>` or `<meta http-equiv=content-type>`.
    var declaredCharset: String? { state.pointee.declaredCharset }
}
