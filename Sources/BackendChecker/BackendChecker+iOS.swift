// The iOS payment-url helper: its redirects and the back-link page, as Safari on a phone gets them.
import PlainviewURL
import PaymentURLHelpers
import AsyncHTTPClient
import Foundation
import NavigationPolicy
import PageScan
import NIOCore
import NIOHTTP1

extension BackendChecker {
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

    static func queryValue(_ name: String, in query: String) -> String? { URLTools.queryValue(name, query: query[...]) }

    static func queryNames(_ query: String) -> [String] {
        let q = query.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        return q.split(separator: "&").map {
            PercentEncoding.decodeComponent(PercentEncoding.splitQueryItem($0).name) ?? String($0)
        }
    }
}
