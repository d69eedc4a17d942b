// Writes a HARLog back as HAR 1.2 JSON (e.g. a redacted copy of a recording). Only what HARLog holds is
// written; bodies that are UTF-8 are written as text, other bytes as base64.
import Foundation

extension HARLog {
    /// HAR 1.2 JSON, keys sorted, so the same log always gives the same bytes.
    public func jsonData() throws -> Data {
        func pairs(_ list: [HARHeader]) -> [[String: Any]] { list.map { ["name": $0.name, "value": $0.value] } }
        var entriesOut: [[String: Any]] = []
        for e in entries {
            var request: [String: Any] = [
                "method": e.request.method, "url": e.request.url, "httpVersion": e.request.httpVersion,
                "headers": pairs(e.request.headers), "queryString": [Any](), "cookies": [Any](),
                "headersSize": -1, "bodySize": -1,
            ]
            if let post = e.request.postData {
                var p: [String: Any] = ["mimeType": post.mimeType, "params": pairs(post.params)]
                if let text = post.text { p["text"] = text }
                request["postData"] = p
            }
            var content: [String: Any] = ["mimeType": e.response.content.mimeType, "size": e.response.content.body?.count ?? 0]
            if let body = e.response.content.body {
                if let text = String(validating: body, as: UTF8.self) {
                    content["text"] = text
                } else {
                    content["text"] = body.base64EncodedString()
                    content["encoding"] = "base64"
                }
            }
            var entry: [String: Any] = [
                "startedDateTime": e.startedDateTime,
                "time": 0,
                "request": request,
                "response": [
                    "status": e.response.status, "statusText": e.response.statusText, "httpVersion": "",
                    "headers": pairs(e.response.headers), "cookies": [Any](), "content": content,
                    "redirectURL": e.response.redirectURL, "headersSize": -1, "bodySize": -1,
                ] as [String: Any],
                "cache": [String: Any](),
                "timings": ["send": 0, "wait": 0, "receive": 0],
                "_resourceType": e.resourceType,
            ]
            if let pageref = e.pageref { entry["pageref"] = pageref }
            entriesOut.append(entry)
        }
        let log: [String: Any] = [
            "version": "1.2",
            "creator": ["name": creator.isEmpty ? "plainview" : creator, "version": ""],
            "pages": pages.map {
                ["id": $0.id, "title": $0.title, "startedDateTime": $0.startedDateTime, "pageTimings": [String: Any]()]
            },
            "entries": entriesOut,
        ]
        return try JSONSerialization.data(
            withJSONObject: ["log": log], options: [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes])
    }
}
