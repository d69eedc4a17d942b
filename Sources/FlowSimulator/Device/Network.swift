// The simulated network: answers from the flow's recorded pages, in memory. No sockets.
import PlainviewURL

/// What the network answered for one request.
enum FetchResult {
    /// A recorded response. `missingCookie` is set when the page required a cookie the jar lacked
    /// (the response is then the page's `withoutCookie` answer or a 403).
    case response(RecordedResponse, missingCookie: String?)
    /// Nothing recorded for this request.
    case unrecorded
    /// A live network (`plainview record`) got no answer from the server.
    case failed(String)
}

/// What the world knows of a request beyond its URL and method: what a live network sends and records.
struct FetchDetail {
    var kind: LiveRequest.Kind = .resource
    /// The engine's request headers and body, when it reported them.
    var headers: [RecordedResponse.Header] = []
    var body: [UInt8] = []
}

/// The recorded pages with their per-page response counters (the server's state).
struct Network {
    let pages: [RecordedPage]
    private let keys: [String]
    private var served: [Int]
    /// Answers what no recorded page answers (the helper endpoints), if the flow names them.
    let responder: (@Sendable (String, String) -> RecordedResponse?)?
    /// `plainview record`: every request goes here instead (the recorded pages are not consulted).
    let live: (any LiveNetwork)?
    /// The apps the user completed in during the run: what their servers told the merchant's, so the responses
    /// waiting for them (`RecordedPage.afterApp`) are served.
    var completedApps: Set<String> = []

    init(
        pages: [RecordedPage], responder: (@Sendable (String, String) -> RecordedResponse?)? = nil,
        live: (any LiveNetwork)? = nil
    ) {
        self.pages = pages
        self.responder = responder
        self.live = live
        self.keys = pages.map { URLTools.pageKey($0.url) }
        self.served = Array(repeating: 0, count: pages.count)
    }

    /// The recorded page for a request: the most specific match (method and context named beat unnamed).
    func index(for url: String, method: String, context: PageContext) -> Int? {
        let key = URLTools.pageKey(url)
        var best: (Int, Int)?
        for (i, p) in pages.enumerated() where keys[i] == key {
            if let m = p.method, m != method { continue }
            if let c = p.context, c != context { continue }
            let score = (p.method == nil ? 0 : 1) + (p.context == nil ? 0 : 2)
            if let b = best, b.1 >= score { continue }
            best = (i, score)
        }
        return best?.0
    }

    mutating func fetch(
        _ url: String, method: String, context: PageContext, jar: CookieJar, detail: FetchDetail = FetchDetail()
    ) -> FetchResult {
        if let live {
            var headers = detail.headers
            // An engine that does not report its cookies (Chromium pauses requests before it adds them) gets the
            // world's jar, which holds every cookie the servers set in this context.
            if !headers.contains(where: { $0.name.lowercased() == "cookie" }), let cookie = jar.header(for: url) {
                headers.append(.init("Cookie", cookie))
            }
            let request = LiveRequest(
                method: method, url: url, headers: headers, body: detail.body, context: context, kind: detail.kind)
            switch live.fetch(request) {
            case .success(let r): return .response(r, missingCookie: nil)
            case .failure(let f): return .failed("\(method) \(url): \(f.message)")
            }
        }
        guard let i = index(for: url, method: method, context: context) else {
            if let r = responder?(method, url) { return .response(r, missingCookie: nil) }
            return .unrecorded
        }
        let page = pages[i]
        if let need = page.requireCookie, !jar.satisfies(need, for: url) {
            return .response(page.missingCookieResponse, missingCookie: need)
        }
        guard !page.responses.isEmpty else { return .unrecorded }
        var n = min(served[i], page.responses.count - 1)
        served[i] += 1
        // The server's answer cannot move past a response that waits for an app the user has not completed in.
        if let gate = page.afterApp.filter({ !completedApps.contains($0.value) }).keys.min(), n >= gate { n = gate - 1 }
        return .response(page.responses[n], missingCookie: nil)
    }
}
