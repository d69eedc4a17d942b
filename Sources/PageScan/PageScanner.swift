// Public entry points of PageScan: scan a served page, parse a Refresh value, time the bare parse.
import PlainviewURL

public enum PageScanner {
    /// Android JavaScript-interface objects reported as hooks by default (`callbacks` is the name the
    /// Swedbank Pay guide registers with `addJavascriptInterface`; `Android` is the common convention).
    public static let defaultAndroidInterfaces: Set<String> = ["callbacks", "Android"]

    /// Open elements a scan keeps nested, as WebKit's and Blink's tree builders do (both stop nesting at 512):
    /// each element opened deeper closes the one open before it at that depth (reported as `depth`).
    public static let maxElementDepth = 512

    /// Scans HTML bytes served at `documentURL`. `contentType` is the Content-Type header, if any (for its charset).
    public static func scan(_ bytes: [UInt8], contentType: String? = nil, documentURL: String) throws(PageScanError)
        -> PageScanResult
    {
        try scan(bytes, contentType: contentType, documentURL: documentURL, androidInterfaces: defaultAndroidInterfaces)
    }

    /// Scans HTML bytes, reporting calls on the named Android JavaScript-interface objects as hooks.
    public static func scan(
        _ bytes: [UInt8], contentType: String? = nil, documentURL: String,
        androidInterfaces: Set<String>
    ) throws(PageScanError) -> PageScanResult {
        let encoding = charset(fromContentType: contentType)
        return try scan(
            MemoryByteSource(bytes, declaredEncoding: encoding), encoding: encoding, documentURL: documentURL,
            androidInterfaces: androidInterfaces)
    }

    /// A scan with the limiter's dropping of unread attributes on or off: tests check that it changes nothing.
    static func scan(
        _ bytes: [UInt8], contentType: String? = nil, documentURL: String,
        androidInterfaces: Set<String> = defaultAndroidInterfaces,
        dropsUnreadAttributes: Bool
    ) throws(PageScanError) -> PageScanResult {
        let encoding = charset(fromContentType: contentType)
        let source = MemoryByteSource(bytes, declaredEncoding: encoding)
        source.dropsUnreadAttributes = dropsUnreadAttributes
        return try scan(source, encoding: encoding, documentURL: documentURL, androidInterfaces: androidInterfaces)
    }

    /// Scans the page read from an open file descriptor (a file or standard input) until its end, a few kB at a
    /// time: the page is never held in memory whole. `name` names the input in errors. The caller owns `fd`.
    public static func scan(
        fileDescriptor fd: Int32, name: String, contentType: String? = nil, documentURL: String,
        androidInterfaces: Set<String> = defaultAndroidInterfaces
    ) throws(PageScanError) -> PageScanResult {
        let encoding = charset(fromContentType: contentType)
        return try scan(
            FileByteSource(fd: fd, name: name, declaredEncoding: encoding), encoding: encoding,
            documentURL: documentURL, androidInterfaces: androidInterfaces)
    }

    private static func scan(
        _ source: ByteSource, encoding: String?, documentURL: String,
        androidInterfaces: Set<String>
    ) throws(PageScanError) -> PageScanResult {
        guard let document = WebURL(documentURL) else {
            throw PageScanError(
                .invalidDocumentURL,
                "document URL '\(documentURL)' is not an absolute URL (expected e.g. https://shop.example/checkout)")
        }
        let collector = PageCollector(androidInterfaces: androidInterfaces)
        do {
            try LibXML2.parse(source, encoding: encoding, into: collector)
        } catch {
            switch error {
            case .unreadable:
                throw PageScanError(.unreadable, source.failure ?? "reading the page failed")
            case .outOfMemory:
                throw PageScanError(.outOfMemory, "libxml2 could not allocate a parser")
            }
        }
        var result = collector.result(document: document)
        result.truncations = source.limiter.truncations + result.truncations
        // The encoding the page is in: the header's charset wins over the page's own declaration, as in browsers.
        result.charset = (encoding ?? collector.declaredCharset).flatMap { TextEncoding(label: $0)?.name }
        return result
    }

    /// Parses `bytes` with libxml2's HTML parser into its tree and frees it, doing nothing else: the second
    /// baseline a scan's cost is measured against (a tree parse, which costs more than a scan's SAX parse).
    public static func parseOnly(_ bytes: [UInt8]) {
        LibXML2.parseAndFree(bytes)
    }

    /// Runs libxml2's HTML SAX parser over `bytes` with callbacks that do nothing: the floor a scan's cost is
    /// measured against (what any extractor over libxml2 pays before it looks at a single element).
    public static func parseWithEmptyCallbacks(_ bytes: [UInt8]) {
        LibXML2.parseWithEmptyCallbacks(bytes)
    }

    /// The `charset` parameter of a Content-Type value (`text/html; charset="windows-1252"`), if any.
    static func charset(fromContentType contentType: String?) -> String? {
        guard let contentType else { return nil }
        for param in contentType.split(separator: ";").dropFirst() {
            let kv = param.split(separator: "=", maxSplits: 1)
            guard kv.count == 2, kv[0].trimmingASCIIWhitespace().lowercased() == "charset" else { continue }
            var value = kv[1].trimmingASCIIWhitespace()
            if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") { value = String(value.dropFirst().dropLast()) }
            guard !value.isEmpty else { return nil }
            // Latin-1 labels are windows-1252 (the Encoding Standard: € at 0x80, not a C1 control); any other
            // label goes to libxml2 as it is.
            return TextEncoding(label: value) == .windows1252 ? TextEncoding.windows1252.name : value
        }
        return nil
    }
}
