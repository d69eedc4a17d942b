// The documents the helper endpoints serve: the Android intent page, the iOS back-link (trampoline) page,
// apple-app-site-association and assetlinks.json. Every echoed value is escaped for where it lands.
import NavigationPolicy
import PlainviewURL
import PlainviewSupport

/// Languages of the back-link page: the set the seed lists as supported by Swedbank Pay (`sv-SE`, `nb-NO`,
/// `da-DK`, `en-US`, `fi-FI`). Matched case-insensitively (BCP 47 tags are), served in canonical case.
public enum HelperLanguage: String, Sendable, CaseIterable {
    case swedish = "sv-SE"
    case norwegianBokmal = "nb-NO"
    case danish = "da-DK"
    case english = "en-US"
    case finnish = "fi-FI"

    public init?(tag: String) {
        guard let match = Self.allCases.first(where: { $0.rawValue.lowercased() == tag.lowercased() }) else { return nil }
        self = match
    }

    var title: String {
        switch self {
        case .swedish: "Tillbaka till appen"
        case .norwegianBokmal: "Tilbake til appen"
        case .danish: "Tilbage til appen"
        case .english: "Back to the app"
        case .finnish: "Takaisin sovellukseen"
        }
    }

    func backTo(app: String?) -> String {
        guard let app else { return title }
        switch self {
        case .swedish: return "Tillbaka till \(app)"
        case .norwegianBokmal: return "Tilbake til \(app)"
        case .danish: return "Tilbage til \(app)"
        case .english: return "Back to \(app)"
        case .finnish: return "Palaa sovellukseen \(app)"
        }
    }

    var hint: String {
        switch self {
        case .swedish: "Tryck på knappen för att fortsätta betalningen i appen."
        case .norwegianBokmal: "Trykk på knappen for å fortsette betalingen i appen."
        case .danish: "Tryk på knappen for at fortsætte betalingen i appen."
        case .english: "Tap the button to continue the payment in the app."
        case .finnish: "Jatka maksua sovelluksessa painamalla painiketta."
        }
    }
}

enum HelperDocuments {
    static let style = """
        body{font-family:system-ui,-apple-system,sans-serif;margin:0;padding:2em 1em;text-align:center;color:#222}\
        a.button{display:inline-block;margin-top:1em;padding:.9em 1.6em;border-radius:.4em;background:#1d1d1f;\
        color:#fff;text-decoration:none;font-size:1.2em}
        """

    /// The Android page: a 0-second meta refresh to the intent URL, and the same URL as a link for browsers
    /// that block script-less redirects to intents without a user gesture (Swedbank Pay's Merchant Backend documentation).
    static func androidPage(intentURL: String) -> String {
        let href = HTMLEscaping.escape(intentURL)
        return """
            <!DOCTYPE html>
            <html>
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta http-equiv="refresh" content="0;url=\(href)">
            <title>Payment</title>
            <style>\(style)</style>
            </head>
            <body>
            <p><a class="button" href="\(href)">Back to app</a></p>
            </body>
            </html>

            """
    }

    /// The back-link page: a real link the user taps (a tap in a page of another domain is what makes iOS open
    /// the universal link in the app). No script: the seed's page calls `decodeURLComponent`, which does not
    /// exist in JavaScript, so its click handler never navigates; a plain `<a href>` needs no script at all.
    static func trampolinePage(target: String, language: HelperLanguage, app: String?) -> String {
        let label = HTMLEscaping.escape(language.backTo(app: app))
        return """
            <!DOCTYPE html>
            <html lang="\(language.rawValue)">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(HTMLEscaping.escape(language.title))</title>
            <style>\(style)</style>
            </head>
            <body>
            <p>\(HTMLEscaping.escape(language.hint))</p>
            <p><a class="button" id="back" href="\(HTMLEscaping.escape(target))">\(label)</a></p>
            </body>
            </html>

            """
    }

    /// apple-app-site-association with both formats: `appIDs` + `components` (iOS 13+) and `appID` + `paths`
    /// (iOS 12 and earlier, which ignore the new keys). Only the iOS payment-url path is claimed: the Android
    /// helper and the back-link page must keep opening in the browser. Components without a `?` key match any
    /// query; the legacy list adds `PATH?*` in case the query takes part in legacy matching.
    static func appleAppSiteAssociation(appIDs: [String], universalLinkPath: String) -> String {
        let details = appIDs.map { id in
            """
                  {
                    "appIDs": [\(JSONEscaping.quote(id))],
                    "components": [{"/": \(JSONEscaping.quote(universalLinkPath)), "comment": "payment url (iOS helper)"}],
                    "appID": \(JSONEscaping.quote(id)),
                    "paths": [\(JSONEscaping.quote(universalLinkPath)), \(JSONEscaping.quote(universalLinkPath + "?*"))]
                  }
            """
        }
        let list = details.isEmpty ? "[]" : "[\n" + details.joined(separator: ",\n") + "\n    ]"
        return """
            {
              "applinks": {
                "apps": [],
                "details": \(list)
              }
            }

            """
    }

    /// assetlinks.json (Digital Asset Links): the package may handle all URLs of this host.
    static func assetLinks(package: String?, fingerprints: [String]) -> String {
        guard let package else { return "[]\n" }
        return """
            [
              {
                "relation": ["delegate_permission/common.handle_all_urls"],
                "target": {
                  "namespace": "android_app",
                  "package_name": \(JSONEscaping.quote(package)),
                  "sha256_cert_fingerprints": \(JSONEscaping.array(fingerprints))
                }
              }
            ]

            """
    }

    /// An RFC 7807 problem document.
    static func problem(_ p: HelperProblem) -> String {
        var fields = [
            "\"type\": \(JSONEscaping.quote(p.type))",
            "\"title\": \(JSONEscaping.quote(p.title))",
            "\"status\": \(p.status)",
            "\"detail\": \(JSONEscaping.quote(p.detail))",
        ]
        if let parameter = p.parameter { fields.append("\"parameter\": \(JSONEscaping.quote(parameter))") }
        return "{" + fields.joined(separator: ", ") + "}\n"
    }
}
