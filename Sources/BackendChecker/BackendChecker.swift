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
}
