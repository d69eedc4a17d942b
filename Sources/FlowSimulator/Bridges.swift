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
        TemporaryRefreshParser.refresh(value, documentURL: documentURL)
    }
}

// TEMPORARY until `PageScanner.parseRefresh` lands on main: the minimal subset the
// shipped flows use. Deleted at the merge.
enum TemporaryRefreshParser {
    static func refresh(_ value: String, documentURL: String) -> PageScanResult.Refresh? {
        let parts = value.split(separator: ";", maxSplits: 1)
        guard let first = parts.first, let delay = Int(first.trimmingCharacters(in: .whitespaces)) else { return nil }
        var url = documentURL
        if parts.count > 1 {
            var u = parts[1].trimmingCharacters(in: .whitespaces)
            if u.lowercased().hasPrefix("url=") { u = String(u.dropFirst(4)) }
            url = URLTools.resolve(u, against: documentURL) ?? documentURL
        }
        return PageScanResult.Refresh(delay: delay, url: url)
    }
}
