// HAR 1.2 (and 1.1) recordings: the parts a navigation replay needs, as Sendable values.
// Reading is in HARReader.swift, telling documents from subresources in HAR+ResourceKind.swift.
import PlainviewSupport
import PlainviewURL
import Foundation

/// One recorded browser session: pages and entries, entries in time order.
public struct HARLog: Sendable, Hashable {
    /// `log.version` as written (`"1.2"`, `"1.1"`; empty when absent).
    public var version: String
    /// `log.creator.name` (`"WebInspector"`, `"Firefox"`, `"Charles Proxy"` …), empty when absent.
    public var creator: String
    public var pages: [HARPage]
    /// Sorted by `startedDateTime` (stable: equal times keep file order).
    public var entries: [HAREntry]
    /// What the reader did on a best-effort basis (reordered entries, unparseable times, dropped bodies).
    public var notes: [HARNote]

    public init(
        version: String = "1.2", creator: String = "", pages: [HARPage] = [], entries: [HAREntry] = [],
        notes: [HARNote] = []
    ) {
        self.version = version
        self.creator = creator
        self.pages = pages
        self.entries = entries
        self.notes = notes
    }

    /// The entries a navigation replay uses: top-level documents, frame documents and form-post navigations,
    /// in time order. Subresources (scripts, images, XHR, fetch …) are left out.
    public var navigationEntries: [HAREntry] { Array(navigations) }
    /// `navigationEntries` read in place, without copying the entries.
    public var navigations: LazyFilterCollection<[HAREntry]> { entries.lazy.filter { $0.role != .subresource } }
}

/// `log.pages[i]`.
public struct HARPage: Sendable, Hashable {
    public var id: String
    public var title: String
    public var startedDateTime: String
    public init(id: String, title: String = "", startedDateTime: String = "") {
        self.id = id
        self.title = title
        self.startedDateTime = startedDateTime
    }
}

/// A best-effort decision the reader took, with where in the file it applied.
public struct HARNote: Sendable, Hashable, CustomStringConvertible {
    /// JSON path such as `log.entries[12].startedDateTime`.
    public var path: String
    public var message: String
    public init(path: String, _ message: String) {
        self.path = path
        self.message = message
    }
    public var description: String { "\(path): \(message)" }
}

/// One name/value pair (headers, query items, cookies, form params). Order and duplicates are kept.
public struct HARHeader: Sendable, Hashable {
    public var name: String
    public var value: String
    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }

    /// Header names compared as `caseInsensitiveCompare` does; two ASCII names (all of them, in practice) byte by
    /// byte, A–Z as a–z.
    static func sameName(_ a: String, _ b: String) -> Bool {
        let x = a.utf8, y = b.utf8
        guard ASCII.isASCII(x), ASCII.isASCII(y) else { return a.caseInsensitiveCompare(b) == .orderedSame }
        return x.count == y.count && zip(x, y).allSatisfy { SecretPrefilter.lowered($0) == SecretPrefilter.lowered($1) }
    }
}

extension Array where Element == HARHeader {
    /// The first value of header `name` (case-insensitive), if any.
    public func first(named name: String) -> String? {
        first { HARHeader.sameName($0.name, name) }?.value
    }
    /// Every value of header `name` (case-insensitive), in order (Set-Cookie may repeat).
    public func all(named name: String) -> [String] {
        filter { HARHeader.sameName($0.name, name) }.map(\.value)
    }
}

/// `log.entries[i]`: one request and its response.
public struct HAREntry: Sendable, Hashable {
    /// Position in the file (0-based), before sorting: used in error paths and reports.
    public var fileIndex: Int
    /// `startedDateTime` as written.
    public var startedDateTime: String
    /// Seconds since 1970 parsed from `startedDateTime`; nil when it could not be parsed.
    public var startedAt: Double?
    public var pageref: String?
    public var request: HARRequest
    public var response: HARResponse
    /// The recorder's resource type, lower-cased (`document`, `script`, `xhr`, Firefox's `subdocument` …),
    /// or the inferred one (prefixed `inferred:`) when the recorder wrote none.
    public var resourceType: String
    /// Chrome's `_initiator.type` (`parser`, `script`, `other` …) when present.
    public var initiatorType: String?
    /// What the entry is for a navigation replay.
    public var role: HARRole
    /// Where the request was made, when the recorder knows (`plainview record`: `webview` or `browser`); nil for a
    /// browser's or proxy's recording, which holds one context.
    public var context: String?

    public init(
        fileIndex: Int, startedDateTime: String = "", startedAt: Double? = nil, pageref: String? = nil,
        request: HARRequest, response: HARResponse, resourceType: String = "document",
        initiatorType: String? = nil, role: HARRole = .document, context: String? = nil
    ) {
        self.context = context
        self.fileIndex = fileIndex
        self.startedDateTime = startedDateTime
        self.startedAt = startedAt
        self.pageref = pageref
        self.request = request
        self.response = response
        self.resourceType = resourceType
        self.initiatorType = initiatorType
        self.role = role
    }

    /// The JSON path of this entry in the file it came from.
    public var path: String { "log.entries[\(fileIndex)]" }

    /// True for a document navigation that submitted a form (POST, or a GET whose recorder says "form").
    public var isFormSubmission: Bool {
        role != .subresource && request.method == "POST"
    }
}

/// What an entry is to a navigation replay.
public enum HARRole: String, Sendable, Hashable, Codable, CaseIterable {
    /// A top-level document load (typed URL, link, redirect hop, refresh, form post).
    case document
    /// A document loaded into an `<iframe>`/`<frame>`.
    case frame
    /// Everything a page loads for itself: scripts, styles, images, fonts, XHR/fetch, beacons …
    case subresource
}

public struct HARRequest: Sendable, Hashable {
    /// Upper-cased (`GET`, `POST`).
    public var method: String
    public var url: String
    public var httpVersion: String
    public var headers: [HARHeader]
    public var postData: HARPostData?
    public init(
        method: String = "GET", url: String, httpVersion: String = "", headers: [HARHeader] = [],
        postData: HARPostData? = nil
    ) {
        self.method = method
        self.url = url
        self.httpVersion = httpVersion
        self.headers = headers
        self.postData = postData
    }
}

/// `request.postData`: either `params` (form fields) or `text`, or both as recorders write them.
public struct HARPostData: Sendable, Hashable {
    public var mimeType: String
    public var text: String?
    public var params: [HARHeader]
    public init(mimeType: String = "", text: String? = nil, params: [HARHeader] = []) {
        self.mimeType = mimeType
        self.text = text
        self.params = params
    }

    /// The form fields: `params` when given, else `text` parsed as `application/x-www-form-urlencoded`
    /// when the mime type says so (or is empty and the text looks like it).
    public var formFields: [HARHeader] {
        if !params.isEmpty { return params }
        guard let text else { return [] }
        let mime = mimeType.lowercased()
        let looksForm =
            mime.hasPrefix("application/x-www-form-urlencoded")
            || (mime.isEmpty && !text.contains("{") && text.contains("="))
        guard looksForm else { return [] }
        return HARForm.decode(text)
    }
}

public struct HARResponse: Sendable, Hashable {
    /// HTTP status; 0 for aborted or blocked requests (as Chrome and Firefox record them).
    public var status: Int
    public var statusText: String
    public var headers: [HARHeader]
    public var content: HARContent
    /// `response.redirectURL` as written (often empty; `Location` is the authority).
    public var redirectURL: String
    public init(
        status: Int, statusText: String = "", headers: [HARHeader] = [], content: HARContent = HARContent(),
        redirectURL: String = ""
    ) {
        self.status = status
        self.statusText = statusText
        self.headers = headers
        self.content = content
        self.redirectURL = redirectURL
    }

    /// The redirect target: `Location`, else `redirectURL`, for 3xx responses only.
    public var location: String? {
        guard (300..<400).contains(status) else { return nil }
        if let l = headers.first(named: "Location"), !l.isEmpty { return l }
        return redirectURL.isEmpty ? nil : redirectURL
    }
    /// The `Refresh` header value (`5; url=…`), if any.
    public var refreshHeader: String? { headers.first(named: "Refresh") }
    /// Every `Set-Cookie` header value, in order.
    public var setCookies: [String] { headers.all(named: "Set-Cookie") }
    /// `Content-Type` header, else `content.mimeType`.
    public var contentType: String {
        if let c = headers.first(named: "Content-Type"), !c.isEmpty { return c }
        return content.mimeType
    }
}

/// `response.content`: the body as bytes (base64 decoded when `encoding` is `base64`).
public struct HARContent: Sendable, Hashable {
    public var mimeType: String
    /// The decoded body; nil when the recording holds none (or the reader dropped a subresource body).
    public var body: Data?
    /// `content.encoding` as written (`base64` or empty).
    public var encoding: String
    public init(mimeType: String = "", body: Data? = nil, encoding: String = "") {
        self.mimeType = mimeType
        self.body = body
        self.encoding = encoding
    }

    /// The charset named by the mime type (`text/html; charset=iso-8859-1` → `iso-8859-1`), lower-cased.
    public var charset: String? { HARContent.charset(in: mimeType) }

    static func charset(in contentType: String) -> String? {
        for part in contentType.split(separator: ";").dropFirst() {
            let kv = part.split(separator: "=", maxSplits: 1)
            guard kv.count == 2, kv[0].trimmingCharacters(in: .whitespaces).lowercased() == "charset" else { continue }
            let v = kv[1].trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "\"'"))
            return v.isEmpty ? nil : v.lowercased()
        }
        return nil
    }
}

/// `application/x-www-form-urlencoded` encoding and decoding (WHATWG URL standard, "urlencoded parser").
public enum HARForm {
    /// Splits on `&`, then on the first `=`; `+` is a space; percent-escapes decoded (invalid ones kept as is).
    public static func decode(_ text: String) -> [HARHeader] {
        text.split(separator: "&", omittingEmptySubsequences: true).map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = unescape(String(parts[0]))
            let value = parts.count > 1 ? unescape(String(parts[1])) : ""
            return HARHeader(name: name, value: value)
        }
    }

    /// `+` → space, then percent-decoding (an invalid `%` sequence stays as written; bytes that are not
    /// UTF-8 after decoding become U+FFFD, as browsers do).
    static func unescape(_ s: String) -> String { PercentEncoding.decode(s, plusAsSpace: true) }

    static func percentDecode(_ s: String) -> String { PercentEncoding.decode(s) }
}
