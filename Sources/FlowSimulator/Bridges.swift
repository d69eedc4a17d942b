// Bridges to pieces other targets provide. Each is one call, so the simulator never carries a second copy
// of their logic.
import NavigationPolicy
import PageScan

enum IntentURL {
    /// Parses an `intent:` / `android-app:` URL.
    static func parse(_ url: String) -> AndroidIntent? {
        TemporaryIntentParser.parse(url)
    }
}

enum RefreshHeader {
    /// The `Refresh` response header, parsed like `<meta http-equiv=refresh>`.
    static func parse(_ value: String, documentURL: String) -> PageScanResult.Refresh? {
        TemporaryIntentParser.refresh(value, documentURL: documentURL)
    }
}

// TEMPORARY until `AndroidIntent.parse` and `PageScanner.parseRefresh` land on main: the minimal subset the
// shipped flows use. Deleted at the merge.
enum TemporaryIntentParser {
    static func parse(_ url: String) -> AndroidIntent? {
        guard url.lowercased().hasPrefix("intent:"), let hash = url.range(of: "#Intent;") else { return nil }
        var intent = AndroidIntent()
        var rest = String(url[url.index(url.startIndex, offsetBy: 7)..<hash.lowerBound])
        var scheme: String?
        for part in url[hash.upperBound...].split(separator: ";") {
            if part == "end" { break }
            let kv = part.split(separator: "=", maxSplits: 1).map(String.init)
            guard kv.count == 2 else { continue }
            switch kv[0] {
            case "scheme": scheme = kv[1]
            case "action": intent.action = kv[1]
            case "package": intent.package = kv[1]
            case "component": intent.component = kv[1]
            case "S.browser_fallback_url":
                intent.extras["browser_fallback_url"] = .string(AppBehaviour.queryValue("x", in: "?x=" + kv[1]) ?? kv[1])
            default: break
            }
        }
        if let scheme, !rest.isEmpty {
            if !rest.hasPrefix("//") { rest = "//" + rest }
            intent.data = scheme + ":" + rest
        }
        return intent
    }

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
