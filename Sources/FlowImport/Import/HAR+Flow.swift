// From a recording to a flow: the recorded documents become the flow's network (pages), the navigations a
// page did not make by itself become user taps, and where the recording stops is said out loud.
//
// A HAR holds HTTP only. It cannot hold custom-scheme, `intent:` or universal-link navigations that the OS
// took over, taps, prompts, or app switches: the draft ends where the recording ends and says so (`ending`),
// and the flow file gets a comment showing how to add the rest by hand.
import Foundation
import PageScan
import PlainviewSupport
import PlainviewURL

/// A flow drafted from a recording, independent of how it is written out or run.
public struct HARFlowDraft: Sendable, Hashable {
    public struct Response: Sendable, Hashable {
        public var status: Int
        /// The headers a replay needs: Location, Refresh, Set-Cookie, Content-Type (in recorded order).
        public var headers: [HARHeader]
        public var body: Data?
        /// Where in the recording it came from (`log.entries[3]`).
        public var source: String
    }

    public struct Page: Sendable, Hashable {
        public var url: String
        public var method: String
        /// Served in order; the last one repeats (a URL recorded twice gets two responses).
        public var responses: [Response]
        public var isFrame: Bool
        /// `browser` for a page the system browser got (`plainview record`); nil: wherever it is asked for.
        public var context: String? = nil
    }

    public enum Step: Sendable, Hashable {
        /// The user tapped a link or submitted a form leading to `url` (`why` says how it was inferred).
        case tap(url: String, why: String)
        /// A tap named on the command line (`--tap TEXT|URL`).
        case tapText(String)
        /// In app NAME, the user completes, cancels or fails (`app: NAME complete`).
        case app(name: String, outcome: String)
        /// The user accepts, or declines, the browser's "Open in …?" prompt.
        case accept, decline
        /// The user switches back to the host app by hand.
        case switchToApp
        /// The user types `text` into the form field named `field` (redacted as the form posts are).
        case type(field: String, text: String)
    }

    /// How the recording stops.
    public struct Ending: Sendable, Hashable {
        /// The last navigation recorded (URL as recorded).
        public var url: String
        public var source: String
        /// A sentence for the trace and the flow file.
        public var message: String
    }

    public var start: String
    public var pages: [Page]
    public var steps: [Step]
    public var ending: Ending?
    /// Documents and subresources seen, for the description.
    public var documentCount: Int
    public var subresourceCount: Int
    /// Navigations that are not http(s) (custom schemes, intent:), in order: they ended a recorded hop.
    public var appNavigations: [String]
    /// Navigations the recording says the page made by itself that nothing on the pages before them explains.
    public var unexplained: [String] = []
}

public enum HARFlowBuilder {
    public enum BuildError: Error, Sendable, CustomStringConvertible, Equatable {
        case noDocuments
        public var description: String {
            switch self {
            case .noDocuments:
                return
                    "the recording holds no document navigation (only subresources or aborted requests); record the checkout from its first page"
            }
        }
    }

    /// Drafts the flow. `taps`, when given, replace the inferred user steps.
    public static func draft(from log: HARLog, taps: [String]? = nil) throws(BuildError) -> HARFlowDraft {
        try draft(from: log, steps: taps.map { $0.map { .tapText($0) } })
    }

    /// Drafts the flow. `steps`, when given, replace the inferred user steps.
    public static func draft(from log: HARLog, steps given: [HARFlowDraft.Step]?) throws(BuildError) -> HARFlowDraft {
        // The pages (in order, on one thread) and the steps (which read pages, on every core) are worked out from
        // the recording independently, so side by side when there are many entries.
        var built: Pages?
        var inferred: (steps: [HARFlowDraft.Step], unexplained: [String]) = (given ?? [], [])
        let threads = log.entries.count >= entriesForTwoThreads ? 2 : 1
        _ = Threads.map(given == nil ? 2 : 1, threads: threads) { part in
            if part == 0 { built = pages(of: log) } else { inferred = inferredSteps(log.entries) }
        }
        guard let built, let first = built.firstDoc else { throw .noDocuments }
        let navigations = log.navigations
        let lastDoc = built.lastDoc, steps = inferred.steps, unexplained = inferred.unexplained

        var ending: HARFlowDraft.Ending?
        if let lastNav = navigations.last {
            let url = lastNav.request.url
            if !isWeb(url) {
                ending = .init(
                    url: url, source: lastNav.path,
                    message:
                        "the recording ends with a navigation to \(url), which the recorder could only show as an attempt (status \(lastNav.response.status)); what the OS and the app did next is not in a HAR"
                )
            } else if let lastDoc, let loc = lastDoc.response.location,
                let target = resolve(loc, against: lastDoc.request.url), !isWeb(target)
            {
                ending = .init(
                    url: target, source: lastDoc.path,
                    message: "the recording ends with a redirect to \(target); what the OS and the app did next is not in a HAR")
            } else if lastNav.response.status == 0 {
                ending = .init(
                    url: url, source: lastNav.path,
                    message:
                        "the recording ends with an aborted navigation to \(url) (status 0: the app or the OS took it over, or the user left)"
                )
            } else {
                ending = .init(
                    url: url, source: lastNav.path,
                    message:
                        "the recording ends at \(url); anything after it (an app switch, a tap, a return to the app) is not in a HAR"
                )
            }
        }
        return HARFlowDraft(
            start: first.request.url, pages: built.pages, steps: steps, ending: ending,
            documentCount: navigations.count,
            subresourceCount: log.entries.count - navigations.count, appNavigations: built.appNavigations,
            unexplained: unexplained)
    }

    /// The fewest entries for which the pages and the steps are worked out on two threads (fewer: one after the
    /// other, as starting a thread costs more than it gains).
    static let entriesForTwoThreads = 256

    /// The pages of a recording, in recorded order (one per URL and method, its responses in order), the
    /// navigations the OS took over, and the first and last documents.
    struct Pages {
        var pages: [HARFlowDraft.Page]
        var appNavigations: [String]
        var firstDoc: HAREntry?
        var lastDoc: HAREntry?
    }

    static func pages(of log: HARLog) -> Pages {
        // Read in place: a copy of the recording's entries would be a second recording in memory.
        let navigations = log.navigations
        var pages: [HARFlowDraft.Page] = []
        var appNavigations: [String] = []
        var firstDoc: HAREntry?, lastDoc: HAREntry?
        // (page key, method) → index in `pages`: one lookup per entry, not a scan of the pages so far.
        var pageIndex: [String: Int] = [:]
        for e in navigations {
            guard isWeb(e.request.url) else {
                appNavigations.append(e.request.url)
                continue
            }
            // Status 0: aborted (the app or the OS took the navigation over, or the user left): no response.
            guard e.response.status >= 100 else { continue }
            var status = e.response.status
            var body = e.response.content.body
            if status == 304 { status = 200 } // served from cache: replay it as the page
            if (300..<400).contains(status), e.response.location == nil { status = 200 }
            if (300..<400).contains(status) || status == 204 { body = nil }
            let kept = e.response.headers.filter {
                ["location", "refresh", "set-cookie", "content-type"].contains($0.name.lowercased())
            }
            var headers = kept
            if (300..<400).contains(status), !headers.contains(where: { $0.name.lowercased() == "location" }),
                let loc = e.response.location
            {
                headers.append(HARHeader(name: "Location", value: loc))
            }
            if body != nil, !headers.contains(where: { $0.name.lowercased() == "content-type" }) {
                let mime = e.response.content.mimeType
                headers.append(HARHeader(name: "Content-Type", value: mime.isEmpty ? "text/html" : mime))
            }
            let response = HARFlowDraft.Response(status: status, headers: headers, body: body, source: e.path)
            // A recorder that knows the context keeps the browser's pages apart: the same URL may answer the web view
            // and the browser differently (a payment page, and the return page the bank app opens in the browser).
            let context = e.context == "browser" ? "browser" : nil
            let key = (context ?? "") + " " + e.request.method + " " + canonical(e.request.url)
            if let i = pageIndex[key] {
                pages[i].responses.append(response)
            } else {
                pageIndex[key] = pages.count
                pages.append(
                    HARFlowDraft.Page(
                        url: e.request.url, method: e.request.method, responses: [response],
                        isFrame: e.role == .frame, context: context))
            }
            if e.role == .document {
                if firstDoc == nil { firstDoc = e }
                lastDoc = e
            }
        }
        return Pages(pages: pages, appNavigations: appNavigations, firstDoc: firstDoc, lastDoc: lastDoc)
    }

    /// The user's steps, in recorded order: a navigation the recording says the user started (in the main frame or
    /// in a frame) is a tap; one the recording says the page started is none; one it says nothing about is a tap
    /// unless the page before it leads there by itself. `unexplained` lists the page's own navigations that nothing
    /// Plainview reads on the pages before them explains.
    ///
    /// Which pages each navigation is judged against is found first, in order, without reading a page. The
    /// judging reads pages (the costly part) and is done on every core (Threads.map), in runs of consecutive
    /// navigations so that a page asked about by several is read once per run; the answers are put together in
    /// recorded order, so the steps are those of one thread judging one navigation after another.
    static func inferredSteps(
        _ entries: [HAREntry], threads: Int = ProcessInfo.processInfo.activeProcessorCount
    ) -> (steps: [HARFlowDraft.Step], unexplained: [String]) {
        // Indices into `entries`: the navigation, the main page before it, and the last frame before it.
        var questions: [(next: Int, main: Int, frame: Int?)] = []
        var lastMain: Int?
        var lastFrame: Int?
        var previous: Int?
        for i in entries.indices where entries[i].role != .subresource {
            let e = entries[i]
            guard isWeb(e.request.url), e.response.status >= 100 else { continue }
            defer {
                previous = i
                if e.role == .frame { lastFrame = i } else { lastMain = i }
            }
            guard let main = lastMain else { continue } // the first page (and anything before it)
            if let p = previous.map({ entries[$0] }), let loc = p.response.location,
                let r = resolve(loc, against: p.request.url), canonical(r) == canonical(e.request.url)
            {
                continue // a redirect hop
            }
            questions.append((i, main, lastFrame))
        }
        let run = 32
        let answers = Threads.map((questions.count + run - 1) / run, threads: threads) { r in
            // A page is read once, though both where it leads by itself and what was typed on it are asked of it.
            var latest: (path: String, result: PageScanResult?)?
            func scan(_ page: HAREntry) -> PageScanResult? {
                if let latest, latest.path == page.path { return latest.result }
                let result = page.response.content.body.flatMap {
                    try? PageScanner.scan(Array($0), contentType: page.response.contentType, documentURL: page.request.url)
                }
                latest = (page.path, result) // the pages asked about are the latest ones: keep one
                return result
            }
            return questions[(r * run)..<min(questions.count, (r + 1) * run)].map { q in
                judge(entries[q.next], main: entries[q.main], frame: q.frame.map { entries[$0] }, scan: scan)
            }
        }
        var steps: [HARFlowDraft.Step] = []
        var unexplained: [String] = []
        for answer in answers.joined() {
            steps += answer.steps
            if let why = answer.unexplained { unexplained.append(why) }
        }
        return (steps, unexplained)
    }

    /// The steps one navigation `e` adds (typed fields, then the tap), or why nothing explains it, judged against
    /// the main page before it and the last frame before it.
    static func judge(
        _ e: HAREntry, main: HAREntry, frame lastFrame: HAREntry?, scan: (HAREntry) -> PageScanResult?
    ) -> (steps: [HARFlowDraft.Step], unexplained: String?) {
        let inFrame = e.role == .frame
        switch e.cause {
        case .user(let evidence):
            var why = "the recording says the user started it (\(evidence))"
            if inFrame { why += ", inside a frame" }
            if e.request.method == "POST" { why += "; a form the user submitted" }
            let typed = typedFields(submitting: e, from: inFrame ? lastFrame : main, scan: scan)
            return (typed + [.tap(url: e.request.url, why: why)], nil)
        case .page(let evidence):
            let explained =
                leadsByItself(from: main, to: e, scan: scan)
                || lastFrame.map { leadsByItself(from: $0, to: e, scan: scan) } == true
            guard !explained else { return ([], nil) }
            return (
                [],
                "\(e.path): the recording says the page itself went to \(e.request.url) (\(evidence)), but nothing Plainview reads on the pages before it leads there: a script only a real engine runs (replay with --engine; if the model stops before it, say so with expect.modelOutcome)"
            )
        case .unknown:
            guard !inFrame, !leadsByItself(from: main, to: e, scan: scan) else { return ([], nil) }
            let typed = typedFields(submitting: e, from: main, scan: scan)
            return (typed + [.tap(url: e.request.url, why: tapReason(from: main, to: e))], nil)
        }
    }

    /// What the user typed before submitting `next` from `page`: each field of the submitted form whose sent value
    /// (the POST body's, or a GET form's query) differs from the value the page gave it, as a `type:` step, in
    /// the order sent. Fields the form does not have (a script's additions) are left out.
    static func typedFields(
        submitting next: HAREntry, from page: HAREntry?, scan read: (HAREntry) -> PageScanResult?
    ) -> [HARFlowDraft.Step] {
        guard let page, let scan = read(page) else { return [] }
        let isPost = next.request.method == "POST"
        let sent: [HARHeader]
        if isPost {
            sent = next.request.postData?.formFields ?? []
        } else {
            sent = (WebURL(next.request.url)?.queryItems ?? []).map { HARHeader(name: $0.name, value: $0.value) }
        }
        let target = isPost ? canonical(next.request.url) : withoutQuery(next.request.url)
        guard !sent.isEmpty,
            let form = scan.forms.first(where: {
                $0.method.uppercased() == next.request.method
                    && (isPost ? canonical($0.action) : withoutQuery($0.action)) == target
            })
        else { return [] }
        var given: [String: String] = [:]
        for f in form.fields where given[f.name] == nil { given[f.name] = f.value }
        return sent.compactMap { field in
            guard let before = given[field.name], before != field.value, !field.value.isEmpty else { return nil }
            return .type(field: field.name, text: field.value)
        }
    }

    /// A URL without its query and fragment, for a GET form's action.
    static func withoutQuery(_ url: String) -> String {
        guard let u = WebURL(url) else { return url }
        return u.withoutFragment.replacingQuery(nil).href
    }

    // MARK: - Did the page go there by itself?

    /// True when `prev` leads to `next` without the user: a redirect, a Refresh header or meta refresh, a form
    /// the page submits itself, or a script navigation that runs on load.
    static func leadsByItself(from prev: HAREntry, to next: HAREntry, scan read: (HAREntry) -> PageScanResult?) -> Bool {
        let target = canonical(next.request.url)
        if let loc = prev.response.location, let r = resolve(loc, against: prev.request.url) {
            return canonical(r) == target
        }
        if let refresh = prev.response.refreshHeader, let u = refreshURL(refresh, base: prev.request.url),
            canonical(u) == target
        {
            return true
        }
        guard let body = prev.response.content.body else { return false }
        if let scan = read(prev) {
            if let r = scan.refresh, canonical(r.url) == target { return true }
            if scan.forms.contains(where: { $0.autoSubmit && canonical($0.action) == target }) { return true }
            if scan.scriptNavigations.contains(where: { $0.onLoad && canonical($0.url) == target }) { return true }
        }
        return heuristicAutomatic(body: body, base: prev.request.url, target: target)
    }

    /// A fallback for pages PageScan does not explain: meta refresh, self-submitting forms, `location` scripts.
    static func heuristicAutomatic(body: Data, base: String, target: String) -> Bool {
        let html = String(decoding: body, as: UTF8.self)
        // Quick byte tests before the expressions. ASCII bodies (nearly all) answer "no word, no match" from
        // their lower-cased bytes; in others a non-ASCII letter may match an ASCII one case-insensitively (`ſ`).
        let raw = [UInt8](body)
        let ascii = ASCII.isASCII(raw)
        let lowered = ascii ? raw.map(SecretPrefilter.lowered) : []
        func mayHold(_ word: String) -> Bool { !ascii || ASCII.contains(Array(word.utf8), in: lowered) }
        for m in mayHold("refresh") ? metaRefresh.matches(in: html) : [] {
            if let u = m.group(1, in: html as NSString),
                let r = resolve(BrowserEscapes.decodeCharacterReferences(u), against: base),
                canonical(r) == target
            {
                return true
            }
        }
        let submits =
            ascii
            ? mayHold(".submit()") || mayHold("requestsubmit(")
            : html.lowercased().contains(".submit()") || html.lowercased().contains("requestsubmit(")
        if submits {
            for m in formAction.matches(in: html) {
                if let a = m.group(1, in: html as NSString),
                    let r = resolve(BrowserEscapes.decodeCharacterReferences(a), against: base),
                    canonical(r) == target
                {
                    return true
                }
            }
        }
        // Case-sensitive, ASCII: a byte test in any body (invalid bytes decode to U+FFFD, never to ASCII).
        for m in ASCII.contains(Array("location".utf8), in: raw) ? scriptLocation.matches(in: html) : [] {
            if let u = m.group(1, in: html as NSString), let r = resolve(u, against: base), canonical(r) == target {
                return true
            }
        }
        return false
    }

    static let metaRefresh = RegexBox(
        #"<meta[^>]+http-equiv\s*=\s*["']?refresh["']?[^>]*content\s*=\s*["']?\s*\d*\s*[;,]?\s*url\s*=\s*['"]?([^"'>\s]+)"#,
        options: [.caseInsensitive])
    static let formAction = RegexBox(#"<form[^>]*\saction\s*=\s*["']([^"']*)["']"#, options: [.caseInsensitive])
    static let scriptLocation = RegexBox(#"location(?:\.href)?\s*(?:=|\.replace\(|\.assign\()\s*["']([^"']+)["']"#)

    static func tapReason(from prev: HAREntry, to next: HAREntry) -> String {
        let referer = next.request.headers.first(named: "Referer")
        var why = "inferred: \(prev.request.url) does not go to it by itself"
        if let referer,
            canonical(referer) == canonical(prev.request.url)
                || URLTools.host(referer).map({ $0 == URLTools.host(prev.request.url) }) == true
        {
            why += " (Referer: \(referer))"
        } else if let referer {
            why += " (Referer: \(referer), not the previous page: check the step)"
        }
        if next.request.method == "POST" { why += "; a form the user submitted" }
        return why
    }

    static func refreshURL(_ header: String, base: String) -> String? {
        // `5; url=https://…` or `0;URL='…'`
        guard let r = header.range(of: "url", options: .caseInsensitive) else { return nil }
        var rest = header[r.upperBound...].drop { $0 == " " }
        guard rest.first == "=" else { return nil }
        rest = rest.dropFirst().drop { $0 == " " }
        let u = rest.trimmingCharacters(in: CharacterSet(charactersIn: "'\" "))
        return resolve(u, against: base)
    }

    static func isWeb(_ url: String) -> Bool { URLTools.isWeb(url) }

    static func resolve(_ ref: String, against base: String) -> String? { URLTools.resolve(ref, against: base) }

    /// For matching recorded URLs: the simulator's page key (no fragment, the URL core's serialisation).
    static func canonical(_ url: String) -> String { URLTools.pageKey(url) }
}
