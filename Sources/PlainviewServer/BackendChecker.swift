// `plainview check-backend URL`: probes a running backend's payment-url helper endpoints over real HTTP, as a
// device would walk them, and reports one pass/fail/warn line per check. Redirects are never followed
// automatically; only URLs under the given base (and the origin's /.well-known/ files) are fetched.
import PlainviewURL
import PaymentURLHelpers
import AsyncHTTPClient
import Foundation
import NavigationPolicy
import PageScan
import NIOCore
import NIOHTTP1

public struct BackendCheckOptions: Sendable {
    /// The backend's root endpoint, e.g. `https://shop.example.com/swedbank-pay-mobile/`.
    public var baseURL: String
    /// Package sent to the Android helper.
    public var package = "com.example.plainview"
    /// Custom scheme sent to the iOS helper.
    public var scheme = "plainviewcheck"
    public var language = "en-US"
    public var appName = "Plainview Check"
    /// When given, the AASA must list this app id.
    public var expectedAppID: String?
    /// When given, assetlinks.json must delegate to this package.
    public var expectedAndroidPackage: String?
    public var timeoutSeconds: Int64 = 10

    public init(baseURL: String) { self.baseURL = baseURL }
}

public struct BackendCheckResult: Sendable, Equatable, CustomStringConvertible {
    public enum Outcome: String, Sendable { case pass = "PASS", fail = "FAIL", warn = "WARN" }
    public var check: String
    public var outcome: Outcome
    public var detail: String
    public var description: String { "\(outcome.rawValue) \(check): \(detail)" }
}

/// The base URL given to the checker was not usable.
public struct BackendCheckError: Error, Sendable, CustomStringConvertible {
    public var description: String
}

public struct BackendChecker: Sendable {
    let origin: PublicOrigin
    let basePath: String
    let options: BackendCheckOptions
    static let maxBody = 1 << 20
    static let id = "plainview-check-0001"

    public init(options: BackendCheckOptions) throws {
        var text = options.baseURL
        guard !text.contains("?"), !text.contains("#") else {
            throw BackendCheckError(description: "the base URL must not have a query or fragment: '\(text)'")
        }
        if !text.hasSuffix("/") { text += "/" }
        let afterScheme = text.range(of: "://").map { text[$0.upperBound...] } ?? ""
        let slash = afterScheme.firstIndex(of: "/") ?? afterScheme.endIndex
        guard let origin = PublicOrigin(String(text[text.startIndex..<slash])) else {
            throw BackendCheckError(description: "expected an http(s) base URL like https://shop.example.com/swedbank-pay-mobile/, got '\(options.baseURL)'")
        }
        let path = String(afterScheme[slash...])
        guard path.utf8.allSatisfy({ PercentEncoding.isPathOrQueryChar($0) || $0 == UInt8(ascii: "%") }), !path.contains("?") else {
            throw BackendCheckError(description: "the base URL path has characters that need percent-encoding: '\(path)'")
        }
        self.origin = origin
        self.basePath = path
        self.options = options
    }

    var base: String { "\(origin)\(basePath)" }

    // MARK: - Running

    /// Runs every check; never throws for a misbehaving backend (that is a FAIL line).
    public func run() async -> [BackendCheckResult] {
        var config = HTTPClient.Configuration(redirectConfiguration: .disallow)
        config.timeout = .init(connect: .seconds(options.timeoutSeconds), read: .seconds(options.timeoutSeconds))
        config.decompression = .disabled
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: config)
        var report = Report()
        await runChecks(client: client, report: &report)
        try? await client.shutdown()
        return report.results
    }

    struct Report {
        var results: [BackendCheckResult] = []
        mutating func pass(_ c: String, _ d: String) { results.append(.init(check: c, outcome: .pass, detail: d)) }
        mutating func fail(_ c: String, _ d: String) { results.append(.init(check: c, outcome: .fail, detail: d)) }
        mutating func warn(_ c: String, _ d: String) { results.append(.init(check: c, outcome: .warn, detail: d)) }
    }

    struct Fetched {
        var status: Int
        var headers: HTTPHeaders
        var body: String
        func header(_ n: String) -> String? { headers.first(name: n) }
        var contentType: String { (header("content-type") ?? "").lowercased() }
    }

    /// True when `url` may be fetched: under the base, or one of the origin's two well-known files.
    func mayFetch(_ url: String) -> Bool {
        url.hasPrefix(base) || url == "\(origin)\(HelperEndpoints.aasaPath)" || url == "\(origin)\(HelperEndpoints.assetLinksPath)"
    }

    func fetch(_ client: HTTPClient, _ url: String, host: String? = nil) async -> Result<Fetched, BackendCheckError> {
        guard mayFetch(url) else { return .failure(BackendCheckError(description: "not under the base URL, not fetched: \(url)")) }
        var request = HTTPClientRequest(url: url)
        request.method = .GET
        request.headers.add(name: "User-Agent", value: "plainview-check-backend")
        if let host { request.headers.replaceOrAdd(name: "Host", value: host) }
        do {
            let response = try await client.execute(request, timeout: .seconds(options.timeoutSeconds))
            let body = try await response.body.collect(upTo: Self.maxBody)
            return .success(Fetched(status: Int(response.status.code), headers: response.headers,
                                    body: String(decoding: body.readableBytesView, as: UTF8.self)))
        } catch {
            return .failure(BackendCheckError(description: "GET \(url) failed: \(error)"))
        }
    }

    func runChecks(client: HTTPClient, report: inout Report) async {
        // One probe first: an unreachable backend is one failure, not a timeout per check.
        if case .failure(let e) = await fetch(client, base) {
            report.fail("reachable", e.description)
            return
        }
        await checkAndroid(client, &report)
        await checkIOS(client, &report)
        await checkProblems(client, &report)
        await checkAASA(client, &report)
        await checkAssetLinks(client, &report)
    }

    // MARK: - Android

    func checkAndroid(_ client: HTTPClient, _ report: inout Report) async {
        let name = "android-intent page"
        let query = "package=\(options.package)&id=\(Self.id)"
        let url = "\(base)\(HelperEndpoints.androidPath)?\(query)"
        switch await fetch(client, url) {
        case .failure(let e): report.fail(name, e.description)
        case .success(let r):
            guard r.status == 200 else { report.fail(name, "expected 200, got \(r.status) \(r.contentType)"); break }
            if !r.contentType.hasPrefix("text/html") { report.fail(name, "expected Content-Type text/html, got '\(r.contentType)'"); break }
            let expectedData = "\(origin.authority)\(basePath)\(HelperEndpoints.androidPath)?\(query)"
            let page = Self.scan(r.body, at: url)
            let refresh = page.refresh.map { [$0.url] } ?? []
            let links = page.links.map(\.url)
            let refreshOK = refresh.contains { Self.isIntent($0, data: expectedData, scheme: origin.scheme, package: options.package) }
            let linkOK = links.contains { Self.isIntent($0, data: expectedData, scheme: origin.scheme, package: options.package) }
            if refreshOK && linkOK {
                report.pass(name, "meta refresh and link open intent://\(expectedData) in \(options.package)")
            } else {
                report.fail(name, "expected a 0 s meta refresh and a link to intent://\(expectedData)#Intent;scheme=\(origin.scheme);action=\(HelperEndpoints.intentAction);package=\(options.package);end; (refresh: \(refreshOK ? "ok" : "missing/wrong"), link: \(linkOK ? "ok" : "missing/wrong"))")
            }
        }

        let escName = "android-intent escaping"
        let payload = "%22%3E%3Cscript%3Ealert(1)%3C%2Fscript%3E"
        switch await fetch(client, "\(base)\(HelperEndpoints.androidPath)?package=\(options.package)&x=\(payload)") {
        case .failure(let e): report.fail(escName, e.description)
        case .success(let r):
            if r.body.contains("<script>alert(1)</script>") || r.body.contains("\"><script") {
                report.fail(escName, "a query value is echoed into the page unescaped (HTML/script injection)")
            } else {
                report.pass(escName, "echoed query values are escaped")
            }
        }

        let hostName = "android-intent ignores Host"
        switch await fetch(client, url, host: "evil.example") {
        case .failure(let e): report.fail(hostName, e.description)
        case .success(let r):
            if r.body.lowercased().contains("evil.example") {
                report.fail(hostName, "the intent URL is built from the request's Host header (a forged Host reaches the app)")
            } else {
                report.pass(hostName, "generated URLs do not follow a forged Host header")
            }
        }
    }

    /// `intent://DATA#Intent;…;end;` with scheme, the SDK action and the package, in any order.
    static func isIntent(_ url: String, data: String, scheme: String, package: String) -> Bool {
        guard let hash = url.range(of: "#Intent;") else { return false }
        guard url[..<hash.lowerBound] == "intent://\(data)" else { return false }
        let extras = url[hash.upperBound...]
        guard extras.hasSuffix("end;") || extras.hasSuffix("end") else { return false }
        let items = Set(extras.split(separator: ";").map(String.init))
        return items.contains("scheme=\(scheme)") && items.contains("action=\(HelperEndpoints.intentAction)")
            && items.contains("package=\(package)")
    }

    // MARK: - iOS

    func checkIOS(_ client: HTTPClient, _ report: inout Report) async {
        let query = "scheme=\(options.scheme)&language=\(options.language)&id=\(Self.id)&app=\(PercentEncoding.encodeComponent(options.appName))"
        let paymentURL = "\(base)\(HelperEndpoints.iosPath)?\(query)"
        let fallbackURL = paymentURL + "&fallback=true"

        let name = "ios-universal-link redirect"
        switch await fetch(client, paymentURL) {
        case .failure(let e): report.fail(name, e.description)
        case .success(let r):
            guard [301, 302, 303, 307, 308].contains(r.status), let location = r.header("location") else {
                report.fail(name, "expected a redirect to the back-link page, got \(r.status) \(r.contentType)")
                break
            }
            let (locBase, locQuery) = Self.splitURL(location)
            let target = locQuery.flatMap { Self.queryValue("target", in: $0) }
            if target.map({ Self.sameURLPlusFallback($0, paymentURL) }) != true {
                report.fail(name, "the back-link page's target must be the payment url plus fallback=true, got \(target ?? "no target")")
            } else if r.status == 301 {
                report.warn(name, "301 is cached by browsers without expiry; 302 is what the seed recommends (target ok)")
            } else {
                report.pass(name, "\(r.status) to the back-link page with target = payment url + fallback=true")
            }
            if mayFetch(location) {
                await checkTrampoline(client, location, expectedLink: fallbackURL, &report)
            } else {
                report.warn("back-link page", "on another host (\(locBase)): reported, not fetched")
            }
        }

        let fbName = "ios-universal-link fallback"
        switch await fetch(client, fallbackURL) {
        case .failure(let e): report.fail(fbName, e.description)
        case .success(let r):
            let expected = "\(options.scheme)://\(origin.authority)\(basePath)\(HelperEndpoints.iosPath)?\(query)&fallback=true"
            if [301, 302, 303, 307, 308].contains(r.status), r.header("location") == expected {
                report.pass(fbName, "\(r.status) to \(expected)")
            } else {
                report.fail(fbName, "expected a redirect to \(expected), got \(r.status) Location: \(r.header("location") ?? "none")")
            }
        }

        let hostName = "ios-universal-link ignores Host"
        switch await fetch(client, fallbackURL, host: "evil.example") {
        case .failure(let e): report.fail(hostName, e.description)
        case .success(let r):
            if (r.header("location") ?? "").lowercased().contains("evil.example") {
                report.fail(hostName, "the Location is built from the request's Host header")
            } else {
                report.pass(hostName, "the Location does not follow a forged Host header")
            }
        }
    }

    func checkTrampoline(_ client: HTTPClient, _ url: String, expectedLink: String, _ report: inout Report) async {
        let name = "back-link page"
        switch await fetch(client, url) {
        case .failure(let e): report.fail(name, e.description)
        case .success(let r):
            let links = Self.scan(r.body, at: url).links.map(\.url)
            if r.status == 200, r.contentType.hasPrefix("text/html"), links.contains(where: { Self.sameURLPlusFallback($0, String(expectedLink.dropLast("&fallback=true".count))) }) {
                report.pass(name, "links to the payment url + fallback=true")
            } else {
                report.fail(name, "expected 200 text/html with a link to \(expectedLink), got \(r.status) with \(links.count) link(s)")
            }
        }
        let openName = "back-link page open redirect"
        let (pageBase, _) = Self.splitURL(url)
        let evil = "\(pageBase)?target=\(PercentEncoding.encodeComponent("https://evil.example/"))&language=\(options.language)"
        switch await fetch(client, evil) {
        case .failure(let e): report.fail(openName, e.description)
        case .success(let r):
            if Self.scan(r.body, at: evil).links.map(\.url).contains(where: { $0.contains("evil.example") }) || (r.header("location") ?? "").contains("evil.example") {
                report.fail(openName, "links to a foreign target (open redirect)")
            } else if r.status == 400 && r.contentType.hasPrefix("application/problem+json") {
                report.pass(openName, "a foreign target is a 400 problem")
            } else {
                report.warn(openName, "a foreign target is not linked, but the answer is \(r.status) \(r.contentType), not a 400 problem")
            }
        }
    }

    /// `candidate` is `original` with `fallback=true` added (query items compared as a multiset).
    static func sameURLPlusFallback(_ candidate: String, _ original: String) -> Bool {
        let (cb, cq) = splitURL(candidate), (ob, oq) = splitURL(original)
        guard cb == ob else { return false }
        var want = (oq ?? "").split(separator: "&").map(String.init)
        want.append("fallback=true")
        return (cq ?? "").split(separator: "&").map(String.init).sorted() == want.sorted()
    }

    static func splitURL(_ url: String) -> (String, String?) {
        let parts = url.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        return (String(parts.first ?? ""), parts.count > 1 ? String(parts[1]) : nil)
    }

    static func queryValue(_ name: String, in query: String) -> String? {
        for piece in query.split(separator: "&") {
            let (n, v) = PercentEncoding.splitQueryItem(piece)
            if PercentEncoding.decodeComponent(n) == name { return PercentEncoding.decodeComponent(v) }
        }
        return nil
    }

    // MARK: - Problems

    func checkProblems(_ client: HTTPClient, _ report: inout Report) async {
        let a = "\(base)\(HelperEndpoints.androidPath)"
        let i = "\(base)\(HelperEndpoints.iosPath)"
        let cases: [(String, String, Int)] = [
            ("android-intent without package", "\(a)?id=1", 400),
            ("android-intent invalid package", "\(a)?package=not%20a%20package", 400),
            ("android-intent injected package", "\(a)?package=a.b%3Bend%3B%22%3E", 400),
            ("ios-universal-link without scheme", "\(i)?language=\(options.language)", 400),
            ("ios-universal-link invalid scheme", "\(i)?scheme=1%20bad&language=\(options.language)", 400),
            ("ios-universal-link https scheme", "\(i)?scheme=https&language=\(options.language)&fallback=true", 400),
            ("ios-universal-link invalid language", "\(i)?scheme=\(options.scheme)&language=xx%3Cb%3E", 400),
            ("ios-universal-link CR/LF", "\(i)?scheme=\(options.scheme)&language=\(options.language)&fallback=true&id=%0D%0ASet-Cookie:%20pv=1", 400),
            ("unknown path", "\(base)sdk-callback/plainview-no-such-endpoint", 404),
        ]
        for (name, url, status) in cases {
            switch await fetch(client, url) {
            case .failure(let e): report.fail(name, e.description)
            case .success(let r):
                if r.header("set-cookie")?.contains("pv=1") == true {
                    report.fail(name, "CR/LF in a parameter became a response header (header injection)")
                } else if r.status == status, r.contentType.hasPrefix("application/problem+json"), Self.isProblem(r.body, status: status) {
                    report.pass(name, "\(status) application/problem+json")
                } else if r.status == status && status == 404 {
                    report.warn(name, "404, but not an RFC 7807 problem (\(r.contentType))")
                } else {
                    report.fail(name, "expected \(status) application/problem+json (RFC 7807), got \(r.status) \(r.contentType)")
                }
            }
        }
    }

    static func isProblem(_ body: String, status: Int) -> Bool {
        guard let object = try? JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any] else { return false }
        guard let type = object["type"] as? String, !type.isEmpty, object["title"] is String else { return false }
        if let s = object["status"] as? Int, s != status { return false }
        return true
    }

    // MARK: - Well-known files

    func checkAASA(_ client: HTTPClient, _ report: inout Report) async {
        let name = "apple-app-site-association"
        let helperPath = "\(basePath)\(HelperEndpoints.iosPath)"
        switch await fetch(client, "\(origin)\(HelperEndpoints.aasaPath)") {
        case .failure(let e): report.fail(name, e.description)
        case .success(let r):
            guard r.status == 200 else { report.fail(name, "expected 200 (no redirect), got \(r.status)"); return }
            let aasa: AppSiteAssociation
            do {
                aasa = try AppSiteAssociation(json: r.body)
            } catch {
                report.fail(name, "not a valid apple-app-site-association: \(error)")
                return
            }
            if !r.contentType.hasPrefix("application/json") { report.warn(name, "Content-Type is '\(r.contentType)', Apple expects application/json") }
            if aasa.appIDs.isEmpty { report.warn(name, "declares no app (applinks.details is empty)"); return }
            // The same matcher the policy engine uses for universal links, asked about a real helper URL.
            let probe = "https://\(Self.aasaProbeHost)\(helperPath)?scheme=plainview&language=en-US&id=plainview-check-0001"
            let covering = aasa.appIDs.filter { aasa.verdict(appID: $0, url: probe) == .match }
            if covering.isEmpty {
                report.fail(name, "no details entry covers \(helperPath) (paths/components are not relative to where the helpers are mounted?)")
            } else if let want = options.expectedAppID, !covering.contains(want) {
                report.fail(name, "\(want) is not listed for \(helperPath) (listed: \(Set(aasa.appIDs).sorted().joined(separator: ", ")))")
            } else {
                report.pass(name, "\(helperPath) is claimed for \(Set(covering).sorted().joined(separator: ", "))")
            }
        }
    }

    /// AASA matching looks at path, query and fragment only; any https host stands in for the backend's.
    static let aasaProbeHost = "backend.invalid"

    func checkAssetLinks(_ client: HTTPClient, _ report: inout Report) async {
        let name = "assetlinks.json"
        switch await fetch(client, "\(origin)\(HelperEndpoints.assetLinksPath)") {
        case .failure(let e): report.fail(name, e.description)
        case .success(let r):
            guard r.status == 200 else { report.fail(name, "expected 200, got \(r.status) (missing assetlinks.json)"); return }
            guard let list = try? JSONSerialization.jsonObject(with: Data(r.body.utf8)) as? [[String: Any]] else {
                report.fail(name, "not a JSON array of statements")
                return
            }
            var packages: [String] = []
            for s in list {
                guard let relation = s["relation"] as? [String], let target = s["target"] as? [String: Any],
                      let ns = target["namespace"] as? String else {
                    report.fail(name, "a statement lacks relation/target.namespace")
                    return
                }
                guard ns == "android_app", relation.contains("delegate_permission/common.handle_all_urls") else { continue }
                guard let pkg = target["package_name"] as? String, HelperValidation.isAndroidPackage(pkg),
                      let fps = target["sha256_cert_fingerprints"] as? [String], !fps.isEmpty,
                      fps.allSatisfy({ HelperEndpointsConfiguration.normalizeFingerprint($0) == $0 }) else {
                    report.fail(name, "an android_app statement has a bad package_name or sha256_cert_fingerprints (expected AB:CD:… upper-case, 32 bytes)")
                    return
                }
                packages.append(pkg)
            }
            if packages.isEmpty {
                report.warn(name, "valid, but delegates no app (no handle_all_urls statement)")
            } else if let want = options.expectedAndroidPackage, !packages.contains(want) {
                report.fail(name, "\(want) is not delegated (found: \(packages.joined(separator: ", ")))")
            } else {
                report.pass(name, "delegates handle_all_urls to \(packages.joined(separator: ", "))")
            }
        }
    }
}

extension BackendChecker {
    /// What a browser would follow on a fetched page, read by the same extractor the simulator uses.
    static func scan(_ body: String, at url: String) -> PageScanResult {
        (try? PageScanner.scan(Array(body.utf8), contentType: "text/html; charset=utf-8", documentURL: url)) ?? PageScanResult()
    }
}
