// The recorded Pages, served so a real browser can walk a flow. The flow-file format (recorded URL → file,
// status, headers) is not settled yet, so for now each flow folder's HTML files are served statically at
// `/<flow>/<file>`, and `/` lists them. Only files found when the server starts are served: request paths
// are looked up in that index, never joined onto the file system, so `..` and symlinks cannot escape.
import Foundation
import NavigationPolicy

struct PagesIndex: Sendable {
    /// URL path (`/flow/page.html`) → absolute file path.
    let files: [String: String]
    static let maxFileSize = 5 << 20

    init(directory: String) throws {
        let fm = FileManager.default
        var isDir: ObjCBool = false
        guard fm.fileExists(atPath: directory, isDirectory: &isDir), isDir.boolValue else {
            throw HelperConfigurationError(key: "pages", message: "'\(directory)' is not a folder")
        }
        let root = URL(fileURLWithPath: directory).standardizedFileURL.resolvingSymlinksInPath()
        var files: [String: String] = [:]
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
        }
        self.files = files
    }

    /// Names made of unreserved URI characters only, not starting with a dot (no hidden files, no `..`).
    static func isSafeName(_ name: String) -> Bool {
        !name.isEmpty && !name.hasPrefix(".") && name.utf8.allSatisfy(URIText.isUnreserved)
    }

    func response(for request: HelperRequest) -> HelperResponse? {
        let path = String(request.target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
        guard request.method == "GET" || request.method == "HEAD" else { return nil }
        if path == "/" {
            let items = files.keys.sorted().map { "<li><a href=\"\(HTMLText.escape($0))\">\(HTMLText.escape($0))</a></li>" }
            let body = "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>Pages</title></head><body><h1>Pages</h1><ul>\n\(items.joined(separator: "\n"))\n</ul></body></html>\n"
            return HelperResponse(status: 200, headers: [HelperHeader("Content-Type", "text/html; charset=utf-8")],
                                  body: request.method == "HEAD" ? "" : body)
        }
        guard let file = files[path] else { return nil }
        guard let attrs = try? FileManager.default.attributesOfItem(atPath: file),
              let size = attrs[.size] as? Int, size <= Self.maxFileSize,
              let data = FileManager.default.contents(atPath: file) else {
            return HelperEndpoints.problemResponse(HelperProblem(type: "about:blank", title: "Not Found", status: 404,
                                                                 detail: "The recorded page cannot be read."))
        }
        return HelperResponse(status: 200,
                              headers: [HelperHeader("Content-Type", "text/html; charset=utf-8"),
                                        HelperHeader("X-Content-Type-Options", "nosniff")],
                              body: request.method == "HEAD" ? "" : String(decoding: data, as: UTF8.self))
    }
}
