// A live recording as a HAR log: the same shape an import reads, so the recording becomes a flow by the one
// drafting, redaction and writing code there is. The recorder knows what each request was for, so the log says it
// exactly: the role (document, frame, subresource), the Fetch Metadata a browser sends, and who started it.
import FlowImport
import FlowSimulator
import Foundation

extension LiveRecording {
    /// The exchanges as HAR entries, in the order they happened; a request that got no answer is an entry with
    /// status 0, as browsers record an aborted one.
    public func harLog(creator: String) -> HARLog {
        let entries = recorded.enumerated().map { i, x in Self.entry(i, x) }
        return HARLog(version: "1.2", creator: creator, entries: entries)
    }

    static func entry(_ index: Int, _ x: Exchange) -> HAREntry {
        var headers = x.sent.filter { !$0.name.lowercased().hasPrefix("sec-fetch-") }.map {
            HARHeader(name: $0.name, value: $0.value)
        }
        let role: HARRole
        let type: String
        var initiator: String?
        switch x.request.kind {
        case .document(let frame, let trigger, let gesture):
            let sub = frame == .sub
            role = sub ? .frame : .document
            type = sub ? "iframe" : "document"
            headers.append(HARHeader(name: "Sec-Fetch-Dest", value: sub ? "iframe" : "document"))
            headers.append(HARHeader(name: "Sec-Fetch-Mode", value: "navigate"))
            if gesture { headers.append(HARHeader(name: "Sec-Fetch-User", value: "?1")) }
            switch trigger {
            case .script, .metaRefresh: initiator = "script"
            case .initialLoad: initiator = sub ? "parser" : "other"
            default: initiator = "other"
            }
        case .resource:
            role = .subresource
            type = "other"
        }
        let contentType = x.sent.first { $0.name.lowercased() == "content-type" }?.value ?? ""
        let post =
            x.request.body.isEmpty
            ? nil : HARPostData(mimeType: contentType, text: String(decoding: x.request.body, as: UTF8.self))
        let request = HARRequest(
            method: x.request.method, url: x.request.url, httpVersion: "HTTP/1.1", headers: headers, postData: post)
        let response: HARResponse
        switch x.result {
        case .success(let r):
            let mime = r.headers.first { $0.name.lowercased() == "content-type" }?.value ?? ""
            response = HARResponse(
                status: r.status, headers: r.headers.map { HARHeader(name: $0.name, value: $0.value) },
                content: HARContent(mimeType: mime, body: Data(r.body)))
        case .failure:
            response = HARResponse(status: 0)
        }
        let seconds = x.started.timeIntervalSince1970
        return HAREntry(
            fileIndex: index, startedDateTime: x.started.formatted(.iso8601), startedAt: seconds, request: request,
            response: response, resourceType: type, initiatorType: initiator, role: role,
            context: x.request.context.rawValue)
    }
}
