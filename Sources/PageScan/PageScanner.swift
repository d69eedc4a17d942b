// Public entry points of PageScan: scan a served page, parse a Refresh value, time the bare parse.

/// Errors PageScan reports instead of crashing.
public struct PageScanError: Error, Sendable, CustomStringConvertible, Equatable {
    /// What went wrong, for callers that branch on it.
    public enum Code: String, Sendable, Equatable {
        /// The document URL is not an absolute URL (it is the base every link resolves against).
        case invalidDocumentURL = "invalid-document-url"
        /// The page is larger than libxml2 can take in one buffer (2 GiB).
        case tooLarge = "too-large"
        /// libxml2 could not allocate its parser.
        case outOfMemory = "out-of-memory"
        case other
    }
    public var code: Code
    public var message: String
    public init(_ message: String) { self.code = .other; self.message = message }
    public init(_ code: Code, _ message: String) { self.code = code; self.message = message }
    public var description: String { message }
}

public enum PageScanner {
    /// Android JavaScript-interface objects reported as hooks by default (`callbacks` is the name the
    /// Swedbank Pay guide registers with `addJavascriptInterface`; `Android` is the common convention).
    public static let defaultAndroidInterfaces: Set<String> = ["callbacks", "Android"]

    /// Scans HTML bytes served at `documentURL`. `contentType` is the Content-Type header, if any (for its charset).
    public static func scan(_ bytes: [UInt8], contentType: String? = nil, documentURL: String) throws(PageScanError) -> PageScanResult {
        try scan(bytes, contentType: contentType, documentURL: documentURL, androidInterfaces: defaultAndroidInterfaces)
    }

    /// Scans HTML bytes, reporting calls on the named Android JavaScript-interface objects as hooks.
    public static func scan(_ bytes: [UInt8], contentType: String? = nil, documentURL: String,
                            androidInterfaces: Set<String>) throws(PageScanError) -> PageScanResult {
        guard let document = URLResolver.parseAbsolute(documentURL),
              !(document.isSpecial && document.scheme != "file" && (document.authority ?? "").isEmpty) else {
            throw PageScanError(.invalidDocumentURL,
                                "document URL '\(documentURL)' is not an absolute URL (expected e.g. https://shop.example/checkout)")
        }
        let collector = PageCollector()
        guard !bytes.isEmpty else { return collector.result(document: document, androidInterfaces: androidInterfaces) }
        let encoding = charset(fromContentType: contentType)
        do {
            try LibXML2.parse(withoutNULs(bytes, encoding: encoding), encoding: encoding, into: collector)
        } catch {
            switch error {
            case .tooLarge:
                throw PageScanError(.tooLarge, "page of \(bytes.count) bytes is too large to scan (limit 2 GiB)")
            case .outOfMemory:
                throw PageScanError(.outOfMemory, "libxml2 could not allocate a parser for a page of \(bytes.count) bytes")
            }
        }
        return collector.result(document: document, androidInterfaces: androidInterfaces)
    }

    /// Parses `bytes` with libxml2's HTML parser into its tree and frees it, doing nothing else: the baseline
    /// a scan's cost is measured against.
    public static func parseOnly(_ bytes: [UInt8]) {
        LibXML2.parseAndFree(bytes)
    }

    /// libxml2 2.9 stops parsing at a NUL byte; browsers go on (the tokenizer turns NUL into U+FFFD or drops
    /// it). For byte-oriented encodings, replace each NUL with U+FFFD so the rest of the page is still seen.
    /// UTF-16/32 input (BOM, declared, or `<` next to a zero byte at the start) is left alone.
    static func withoutNULs(_ bytes: [UInt8], encoding: String?) -> [UInt8] {
        guard bytes.contains(0) else { return bytes }
        if let e = encoding?.lowercased(), e.hasPrefix("utf-16") || e.hasPrefix("utf-32") || e.hasPrefix("ucs") { return bytes }
        let head = Array(bytes.prefix(4))
        if head.count >= 2, (head[0] == 0xFE && head[1] == 0xFF) || (head[0] == 0xFF && head[1] == 0xFE)
            || (head[0] == 0 && head[1] == 0x3C) || (head[0] == 0x3C && head[1] == 0) { return bytes }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + 64)
        for b in bytes {
            if b == 0 { out.append(0xEF); out.append(0xBF); out.append(0xBD) } else { out.append(b) }
        }
        return out
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
            // The Encoding Standard maps these labels to windows-1252 (€ at 0x80, not a C1 control).
            let latin1Labels: Set<String> = ["iso-8859-1", "iso8859-1", "iso_8859-1", "latin1", "l1", "us-ascii",
                                             "ascii", "cp819", "ibm819", "iso-ir-100", "csisolatin1", "x-cp1252", "cp1252"]
            return latin1Labels.contains(value.lowercased()) ? "windows-1252" : value
        }
        return nil
    }
}
