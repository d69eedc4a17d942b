// Bad requests: each endpoint answers a problem, never a page that sends the user on.
import PlainviewURL
import PaymentURLHelpers
import AsyncHTTPClient
import Foundation
import NavigationPolicy
import PageScan
import NIOCore
import NIOHTTP1

extension BackendChecker {
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
}
