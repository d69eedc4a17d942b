// The payment-url helper endpoints of Swedbank Pay's Merchant Backend documentation as a pure function: request (method + raw request target)
// → status, headers, body. No server types, no I/O; the HTTP server is a thin adapter around `respond(to:)`.
import NavigationPolicy
import PlainviewURL

/// One HTTP request as the helpers see it: the method and the raw request-target (`/path?query`, origin form).
public struct HelperRequest: Sendable, Equatable {
    public var method: String
    public var target: String
    public init(method: String = "GET", target: String) {
        self.method = method
        self.target = target
    }
}

public struct HelperHeader: Sendable, Equatable {
    public var name: String
    public var value: String
    public init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }
}

public struct HelperResponse: Sendable, Equatable {
    public var status: Int
    public var headers: [HelperHeader]
    public var body: String

    public init(status: Int, headers: [HelperHeader], body: String) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The first value of a header (case-insensitive name).
    public func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }
}

/// An RFC 7807 problem. Validation errors use the seed's merchant-backend type
/// `https://api.payex.com/psp/errordetail/mobilesdk/badrequest`; 404/405/414 carry no semantics beyond the
/// status code, which RFC 7807 spells `about:blank` with the status phrase as title.
public struct HelperProblem: Error, Sendable, Equatable {
    public var type: String
    public var title: String
    public var status: Int
    public var detail: String
    /// The query parameter at fault, if any (an extension member).
    public var parameter: String?

    public init(type: String, title: String, status: Int, detail: String, parameter: String? = nil) {
        self.type = type
        self.title = title
        self.status = status
        self.detail = detail
        self.parameter = parameter
    }

    public static let badRequestType = "https://api.payex.com/psp/errordetail/mobilesdk/badrequest"

    public static func badRequest(_ detail: String, parameter: String? = nil) -> HelperProblem {
        HelperProblem(type: badRequestType, title: "Bad Request", status: 400, detail: detail, parameter: parameter)
    }
}

public struct HelperEndpoints: Sendable {
    public let configuration: HelperEndpointsConfiguration

    /// Longest request-target served (bytes); longer → 414. Payment urls are short; this bounds all work.
    public static let maxTargetLength = 4096
    /// Longest `app` display name (characters).
    public static let maxAppNameLength = 100

    /// Paths relative to `root`.
    public static let androidPath = "sdk-callback/android-intent"
    public static let iosPath = "sdk-callback/ios-universal-link"
    public static let trampolinePath = "sdk-callback/trampoline"
    public static let aasaPath = "/.well-known/apple-app-site-association"
    public static let assetLinksPath = "/.well-known/assetlinks.json"

    /// The Android intent action the SDK's intent filter listens for (Swedbank Pay's Merchant Backend documentation).
    public static let intentAction = "com.swedbankpay.mobilesdk.VIEW_PAYMENTORDER"

    /// Status of both iOS redirects. 302, not the seed's 301: the redirect is not a permanent move (it depends
    /// on `fallback`, and where the back-link page lives is configuration that may change), and browsers cache
    /// a 301 with no expiry, so a device would keep replaying a stale Location. Safari follows 302 exactly like
    /// 301 for a GET navigation, and the seed itself notes 302 is the more appropriate status. `Cache-Control:
    /// no-store` is sent as well.
    public static let redirectStatus = 302

    public init(configuration: HelperEndpointsConfiguration) {
        self.configuration = configuration
    }

    public var androidURLPath: String { configuration.root + Self.androidPath }
    public var iosURLPath: String { configuration.root + Self.iosPath }
    public var trampolineURLPath: String { configuration.root + Self.trampolinePath }

    /// True when this request-target is one of the helper paths (used by the server to route Pages around them).
    public func handles(target: String) -> Bool {
        let path = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? target
        return [androidURLPath, iosURLPath, trampolineURLPath, Self.aasaPath, Self.assetLinksPath].contains(path)
    }

    public func respond(to request: HelperRequest) -> HelperResponse {
        var response: HelperResponse
        do {
            response = try route(request)
        } catch {
            response = Self.problemResponse(error)
        }
        if request.method == "HEAD" { response.body = "" }
        return response
    }

    // MARK: - Routing

    private enum Endpoint { case android, ios, trampoline, aasa, assetLinks }

    private func route(_ request: HelperRequest) throws(HelperProblem) -> HelperResponse {
        let target = request.target
        guard target.utf8.count <= Self.maxTargetLength else {
            throw HelperProblem(
                type: "about:blank", title: "URI Too Long", status: 414,
                detail: "The request URL is longer than \(Self.maxTargetLength) bytes.")
        }
        let parsed = try ParsedTarget.parse(target)
        let endpoint: Endpoint
        switch parsed.path {
        case androidURLPath: endpoint = .android
        case iosURLPath: endpoint = .ios
        case trampolineURLPath: endpoint = .trampoline
        case Self.aasaPath: endpoint = .aasa
        case Self.assetLinksPath: endpoint = .assetLinks
        default:
            throw HelperProblem(
                type: "about:blank", title: "Not Found", status: 404, detail: "There is no helper endpoint at this path.")
        }
        guard request.method == "GET" || request.method == "HEAD" else {
            throw HelperProblem(
                type: "about:blank", title: "Method Not Allowed", status: 405, detail: "Only GET and HEAD are served here.")
        }
        switch endpoint {
        case .android: return try android(parsed)
        case .ios: return try ios(parsed)
        case .trampoline: return try trampoline(parsed)
        case .aasa:
            return Self.document(
                "application/json",
                HelperDocuments.appleAppSiteAssociation(appIDs: configuration.appIDs, universalLinkPath: iosURLPath))
        case .assetLinks:
            return Self.document(
                "application/json",
                HelperDocuments.assetLinks(
                    package: configuration.androidPackage, fingerprints: configuration.sha256CertFingerprints))
        }
    }

    // MARK: - Endpoints

    private func android(_ t: ParsedTarget) throws(HelperProblem) -> HelperResponse {
        let package = try t.required("package", "the Android package name to return to, e.g. com.example.app")
        guard HelperValidation.isAndroidPackage(package) else {
            throw .badRequest(
                "Query parameter 'package' must be an Android package name: two or more dot-separated segments, each starting with a letter and holding only letters, digits and '_' (e.g. com.example.app).",
                parameter: "package")
        }
        let origin = configuration.publicOrigin
        let intentURL = Self.androidReturnIntent(
            scheme: origin.scheme, authority: origin.authority, pathAndQuery: t.rawPathAndQuery, package: package)
        return Self.document("text/html; charset=utf-8", HelperDocuments.androidPage(intentURL: intentURL), html: true)
    }

    /// The `intent:` URL the Android helper's page sends the browser to, for a request to
    /// `scheme://authority` + `pathAndQuery`: its data is exactly the request URL (`intent://` + authority + raw
    /// path and query, the real scheme restored from `scheme=`, as Android's `Intent.parseUri` reads it), with
    /// Swedbank Pay's action and the app's package.
    public static func androidReturnIntent(scheme: String, authority: String, pathAndQuery: String, package: String) -> String {
        "intent://\(authority)\(pathAndQuery)#Intent;scheme=\(scheme);action=\(intentAction);package=\(package);end;"
    }

    private func ios(_ t: ParsedTarget) throws(HelperProblem) -> HelperResponse {
        let scheme = try t.required("scheme", "the app's custom URL scheme for payment urls")
        guard HelperValidation.isAppScheme(scheme) else {
            throw .badRequest(
                "Query parameter 'scheme' must be an RFC 3986 scheme (a letter, then letters, digits, '+', '-' or '.'; at most 64) and not a scheme the browser handles itself (http, https, javascript, data, file, intent …).",
                parameter: "scheme")
        }
        if let own = configuration.appSchemes, !own.contains(scheme.lowercased()) {
            let named =
                own.isEmpty
                ? "this server is configured with no app scheme, so it redirects to none"
                : "this server redirects only to the app's own: \(own.joined(separator: ", "))"
            throw .badRequest("Query parameter 'scheme' is not the app's scheme: \(named).", parameter: "scheme")
        }
        if configuration.appSchemes == nil, SchemeKind.platformOwnedSchemes.contains(scheme.lowercased()) {
            // Without the app's own schemes, still never send the merchant's domain to the OS's own apps
            // (`itms-services:` installs an app, `facetime:` places a call).
            throw .badRequest(
                "Query parameter 'scheme' names '\(scheme.lowercased())', which belongs to the OS or one of its own apps, never to a merchant's app.",
                parameter: "scheme")
        }
        let language = try t.language()
        let app = try t.app()
        let fallback: Bool
        switch try t.optional("fallback") {
        case nil, "false": fallback = false
        case "true": fallback = true
        case _?: throw .badRequest("Query parameter 'fallback' must be 'true' or 'false'.", parameter: "fallback")
        }
        let origin = configuration.publicOrigin
        if fallback {
            // Case 2b: the same URL with the app's custom scheme.
            return Self.redirect(to: "\(scheme.lowercased())://\(origin.authority)\(t.rawPathAndQuery)")
        }
        // Case 2: to the back-link page, whose link is this URL plus fallback=true (an existing fallback=false
        // is dropped so the link carries one unambiguous value).
        var query = t.rawQueryItems.filter { $0.name != "fallback" }.map(\.piece)
        query.append("fallback=true")
        let target = "\(origin)\(t.path)?\(query.joined(separator: "&"))"
        var location =
            "\(configuration.trampolineOrigin)\(trampolineURLPath)?target=\(PercentEncoding.encodeComponent(target))&language=\(language.rawValue)"
        if let app { location += "&app=\(PercentEncoding.encodeComponent(app))" }
        return Self.redirect(to: location)
    }

    private func trampoline(_ t: ParsedTarget) throws(HelperProblem) -> HelperResponse {
        let target = try t.required("target", "the payment url to link back to")
        guard isOwnURL(target) else {
            throw .badRequest(
                "Query parameter 'target' must be an http(s) URL on this server's public base \(configuration.publicOrigin)\(configuration.root) without userinfo or fragment; the back-link page links nowhere else.",
                parameter: "target")
        }
        let language = try t.language()
        let app = try t.app()
        var response = Self.document(
            "text/html; charset=utf-8",
            HelperDocuments.trampolinePage(target: target, language: language, app: app), html: true)
        response.headers.append(HelperHeader("Content-Language", language.rawValue))
        return response
    }

    /// `target` is an absolute URL on the public origin, under the root, made only of RFC 3986 characters, with no dot
    /// segment, backslash or `;` in its path.
    func isOwnURL(_ url: String) -> Bool {
        let origin = configuration.publicOrigin
        let prefix = "\(origin)\(configuration.root)"
        guard url.utf8.count <= Self.maxTargetLength,
            url.utf8.allSatisfy({ PercentEncoding.isPathOrQueryChar($0) || $0 == UInt8(ascii: "%") }),
            url.lowercased().hasPrefix(prefix.lowercased())
        else { return false }
        // Exact origin (the prefix comparison already pins scheme, host and port because the root starts
        // with "/"); the remainder must decode cleanly and hold no dot-segments that could climb out of root.
        let rest = url.dropFirst(prefix.count)
        let pathPart = rest.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        guard let decodedPath = PercentEncoding.decodeComponent(pathPart), !PercentEncoding.containsControl(decodedPath) else {
            return false
        }
        let segments = decodedPath.split(separator: "/", omittingEmptySubsequences: false)
        // No dot segments, no backslash, and no `;` (a path parameter: servers such as Tomcat read `..;` as `..`).
        guard !segments.contains(where: { $0 == ".." || $0 == "." }), !decodedPath.contains("\\"), !decodedPath.contains(";")
        else { return false }
        if let q = rest.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).dropFirst().first {
            guard let decoded = PercentEncoding.decodeComponent(q), !PercentEncoding.containsControl(decoded) else {
                return false
            }
        }
        return true
    }

    // MARK: - Response builders

    static let commonHeaders = [
        HelperHeader("X-Content-Type-Options", "nosniff"),
        HelperHeader("Referrer-Policy", "no-referrer"),
    ]

    static func document(_ contentType: String, _ body: String, html: Bool = false) -> HelperResponse {
        var headers = [HelperHeader("Content-Type", contentType)] + commonHeaders
        if html {
            // Pages carry no script; forbid any, and framing.
            headers.append(
                HelperHeader(
                    "Content-Security-Policy",
                    "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"))
            headers.append(HelperHeader("Cache-Control", "no-store"))
        }
        return HelperResponse(status: 200, headers: headers, body: body)
    }

    static func redirect(to location: String) -> HelperResponse {
        HelperResponse(
            status: redirectStatus,
            headers: [HelperHeader("Location", location), HelperHeader("Cache-Control", "no-store")] + commonHeaders,
            body: "")
    }

    public static func problemResponse(_ p: HelperProblem) -> HelperResponse {
        var headers = [HelperHeader("Content-Type", "application/problem+json")] + commonHeaders
        headers.append(HelperHeader("Cache-Control", "no-store"))
        if p.status == 405 { headers.append(HelperHeader("Allow", "GET, HEAD")) }
        return HelperResponse(status: p.status, headers: headers, body: HelperDocuments.problem(p))
    }
}

/// A request-target split and checked: the path must be absolute; the query's items decode cleanly; no
/// control character (CR/LF …) anywhere, raw or percent-encoded.
struct ParsedTarget {
    var path: String
    /// The request's path and query as a URI string: the target, with any byte RFC 3986 does not allow
    /// literally (which some browsers send raw in queries, e.g. `{`, `|`, `^`) percent-encoded.
    var rawPathAndQuery: String
    /// Each query piece as sent (`name=value`, still encoded) with its decoded name.
    var rawQueryItems: [(name: String, piece: String)]
    var items: [(name: String, value: String)]

    static func parse(_ target: String) throws(HelperProblem) -> ParsedTarget {
        guard target.hasPrefix("/") else {
            throw .badRequest("The request target must be an absolute path (origin form).")
        }
        if PercentEncoding.containsControl(target) || target.contains("#") {
            throw .badRequest("The request URL contains a control character or a raw '#'.")
        }
        let uri = canonicalURI(target)
        let parts = uri.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        let rawPath = parts.first.map(String.init) ?? ""
        guard let path = PercentEncoding.decodeComponent(rawPath), !PercentEncoding.containsControl(path) else {
            throw .badRequest("The request path has a malformed percent-escape or an encoded control character.")
        }
        var raw: [(name: String, piece: String)] = []
        var items: [(name: String, value: String)] = []
        if parts.count == 2 {
            for piece in parts[1].split(separator: "&", omittingEmptySubsequences: true) {
                let (n, v) = PercentEncoding.splitQueryItem(piece)
                guard let name = PercentEncoding.decodeComponent(n), let value = PercentEncoding.decodeComponent(v) else {
                    throw .badRequest("A query parameter has a malformed percent-escape or is not UTF-8.")
                }
                guard !PercentEncoding.containsControl(name), !PercentEncoding.containsControl(value) else {
                    throw .badRequest(
                        "A query parameter contains a control character (CR, LF, NUL …).",
                        parameter: PercentEncoding.containsControl(name) ? nil : name)
                }
                raw.append((name, String(piece)))
                items.append((name, value))
            }
        }
        return ParsedTarget(path: rawPath, rawPathAndQuery: uri, rawQueryItems: raw, items: items)
    }

    /// Percent-encodes bytes RFC 3986 does not allow literally; leaves existing escapes alone.
    static func canonicalURI(_ target: String) -> String {
        PercentEncoding.encode(target, keeping: { PercentEncoding.isPathOrQueryChar($0) || $0 == UInt8(ascii: "%") })
    }

    /// The single decoded value of `name`, or nil when absent; given twice → a problem (ambiguous).
    func optional(_ name: String) throws(HelperProblem) -> String? {
        let values = items.filter { $0.name == name }
        if values.count > 1 {
            throw .badRequest("Query parameter '\(name)' is given \(values.count) times; give it once.", parameter: name)
        }
        return values.first?.value
    }

    func required(_ name: String, _ what: String) throws(HelperProblem) -> String {
        guard let value = try optional(name), !value.isEmpty else {
            throw .badRequest("Query parameter '\(name)' is required: \(what).", parameter: name)
        }
        return value
    }

    func language() throws(HelperProblem) -> HelperLanguage {
        let allowed = HelperLanguage.allCases.map(\.rawValue).joined(separator: ", ")
        guard let language = HelperLanguage(tag: try required("language", "one of \(allowed)")) else {
            throw .badRequest("Query parameter 'language' must be one of \(allowed).", parameter: "language")
        }
        return language
    }

    func app() throws(HelperProblem) -> String? {
        guard let app = try optional("app"), !app.isEmpty else { return nil }
        guard app.count <= HelperEndpoints.maxAppNameLength else {
            throw .badRequest(
                "Query parameter 'app' is longer than \(HelperEndpoints.maxAppNameLength) characters.", parameter: "app")
        }
        return app
    }
}
