// Writes a HARFlowDraft as a flow folder (flow.yaml + one file per recorded body), atomically: everything
// goes to a hidden temporary folder beside the target, which is renamed into place only when complete.
import PlainviewURL
import AppSwitch
import Foundation
import PlainviewConfig
import PlainviewSupport

public enum HARFlowWriter {
    public struct Options: Sendable, Hashable {
        /// The flow's name (default: the folder name).
        public var name: String
        /// The recording as the user named it, for the header comment.
        public var source: String
        /// `policy:` as a path relative to the flow folder; nil drafts an inline policy from the recording.
        public var policyPath: String?
        public var environmentPath: String?
        /// `ios` or `android` for a drafted policy.
        public var platform: String
        /// An expected outcome (`complete`, `canceled` …); nil leaves `expect:` as a comment to fill in.
        public var expect: String?
        /// The redaction report, or nil when the user asked for `--no-redact`.
        public var redaction: RedactionReport?
        /// `plainview record`: the engine the session ran in and how it ended; nil for an import.
        public var recorded: Recorded?
        /// What the static model predicts where it differs from `expect` (`expect.modelOutcome`).
        public var modelOutcome: String?

        public init(
            name: String, source: String, policyPath: String? = nil, environmentPath: String? = nil,
            platform: String = "ios", expect: String? = nil, redaction: RedactionReport? = nil
        ) {
            self.name = name
            self.source = source
            self.policyPath = policyPath
            self.environmentPath = environmentPath
            self.platform = platform
            self.expect = expect
            self.redaction = redaction
        }
    }

    /// How a recorded session went (`plainview record`).
    public struct Recorded: Sendable, Hashable {
        /// The engine the session ran in (`chromium`, `webkit`).
        public var engine: String
        /// How it ended, as the trace says it (`complete in web view · 9 hops`).
        public var ending: String
        public init(engine: String, ending: String) {
            self.engine = engine
            self.ending = ending
        }
    }

    public struct WriteError: Error, Sendable, CustomStringConvertible, Equatable {
        public var path: String
        public var message: String
        public var description: String { "\(path): \(message)" }
    }

    /// The files of the flow folder: `flow.yaml` first, then the page bodies, by name. Every line of
    /// `flow.yaml` comes from the YAML emitter: recorded values are quoted scalars, notes are comments that no
    /// recorded character can end.
    public static func files(for draft: HARFlowDraft, options: Options) -> [(name: String, data: Data)] {
        let pages = pageFiles(for: draft)
        return [("flow.yaml", flowFile(for: draft, pageFiles: pages, options: options))] + pages.files
    }

    /// The page files of a flow folder: every recorded body, named in the pages' order (the names number them).
    public struct PageFiles: Sendable {
        /// Per page, per response: the name of its body's file (nil: no body).
        public var names: [[String?]]
        /// The files, in that order.
        public var files: [(name: String, data: Data)]
    }

    /// The page files of `draft`: their stems worked out on all cores, in blocks of pages, then numbered in order.
    public static func pageFiles(for draft: HARFlowDraft) -> PageFiles {
        let pages = draft.pages
        let blocks = blocks(of: pages.count, size: pagesPerBlock)
        let stems = Threads.map(blocks.count, threads: ProcessInfo.processInfo.activeProcessorCount) { b in
            blocks[b].map { p in
                pages[p].responses.map { r -> (safe: String, ext: String)? in
                    guard let body = r.body, !body.isEmpty else { return nil }
                    return fileStem(url: pages[p].url, contentType: r.headers.first(named: "Content-Type") ?? "")
                }
            }
        }.flatMap { $0 }
        var files: [(name: String, data: Data)] = []
        var usedNames: Set<String> = ["flow.yaml"]
        var counter = 0
        let names = zip(pages, stems).map { page, pageStems in
            zip(page.responses, pageStems).map { r, stem -> String? in
                guard let stem, let body = r.body else { return nil }
                counter += 1
                let name = fileName(counter, stem: stem, used: &usedNames)
                files.append((name, body))
                return name
            }
        }
        return PageFiles(names: names, files: files)
    }

    /// `flow.yaml` for a draft whose page files are `pageFiles`; the pages are written `pagesPerBlock` at a time
    /// (nil: 512).
    public static func flowFile(
        for draft: HARFlowDraft, pageFiles: PageFiles, options: Options, pagesPerBlock: Int? = nil
    ) -> Data {
        var y = YAMLEmitter()

        if let recorded = options.recorded {
            y.comment("Recorded by `plainview record` from \(options.source) in \(recorded.engine).")
        } else {
            y.comment("Imported by `plainview import` from \(options.source).")
        }
        if let r = options.redaction {
            let kinds = r.counts.sorted { $0.key < $1.key }.map { "\($0.key.rawValue) \($0.value)" }.joined(separator: ", ")
            y.comment(
                "Redacted: \(r.total) value(s), \(r.distinctSecrets) distinct\(kinds.isEmpty ? "" : " (\(kinds))"); each secret is one stable placeholder (REDACTED-…)."
            )
        } else {
            y.comment("NOT redacted (--no-redact): check for cookies, tokens, card and personal numbers before committing.")
        }
        y.comment(
            "\(draft.documentCount) document(s) recorded; \(draft.subresourceCount) subresource(s) (scripts, images, XHR …) left out."
        )
        y.comment("This is an ordinary flow file now: edit it freely (format: Pages/README.md).")
        y.pair("name", .string(options.name))
        if let recorded = options.recorded {
            y.pair("description", .string("Recorded from \(options.source) in \(recorded.engine)"))
        } else {
            y.pair("description", .string("Imported from \(URL(fileURLWithPath: options.source).lastPathComponent)"))
        }
        if let p = options.policyPath {
            y.pair("policy", .string(p))
        } else {
            let last = draft.pages.last(where: { !$0.isFrame })?.url ?? draft.start
            let host = URLTools.host(draft.start) ?? "shop.example.com"
            y.pair("policy", nil, comment: "drafted from the recording (no --policy given): check every value")
            y.pair("platform", .string(options.platform), indent: 1)
            y.pair("paymentUrl", .string(draft.start), indent: 1, comment: "the first page recorded")
            y.pair("completeUrl", .string(last), indent: 1, comment: "GUESSED: the last page recorded")
            y.pair("cancelUrl", .string("https://\(host)/cancel"), indent: 1, comment: "PLACEHOLDER: set your cancelUrl")
        }
        if let e = options.environmentPath { y.pair("environment", .string(e)) }
        y.pair("start", .string(draft.start))
        // The pages are written as YAML in blocks on all cores and joined in order: the text one emitter writes.
        y.pair("pages", nil)
        let blocks = blocks(of: draft.pages.count, size: pagesPerBlock ?? HARFlowWriter.pagesPerBlock)
        var pageTexts = Threads.map(blocks.count, threads: ProcessInfo.processInfo.activeProcessorCount) { b in
            var block = YAMLEmitter()
            for p in blocks[b] { emit(draft.pages[p], fileNames: pageFiles.names[p], into: &block) }
            return block
        }
        let head = y
        y = YAMLEmitter()

        if draft.steps.isEmpty {
            y.comment("steps: none inferred (every recorded page led to the next by itself)")
        } else {
            y.pair("steps", nil)
            for s in draft.steps {
                switch s {
                case .tap(let url, let why):
                    y.comment(why, indent: 1)
                    y.pair("tap", .flowMap([.init("url", .string(url))]), indent: 2, item: true)
                case .tapText(let t):
                    let isURL = t.lowercased().hasPrefix("http://") || t.lowercased().hasPrefix("https://")
                    y.pair("tap", isURL ? .flowMap([.init("url", .string(t))]) : .string(t), indent: 2, item: true)
                case .app(let name, let outcome):
                    y.pair("app", .string("\(name) \(outcome)"), indent: 2, item: true)
                case .accept: y.item(.string("accept"), indent: 2)
                case .decline: y.item(.string("decline"), indent: 2)
                case .switchToApp: y.item(.string("switch-to-app"), indent: 2)
                case .type(let field, let text):
                    y.pair(
                        "type", .flowMap([.init("field", .string(field)), .init("text", .string(text))]), indent: 2,
                        item: true)
                }
            }
        }
        for note in draft.unexplained { y.comment(note) }
        y.comment("---- where the recording ends ----")
        if let recorded = options.recorded {
            y.comment("In \(recorded.engine): \(recorded.ending).")
        } else {
            writeHARCaveat(draft, into: &y)
        }
        if let e = options.expect {
            y.pair("expect", nil)
            y.pair("outcome", .string(e), indent: 1)
            if let m = options.modelOutcome {
                y.pair("modelOutcome", .string(m), indent: 1, comment: "the static model cannot follow what the engine did")
            }
        } else {
            y.comment("expect:")
            y.comment("  outcome: complete             # complete | canceled | stuck | loop | error")
        }
        // Joined into the file's bytes once (no whole copy of the text first), each block freed once copied.
        var flow = Data(capacity: ([head, y] + pageTexts).reduce(0) { $0 + $1.text.utf8.count })
        flow.append(contentsOf: head.text.utf8)
        for b in pageTexts.indices {
            flow.append(contentsOf: pageTexts[b].text.utf8)
            pageTexts[b] = YAMLEmitter()
        }
        flow.append(contentsOf: y.text.utf8)
        return flow
    }

    /// How many pages one piece of the work on all cores takes (naming their files, writing them as YAML).
    static let pagesPerBlock = 512

    /// `0..<count` in consecutive ranges of `size` (at least 1).
    static func blocks(of count: Int, size: Int) -> [Range<Int>] {
        let size = max(1, size)
        return stride(from: 0, to: count, by: size).map { $0..<min($0 + size, count) }
    }

    /// One page of `pages:`, its responses' bodies named `fileNames` (nil: no body).
    static func emit(_ page: HARFlowDraft.Page, fileNames: [String?], into y: inout YAMLEmitter) {
        y.pair("url", .string(page.url), indent: 2, item: true)
        if page.method != "GET" { y.pair("method", .string(page.method), indent: 2) }
        if let context = page.context { y.pair("in", .string(context), indent: 2) }
        let responses = page.responses
        if responses.count == 1 {
            emit(responses[0], fileName: fileNames[0], indent: 2, into: &y)
        } else {
            y.pair("responses", nil, indent: 2, comment: "recorded \(responses.count) times; served in order, the last repeats")
            for (r, name) in zip(responses, fileNames) {
                y.pair("status", .int(r.status), indent: 4, item: true)
                emit(r, fileName: name, indent: 4, statusDone: true, into: &y)
            }
        }
    }

    /// One response of a page: its status, location, cookies and headers, and its body's file.
    static func emit(
        _ r: HARFlowDraft.Response, fileName: String?, indent: Int, statusDone: Bool = false, into y: inout YAMLEmitter
    ) {
        if !statusDone, r.status != 200 || r.headers.contains(where: { $0.name.lowercased() == "location" }) {
            y.pair("status", .int(r.status), indent: indent)
        }
        var others: [HARHeader] = []
        var cookies: [YAMLEmitter.Scalar] = []
        for h in r.headers {
            switch h.name.lowercased() {
            case "location": y.pair("location", .string(h.value), indent: indent)
            case "set-cookie": cookies += h.value.split(separator: "\n").map { .string(String($0)) }
            default: others.append(h)
            }
        }
        if !cookies.isEmpty { y.pair("setCookie", .flowSequence(cookies), indent: indent) }
        if !others.isEmpty {
            y.pair("headers", nil, indent: indent)
            var seen: [String: [String]] = [:]
            var order: [String] = []
            for h in others {
                if seen[h.name] == nil { order.append(h.name) }
                seen[h.name, default: []].append(h.value)
            }
            for n in order {
                let vs = seen[n] ?? []
                y.pair(n, vs.count == 1 ? .string(vs[0]) : .flowSequence(vs.map { .string($0) }), indent: indent + 1)
            }
        }
        if let fileName {
            y.pair("file", .string(fileName), indent: indent, comment: r.source)
        } else {
            y.comment(r.source, indent: indent)
        }
    }

    /// Where an imported recording stops, and how to add what a HAR cannot hold.
    static func writeHARCaveat(_ draft: HARFlowDraft, into y: inout YAMLEmitter) {
        if let end = draft.ending { y.comment("\(end.message) (\(end.source)).") }
        y.comment("A HAR holds HTTP only: custom-scheme, intent: and universal-link navigations the OS took over, taps,")
        y.comment("prompts and app switches are not in it. Add what happened next as steps, for example:")
        y.comment("  - accept                      # the user accepts the browser's \"Open in …?\" prompt")
        y.comment("  - app: BankID complete        # in the app that opened, the user completes (or cancel / fail)")
        y.comment("  - switch-to-app               # the user returns to the host app by hand")
        y.comment("  - tap: {url: \"https://…\"}     # a link or button on the current page")
        y.comment("and the apps to the environment file (apps:, schemes:, universalLinks:).")
    }

    /// Writes `files` into `folder` atomically. Refuses an existing folder unless `force`; with `force` the old
    /// folder is replaced only after the new one is complete.
    public static func write(_ files: [(name: String, data: Data)], to folder: URL, force: Bool) throws(WriteError) {
        let folderWrite = try FolderWrite(folder, force: force)
        try folderWrite.add(files)
        try folderWrite.commit()
    }

    /// A flow folder being written: its files go into a hidden folder beside it, which `commit` renames into
    /// place once complete. A failure to add a file removes the hidden folder (nothing was changed), and so does
    /// `abandon`.
    public struct FolderWrite: Sendable {
        public let folder: URL
        let target: URL
        let parent: URL
        let temp: URL
        let tag: Substring
        let exists: Bool

        /// Refuses an existing `folder` unless `force`, creates its parent and the hidden folder.
        public init(_ folder: URL, force: Bool) throws(WriteError) {
            let fm = FileManager.default
            self.folder = folder
            target = folder.standardizedFileURL
            parent = target.deletingLastPathComponent()
            exists = fm.fileExists(atPath: target.path)
            if exists, !force {
                throw WriteError(path: folder.path, message: "already exists; choose another --out or pass --force to replace it")
            }
            do {
                try fm.createDirectory(at: parent, withIntermediateDirectories: true)
            } catch {
                throw WriteError(path: parent.path, message: "cannot create the folder (\(error.localizedDescription))")
            }
            tag = UUID().uuidString.prefix(8)
            temp = parent.appendingPathComponent(".\(target.lastPathComponent).tmp-\(tag)")
            do {
                try fm.createDirectory(at: temp, withIntermediateDirectories: false)
            } catch {
                throw cannotWrite(error)
            }
        }

        /// Writes `files` into the hidden folder (a name with `/` or a leading `.` is skipped).
        public func add(_ files: [(name: String, data: Data)]) throws(WriteError) {
            let tempPath = temp.path
            do {
                for f in files {
                    guard !f.name.utf8.contains(UInt8(ascii: "/")), f.name.utf8.first != UInt8(ascii: ".") else { continue }
                    try writeNewFile(f.data, path: tempPath + "/" + f.name)
                }
            } catch {
                abandon()
                throw cannotWrite(error)
            }
        }

        /// Removes the hidden folder and what was written into it.
        public func abandon() {
            try? FileManager.default.removeItem(at: temp)
        }

        /// Moves the hidden folder into place (with `force`, replacing the old folder only then).
        public func commit() throws(WriteError) {
            let fm = FileManager.default
            do {
                if exists {
                    let old = parent.appendingPathComponent(".\(target.lastPathComponent).old-\(tag)")
                    try fm.moveItem(at: target, to: old)
                    do {
                        try fm.moveItem(at: temp, to: target)
                    } catch {
                        try? fm.moveItem(at: old, to: target) // put the old folder back
                        throw error
                    }
                    try? fm.removeItem(at: old)
                } else {
                    try fm.moveItem(at: temp, to: target)
                }
            } catch {
                abandon()
                throw WriteError(
                    path: folder.path,
                    message: "cannot move the flow into place (\(error.localizedDescription)); nothing was changed")
            }
        }

        private func cannotWrite(_ error: Error) -> WriteError {
            WriteError(path: folder.path, message: "cannot write the flow (\(error.localizedDescription)); nothing was changed")
        }
    }

    // MARK: - Helpers

    /// `file` (relative to the current directory or absolute) as a path relative to `folder`: how a flow file names
    /// its policy and environment.
    public static func relativePath(from folder: URL, to file: String) -> String {
        let base = folder.standardizedFileURL.pathComponents
        let target = URL(fileURLWithPath: file).standardizedFileURL.pathComponents
        var i = 0
        while i < base.count, i < target.count, base[i] == target[i] { i += 1 }
        return (Array(repeating: "..", count: base.count - i) + target[i...]).joined(separator: "/")
    }

    /// Writes a new file without syncing it: the folder is the atomic unit (renamed into place once complete), and
    /// a sync per page file cost more than the rest of an import.
    static func writeNewFile(_ data: Data, path: String) throws {
        // A failure says why (no space left, permission denied …), from errno, not only that it failed.
        func failure() -> Error { POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw failure() }
        var error: Error?
        data.withUnsafeBytes { raw in
            var done = 0
            while done < raw.count {
                let n = Glibc.write(fd, raw.baseAddress! + done, raw.count - done)
                if n < 0, errno == EINTR { continue }
                guard n > 0 else {
                    error = failure()
                    return
                }
                done += n
            }
        }
        if close(fd) != 0, error == nil { error = failure() }
        if let error { throw error }
    }

    /// `03-psp.example.net-checkout-card.html`: number, host, last path segment; safe characters only.
    static func fileName(_ n: Int, url: String, contentType: String, used: inout Set<String>) -> String {
        fileName(n, stem: fileStem(url: url, contentType: contentType), used: &used)
    }

    /// A file name numbered `n` from its stem and extension (`fileStem`), not yet in `used` (then added to it).
    static func fileName(_ n: Int, stem: (safe: String, ext: String), used: inout Set<String>) -> String {
        let (safe, ext) = stem
        let number = n < 10 && n >= 0 ? "0\(n)" : "\(n)"
        var name = "\(number)-\(safe).\(ext)"
        var k = 2
        while used.contains(name) {
            name = "\(number)-\(safe)-\(k).\(ext)"
            k += 1
        }
        used.insert(name)
        return name
    }

    /// The part of a page file's name that does not depend on the others: host and last path segment in safe
    /// characters (`psp.example.net-checkout-card`), and the extension for the content type.
    static func fileStem(url: String, contentType: String) -> (safe: String, ext: String) {
        let u = WebURL(url)
        var stem = u?.comparableHost.flatMap { $0.isEmpty ? nil : $0 } ?? "page"
        let last = u.flatMap { $0.path.split(separator: "/").last }.map { PercentEncoding.decode($0) } ?? ""
        if !last.isEmpty, last != "/" { stem += "-" + last }
        var safe: String
        if ASCII.isASCII(stem), !stem.utf8.contains(0x0D) {
            // Byte by byte: in ASCII text every byte is a character but CR LF, kept out.
            safe = String(
                decoding: stem.utf8.map { b -> UInt8 in
                    let c = SecretPrefilter.lowered(b)
                    return PercentEncoding.isASCIIAlphanumeric(c) || c == 0x2E || c == 0x2D ? c : 0x2D
                }, as: UTF8.self)
        } else {
            safe = String(
                stem.lowercased().map { ($0.isASCII && ($0.isLetter || $0.isNumber)) || $0 == "." || $0 == "-" ? $0 : "-" })
        }
        while safe.hasSuffix(".") || safe.hasSuffix("-") { safe.removeLast() }
        if safe.count > 60 { safe = String(safe.prefix(60)) }
        let mime = contentType.lowercased()
        var ext = "html"
        if SecretPrefilter.has(mime, "json") {
            ext = "json"
        } else if mime.hasPrefix("text/plain") {
            ext = "txt"
        } else if SecretPrefilter.has(mime, "xml"), !SecretPrefilter.has(mime, "xhtml") {
            ext = "xml"
        }
        for h in [".html", ".htm", ".php", ".aspx", ".jsp", ".json", ".txt", ".xml"] where safe.hasSuffix(h) {
            safe.removeLast(h.count)
        }
        return (safe, ext)
    }
}
