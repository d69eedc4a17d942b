// The HTML standard's "shared declarative refresh steps", shared by `<meta http-equiv=refresh>` and the
// `Refresh` HTTP header.
import PlainviewURL

extension PageScanner {
    /// Parses a refresh value (`<meta http-equiv=refresh content=…>` or a `Refresh` header) served at
    /// `documentURL`. Nil when the value does not parse (no refresh happens). A value without a URL refreshes
    /// `documentURL` itself.
    public static func parseRefresh(_ content: String, documentURL: String) -> PageScanResult.Refresh? {
        guard let document = WebURL(documentURL),
            let parsed = RefreshContent(content)
        else { return nil }
        guard let raw = parsed.url else {
            return PageScanResult.Refresh(delay: parsed.delay, url: document.href)
        }
        guard let url = WebURL(raw, relativeTo: document)?.href else { return nil }
        return PageScanResult.Refresh(delay: parsed.delay, url: url)
    }
}
