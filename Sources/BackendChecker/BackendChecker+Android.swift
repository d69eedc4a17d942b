// The Android payment-url helper: its intent page, as Chrome on a phone gets it.
import PlainviewURL
import PaymentURLHelpers
import AsyncHTTPClient
import Foundation
import NavigationPolicy
import PageScan
import NIOCore
import NIOHTTP1

extension BackendChecker {
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
}
