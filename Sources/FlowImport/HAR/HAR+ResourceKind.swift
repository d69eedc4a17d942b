// Telling documents (and frames, and form-post navigations) from subresources.
//
// Order of evidence, most specific first:
// 1. the recorder's own type: Chrome/Edge/WebPageTest `_resourceType` (`document`, `script`, `xhr` …),
//    Firefox's content-policy names when its export carries them (`_cause.type`: `document`, `subdocument`,
//    `img`, `xhr`, `beacon` …); a Chrome `document` whose `Sec-Fetch-Dest` is `iframe` is a frame;
// 2. the request's Fetch Metadata (`Sec-Fetch-Dest`, `Sec-Fetch-Mode`), which every current browser sends
//    and every recorder keeps (Firefox, Safari and proxies such as Charles or mitmproxy write no type);
// 3. `X-Requested-With: XMLHttpRequest`, the `Accept` header (navigations ask for `text/html`);
// 4. the response's mime type (`text/html`, `application/xhtml+xml`);
// 5. a redirect with no other evidence takes the role of the entry it leads to, else counts as a document
//    (a redirect whose target was never recorded, e.g. to a custom scheme, is exactly where an app switch
//    happens, so it must not be dropped).
import Foundation
import PlainviewURL

enum HARClassifier {
    static let documentTypes: Set<String> = ["document", "main_frame", "mainframe", "main-frame", "navigation"]
    static let frameTypes: Set<String> = ["subdocument", "sub_frame", "subframe", "iframe", "frame"]
    static let subresourceTypes: Set<String> = [
        "script", "stylesheet", "style", "css", "image", "img", "imageset", "media", "video", "audio", "font",
        "xhr", "xmlhttprequest", "fetch", "websocket", "eventsource", "manifest", "ping", "beacon", "texttrack",
        "track", "prefetch", "preflight", "cspviolationreport", "csp_report", "csp", "signedexchange",
        "object_subrequest", "xslt", "xbl", "dtd", "worker", "sharedworker", "serviceworker", "favicon",
        "speculation", "web_manifest", "json", "js",
    ]
    static let frameDestinations: Set<String> = ["iframe", "frame", "embed", "object", "fencedframe"]
    /// Marks a role decided by a redirect with no evidence; resolved once entries are in time order.
    static let pendingRedirect = "inferred:redirect"

    /// The resource type to record (the declared one lower-cased, or `inferred:WHY`) and the role.
    static func classify(declared: String?, request: HARRequest, response: HARResponse) -> (String, HARRole) {
        let dest = request.headers.first(named: "Sec-Fetch-Dest")?.lowercased()
        if let declared {
            let t = declared.lowercased()
            if documentTypes.contains(t) {
                if let dest, frameDestinations.contains(dest) { return (t, .frame) }
                return (t, .document)
            }
            if frameTypes.contains(t) { return (t, .frame) }
            if subresourceTypes.contains(t) { return (t, .subresource) }
            // `other` or a type we do not know: fall through to the evidence below.
        }
        return infer(request: request, response: response, dest: dest)
    }

    static func infer(request: HARRequest, response: HARResponse, dest: String?) -> (String, HARRole) {
        if let dest, !dest.isEmpty {
            if dest == "document" { return ("inferred:sec-fetch-dest", .document) }
            if frameDestinations.contains(dest) { return ("inferred:sec-fetch-dest", .frame) }
            return ("inferred:sec-fetch-dest=\(dest)", .subresource)
        }
        if let mode = request.headers.first(named: "Sec-Fetch-Mode")?.lowercased() {
            if mode == "navigate" { return ("inferred:sec-fetch-mode", .document) }
            if mode == "nested-navigate" { return ("inferred:sec-fetch-mode", .frame) }
            if ["cors", "no-cors", "same-origin", "websocket"].contains(mode) {
                return ("inferred:sec-fetch-mode=\(mode)", .subresource)
            }
        }
        // Android's WebView sends `X-Requested-With: <app package>` on every request, so only the
        // jQuery-style value marks an XHR.
        if request.headers.first(named: "X-Requested-With")?.lowercased() == "xmlhttprequest" {
            return ("inferred:xhr", .subresource)
        }
        let accept = request.headers.first(named: "Accept")?.lowercased()
        if let accept, accept.contains("text/html") || accept.contains("application/xhtml+xml") {
            return ("inferred:accept", .document)
        }
        if (300..<400).contains(response.status) { return (pendingRedirect, .document) }
        let mime = response.contentType.lowercased()
        if mime.hasPrefix("text/html") || mime.hasPrefix("application/xhtml+xml") {
            return ("inferred:mime", .document)
        }
        return ("inferred:other", .subresource)
    }

    /// A redirect without evidence takes the role of the later entry its Location leads to (if any).
    static func resolveRedirectRoles(_ entries: inout [HAREntry]) {
        guard entries.contains(where: { $0.resourceType == pendingRedirect }) else { return }
        // Walk backwards so a chain of such redirects resolves from its end.
        var firstIndexOfURL: [String: Int] = [:]
        for i in entries.indices.reversed() {
            if entries[i].resourceType == pendingRedirect {
                entries[i].resourceType = "inferred:redirect"
                if let loc = entries[i].response.location,
                    let target = URLTools.resolve(loc, against: entries[i].request.url),
                    let j = firstIndexOfURL[URLTools.pageKey(target)]
                {
                    entries[i].role = entries[j].role
                }
            }
            firstIndexOfURL[URLTools.pageKey(entries[i].request.url)] = i
        }
    }
}
