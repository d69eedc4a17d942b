// Hand-made helper backends (small Hummingbird routers, written independently of HelperEndpoints) for the
// checker's verdict tests: a correct one, a lenient-but-safe one, and one per planted defect. Every backend
// generates URLs for the public origin https://shop.example.com while it is probed at 127.0.0.1:PORT.
import PlainviewURL
import PaymentURLHelpers
import Hummingbird
import NavigationPolicy
import PlainviewSupport

enum HandMadeBackend {
    enum Variant: String, CaseIterable, Sendable, CustomStringConvertible {
        case correct
        /// Accepts any scheme, an invalid language and CR/LF; percent-encodes everything it forwards (the scheme
        /// goes where a scheme goes); escapes all it echoes.
        case lenientButSafe
        /// Correct, with a path-absolute Location to the back-link page (resolved against the public origin).
        case correctRelativeLocation
        /// Echoes the decoded `package` raw into the Android page's HTML text (the issue's example).
        case rawPackageEcho
        /// Accepts any package and writes it unencoded into the intent's extras (HTML-escaped, so only the intent
        /// breaks: `;S.extra=…;end;` adds extras).
        case rawPackageInIntent
        /// Puts the decoded `id` into a double-quoted attribute of the Android page without escaping it.
        case unescapedAttribute
        /// Builds the iOS Location headers from the request's Host header.
        case locationFromHost
        /// Builds only the back-link page's target (not the custom-scheme Location) from the Host header.
        case backLinkTargetFromHost
        /// The back-link page links any target (open redirect).
        case openRedirectTrampoline
        /// Accepts any language and copies it decoded into the back-link page's Location unencoded (a new query item,
        /// a second target=, can ride along).
        case rawLanguageInLocation
        /// The back-link page writes its (own-origin) target into href without escaping it.
        case unescapedTrampolineHref
        /// The back-link page accepts any language and writes it into `<html lang="…">` unescaped.
        case unescapedTrampolineLang
        /// Answers the Android page with a 301 to the intent.
        case android301
        /// apple-app-site-association claims /sdk-callback/* although the helpers live under /swedbank-pay-mobile/.
        case aasaNotUnderMount
        /// No /.well-known/assetlinks.json.
        case missingAssetLinks
        /// The back-link page checks its target with a string-prefix test of the public origin (no trailing '/'), so
        /// `https://shop.example.com.evil.example/…` and `https://shop.example.com@evil.example/` get linked.
        case prefixCheckedTrampoline
        /// The back-link page escapes its (own-origin) target for text but writes it into an unquoted `href=…`:
        /// a space in the target ends the attribute and starts another.
        case unquotedTrampolineHref
        /// The Android page copies `id` into a single-quoted JavaScript string of an inline script, escaping `<`
        /// but not quotes: a `'` ends the string and what follows runs.
        case scriptStringID
        /// assetlinks.json is well-formed and names the right package, but another certificate's fingerprint.
        case wrongCertFingerprint
        /// The Android page is correct for any User-Agent but Android's, which gets a page without the intent.
        case brokenForAndroidUserAgent
        /// The iOS payment url redirects for any User-Agent but an iPhone's, which gets a 500.
        case brokenForIPhoneUserAgent
        /// The iOS payment url sends the phone to an `http://` back-link page (302), leaving HTTPS.
        case httpBackLink
        /// apple-app-site-association is right, but served as text/html.
        case aasaAsHTML
        var description: String { rawValue }
    }

    static let mount = "/swedbank-pay-mobile/"
    static let publicOrigin = "https://shop.example.com"
    static let publicAuthority = "shop.example.com"
    static let languages = ["sv-SE", "nb-NO", "da-DK", "en-US", "fi-FI"]
    /// The app's signing certificate (what assetlinks.json must list), and another one.
    static let appCertificate = Array(repeating: "AB", count: 32).joined(separator: ":")
    static let otherCertificate = Array(repeating: "CD", count: 32).joined(separator: ":")

    struct Query {
        var pieces: [(name: String, raw: Substring)] = []
        var items: [(String, String)] = []
        func get(_ n: String) -> String? { items.first { $0.0 == n }?.1 }
        var hasControl: Bool { items.contains { PercentEncoding.containsControl($0.1) } }
    }

    static func split(_ target: String) -> (path: String, query: Query?) {
        let parts = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        var q = Query()
        if parts.count == 2 {
            for piece in parts[1].split(separator: "&") {
                let (n, v) = PercentEncoding.splitQueryItem(piece)
                guard let name = PercentEncoding.decodeComponent(n), let value = PercentEncoding.decodeComponent(v) else {
                    return (String(parts[0]), nil)
                }
                q.pieces.append((name, piece))
                q.items.append((name, value))
            }
        }
        return (String(parts[0]), q)
    }

    /// Bytes a URI may not carry literally, percent-encoded (existing escapes kept).
    static func canon(_ s: String) -> String {
        PercentEncoding.encode(s) { PercentEncoding.isPathOrQueryChar($0) || $0 == UInt8(ascii: "%") }
    }

    static func enc(_ s: String) -> String { PercentEncoding.encodeComponent(s) }
    static func esc(_ s: String) -> String { HTMLEscaping.escape(s) }

    static func page(_ html: String) -> Response {
        Response(
            status: .ok, headers: [.contentType: "text/html; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(string: html)))
    }

    static func problem(_ detail: String, status: HTTPResponse.Status = .badRequest) -> Response {
        let json =
            "{\"type\":\"https://api.payex.com/psp/errordetail/mobilesdk/badrequest\",\"title\":\"Bad Request\",\"status\":\(status.code),\"detail\":\"\(detail)\"}"
        return Response(
            status: status, headers: [.contentType: "application/problem+json"], body: .init(byteBuffer: ByteBuffer(string: json))
        )
    }

    static func redirect(_ location: String, status: HTTPResponse.Status = .found) -> Response {
        Response(status: status, headers: [.location: location, .cacheControl: "no-store"])
    }

    static func makeApplication(_ v: Variant) -> some ApplicationProtocol {
        let router = Router()
        let lenient = v == .lenientButSafe

        router.get("\(mount)sdk-callback/android-intent") { request, _ -> Response in
            let target = request.head.path ?? "/"
            if v == .brokenForAndroidUserAgent, request.headers[.userAgent]?.contains("Android") == true {
                return page("<!DOCTYPE html><html><head><title>Payment</title></head><body><p>Open the app.</p></body></html>")
            }
            guard let q = split(target).query else { return problem("malformed query") }
            if q.hasControl && !lenient { return problem("control character") }
            guard let package = q.get("package"), !package.isEmpty else { return problem("package is required") }
            let sloppy = lenient || v == .rawPackageEcho || v == .rawPackageInIntent
            if !sloppy && !HelperValidation.isAndroidPackage(package) { return problem("package is not a package name") }
            let intent =
                "intent://\(publicAuthority)\(canon(target))#Intent;scheme=https;action=\(HelperEndpoints.intentAction);package=\(v == .rawPackageInIntent ? package : enc(package));end;"
            if v == .android301 { return redirect(intent, status: .movedPermanently) }
            var body =
                "<!DOCTYPE html><html><head><meta http-equiv=\"refresh\" content=\"0;url=\(esc(intent))\"><title>Payment</title></head><body>"
            if v == .rawPackageEcho {
                body += "<p>Returning to \(package)</p>"
            } else {
                body += "<p>Returning to \(esc(package))</p>"
            }
            if v == .unescapedAttribute {
                body += "<a href=\"\(esc(intent))\" title=\"payment \(q.get("id") ?? "")\">Back to app</a>"
            } else {
                body += "<a href=\"\(esc(intent))\" title=\"payment \(esc(q.get("id") ?? ""))\">Back to app</a>"
            }
            if v == .scriptStringID {
                let id = (q.get("id") ?? "").replacingOccurrences(of: "<", with: "\\x3c")
                body += "<script>var paymentId = '\(id)'; console.log(paymentId);</script>"
            }
            return page(body + "</body></html>")
        }

        router.get("\(mount)sdk-callback/ios-universal-link") { request, _ -> Response in
            let target = request.head.path ?? "/"
            if v == .brokenForIPhoneUserAgent, request.headers[.userAgent]?.contains("iPhone") == true {
                return Response(
                    status: .internalServerError, headers: [.contentType: "text/html"],
                    body: .init(byteBuffer: ByteBuffer(string: "<h1>Internal Server Error</h1>")))
            }
            let (path, query) = split(target)
            guard let q = query else { return problem("malformed query") }
            if q.hasControl && !lenient { return problem("control character") }
            guard let scheme = q.get("scheme"), !scheme.isEmpty, lenient || HelperValidation.isAppScheme(scheme) else {
                return problem("scheme is missing or not an app scheme")
            }
            guard let language = q.get("language"), lenient || v == .rawLanguageInLocation || languages.contains(language) else {
                return problem("language is not supported")
            }
            let authority = v == .locationFromHost ? (request.head.authority ?? "unknown") : publicAuthority
            let origin = v == .locationFromHost ? "http://\(authority)" : publicOrigin
            switch q.get("fallback") {
            case "true":
                return redirect("\(scheme.lowercased())://\(authority)\(canon(target))")
            case nil, "false":
                let pieces = q.pieces.filter { $0.name != "fallback" }.map { canon(String($0.raw)) } + ["fallback=true"]
                let backOrigin = v == .backLinkTargetFromHost ? "https://\(request.head.authority ?? "unknown")" : origin
                let back = "\(backOrigin)\(canon(path))?\(pieces.joined(separator: "&"))"
                let lang = v == .rawLanguageInLocation ? language : enc(language)
                var location = "\(publicOrigin)\(mount)sdk-callback/trampoline?target=\(enc(back))&language=\(lang)"
                if let app = q.get("app") { location += "&app=\(enc(app))" }
                if v == .correctRelativeLocation { location = String(location.dropFirst(publicOrigin.count)) }
                if v == .httpBackLink { location = "http://" + location.dropFirst("https://".count) }
                return redirect(location)
            default:
                return problem("fallback must be true or false")
            }
        }

        router.get("\(mount)sdk-callback/trampoline") { request, _ -> Response in
            guard let q = split(request.head.path ?? "/").query else { return problem("malformed query") }
            if q.hasControl && !lenient { return problem("control character") }
            guard let target = q.get("target") else { return problem("target is required") }
            let own =
                target.hasPrefix(publicOrigin + mount)
                && target.utf8.allSatisfy { PercentEncoding.isPathOrQueryChar($0) || $0 == UInt8(ascii: "%") }
            let anyWeb = target.hasPrefix("https://") || target.hasPrefix("http://")
            let sloppyTarget =
                (v == .unescapedTrampolineHref || v == .unquotedTrampolineHref) && target.hasPrefix(publicOrigin + mount)
            let prefixChecked = v == .prefixCheckedTrampoline && target.hasPrefix(publicOrigin)
            guard own || sloppyTarget || prefixChecked || (v == .openRedirectTrampoline && anyWeb) else {
                return problem("target is not on this backend")
            }
            guard let language = q.get("language"), lenient || v == .unescapedTrampolineLang || languages.contains(language)
            else { return problem("language is not supported") }
            let href = v == .unescapedTrampolineHref ? target : esc(target)
            let lang = v == .unescapedTrampolineLang ? language : esc(language)
            let label = "Back to " + (q.get("app") ?? "the app")
            let anchor = v == .unquotedTrampolineHref ? "<a href=\(href)>" : "<a href=\"\(href)\">"
            return page(
                "<!DOCTYPE html><html lang=\"\(lang)\"><head><title>Back</title></head><body><p>\(anchor)\(esc(label))</a></p></body></html>"
            )
        }

        router.get("/.well-known/apple-app-site-association") { _, _ -> Response in
            let claimed = v == .aasaNotUnderMount ? "/sdk-callback/*" : "\(mount)sdk-callback/ios-universal-link"
            let json =
                #"{"applinks":{"apps":[],"details":[{"appIDs":["ABCDE12345.com.example.shop"],"components":[{"/":"\#(claimed)"}]}]}}"#
            let type = v == .aasaAsHTML ? "text/html; charset=utf-8" : "application/json"
            return Response(status: .ok, headers: [.contentType: type], body: .init(byteBuffer: ByteBuffer(string: json)))
        }
        if v != .missingAssetLinks {
            router.get("/.well-known/assetlinks.json") { _, _ -> Response in
                let fp = v == .wrongCertFingerprint ? otherCertificate : appCertificate
                let json =
                    #"[{"relation":["delegate_permission/common.handle_all_urls"],"target":{"namespace":"android_app","package_name":"com.example.shop","sha256_cert_fingerprints":["\#(fp)"]}}]"#
                return Response(
                    status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: json)))
            }
        }
        return Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
    }

    /// The check that must FAIL for each planted defect (nil: no FAIL at all).
    static func plantedFailure(_ v: Variant) -> String? {
        switch v {
        case .correct, .lenientButSafe, .correctRelativeLocation: nil
        case .rawPackageEcho, .rawPackageInIntent: "android-intent injection package"
        case .unescapedAttribute: "android-intent injection id"
        case .locationFromHost, .backLinkTargetFromHost: "ios-universal-link ignores Host"
        case .openRedirectTrampoline: "back-link page open redirect"
        case .rawLanguageInLocation: "ios-universal-link injection language"
        case .unescapedTrampolineHref: "back-link page injection target"
        case .unescapedTrampolineLang: "back-link page injection language"
        case .android301: "android-intent page"
        case .aasaNotUnderMount: "apple-app-site-association"
        case .missingAssetLinks, .wrongCertFingerprint: "assetlinks.json"
        case .prefixCheckedTrampoline: "back-link page open redirect"
        case .unquotedTrampolineHref: "back-link page injection target"
        case .scriptStringID: "android-intent injection id"
        case .brokenForAndroidUserAgent: "android-intent page"
        case .brokenForIPhoneUserAgent, .httpBackLink: "ios-universal-link redirect"
        case .aasaAsHTML: "apple-app-site-association"
        }
    }
}
