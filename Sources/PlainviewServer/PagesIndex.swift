// The recorded Pages, served so a real browser can walk a flow: every page a flow file (`flow.yaml`, the
// simulator's format: `pages: [{url, method, in, file | status + location, headers, responses: […]}]`) records
// is served at its recorded path and query, whatever host it was recorded on; and each flow folder's HTML
// files at `/<flow>/<file>`; `/` lists both. Only what is indexed when the server starts is served: request
// paths are looked up in the index, never joined onto the file system, so `..` and symlinks cannot escape.
import PlainviewURL
import PaymentURLHelpers
import Foundation
import NavigationPolicy
import Yams

/// One recorded response.
struct RecordedPage: Sendable {
    var status: Int
    var file: String?
    var headers: [HelperHeader]
    var flow: String
}

struct PagesIndex: Sendable {
    /// URL path (`/flow/page.html`) → absolute file path.
    let files: [String: String]
    /// "METHOD path?query" → the recorded response (the first flow, sorted by name, wins a conflict).
    let recorded: [String: RecordedPage]
    static let maxFileSize = 5 << 20

    init(directory: String) throws {
        let fm = FileManager.default
        var isDir: ObjCBool = false
        guard fm.fileExists(atPath: directory, isDirectory: &isDir), isDir.boolValue else {
            throw HelperConfigurationError(key: "pages", message: "'\(directory)' is not a folder")
        }
        let root = URL(fileURLWithPath: directory).standardizedFileURL.resolvingSymlinksInPath()
        var files: [String: String] = [:]
        var recorded: [String: RecordedPage] = [:]
        let flows = (try? fm.contentsOfDirectory(atPath: root.path)) ?? []
        for flow in flows.sorted() where Self.isSafeName(flow) {
            let flowURL = root.appendingPathComponent(flow)
            var flowIsDir: ObjCBool = false
            guard fm.fileExists(atPath: flowURL.path, isDirectory: &flowIsDir), flowIsDir.boolValue else { continue }
            for file in ((try? fm.contentsOfDirectory(atPath: flowURL.path)) ?? []).sorted() where Self.isSafeName(file) {
                let lower = file.lowercased()
                guard lower.hasSuffix(".html") || lower.hasSuffix(".htm") else { continue }
                let fileURL = flowURL.appendingPathComponent(file).resolvingSymlinksInPath()
                // A symlink pointing outside the Pages folder is not served.
                guard fileURL.path.hasPrefix(root.path + "/") else { continue }
                files["/\(flow)/\(file)"] = fileURL.path
            }
            for name in ["flow.yaml", "flow.yml"] {
                let flowFile = flowURL.appendingPathComponent(name)
                guard let text = try? String(contentsOf: flowFile, encoding: .utf8) else { continue }
                for (key, page) in Self.recordedPages(yaml: text, flow: flow, flowDirectory: flowURL, root: root)
                where recorded[key] == nil {
                    recorded[key] = page
                }
            }
        }
        self.files = files
        self.recorded = recorded
    }

    /// The pages a flow file records. A flow file that does not parse is skipped (the simulator reports it).
    static func recordedPages(yaml: String, flow: String, flowDirectory: URL, root: URL) -> [(String, RecordedPage)] {
        guard let document = try? Yams.load(yaml: yaml) as? [String: Any], let pages = document["pages"] as? [Any] else { return [] }
        var browserFirst: [(key: String, page: RecordedPage, inBrowser: Bool)] = []
        for case let entry as [String: Any] in pages {
            guard let url = entry["url"] as? String, let key = requestKey(url: url, method: entry["method"] as? String) else { continue }
            // With a sequence of responses, a browser walking the flow sees the first.
            let response = (entry["responses"] as? [Any])?.first as? [String: Any] ?? entry
            var headers: [HelperHeader] = []
            if let location = response["location"] as? String, !PercentEncoding.containsControl(location) {
                headers.append(HelperHeader("Location", location))
            }
            if let extra = response["headers"] as? [String: Any] {
                for (name, value) in extra {
                    guard let v = value as? String, !PercentEncoding.containsControl(v), !PercentEncoding.containsControl(name) else { continue }
                    headers.append(HelperHeader(name, v))
                }
            }
            var file: String? = nil
            if let relative = response["file"] as? String {
                let resolved = flowDirectory.appendingPathComponent(relative).standardizedFileURL.resolvingSymlinksInPath()
                guard resolved.path.hasPrefix(root.path + "/") else { continue }
                file = resolved.path
            }
            let status = response["status"] as? Int ?? (headers.contains { $0.name == "Location" } ? 302 : 200)
            guard (100...599).contains(status) else { continue }
            let place = (entry["in"] as? String) ?? "browser"
            browserFirst.append((key, RecordedPage(status: status, file: file, headers: headers, flow: flow), place == "browser"))
        }
        // The same URL recorded in the web view and in the browser: a real browser gets the browser's answer.
        return browserFirst.filter(\.inBrowser).map { ($0.key, $0.page) } + browserFirst.filter { !$0.inBrowser }.map { ($0.key, $0.page) }
    }

    /// "METHOD /path?query" of an absolute recorded URL.
    static func requestKey(url: String, method: String?) -> String? {
        guard let u = WebURL(url), u.origin != nil else { return nil }
        return "\((method ?? "GET").uppercased()) \(u.requestTarget)"
    }

    /// Names made of unreserved URI characters only, not starting with a dot (no hidden files, no `..`).
    static func isSafeName(_ name: String) -> Bool {
        !name.isEmpty && !name.hasPrefix(".") && name.utf8.allSatisfy(PercentEncoding.isUnreserved)
    }

    func response(for request: HelperRequest) -> HelperResponse? {
        let path = String(request.target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
        let lookupMethod = request.method == "HEAD" ? "GET" : request.method
        if let page = recorded["\(lookupMethod) \(request.target)"] {
            return serve(page: page, head: request.method == "HEAD")
        }
        guard request.method == "GET" || request.method == "HEAD" else { return nil }
        if path == "/" {
            var items = files.keys.sorted().map { "<li><a href=\"\(HTMLEscaping.escape($0))\">\(HTMLEscaping.escape($0))</a></li>" }
            items += recorded.keys.sorted().filter { $0.hasPrefix("GET ") }.map { key in
                let target = String(key.dropFirst(4))
                return "<li><a href=\"\(HTMLEscaping.escape(target))\">\(HTMLEscaping.escape(target))</a> (recorded, \(HTMLEscaping.escape(recorded[key]?.flow ?? "")))</li>"
            }
            let body = "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>Pages</title></head><body><h1>Pages</h1><ul>\n\(items.joined(separator: "\n"))\n</ul></body></html>\n"
            return HelperResponse(status: 200, headers: [HelperHeader("Content-Type", "text/html; charset=utf-8")],
                                  body: request.method == "HEAD" ? "" : body)
        }
        guard let file = files[path] else { return nil }
        return serve(page: RecordedPage(status: 200, file: file, headers: [], flow: ""), head: request.method == "HEAD")
    }

    func serve(page: RecordedPage, head: Bool) -> HelperResponse {
        var body = ""
        var headers = page.headers
        if let file = page.file {
            guard let attrs = try? FileManager.default.attributesOfItem(atPath: file),
                  let size = attrs[.size] as? Int, size <= Self.maxFileSize,
                  let data = FileManager.default.contents(atPath: file) else {
                return HelperEndpoints.problemResponse(HelperProblem(type: "about:blank", title: "Not Found", status: 404,
                                                                     detail: "The recorded page cannot be read."))
            }
            body = String(decoding: data, as: UTF8.self)
            if !headers.contains(where: { $0.name.lowercased() == "content-type" }) {
                headers.insert(HelperHeader("Content-Type", "text/html; charset=utf-8"), at: 0)
            }
        }
        headers.append(HelperHeader("X-Content-Type-Options", "nosniff"))
        return HelperResponse(status: page.status, headers: headers, body: head ? "" : body)
    }
}
