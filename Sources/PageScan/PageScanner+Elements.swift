// The parse behind a scan, answered element by element, and the scan's JavaScript tokenizer on its own: for
// callers that must know how a browser reads a page's markup or a script's tokens (the backend checker asks
// whether a probe value added an attribute or became code).

extension PageScanner {
    /// Every element of the page as libxml2's HTML parser builds it (the scan's parser and options), in document
    /// order. The page is parsed into a tree, so this is for small pages (a helper endpoint's answer), not for
    /// what `scan` reads a few kB at a time.
    public static func elements(_ bytes: [UInt8]) -> [PageElement] {
        LibXML2.elements(bytes)
    }

    /// The identifiers JavaScript source uses as code, in order: none inside a string, a template literal, a
    /// comment or a regular expression literal (the tokenizer the script scanner uses).
    public static func codeIdentifiers(inScript source: String) -> [String] {
        let bytes = Array(source.utf8)
        return Tokenizer(bytes).tokens().filter { $0.kind == .ident }.map {
            String(decoding: bytes[$0.start..<$0.end], as: UTF8.self)
        }
    }
}
