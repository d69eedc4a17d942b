// TEMPORARY seam: a minimal `intent:`/`android-app:` reader so the engine can decide intents before the
// full parser (`AndroidIntent.parse`, aasa-intent helper) lands. At merge, `IntentSeam.parse` becomes
// `try? AndroidIntent.parse(uri)` and this file goes away.
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

enum IntentSeam {
    static func parse(_ uri: String) -> AndroidIntent? {
        let lower = uri.lowercased()
        if lower.hasPrefix("android-app:") {
            // android-app://package[/scheme[/host[/path…]]]
            let rest = uri.dropFirst("android-app:".count)
            guard rest.hasPrefix("//") else { return nil }
            let beforeFragment = rest.dropFirst(2).split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
            let parts = (beforeFragment.first ?? "").split(separator: "/", maxSplits: 3, omittingEmptySubsequences: false)
            guard let pkg = parts.first, !pkg.isEmpty else { return nil }
            var intent = AndroidIntent()
            intent.package = String(pkg)
            intent.action = "android.intent.action.VIEW"
            if parts.count >= 3 {
                intent.data = "\(parts[1])://\(parts[2])" + (parts.count > 3 ? "/\(parts[3])" : "")
            }
            if beforeFragment.count > 1 {
                applyFields(String(beforeFragment[1]), to: &intent)
            }
            return intent
        }
        guard lower.hasPrefix("intent:") else { return nil }
        let body = uri.dropFirst("intent:".count)
        guard let marker = body.firstRange(of: "#Intent;") else { return nil }
        var intent = AndroidIntent()
        let dataPart = String(body[..<marker.lowerBound])
        let fields = String(body[marker.upperBound...])
        guard fields.hasSuffix("end") || fields.hasSuffix("end;") else { return nil }
        var scheme: String?
        var selector = AndroidIntent()
        var inSelector = false
        for field in fields.split(separator: ";") {
            if field == "end" { break }
            if field == "SEL" { inSelector = true; continue }
            guard let eq = field.firstIndex(of: "=") else { return nil }
            let key = String(field[..<eq])
            let value = String(decoding: WebURL.percentDecode(Array(field[field.index(after: eq)...].utf8)), as: UTF8.self)
            if key == "scheme" { if inSelector { selector.data = value + ":" } else { scheme = value }; continue }
            if inSelector { set(key, value, &selector) } else { set(key, value, &intent) }
        }
        // Like Intent.parseUri: the part before `#Intent;`, with `scheme=` put in front when given.
        if let scheme {
            intent.data = scheme + ":" + dataPart
        } else if !dataPart.isEmpty {
            intent.data = dataPart
        }
        if inSelector { intent.selector = AndroidIntent.Box(selector) }
        return intent
    }

    private static func applyFields(_ fragment: String, to intent: inout AndroidIntent) {
        guard fragment.hasPrefix("Intent;") else { return }
        for field in fragment.dropFirst("Intent;".count).split(separator: ";") {
            guard let eq = field.firstIndex(of: "=") else { continue }
            set(String(field[..<eq]), String(field[field.index(after: eq)...]), &intent)
        }
    }

    private static func set(_ key: String, _ value: String, _ intent: inout AndroidIntent) {
        switch key {
        case "action": intent.action = value
        case "category": intent.categories.append(value)
        case "type": intent.type = value
        case "package": intent.package = value
        case "component": intent.component = value
        case "launchFlags": intent.flags = Int(value) ?? 0
        default:
            if key.hasPrefix("S.") { intent.extras[String(key.dropFirst(2))] = .string(value) }
        }
    }
}
