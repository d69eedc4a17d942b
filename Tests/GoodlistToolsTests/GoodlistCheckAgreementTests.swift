import Foundation
import Testing
import NavigationPolicy
import PlainviewConfig
import PlainviewURL
import TestSupport
import GoodlistTools

/// `goodlist check` and `decide` answer "is this host allowed in the web view?" through one code path
/// (issue 13: goodlist check used to extract hosts by hand, ignore ports, accept port 65536 and decode
/// `%252e` twice). For every absolute http(s) URL of every conformance vector file, the two verdicts agree.
@Suite struct GoodlistCheckAgreementTests {
    /// Every string in Tests/Vectors/conformance/*.json that parses as an absolute http(s) URL.
    static let urls: [String] = {
        let dir = Project.vectors.appendingPathComponent("conformance")
        let files = ((try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []).filter { $0.hasSuffix(".json") }
            .sorted()
        var seen = Set<String>()
        var out: [String] = []
        for file in files {
            for s in FuzzCorpus.strings(in: file) where seen.insert(s).inserted {
                if let u = WebURL(s), SchemeKind(scheme: u.scheme) == .web { out.append(s) }
            }
        }
        return out
    }()

    /// A list that admits some of the vectors' hosts exactly, and whole subtrees of others.
    static let list: Goodlist = {
        var patterns = ["**.example.com", "*.example.org", "**.payex.com", "*.xn--nxasmq6b", "**.test"]
        var hosts: [String] = []
        for s in urls { if let h = WebURL(s)?.comparableHost, !hosts.contains(h) { hosts.append(h) } }
        for (i, h) in hosts.enumerated() where i % 3 == 0 { patterns.append(h) }
        return Goodlist(entries: patterns.map { GoodlistEntry(pattern: $0) })
    }()

    static let engine = NavigationPolicyEngine(
        policy: Policy(
            platform: .ios, paymentURL: "https://checkout.plainview-agreement.invalid/pay",
            completeURL: "https://checkout.plainview-agreement.invalid/complete",
            cancelURL: "https://checkout.plainview-agreement.invalid/cancel", redirectPolicy: .goodlist, goodlist: list))

    static func decideAllows(_ url: String) -> Bool {
        engine.decide(Navigation(url: url, currentURL: nil, frame: .main, trigger: .link)).action == .allow
    }

    @Test func theVectorsHoldEnoughURLsOfBothVerdicts() {
        #expect(Self.urls.count > 300, "\(Self.urls.count)")
        let allowed = Self.urls.filter(Self.decideAllows)
        #expect(allowed.count > 30, "\(allowed.count)")
        #expect(Self.urls.count - allowed.count > 30)
        #expect(Self.urls.contains { WebURL($0)?.port != nil })
    }

    @Test func goodlistCheckAgreesWithDecideOnEveryVectorURL() {
        var disagreements: [String] = []
        let results = GoodlistCheck.check(Self.urls, against: Self.list)
        for (url, r) in zip(Self.urls, results) where r.allowed != Self.decideAllows(url) {
            disagreements.append("\(url.debugDescription): check \(r.allowed), decide \(!r.allowed)")
        }
        #expect(
            disagreements.isEmpty, "\(disagreements.count) disagreements:\n\(disagreements.prefix(20).joined(separator: "\n"))")
    }

    @Test(arguments: [
        ("https://ecom.payex.com:8443/", false), // a port does not widen the list
        ("https://ecom.payex.com:443/", true), // the default port is no port
        ("https://ecom.payex.com:65536/", false), // not a URL
        ("https://evil.example%252epayex.com/", false), // decoded once, as a browser does
        ("https://a.payex.com\\@evil.example/", true), // a backslash ends the host: a.payex.com
        ("https://evil.example\\@a.payex.com/", false),
        ("ecom.payex.com", true), // a bare host
        ("ecom.payex.com:8443", false),
    ])
    func bypassesAndPorts(_ input: String, _ allowed: Bool) {
        let r = GoodlistCheck.check([input], against: Self.list)[0]
        #expect(r.allowed == allowed, "\(r)")
        if WebURL(input) != nil, input.contains("://") { #expect(Self.decideAllows(input) == allowed) }
    }
}
