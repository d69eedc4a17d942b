import AppSwitch
import Foundation
import NavigationPolicy

/// A recorded response for one URL (and optionally one method and context).
public struct RecordedPage: Sendable {
    public var url: String
    /// Upper-case method; nil matches any.
    public var method: String?
    /// Restricts the page to the web view or the browser; nil serves both.
    public var context: PageContext?
    /// Served in order; the last one repeats.
    public var responses: [RecordedResponse]
    /// Responses that wait for the user to complete in an app (`afterApp`), by their place in `responses`: the
    /// server answers so only once that app has completed in the run (BankID's or Swish's servers told the
    /// merchant's), and until then answers with the response before it.
    public var afterApp: [Int: String] = [:]
    /// A cookie (`name` or `name=value`) the request must carry, set earlier in the same context.
    public var requireCookie: String?
    /// Served when the required cookie is missing (default: a 403 page saying so).
    public var withoutCookie: RecordedResponse?
    /// Line in the flow file (for messages).
    public var line: Int?

    public init(
        url: String, method: String? = nil, context: PageContext? = nil, responses: [RecordedResponse],
        requireCookie: String? = nil, withoutCookie: RecordedResponse? = nil, line: Int? = nil
    ) {
        self.url = url
        self.method = method
        self.context = context
        self.responses = responses
        self.requireCookie = requireCookie
        self.withoutCookie = withoutCookie
        self.line = line
    }
}

extension RecordedPage {
    /// What a request without the required cookie gets: `withoutCookie`, else a 403 "session expired" page.
    public var missingCookieResponse: RecordedResponse {
        withoutCookie
            ?? RecordedResponse(
                status: 403, headers: [.init("Content-Type", "text/html")],
                html: "<html><head><title>Session expired</title></head><body><p>Your session has expired.</p></body></html>")
    }

    /// True when a request's `Cookie` header values carry the page's `requireCookie` (`name` or
    /// `name=value`); true for a page that requires none. What `serve --pages` checks for a real browser.
    public func isSatisfied(byCookieHeaders headers: [String]) -> Bool {
        guard let requirement = requireCookie else { return true }
        let (name, value) = CookieJar.split(requirement)
        for header in headers {
            for pair in header.split(separator: ";") {
                let kv = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                guard kv.first.map({ $0.trimmingCharacters(in: .whitespaces) }) == name else { continue }
                let v = kv.count == 2 ? kv[1].trimmingCharacters(in: .whitespaces) : ""
                if value == nil || v == value { return true }
            }
        }
        return false
    }
}
