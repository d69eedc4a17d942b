// `plainview check-backend URL`: probes a running backend's payment-url helper endpoints over real HTTP, as a
// device would walk them, and reports one PASS/WARN/FAIL/SKIP line per check, each naming the URL fetched and
// what came back. Redirects are never followed automatically; only URLs under the given base (and the
// origin's /.well-known/ files) are fetched. FAIL means a defect a user or an attacker can reach; stricter
// validation that is merely good practice is a WARN; a check whose precondition failed is a SKIP.
import PlainviewURL
import PaymentURLHelpers
import AsyncHTTPClient
import Foundation
import NavigationPolicy
import PageScan
import NIOCore
import NIOHTTP1

public struct BackendCheckOptions: Sendable {
    /// The backend's root endpoint as probed, e.g. `http://10.0.0.7:8080/swedbank-pay-mobile/`.
    public var baseURL: String
    /// The origin the backend generates URLs for (`https://shop.example.com`); nil → the probed origin.
    /// Expected Location headers, back-link targets and intent data are computed from it.
    public var publicURL: String?
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
    /// SHA-256 fingerprints of the app's signing certificates (32 bytes of hex, `AB:CD:…` as keytool prints them,
    /// either case, colons optional); when given, assetlinks.json must list each for the app's package.
    public var expectedAndroidCertSHA256: [String] = []
    public var timeoutSeconds: Int64 = 10

    public init(baseURL: String) { self.baseURL = baseURL }
}

public struct BackendCheckResult: Sendable, Equatable, CustomStringConvertible {
    public enum Outcome: String, Sendable { case pass = "PASS", fail = "FAIL", warn = "WARN", skip = "SKIP" }
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
    /// Where requests go.
    let origin: PublicOrigin
    /// What generated URLs must say.
    let publicOrigin: PublicOrigin
    let basePath: String
    let options: BackendCheckOptions
    /// `expectedAndroidCertSHA256` in assetlinks.json's form (upper case, colon-separated).
    let expectedCertificates: [String]
    static let maxBody = 1 << 20
    /// The User-Agent of every plain request (the phone's own are `PlatformUserAgents`').
    static let userAgent = "plainview-check-backend"
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
            throw BackendCheckError(
                description:
                    "expected an http(s) base URL like https://shop.example.com/swedbank-pay-mobile/, got '\(options.baseURL)'")
        }
        let path = String(afterScheme[slash...])
        guard path.utf8.allSatisfy({ PercentEncoding.isPathOrQueryChar($0) || $0 == UInt8(ascii: "%") }), !path.contains("?")
        else {
            throw BackendCheckError(description: "the base URL path has characters that need percent-encoding: '\(path)'")
        }
        if let p = options.publicURL {
            guard let po = PublicOrigin(p) else {
                throw BackendCheckError(description: "--public-url: expected http(s)://host[:port] with no path, got '\(p)'")
            }
            self.publicOrigin = po
        } else {
            self.publicOrigin = origin
        }
        var certificates: [String] = []
        for raw in options.expectedAndroidCertSHA256 {
            guard let fingerprint = HelperEndpointsConfiguration.normalizeFingerprint(raw) else {
                throw BackendCheckError(
                    description:
                        "--android-cert-sha256: expected a SHA-256 certificate fingerprint, 32 bytes of hex as keytool prints it (AB:CD:…, upper or lower case, colons optional), got '\(raw)'"
                )
            }
            if !certificates.contains(fingerprint) { certificates.append(fingerprint) }
        }
        self.origin = origin
        self.basePath = path
        self.options = options
        self.expectedCertificates = certificates
    }

    /// Probed base (requests go here).
    var base: String { "\(origin)\(basePath)" }
    /// The same base as the backend should name it in generated URLs.
    var publicBase: String { "\(publicOrigin)\(basePath)" }

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
        mutating func skip(_ c: String, _ d: String) { results.append(.init(check: c, outcome: .skip, detail: d)) }
        mutating func skip(_ cs: [String], _ d: String) { for c in cs { skip(c, d) } }
        mutating func add(_ c: String, _ v: Verdict) { results.append(.init(check: c, outcome: v.outcome, detail: v.detail)) }
    }

    /// One check's outcome and detail, before it is reported.
    struct Verdict {
        var outcome: BackendCheckResult.Outcome
        var detail: String
        static func pass(_ d: String) -> Verdict { Verdict(outcome: .pass, detail: d) }
        static func fail(_ d: String) -> Verdict { Verdict(outcome: .fail, detail: d) }
        static func warn(_ d: String) -> Verdict { Verdict(outcome: .warn, detail: d) }
    }

    struct Fetched: Sendable {
        var url: String
        var status: Int
        var headers: [(String, String)]
        var body: String
        func header(_ n: String) -> String? { headers.first { $0.0.lowercased() == n.lowercased() }?.1 }
        var contentType: String { (header("content-type") ?? "").lowercased() }
        /// `GET URL → 302 Location: …` / `GET URL → 200 text/html`: what was fetched and what came back.
        var summary: String {
            var s = "GET \(url) → \(status)"
            if let l = header("location") { s += " Location: \(l)" }
            s += contentType.isEmpty ? " (no Content-Type)" : " \(contentType)"
            return s
        }
        /// The summary plus the start of the body (one line, bounded).
        var summaryWithBody: String {
            let b = BackendChecker.oneLine(String(body.prefix(160)))
            return b.isEmpty ? summary + ", empty body" : summary + ": \(b)"
        }
    }

    /// True when `url` may be fetched: under the base, or one of the origin's two well-known files.
    func mayFetch(_ url: String) -> Bool {
        url.hasPrefix(base) || url == "\(origin)\(HelperEndpoints.aasaPath)"
            || url == "\(origin)\(HelperEndpoints.assetLinksPath)"
    }

    /// A URL the backend generated (on the public origin) mapped onto the probed address; nil when it is not
    /// under the public base.
    func probeURL(forGenerated url: String) -> String? {
        if url.lowercased().hasPrefix(publicBase.lowercased()) { return base + url.dropFirst(publicBase.count) }
        if url.hasPrefix(base) { return url }
        // The public base over plain http (a defect reported where it is generated): the page is still probed.
        let plain = "http://\(publicOrigin.authority)\(basePath)"
        if publicOrigin.scheme == "https", url.lowercased().hasPrefix(plain.lowercased()) {
            return base + url.dropFirst(plain.count)
        }
        return nil
    }

    func fetch(_ client: HTTPClient, _ url: String, host: String? = nil, userAgent: String = BackendChecker.userAgent) async
        -> Result<
            Fetched, BackendCheckError
        >
    {
        guard mayFetch(url) else {
            return .failure(BackendCheckError(description: "not under the base URL, not fetched: \(url)"))
        }
        var request = HTTPClientRequest(url: url)
        request.method = .GET
        request.headers.add(name: "User-Agent", value: userAgent)
        if let host { request.headers.replaceOrAdd(name: "Host", value: host) }
        do {
            let response = try await client.execute(request, timeout: .seconds(options.timeoutSeconds))
            let body = try await response.body.collect(upTo: Self.maxBody)
            return .success(
                Fetched(
                    url: url, status: Int(response.status.code), headers: response.headers.map { ($0.name, $0.value) },
                    body: String(decoding: body.readableBytesView, as: UTF8.self)))
        } catch {
            return .failure(BackendCheckError(description: "GET \(url) failed: \(error)"))
        }
    }

    /// GET with the request target sent byte for byte (http bases); https falls back to the HTTP client.
    func fetchRaw(_ client: HTTPClient, _ url: String) async -> Result<Fetched, BackendCheckError> {
        guard mayFetch(url) else {
            return .failure(BackendCheckError(description: "not under the base URL, not fetched: \(url)"))
        }
        guard origin.scheme == "http" else { return await fetch(client, url) }
        let target = String(url.dropFirst("\(origin)".count))
        var host = origin.host
        if host.hasPrefix("[") { host = String(host.dropFirst().dropLast()) }
        switch await RawFetch.get(
            host: host, port: origin.port ?? 80, target: target, hostHeader: origin.authority,
            timeout: Int(options.timeoutSeconds), maxBody: Self.maxBody)
        {
        case .success(let a): return .success(Fetched(url: url, status: a.status, headers: a.headers, body: a.body))
        case .failure(let e): return .failure(BackendCheckError(description: "GET \(url) failed: \(e)"))
        }
    }

    /// A phone-facing page's verdict as the phone gets it: `url` fetched again with the platform's browser and web
    /// view User-Agents. A FAIL when one of those answers fails `judge` or differs in status from the plain answer
    /// (a backend that breaks only for phones); otherwise `verdict`, saying the phone got the same.
    func asPhone(
        _ client: HTTPClient, _ url: String, _ platform: Platform, plain: Fetched, _ verdict: Verdict,
        judge: (Fetched) -> Verdict
    ) async -> Verdict {
        guard verdict.outcome != .fail else { return verdict }
        let plainAnswer = "User-Agent: \(Self.userAgent) got \(plain.summary)"
        for agent in [PlatformUserAgents.browser(on: platform), PlatformUserAgents.webView(on: platform)] {
            switch await fetch(client, url, userAgent: agent) {
            case .failure(let e):
                return .fail("as the phone (User-Agent: \(agent)): \(e.description); expected the answer \(plainAnswer)")
            case .success(let m):
                let v = judge(m)
                if v.outcome == .fail {
                    return .fail("broken for the phone (User-Agent: \(agent)): \(v.detail) (\(plainAnswer))")
                }
                if m.status != plain.status {
                    return .fail(
                        "broken for the phone (User-Agent: \(agent)): \(m.summaryWithBody); expected the status \(plainAnswer)")
                }
            }
        }
        let name = platform == .ios ? "iPhone" : "Android"
        return Verdict(
            outcome: verdict.outcome, detail: verdict.detail + "; the same for \(name)'s browser and web view User-Agents")
    }

    func runChecks(client: HTTPClient, report: inout Report) async {
        // One probe first: an unreachable backend is one failure, not a timeout per check.
        switch await fetch(client, base) {
        case .failure(let e):
            report.fail("reachable", "\(e.description): no HTTP answer, so every other check is skipped")
            let why = "the backend did not answer GET \(base)"
            report.skip(
                Self.androidChecks + Self.iosChecks + Self.trampolineChecks + Self.problemChecks.map(\.name)
                    + Self.injectionCheckNames + ["apple-app-site-association", "assetlinks.json"], why)
            return
        case .success(let r):
            report.pass("reachable", "\(r.summary) (any HTTP answer will do)")
        }
        let androidDown = await checkAndroid(client, &report)
        let (iosDown, trampoline) = await checkIOS(client, &report)
        await checkProblems(client, &report, androidDown: androidDown, iosDown: iosDown)
        await checkInjection(client, &report, androidDown: androidDown, iosDown: iosDown, trampoline: trampoline)
        await checkAASA(client, &report)
        await checkAssetLinks(client, &report)
    }

    static let androidChecks = ["android-intent page", "android-intent ignores Host"]
    static let iosChecks = ["ios-universal-link redirect", "ios-universal-link fallback", "ios-universal-link ignores Host"]
    static let trampolineChecks = ["back-link page", "back-link page open redirect"]

    // MARK: - Android

    /// Returns why the endpoint's other checks are meaningless (nil when it answers).
    func checkAndroid(_ client: HTTPClient, _ report: inout Report) async -> String? {
        let name = "android-intent page"
        let query = "package=\(options.package)&id=\(Self.id)"
        let url = "\(base)\(HelperEndpoints.androidPath)?\(query)"
        var down: String? = nil
        switch await fetch(client, url) {
        case .failure(let e):
            report.fail(name, e.description)
            down = "GET \(url) failed"
        case .success(let r):
            if r.status == 404 { down = "the android-intent page answered 404 (\(url))" }
            let verdict = judgeAndroidPage(r, url: url, query: query)
            report.add(
                name, await asPhone(client, url, .android, plain: r, verdict) { judgeAndroidPage($0, url: url, query: query) })
        }

        let hostName = "android-intent ignores Host"
        if let down {
            report.skip(hostName, down)
        } else {
            switch await fetch(client, url, host: "evil.example") {
            case .failure(let e): report.fail(hostName, e.description + " (with Host: evil.example)")
            case .success(let r):
                if let s = Self.snippet(r.body, around: "evil.example") {
                    report.fail(
                        hostName,
                        "a generated URL follows the request's Host header (a forged Host reaches the app): \(r.summary) with Host: evil.example, body has …\(s)…"
                    )
                } else if let l = r.header("location"), l.lowercased().contains("evil.example") {
                    report.fail(hostName, "the Location follows the request's Host header: \(r.summary) with Host: evil.example")
                } else {
                    report.pass(hostName, "\(r.summary) with Host: evil.example: no generated URL names evil.example")
                }
            }
        }
        return down
    }

    /// The Android page's verdict on one answer: a 0 s meta refresh and a link to the intent.
    func judgeAndroidPage(_ r: Fetched, url: String, query: String) -> Verdict {
        let expectedData = "\(publicOrigin.authority)\(basePath)\(HelperEndpoints.androidPath)?\(query)"
        let expectedIntent =
            "intent://\(expectedData)#Intent;scheme=\(publicOrigin.scheme);action=\(HelperEndpoints.intentAction);package=\(options.package);end;"
        if r.status == 404 {
            return .fail("no Android helper here: \(r.summary) (is the URL the root where sdk-callback/ is mounted?)")
        } else if r.status == 301 {
            return .fail(
                "\(r.summary): a 301 is cached by browsers without expiry, so every later return to this payment url replays the cached answer without asking the backend; expected 200 text/html with a 0 s meta refresh and a link to \(expectedIntent)"
            )
        } else if r.status != 200 {
            return .fail("expected 200 text/html, \(r.summaryWithBody)")
        } else if !r.contentType.hasPrefix("text/html") {
            return .fail("expected Content-Type text/html, \(r.summary)")
        } else {
            let page = Self.scan(r.body, at: url)
            let refresh = page.refresh?.url
            let links = page.links.map(\.url)
            let refreshOK =
                refresh.map { Self.isIntent($0, data: expectedData, scheme: publicOrigin.scheme, package: options.package) }
                ?? false
            let linkOK = links.contains {
                Self.isIntent($0, data: expectedData, scheme: publicOrigin.scheme, package: options.package)
            }
            if refreshOK && linkOK {
                return .pass("\(r.summary): meta refresh and link open \(expectedIntent)")
            } else {
                let foundRefresh = page.refresh.map { "\($0.delay) s to \($0.url)" } ?? "none"
                let foundLinks = links.isEmpty ? "none" : links.prefix(3).joined(separator: " , ")
                return .fail(
                    "expected a 0 s meta refresh and a link to \(expectedIntent); \(r.summary) has meta refresh: \(foundRefresh)\(refreshOK ? " (ok)" : ""); link(s): \(foundLinks)\(linkOK ? " (ok)" : "")"
                )
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

    var iosQuery: String {
        "scheme=\(options.scheme)&language=\(options.language)&id=\(Self.id)&app=\(PercentEncoding.encodeComponent(options.appName))"
    }

    /// Returns why the endpoint's other checks are meaningless (nil when it answers), and the back-link page
    /// URL as the probe reaches it (nil when there is none to fetch).
    func checkIOS(_ client: HTTPClient, _ report: inout Report) async -> (String?, String?) {
        let query = iosQuery
        let paymentURL = "\(base)\(HelperEndpoints.iosPath)?\(query)"
        let publicPaymentURL = "\(publicBase)\(HelperEndpoints.iosPath)?\(query)"
        let fallbackURL = paymentURL + "&fallback=true"
        var down: String? = nil
        var trampoline: String? = nil

        let name = "ios-universal-link redirect"
        switch await fetch(client, paymentURL) {
        case .failure(let e):
            report.fail(name, e.description)
            down = "GET \(paymentURL) failed"
            report.skip("back-link page", down!)
            report.skip("back-link page open redirect", down!)
        case .success(let r):
            if r.status == 404 {
                report.fail(name, "no iOS helper here: \(r.summary) (is the URL the root where sdk-callback/ is mounted?)")
                down = "the ios-universal-link endpoint answered 404 (\(paymentURL))"
                report.skip(Self.trampolineChecks, down!)
                break
            }
            guard [301, 302, 303, 307, 308].contains(r.status), let location = Self.location(r, publicOrigin) else {
                report.fail(name, "expected a redirect to the back-link page, \(r.summaryWithBody)")
                report.skip(
                    Self.trampolineChecks, "no back-link page: the ios-universal-link endpoint did not redirect (\(r.summary))")
                break
            }
            let verdict = judgeIOSRedirect(r, publicPaymentURL: publicPaymentURL)
            report.add(
                name,
                await asPhone(client, paymentURL, .ios, plain: r, verdict) {
                    judgeIOSRedirect($0, publicPaymentURL: publicPaymentURL)
                })
            if let mapped = probeURL(forGenerated: location), mayFetch(mapped) {
                trampoline = mapped
                await checkTrampoline(client, mapped, expectedTarget: publicPaymentURL + "&fallback=true", &report)
            } else {
                report.warn("back-link page", "on another host than the base (\(r.summary)): reported, not fetched")
                report.skip("back-link page open redirect", "the back-link page is not under the base URL, not fetched")
            }
        }

        let fbName = "ios-universal-link fallback"
        let hostName = "ios-universal-link ignores Host"
        if let down {
            report.skip([fbName, hostName], down)
            return (down, trampoline)
        }
        switch await fetch(client, fallbackURL) {
        case .failure(let e): report.fail(fbName, e.description)
        case .success(let r):
            let expected =
                "\(options.scheme)://\(publicOrigin.authority)\(basePath)\(HelperEndpoints.iosPath)?\(query)&fallback=true"
            func judge(_ r: Fetched) -> Verdict {
                guard [301, 302, 303, 307, 308].contains(r.status), r.header("location") == expected else {
                    return .fail("expected a redirect to \(expected), \(r.summaryWithBody)")
                }
                if r.status == 301 {
                    return .warn("\(r.summary): right Location, but a 301 is cached by browsers without expiry")
                }
                return .pass("\(r.summary)")
            }
            report.add(fbName, await asPhone(client, fallbackURL, .ios, plain: r, judge(r), judge: judge))
        }

        // Both rungs: the back-link page's target and the custom-scheme Location must ignore a forged Host.
        var hostVerdict: (Bool, String)? = nil
        var seen: [String] = []
        for url in [paymentURL, fallbackURL] {
            switch await fetch(client, url, host: "evil.example") {
            case .failure(let e): hostVerdict = hostVerdict ?? (true, e.description + " (with Host: evil.example)")
            case .success(let r):
                let location = r.header("location") ?? ""
                let decoded = PercentEncoding.decodeComponent(location) ?? location
                if location.lowercased().contains("evil.example") || decoded.lowercased().contains("evil.example") {
                    hostVerdict =
                        hostVerdict ?? (
                            true, "the Location is built from the request's Host header: \(r.summary) with Host: evil.example"
                        )
                } else if let s = Self.snippet(r.body, around: "evil.example") {
                    hostVerdict =
                        hostVerdict ?? (
                            true, "the body names the forged Host: \(r.summary) with Host: evil.example, body has …\(s)…"
                        )
                } else {
                    seen.append(r.summary)
                }
            }
        }
        if let (failed, text) = hostVerdict, failed {
            report.fail(hostName, text)
        } else {
            report.pass(hostName, seen.joined(separator: "; ") + " (each with Host: evil.example)")
        }
        return (nil, trampoline)
    }

    /// A redirect's Location as the device resolves it (a path-absolute one against the public origin).
    static func location(_ r: Fetched, _ publicOrigin: PublicOrigin) -> String? {
        guard let location = r.header("location") else { return nil }
        if location.hasPrefix("/") && !location.hasPrefix("//") { return "\(publicOrigin)\(location)" }
        return location
    }

    /// The iOS payment url's verdict on one answer: a redirect (not 301) to an https back-link page whose target is
    /// the payment url plus fallback=true.
    func judgeIOSRedirect(_ r: Fetched, publicPaymentURL: String) -> Verdict {
        guard [301, 302, 303, 307, 308].contains(r.status), let location = Self.location(r, publicOrigin) else {
            return .fail("expected a redirect to the back-link page, \(r.summaryWithBody)")
        }
        let (_, locQuery) = Self.splitURL(location)
        let target = locQuery.flatMap { Self.queryValue("target", in: $0) }
        if publicOrigin.scheme == "https" && location.lowercased().hasPrefix("http://") {
            return .fail(
                "the phone would leave HTTPS: \(r.summary) sends it to a plain http back-link page (the web view hands http to the browser, and App Transport Security blocks it); expected an https:// back-link page, as under \(publicBase)"
            )
        }
        if target.map({ Self.sameURLPlusFallback($0, publicPaymentURL) }) != true {
            return .fail(
                "the back-link page's target must be \(publicPaymentURL)&fallback=true; \(r.summary) has target \(target.map { "'\($0)'" } ?? "missing (no target= in the Location's query)")"
            )
        }
        if r.status == 301 {
            return .warn(
                "\(r.summary): target ok, but a 301 is cached by browsers without expiry (a later visit of this payment url skips the backend); 302 is what the documentation recommends"
            )
        }
        return .pass("\(r.summary): target = payment url + fallback=true")
    }

    func checkTrampoline(_ client: HTTPClient, _ url: String, expectedTarget: String, _ report: inout Report) async {
        let name = "back-link page"
        switch await fetch(client, url) {
        case .failure(let e): report.fail(name, e.description)
        case .success(let r):
            let original = String(expectedTarget.dropLast("&fallback=true".count))
            func judge(_ r: Fetched) -> Verdict {
                let links = Self.scan(r.body, at: url).links.map(\.url)
                if r.status == 200, r.contentType.hasPrefix("text/html"),
                    links.contains(where: { Self.sameURLPlusFallback($0, original) })
                {
                    return .pass("\(r.summary): links to \(expectedTarget)")
                }
                let found = links.isEmpty ? "no link" : "link(s) " + links.prefix(3).joined(separator: " , ")
                return .fail(
                    "expected 200 text/html with a link to \(expectedTarget); \(r.status == 200 ? r.summary : r.summaryWithBody) has \(found)"
                )
            }
            report.add(name, await asPhone(client, url, .ios, plain: r, judge(r), judge: judge))
        }
        let openName = "back-link page open redirect"
        let (pageBase, _) = Self.splitURL(url)
        var refused: [String] = []
        var lenient: String? = nil
        for target in foreignTargets {
            let probe = "\(pageBase)?target=\(PercentEncoding.encodeComponent(target))&language=\(options.language)"
            let expected =
                "expected a 400 problem (or at least no link or redirect) for a target outside \(publicBase), here \(target)"
            switch await fetch(client, probe) {
            case .failure(let e):
                report.fail(openName, e.description)
                return
            case .success(let r):
                let page = Self.scan(r.body, at: probe)
                let urls = page.links.map(\.url) + (page.refresh.map { [$0.url] } ?? [])
                if let bad = urls.first(where: { Self.isForeign($0, base: probe) }) {
                    report.fail(
                        openName, "the page links to a foreign target (open redirect): \(r.summary) links to \(bad); \(expected)")
                    return
                }
                if let l = r.header("location"), Self.isForeign(l, base: probe) {
                    report.fail(openName, "redirects to a foreign target (open redirect): \(r.summary); \(expected)")
                    return
                }
                if (500...599).contains(r.status) {
                    report.fail(openName, "a foreign target makes the page fail: \(r.summaryWithBody); \(expected)")
                    return
                }
                if r.status == 400 && r.contentType.hasPrefix("application/problem+json") {
                    refused.append(target)
                } else if lenient == nil {
                    lenient = r.summary
                }
            }
        }
        if let lenient {
            report.warn(openName, "a foreign target is not linked, but not refused with a 400 problem either: \(lenient)")
        } else {
            report.pass(
                openName,
                "GET \(pageBase)?target=… → 400 application/problem+json for each of \(refused.count) foreign and look-alike targets (\(refused.joined(separator: " , ")))"
            )
        }
    }

    /// Targets the back-link page must refuse: a foreign site, and look-alikes of the public origin that a
    /// string-prefix check lets through while a browser goes to evil.example (a longer host, userinfo, an
    /// encoded slash before '@', a backslash, which browsers read as '/').
    var foreignTargets: [String] {
        let rest = "\(basePath)\(HelperEndpoints.iosPath)?\(iosQuery)&fallback=true"
        let authority = publicOrigin.authority
        return [
            "https://evil.example/",
            "\(publicOrigin).evil.example\(rest)",
            "\(publicOrigin)@evil.example\(rest)",
            "\(publicOrigin)%2F@evil.example\(rest)",
            "https://evil.example\\@\(authority)\(rest)",
            "https://evil.example\\\(authority)\(rest)",
            "//evil.example\(rest)",
        ]
    }

    /// The URL, as a browser resolves it against `base`, goes to evil.example (or cannot be read but names it).
    static func isForeign(_ url: String, base: String) -> Bool {
        guard let b = WebURL(base), let u = WebURL(url.trimmingCharacters(in: .whitespaces), relativeTo: b) else {
            return url.lowercased().contains("evil.example")
        }
        let host = (u.hostname ?? "").lowercased()
        return host == "evil.example" || host.hasSuffix(".evil.example")
    }

    /// `candidate` is `original` with `fallback=true` added (query items compared as a multiset).
    static func sameURLPlusFallback(_ candidate: String, _ original: String) -> Bool {
        let (cb, cq) = splitURL(candidate), (ob, oq) = splitURL(original)
        guard cb.lowercased() == ob.lowercased() else { return false }
        var want = (oq ?? "").split(separator: "&").map(String.init)
        want.append("fallback=true")
        return (cq ?? "").split(separator: "&").map(String.init).sorted() == want.sorted()
    }

    static func splitURL(_ url: String) -> (String, String?) {
        let parts = url.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        return (String(parts.first ?? ""), parts.count > 1 ? String(parts[1]) : nil)
    }

    static func queryValue(_ name: String, in query: String) -> String? {
        let q = query.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        for piece in q.split(separator: "&") {
            let (n, v) = PercentEncoding.splitQueryItem(piece)
            if PercentEncoding.decodeComponent(n) == name { return PercentEncoding.decodeComponent(v) }
        }
        return nil
    }

    static func queryNames(_ query: String) -> [String] {
        let q = query.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        return q.split(separator: "&").map {
            PercentEncoding.decodeComponent(PercentEncoding.splitQueryItem($0).name) ?? String($0)
        }
    }

    // MARK: - Problems

    enum Bad { case required, validation, crlf, notFound }
    struct ProblemCase { var name: String; var endpoint: String; var query: String; var status: Int; var kind: Bad }

    static let problemChecks: [ProblemCase] = [
        .init(name: "android-intent without package", endpoint: "android", query: "id=1", status: 400, kind: .required),
        .init(
            name: "android-intent invalid package", endpoint: "android", query: "package=not%20a%20package", status: 400,
            kind: .validation),
        .init(name: "ios-universal-link without scheme", endpoint: "ios", query: "language=LANG", status: 400, kind: .required),
        .init(
            name: "ios-universal-link invalid scheme", endpoint: "ios", query: "scheme=1%20bad&language=LANG", status: 400,
            kind: .validation),
        .init(
            name: "ios-universal-link https scheme", endpoint: "ios", query: "scheme=https&language=LANG&fallback=true",
            status: 400, kind: .validation),
        .init(
            name: "ios-universal-link invalid language", endpoint: "ios", query: "scheme=SCHEME&language=xx%3Cb%3E", status: 400,
            kind: .validation),
        .init(
            name: "ios-universal-link CR/LF", endpoint: "ios",
            query: "scheme=SCHEME&language=LANG&fallback=true&id=%0D%0ASet-Cookie:%20pv=1", status: 400, kind: .crlf),
        .init(name: "unknown path", endpoint: "none", query: "", status: 404, kind: .notFound),
    ]

    func checkProblems(_ client: HTTPClient, _ report: inout Report, androidDown: String?, iosDown: String?) async {
        for c in Self.problemChecks {
            let url: String
            switch c.endpoint {
            case "android":
                if let androidDown { report.skip(c.name, androidDown); continue }
                url = "\(base)\(HelperEndpoints.androidPath)?\(c.query)"
            case "ios":
                if let iosDown { report.skip(c.name, iosDown); continue }
                url =
                    "\(base)\(HelperEndpoints.iosPath)?"
                    + c.query.replacingOccurrences(of: "LANG", with: options.language)
                    .replacingOccurrences(of: "SCHEME", with: options.scheme)
            default:
                url = "\(base)sdk-callback/plainview-no-such-endpoint"
            }
            switch await fetch(client, url) {
            case .failure(let e): report.fail(c.name, e.description)
            case .success(let r):
                if r.headers.contains(where: { $0.0.lowercased() == "set-cookie" && $0.1.contains("pv=1") }) {
                    report.fail(
                        c.name,
                        "CR/LF in a parameter became a response header (header injection): \(r.summary), Set-Cookie: \(r.header("set-cookie") ?? "")"
                    )
                } else if r.status == c.status, r.contentType.hasPrefix("application/problem+json"),
                    Self.isProblem(r.body, status: c.status)
                {
                    report.pass(c.name, "\(r.summary)")
                } else if (500...599).contains(r.status) {
                    report.fail(
                        c.name,
                        "a bad request makes the backend fail (expected \(c.status) application/problem+json): \(r.summaryWithBody)"
                    )
                } else if (400...499).contains(r.status) {
                    report.warn(
                        c.name, "refused, but not with \(c.status) application/problem+json (RFC 7807): \(r.summaryWithBody)")
                } else if c.kind == .crlf {
                    let where_ = r.header("location").map { "Location: \($0)" } ?? "no Location"
                    report.warn(
                        c.name,
                        "accepted (no header was injected; \(where_)); refusing control characters with a 400 problem is safer: \(r.summary)"
                    )
                } else {
                    report.warn(
                        c.name,
                        "accepted instead of refused with \(c.status) application/problem+json; not exploitable by itself, stricter validation is good practice: \(r.summary)"
                    )
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
        let url = "\(origin)\(HelperEndpoints.aasaPath)"
        switch await fetch(client, url) {
        case .failure(let e): report.fail(name, e.description)
        case .success(let r):
            guard r.status == 200 else { report.fail(name, "expected 200 application/json (no redirect), \(r.summary)"); return }
            // Apple's requirement: the file is served with Content-Type application/json (not text/html or text/plain).
            guard r.contentType.hasPrefix("application/json") else {
                report.fail(
                    name,
                    "expected Content-Type application/json (Apple requires the file to be served as application/json, over https, without redirects): \(r.summary)"
                )
                return
            }
            let aasa: AppSiteAssociation
            do {
                aasa = try AppSiteAssociation(json: r.body)
            } catch {
                report.fail(name, "not a valid apple-app-site-association (\(error)): \(r.summaryWithBody)")
                return
            }
            if aasa.appIDs.isEmpty {
                report.warn(name, "declares no app (applinks.details is empty): \(r.summaryWithBody)"); return
            }
            // The same matcher the policy engine uses for universal links, asked about a real helper URL.
            let probe = "https://\(Self.aasaProbeHost)\(helperPath)?scheme=plainview&language=en-US&id=plainview-check-0001"
            let covering = aasa.appIDs.filter { aasa.verdict(appID: $0, url: probe) == .match }
            if covering.isEmpty {
                report.fail(
                    name,
                    "no details entry covers \(helperPath), where the helpers are mounted (paths/components not under the mount point?): \(r.summaryWithBody)"
                )
            } else if let want = options.expectedAppID, !covering.contains(want) {
                report.fail(
                    name,
                    "\(want) is not listed for \(helperPath) (listed: \(Set(aasa.appIDs).sorted().joined(separator: ", "))): \(r.summary)"
                )
            } else {
                report.pass(name, "\(r.summary): \(helperPath) is claimed for \(Set(covering).sorted().joined(separator: ", "))")
            }
        }
    }

    /// AASA matching looks at path, query and fragment only; any https host stands in for the backend's.
    static let aasaProbeHost = "backend.invalid"

    func checkAssetLinks(_ client: HTTPClient, _ report: inout Report) async {
        let name = "assetlinks.json"
        let url = "\(origin)\(HelperEndpoints.assetLinksPath)"
        switch await fetch(client, url) {
        case .failure(let e): report.fail(name, e.description)
        case .success(let r):
            guard r.status == 200 else {
                report.fail(name, "missing assetlinks.json: expected 200 application/json, \(r.summary)"); return
            }
            guard let list = try? JSONSerialization.jsonObject(with: Data(r.body.utf8)) as? [[String: Any]] else {
                report.fail(name, "not a JSON array of statements: \(r.summaryWithBody)")
                return
            }
            var packages: [String] = []
            var certificates: [String: [String]] = [:] // by package
            for s in list {
                guard let relation = s["relation"] as? [String], let target = s["target"] as? [String: Any],
                    let ns = target["namespace"] as? String
                else {
                    report.fail(name, "a statement lacks relation/target.namespace: \(r.summaryWithBody)")
                    return
                }
                guard ns == "android_app", relation.contains("delegate_permission/common.handle_all_urls") else { continue }
                guard let pkg = target["package_name"] as? String, HelperValidation.isAndroidPackage(pkg),
                    let fps = target["sha256_cert_fingerprints"] as? [String], !fps.isEmpty,
                    fps.allSatisfy({ HelperEndpointsConfiguration.normalizeFingerprint($0) == $0 })
                else {
                    report.fail(
                        name,
                        "an android_app statement has a bad package_name or sha256_cert_fingerprints (expected AB:CD:… upper-case, 32 bytes): \(r.summaryWithBody)"
                    )
                    return
                }
                packages.append(pkg)
                certificates[pkg, default: []] += fps
            }
            let notChecked =
                expectedCertificates.isEmpty
                ? "; certificate fingerprint not checked (give the app's with --android-cert-sha256)" : ""
            if packages.isEmpty {
                report.warn(name, "valid, but delegates no app (no handle_all_urls statement): \(r.summaryWithBody)\(notChecked)")
                return
            }
            if let want = options.expectedAndroidPackage, !packages.contains(want) {
                report.fail(name, "\(want) is not delegated (found: \(packages.joined(separator: ", "))): \(r.summary)")
                return
            }
            // The certificates listed for the expected package (any delegated package when none was named).
            let apps = options.expectedAndroidPackage.map { [$0] } ?? packages
            let listed = apps.flatMap { certificates[$0] ?? [] }
            let missing = expectedCertificates.filter { !listed.contains($0) }
            if !missing.isEmpty {
                report.fail(
                    name,
                    "the app's signing certificate is not listed, so Android will not verify the app links: expected \(missing.joined(separator: ", ")) in sha256_cert_fingerprints of \(apps.joined(separator: ", ")), found \(listed.joined(separator: ", ")): \(r.summary)"
                )
            } else if expectedCertificates.isEmpty {
                report.pass(name, "\(r.summary): delegates handle_all_urls to \(packages.joined(separator: ", "))\(notChecked)")
            } else {
                report.pass(
                    name,
                    "\(r.summary): delegates handle_all_urls to \(apps.joined(separator: ", ")) signed with \(expectedCertificates.joined(separator: ", "))"
                )
            }
        }
    }
}

extension BackendChecker {
    /// What a browser would follow on a fetched page, read by the same extractor the simulator uses.
    static func scan(_ body: String, at url: String) -> PageScanResult {
        (try? PageScanner.scan(Array(body.utf8), contentType: "text/html; charset=utf-8", documentURL: url)) ?? PageScanResult()
    }

    static func oneLine(_ s: String) -> String {
        s.replacingOccurrences(of: "\r", with: "\\r").replacingOccurrences(of: "\n", with: "\\n")
    }

    /// Up to 60 characters either side of the first occurrence of `needle` (case-insensitive), on one line.
    static func snippet(_ body: String, around needle: String) -> String? {
        guard let r = body.range(of: needle, options: .caseInsensitive) else { return nil }
        let start = body.index(r.lowerBound, offsetBy: -60, limitedBy: body.startIndex) ?? body.startIndex
        let end = body.index(r.upperBound, offsetBy: 60, limitedBy: body.endIndex) ?? body.endIndex
        return oneLine(String(body[start..<end]))
    }
}
