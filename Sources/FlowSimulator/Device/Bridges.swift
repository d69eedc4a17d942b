// Bridges to pieces other targets provide. Each is one call, so the simulator never carries a second copy
// of their logic.
import NavigationPolicy
import PageScan

enum IntentURL {
    /// Parses an `intent:` / `android-app:` URL.
    static func parse(_ url: String) -> AndroidIntent? {
        try? AndroidIntent.parse(url)
    }
}

enum RefreshHeader {
    /// The `Refresh` response header, parsed like `<meta http-equiv=refresh>`.
    static func parse(_ value: String, documentURL: String) -> PageScanResult.Refresh? {
        PageScanner.parseRefresh(value, documentURL: documentURL)
    }
}
