// The recorded Pages, served so a real browser can walk a flow: every flow file (`flow.yaml`) in the folder is
// read by FlowSimulator's FlowLoader, exactly as `simulate` reads it, and each recorded page is served at its
// recorded path and query, whatever host it was recorded on, as the simulator's network serves it: the recorded
// statuses and headers (Location, Set-Cookie), the responses of a sequence in order (the last repeats), and a
// page that requires a cookie answers its `withoutCookie` response (else a 403 "session expired" page) when the
// request does not carry it. Each flow folder's HTML files are served at `/<flow>/<file>`; `/` lists both.
// Only what is indexed when the server starts is served: request paths are looked up in the index, never
// joined onto the file system, so `..` cannot escape; a flow whose page file lies outside the folder is not
// served at all. An HTML file is opened at request time from a descriptor of the folder taken at start, one
// path component at a time without following a symlink (`openat` with `O_NOFOLLOW`), and served only when
// it is a regular file: a file replaced by a symlink after the server started is refused, never followed.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import PlainviewURL
import PaymentURLHelpers
import FlowSimulator
import Foundation
import NavigationPolicy
import PlainviewConfig
import Synchronization
import PlainviewSupport

/// One recorded page as served: the flow it comes from and its place in the response counters.
struct ServedPage: Sendable {
    var page: RecordedPage
    var flow: String
    var index: Int
}

/// How many times each recorded page has been answered (a sequence of responses advances per request).
final class ServedCounters: Sendable {
    private let counts: Mutex<[Int]>
    init(count: Int) { counts = Mutex(Array(repeating: 0, count: count)) }
    /// The response number for this request of page `i` (then counts it).
    func next(_ i: Int) -> Int {
        counts.withLock { c in
            defer { c[i] += 1 }; return c[i]
        }
    }
}

/// The Pages folder as opened at start; files are read below it without following symlinks.
final class PagesRoot: Sendable {
    let descriptor: Int32

    init?(path: String) {
        descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
    }

    deinit { close(descriptor) }

    /// The bytes of the regular file at `components` below the folder, or nil when a component is missing, is a
    /// symlink or is not a directory, the file is not a regular file (a FIFO is opened without blocking and
    /// refused), or it is larger than `maxSize`.
    func read(_ components: [String], maxSize: Int) -> [UInt8]? {
        guard let name = components.last else { return nil }
        var opened: [Int32] = []
        defer { for fd in opened { close(fd) } }
        var directory = descriptor
        for component in components.dropLast() {
            let fd = openat(directory, component, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            guard fd >= 0 else { return nil }
            opened.append(fd)
            directory = fd
        }
        let fd = openat(directory, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        opened.append(fd)
        var status = stat()
        guard fstat(fd, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG, Int(status.st_size) <= maxSize else { return nil }
        var bytes = [UInt8](repeating: 0, count: Int(status.st_size) + 1)
        var filled = 0
        while filled < bytes.count {
            let n = bytes.withUnsafeMutableBytes { readFile(fd, $0.baseAddress! + filled, $0.count - filled) }
            if n < 0 && errno == EINTR { continue }
            guard n >= 0 else { return nil }
            if n == 0 { break }
            filled += n
        }
        // A file that grew past its size while being read is refused rather than cut.
        guard filled <= maxSize, filled < bytes.count else { return nil }
        return Array(bytes[0..<filled])
    }
}

private func readFile(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
    Glibc.read(fd, buffer, count)
    #else
    Darwin.read(fd, buffer, count)
    #endif
}

struct PagesIndex: Sendable {
    /// URL path (`/flow/page.html`) → the flow folder's name and the file's name.
    let files: [String: [String]]
    let root: PagesRoot
    /// "path?query" → the recorded pages at that target, in flow order (flows sorted by folder name).
    let recorded: [String: [ServedPage]]
    /// Flow files that could not be loaded (the same errors `simulate` reports); their pages are not served.
    let skipped: [ConfigError]
    let counters: ServedCounters
    static let maxFileSize = 5 << 20

    init(directory: String) throws {
        let fm = FileManager.default
        var isDir: ObjCBool = false
        guard fm.fileExists(atPath: directory, isDirectory: &isDir), isDir.boolValue else {
            throw HelperConfigurationError(key: "pages", message: "'\(directory)' is not a folder")
        }
        let root = URL(fileURLWithPath: directory).standardizedFileURL.resolvingSymlinksInPath()
        guard let opened = PagesRoot(path: root.path) else {
            throw HelperConfigurationError(key: "pages", message: "'\(directory)' cannot be opened")
        }
        var files: [String: [String]] = [:]
        var recorded: [String: [ServedPage]] = [:]
        var skipped: [ConfigError] = []
        var count = 0
        let flows = (try? fm.contentsOfDirectory(atPath: root.path)) ?? []
        for flow in flows.sorted() where Self.isSafeName(flow) {
            let flowURL = root.appendingPathComponent(flow)
            var flowIsDir: ObjCBool = false
            guard fm.fileExists(atPath: flowURL.path, isDirectory: &flowIsDir), flowIsDir.boolValue else { continue }
            // Symlinks (a flow folder or a file) are not served: at request time no component may be one.
            let flowIsLink = (try? fm.destinationOfSymbolicLink(atPath: flowURL.path)) != nil
            for file in ((try? fm.contentsOfDirectory(atPath: flowURL.path)) ?? []).sorted()
            where Self.isSafeName(file) && !flowIsLink {
                let lower = file.lowercased()
                guard lower.hasSuffix(".html") || lower.hasSuffix(".htm") else { continue }
                guard (try? fm.destinationOfSymbolicLink(atPath: flowURL.appendingPathComponent(file).path)) == nil else {
                    continue
                }
                files["/\(flow)/\(file)"] = [flow, file]
            }
            for name in ["flow.yaml", "flow.yml"] {
                let flowFile = flowURL.appendingPathComponent(name).path
                guard fm.fileExists(atPath: flowFile) else { continue }
                let loaded: Flow
                do {
                    loaded = try FlowLoader.load(file: flowFile, confinedTo: root.path)
                } catch {
                    skipped.append(error)
                    continue
                }
                for page in loaded.pages {
                    guard let target = Self.requestTarget(url: page.url) else { continue }
                    recorded[target, default: []].append(ServedPage(page: page, flow: flow, index: count))
                    count += 1
                }
            }
        }
        self.files = files
        self.root = opened
        self.recorded = recorded
        self.skipped = skipped
        self.counters = ServedCounters(count: count)
    }

    /// The page a real browser gets for `method target`: the first flow that records it; within a flow the
    /// page recorded for the browser (or for both contexts) before one recorded for the web view only, and a
    /// page naming the method before one that does not (as the simulator's network chooses).
    func page(method: String, target: String) -> ServedPage? {
        guard let candidates = recorded[target] else { return nil }
        var best: (page: ServedPage, flow: String, score: Int)?
        for c in candidates {
            if let m = c.page.method, m != method { continue }
            if let b = best, b.flow != c.flow { break }
            let context =
                switch c.page.context {
                case .browser: 4;
                case nil: 2;
                case .webview: 0
                }
            let score = context + (c.page.method == nil ? 0 : 1)
            if let b = best, b.score >= score { continue }
            best = (c, c.flow, score)
        }
        return best?.page
    }

    /// "/path?query" of an absolute recorded URL, as the URL parser serialises it (no fragment).
    static func requestTarget(url: String) -> String? {
        guard let u = WebURL(url), u.origin != nil else { return nil }
        return u.requestTarget
    }

    /// Names made of unreserved URI characters only, not starting with a dot (no hidden files, no `..`).
    static func isSafeName(_ name: String) -> Bool {
        !name.isEmpty && !name.hasPrefix(".") && name.utf8.allSatisfy(PercentEncoding.isUnreserved)
    }

    /// The answer to a request, nil when nothing is recorded or indexed for it. `cookies` are the request's
    /// `Cookie` header values.
    func response(for request: HelperRequest, cookies: [String] = []) -> HelperResponse? {
        let path = String(request.target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
        let lookupMethod = request.method == "HEAD" ? "GET" : request.method
        if let served = page(method: lookupMethod, target: request.target) {
            let response: RecordedResponse
            if !served.page.isSatisfied(byCookieHeaders: cookies) {
                response = served.page.missingCookieResponse
            } else if served.page.responses.isEmpty {
                return nil
            } else {
                response = served.page.responses[min(counters.next(served.index), served.page.responses.count - 1)]
            }
            return serve(response, head: request.method == "HEAD")
        }
        guard request.method == "GET" || request.method == "HEAD" else { return nil }
        if path == "/" {
            var items = files.keys.sorted().map {
                "<li><a href=\"\(HTMLEscaping.escape($0))\">\(HTMLEscaping.escape($0))</a></li>"
            }
            for target in recorded.keys.sorted() {
                guard let served = page(method: "GET", target: target) else { continue }
                items.append(
                    "<li><a href=\"\(HTMLEscaping.escape(target))\">\(HTMLEscaping.escape(target))</a> (recorded, \(HTMLEscaping.escape(served.flow)))</li>"
                )
            }
            let body =
                "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>Pages</title></head><body><h1>Pages</h1><ul>\n\(items.joined(separator: "\n"))\n</ul></body></html>\n"
            return HelperResponse(
                status: 200, headers: [HelperHeader("Content-Type", "text/html; charset=utf-8")],
                body: request.method == "HEAD" ? "" : body)
        }
        guard let file = files[path] else { return nil }
        guard let data = root.read(file, maxSize: Self.maxFileSize) else { return Self.unreadable }
        return serve(
            RecordedResponse(status: 200, headers: [.init("Content-Type", "text/html; charset=utf-8")], body: data),
            head: request.method == "HEAD")
    }

    static let unreadable = HelperEndpoints.problemResponse(
        HelperProblem(
            type: "about:blank", title: "Not Found", status: 404, detail: "The recorded page cannot be read."))

    /// A recorded response on the wire: its status and headers (a header with control characters is left
    /// out), its body, and `nosniff`.
    func serve(_ r: RecordedResponse, head: Bool) -> HelperResponse {
        guard r.body.count <= Self.maxFileSize else { return Self.unreadable }
        var headers: [HelperHeader] = []
        for h in r.headers where !PercentEncoding.containsControl(h.name) && !PercentEncoding.containsControl(h.value) {
            headers.append(HelperHeader(h.name, h.value))
        }
        if !r.body.isEmpty, !headers.contains(where: { $0.name.lowercased() == "content-type" }) {
            headers.insert(HelperHeader("Content-Type", "text/html; charset=utf-8"), at: 0)
        }
        headers.append(HelperHeader("X-Content-Type-Options", "nosniff"))
        return HelperResponse(status: r.status, headers: headers, body: head ? "" : String(decoding: r.body, as: UTF8.self))
    }
}
