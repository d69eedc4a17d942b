// What changed between a committed flow and a new recording of the same checkout: the drift a team wants to hear
// about before its users do. Pages are matched by method, host and path (query values are per session: order
// numbers, transaction ids, tokens); what a page does by itself is read by PageScan, as the simulator reads it.
import FlowSimulator
import Foundation
import PageScan
import PlainviewURL

public enum FlowDrift {
    /// One difference, as a line of the drift report.
    public struct Change: Sendable, Hashable, CustomStringConvertible {
        public enum Kind: String, Sendable, Hashable {
            case newHost = "new host", goneHost = "gone host", newPage = "new page", gonePage = "gone page"
            case status, redirect, automatic = "by itself", outcome
        }
        public var kind: Kind
        public var detail: String
        public var description: String { "\(kind.rawValue): \(detail)" }
    }

    /// The changes from `old` (the committed flow) to `new` (the new recording), in a stable order: hosts, pages,
    /// each page's answer and what it does by itself, then the outcome.
    public static func compare(
        old: Flow, new: Flow, oldOutcome: Outcome.Kind?, newOutcome: Outcome
    ) -> [Change] {
        var changes: [Change] = []
        let oldHosts = Set(old.pages.compactMap { URLTools.host($0.url) })
        let newHosts = Set(new.pages.compactMap { URLTools.host($0.url) })
        for h in newHosts.subtracting(oldHosts).sorted() {
            let first = new.pages.first { URLTools.host($0.url) == h }.map { " (\(label($0)))" } ?? ""
            changes.append(Change(kind: .newHost, detail: h + first))
        }
        for h in oldHosts.subtracting(newHosts).sorted() { changes.append(Change(kind: .goneHost, detail: h)) }

        let oldPages = Dictionary(old.pages.map { (key($0), $0) }, uniquingKeysWith: { a, _ in a })
        let newPages = Dictionary(new.pages.map { (key($0), $0) }, uniquingKeysWith: { a, _ in a })
        for page in new.pages where oldPages[key(page)] == nil {
            changes.append(Change(kind: .newPage, detail: label(page)))
        }
        for page in old.pages where newPages[key(page)] == nil {
            changes.append(Change(kind: .gonePage, detail: label(page)))
        }
        for page in new.pages {
            guard let before = oldPages[key(page)], let a = before.responses.first, let b = page.responses.first else {
                continue
            }
            if a.status != b.status {
                changes.append(Change(kind: .status, detail: "\(label(page)): \(a.status) → \(b.status)"))
            }
            let la = location(a, page.url), lb = location(b, page.url)
            if la != lb {
                changes.append(
                    Change(kind: .redirect, detail: "\(label(page)): to \(la ?? "nowhere") → to \(lb ?? "nowhere")"))
            }
            let da = automatic(a, page.url), db = automatic(b, page.url)
            for d in db.subtracting(da).sorted() { changes.append(Change(kind: .automatic, detail: "\(label(page)) now \(d)")) }
            for d in da.subtracting(db).sorted() {
                changes.append(Change(kind: .automatic, detail: "\(label(page)) no longer \(d)"))
            }
        }
        if let oldOutcome, oldOutcome != newOutcome.kind {
            changes.append(Change(kind: .outcome, detail: "\(oldOutcome.rawValue) → \(newOutcome)"))
        }
        return changes
    }

    /// `POST https://psp.example.net/card/pay` (the query left out).
    static func label(_ page: RecordedPage) -> String {
        "\(page.method ?? "GET") \(withoutQuery(page.url))" + (page.context == .browser ? " (in the browser)" : "")
    }

    static func key(_ page: RecordedPage) -> String {
        "\(page.context?.rawValue ?? "") \(page.method ?? "GET") \(withoutQuery(page.url))"
    }

    static func withoutQuery(_ url: String) -> String {
        guard let u = WebURL(url) else { return url }
        return "\(u.scheme)://\(u.hostname ?? "")\(u.port.map { ":\($0)" } ?? "")\(u.path)"
    }

    /// Where a redirect goes, without its query; nil when the answer is no redirect.
    static func location(_ r: RecordedResponse, _ base: String) -> String? {
        guard (300..<400).contains(r.status),
            let l = r.headers.first(where: { $0.name.lowercased() == "location" })?.value
        else { return nil }
        return URLTools.resolve(l, against: base).map(withoutQuery) ?? l
    }

    /// What the page does by itself, each as a phrase (`submits a form to https://…`).
    static func automatic(_ r: RecordedResponse, _ url: String) -> Set<String> {
        let type = r.headers.first { $0.name.lowercased() == "content-type" }?.value
        guard r.status == 200, let scan = try? PageScanner.scan(r.body, contentType: type, documentURL: url) else {
            return []
        }
        var out: Set<String> = []
        for f in scan.forms where f.autoSubmit {
            out.insert("submits a form by itself to \(f.method.uppercased()) \(withoutQuery(f.action))")
        }
        for n in scan.scriptNavigations where n.onLoad { out.insert("navigates by script to \(withoutQuery(n.url))") }
        if let refresh = scan.refresh { out.insert("refreshes to \(withoutQuery(refresh.url))") }
        for frame in scan.frames where !frame.url.isEmpty && frame.url != "about:blank" {
            out.insert("loads a frame from \(withoutQuery(frame.url))")
        }
        return out
    }
}
