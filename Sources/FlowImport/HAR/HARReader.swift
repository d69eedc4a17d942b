// Reads HAR 1.2 / 1.1 files into `HARLog`, in one pass over the bytes (JSONReader): the file is read in
// 64 kB pieces, each entry is built as it is read, and what the replay does not use (timings, cookies lists,
// subresource bodies …) is skipped without being decoded or kept.
//
// Strict where the replay needs a value, best effort elsewhere (documented in HARReader's doc comment):
// - errors (HARError, with a JSON path): invalid JSON (truncated, syntax, invalid UTF-8, unpaired
//   surrogate escapes: with line/column), no `log`/`log.entries`, an entry without `request.method`,
//   `request.url` or `response.status`, a `base64` body that is not base64 (document entries only);
// - best effort (a HARNote says so): unparseable `startedDateTime` (the entry keeps its file position),
//   entries out of time order (sorted, stable); optional fields absent or of the wrong type are treated as
//   absent; subresource bodies are never kept (memory), so a broken subresource body is not an error.
// A syntax error anywhere in the file is reported before a missing or wrong field (the rest of the file is
// still checked after such an error, as a whole-file decoder would).
import Foundation
import PlainviewSupport

public struct HARReader: Sendable {
    public struct Options: Sendable, Hashable {
        /// Keep the bodies of scripts, images, XHR … too (off: only document and frame bodies are decoded).
        public var keepSubresourceBodies: Bool
        public init(keepSubresourceBodies: Bool = false) { self.keepSubresourceBodies = keepSubresourceBodies }
    }

    public var options: Options
    public init(options: Options = Options()) { self.options = options }

    /// Reads the file at `url`, streaming: the file is read in pieces, never held whole.
    /// `name` is how errors name the file (default: the path).
    public func read(contentsOf url: URL, name: String? = nil) throws(HARError) -> HARLog {
        let shown = name ?? url.path
        let handle: FileHandle
        do {
            handle = try FileHandle(forReadingFrom: url)
        } catch {
            throw HARError(.unreadable, file: shown, "cannot read the file (\(error.localizedDescription))")
        }
        defer { try? handle.close() }
        let failed = ReadFailure()
        let reader = JSONReader { buffer in
            do {
                guard let data = try handle.read(upToCount: buffer.count), !data.isEmpty else { return 0 }
                return data.copyBytes(to: buffer)
            } catch {
                failed.error = error
                throw error
            }
        }
        do {
            return try read(reader)
        } catch {
            if let e = failed.error {
                throw HARError(.unreadable, file: shown, "cannot read the file (\(e.localizedDescription))")
            }
            throw error.inFile(shown)
        }
    }

    /// Reads HAR JSON held in memory.
    public func read(data: Data) throws(HARError) -> HARLog {
        try read(JSONReader(bytes: data))
    }

    private final class ReadFailure: @unchecked Sendable { var error: (any Error)? }

    private func read(_ reader: JSONReader) throws(HARError) -> HARLog {
        let parser = HARParser(reader: reader, options: options)
        let log: HARLogParts
        do {
            log = try parser.file()
        } catch let error as HARError {
            // A syntax error later in the file comes first (a whole-file decoder would not have got this far).
            if error.code != .invalidJSON {
                do {
                    try reader.finish()
                } catch let failure as JSONReader.Failure {
                    throw HARParser.syntax(failure)
                } catch {
                    throw HARError(.invalidJSON, "\(error)")
                }
            }
            throw error
        } catch let error as JSONReader.Failure {
            throw HARParser.syntax(error)
        } catch {
            throw HARError(.invalidJSON, "\(error)")
        }
        return HARParser.assemble(log)
    }
}

/// What the reader collected before sorting.
struct HARLogParts {
    var version = ""
    var creator = ""
    var pages: [HARPage] = []
    var entries: [HAREntry] = []
}

/// The reading itself: one JSONReader, walked in file order.
struct HARParser {
    let reader: JSONReader
    let options: HARReader.Options

    static func syntax(_ f: JSONReader.Failure, path: String = "") -> HARError {
        HARError(.invalidJSON, path: path, line: f.line, column: f.column, f.message)
    }

    func file() throws -> HARLogParts {
        try reader.skipByteOrderMark()
        guard try reader.peek() == .object else {
            try reader.skip()
            try reader.expectEnd()
            throw HARError(.notHAR, "the top level is not a JSON object; expected {\"log\": {\"entries\": [...]}}")
        }
        var log: HARLogParts?
        try reader.object { key in
            if key == "log" { log = try self.log() }
        }
        try reader.expectEnd()
        guard let log else {
            throw HARError(.notHAR, path: "log", "missing; expected a HAR file ({\"log\": {\"entries\": [...]}})")
        }
        return log
    }

    func log() throws -> HARLogParts {
        guard try reader.peek() == .object else {
            throw HARError(.notHAR, path: "log", "expected an object with \"entries\"")
        }
        var parts = HARLogParts()
        var sawEntries = false
        try reader.object { key in
            switch key {
            case "version": parts.version = try lenientString() ?? ""
            case "creator":
                guard try reader.peek() == .object else { return }
                try reader.object { k in
                    if k == "name" { parts.creator = try lenientString() ?? "" }
                }
            case "pages":
                guard try reader.peek() == .array else { return }
                try reader.array { _ in
                    guard try reader.peek() == .object else { return }
                    var page = HARPage(id: "")
                    try reader.object { k in
                        switch k {
                        case "id": page.id = try lenientString() ?? ""
                        case "title": page.title = try lenientString() ?? ""
                        case "startedDateTime": page.startedDateTime = try lenientString() ?? ""
                        default: break
                        }
                    }
                    parts.pages.append(page)
                }
            case "entries":
                sawEntries = true
                guard try reader.peek() == .array else {
                    throw HARError(.notHAR, path: "log.entries", "expected an array of entries")
                }
                try reader.array { i in parts.entries.append(try entry(i)) }
            default: break
            }
        }
        guard sawEntries else { throw HARError(.notHAR, path: "log.entries", "missing; expected an array of entries") }
        return parts
    }

    // MARK: - Entries

    /// The fields of one entry as read, checked once the entry's object is closed (its keys come in any order).
    private final class EntryFields {
        var started: String?
        var pageref: String?
        var declared: String?
        var resourceType: String?
        var type: String?
        var causeType: String?
        var initiatorType: String?
        var sawRequest = false
        var requestIsObject = false
        var methodText: String?
        var sawMethod = false
        var urlText: String?
        var sawURL = false
        var methodProblem: JSONReader.Failure?
        var urlProblem: JSONReader.Failure?
        var httpVersion: String?
        var requestHeaders: [HARHeader] = []
        var postData: HARPostData?
        var sawResponse = false
        var responseIsObject = false
        var sawStatus = false
        var status: Int?
        var statusText: String?
        var responseHeaders: [HARHeader] = []
        var redirectURL: String?
        var sawContent = false
        var mimeType: String?
        var encoding: String?
        /// The body text's bytes as decoded (nil: absent); kept only until the entry's role is known.
        var text: [UInt8]?
        var textProblem: JSONReader.Failure?
        var textIsString = true
    }

    func entry(_ index: Int) throws -> HAREntry {
        let at = "log.entries[\(index)]"
        guard try reader.peek() == .object else {
            throw HARError(.invalidValue, path: at, "expected an entry object with request and response")
        }
        let f = EntryFields()
        try reader.object { key in
            switch key {
            case "startedDateTime": f.started = try lenientString()
            case "pageref": f.pageref = try lenientString()
            case "_resourceType": f.resourceType = try lenientString()
            case "_type": f.type = try lenientString()
            case "_cause": f.causeType = try typeField()
            case "_initiator": f.initiatorType = try typeField()
            case "request":
                f.sawRequest = true
                guard try reader.peek() == .object else { return }
                f.requestIsObject = true
                try readRequest(f)
            case "response":
                f.sawResponse = true
                guard try reader.peek() == .object else { return }
                f.responseIsObject = true
                try readResponse(f)
            default: break
            }
        }

        // request
        guard f.sawRequest else { throw HARError(.missingField, path: "\(at).request", "missing; expected an object") }
        guard f.requestIsObject else { throw HARError(.invalidValue, path: "\(at).request", "expected an object") }
        if let problem = f.methodProblem { throw HARParser.syntax(problem, path: "\(at).request.method") }
        let method = f.methodText ?? ""
        guard !method.isEmpty else {
            let code: HARError.Code = f.sawMethod ? .invalidValue : .missingField
            throw HARError(
                code, path: "\(at).request.method",
                f.sawMethod ? "expected a non-empty string (GET, POST …)" : "missing; expected GET, POST …")
        }
        if let problem = f.urlProblem { throw HARParser.syntax(problem, path: "\(at).request.url") }
        let url = f.urlText ?? ""
        guard !url.isEmpty else {
            let code: HARError.Code = f.sawURL ? .invalidValue : .missingField
            throw HARError(
                code, path: "\(at).request.url",
                f.sawURL ? "expected a non-empty string (an absolute URL)" : "missing; expected an absolute URL")
        }
        let request = HARRequest(
            method: method.uppercased(), url: url, httpVersion: f.httpVersion ?? "", headers: f.requestHeaders,
            postData: f.postData)

        // response (body decoded last, once we know whether it is kept)
        guard f.sawResponse else { throw HARError(.missingField, path: "\(at).response", "missing; expected an object") }
        guard f.responseIsObject else { throw HARError(.invalidValue, path: "\(at).response", "expected an object") }
        guard f.sawStatus else {
            throw HARError(
                .missingField, path: "\(at).response.status", "missing; expected the HTTP status (a number; 0 when aborted)")
        }
        guard let status = f.status, (0...999).contains(status) else {
            throw HARError(.invalidValue, path: "\(at).response.status", "expected the HTTP status (a number 0…999)")
        }
        var response = HARResponse(
            status: status, statusText: f.statusText ?? "", headers: f.responseHeaders,
            content: HARContent(mimeType: f.mimeType ?? "", encoding: f.encoding ?? ""),
            redirectURL: f.redirectURL ?? "")

        // what the recorder says the entry is
        let declared = f.resourceType ?? f.type ?? f.causeType // Firefox's netmonitor `cause.type` when exported
        let (resourceType, role) = HARClassifier.classify(declared: declared, request: request, response: response)

        if role != .subresource || options.keepSubresourceBodies, f.sawContent, let text = f.text {
            let textAt = "\(at).response.content.text"
            if let problem = f.textProblem { throw HARParser.syntax(problem, path: textAt) }
            guard f.textIsString else { throw HARError(.invalidValue, path: textAt, "expected a string of text") }
            if response.content.encoding.lowercased() == "base64" {
                guard let bytes = Data(base64Encoded: Data(text), options: .ignoreUnknownCharacters) else {
                    throw HARError(.invalidValue, path: textAt, "not base64, although content.encoding is \"base64\"")
                }
                response.content.body = bytes
            } else {
                response.content.body = Data(text)
            }
        }

        let started = f.started ?? ""
        return HAREntry(
            fileIndex: index, startedDateTime: started, startedAt: ISO8601Time.parse(started),
            pageref: f.pageref, request: request, response: response,
            resourceType: resourceType, initiatorType: f.initiatorType, role: role)
    }

    private func readRequest(_ f: EntryFields) throws {
        try reader.object { key in
            switch key {
            case "method":
                f.sawMethod = true
                (f.methodText, f.methodProblem) = try requiredString()
            case "url":
                f.sawURL = true
                (f.urlText, f.urlProblem) = try requiredString()
            case "httpVersion": f.httpVersion = try lenientString()
            case "headers": f.requestHeaders = try headerList()
            case "postData":
                guard try reader.peek() == .object else { return }
                var post = HARPostData()
                try reader.object { k in
                    switch k {
                    case "mimeType": post.mimeType = try lenientString() ?? ""
                    case "text": post.text = try lenientString()
                    case "params": post.params = try headerList()
                    default: break
                    }
                }
                f.postData = post
            default: break
            }
        }
    }

    private func readResponse(_ f: EntryFields) throws {
        try reader.object { key in
            switch key {
            case "status":
                f.sawStatus = true
                f.status = try lenientInt()
            case "statusText": f.statusText = try lenientString()
            case "headers": f.responseHeaders = try headerList()
            case "redirectURL": f.redirectURL = try lenientString()
            case "content":
                guard try reader.peek() == .object else { return }
                f.sawContent = true
                try reader.object { k in
                    switch k {
                    case "mimeType": f.mimeType = try lenientString()
                    case "encoding": f.encoding = try lenientString()
                    case "text":
                        switch try reader.peek() {
                        case .string:
                            do {
                                f.text = try reader.stringBytes()
                            } catch let error as JSONReader.Failure {
                                guard error.isContent else { throw error }
                                f.text = []
                                f.textProblem = error
                            }
                        case .null: f.text = [] // an empty body, as a whole-file decoder read it
                        default:
                            f.text = []
                            f.textIsString = false
                        }
                    default: break
                    }
                }
            default: break
            }
        }
    }

    // MARK: - Lenient values

    /// A string, or a number/bool written as one; nil when null, another type or not valid text (best effort).
    func lenientString() throws -> String? {
        switch try reader.peek() {
        case .string:
            do {
                return try reader.string()
            } catch let error as JSONReader.Failure {
                guard error.isContent else { throw error }
                return nil
            }
        case .number:
            let text = try reader.numberText()
            if let i = Int(text) { return String(i) }
            return Double(text).map { String($0) }
        case .bool: return String(try reader.bool())
        default: return nil
        }
    }

    /// A string the replay needs: the value, or the text problem that stands for it.
    private func requiredString() throws -> (String?, JSONReader.Failure?) {
        guard try reader.peek() == .string else { return (try lenientString(), nil) }
        do {
            return (try reader.string(), nil)
        } catch let error as JSONReader.Failure {
            guard error.isContent else { throw error }
            return (nil, error)
        }
    }

    /// An integer, or a string of digits (some proxies write `"status": "200"`).
    func lenientInt() throws -> Int? {
        switch try reader.peek() {
        case .number:
            let text = try reader.numberText()
            if let i = Int(text) { return i }
            if let d = Double(text), d.rounded() == d, abs(d) < 1e9 { return Int(d) }
            return nil
        case .string:
            guard let s = try lenientString() else { return nil }
            return Int(s.trimmingCharacters(in: .whitespaces))
        default: return nil
        }
    }

    /// `{"type": …}` (Chrome's `_initiator`, Firefox's `_cause`): the type, when the value is such an object.
    private func typeField() throws -> String? {
        guard try reader.peek() == .object else { return nil }
        var type: String?
        try reader.object { k in
            if k == "type" { type = try lenientString() }
        }
        return type
    }

    /// `[{name, value}]`; entries without a name are skipped; a non-array is treated as empty.
    func headerList() throws -> [HARHeader] {
        guard try reader.peek() == .array else { return [] }
        var list: [HARHeader] = []
        try reader.array { _ in
            guard try reader.peek() == .object else { return }
            var name: String?
            var value: String?
            try reader.object { k in
                switch k {
                case "name": name = try lenientString()
                case "value": value = try lenientString()
                default: break
                }
            }
            if let name { list.append(HARHeader(name: name, value: value ?? "")) }
        }
        return list
    }

    // MARK: - Assembling

    /// Sorts (stable) and notes what was done.
    static func assemble(_ parts: HARLogParts) -> HARLog {
        var notes: [HARNote] = []
        // A copy of the exact size: the parsed array grew by doubling, and is freed with `parts`.
        var entries: [HAREntry] = []
        entries.reserveCapacity(parts.entries.count)
        entries.append(contentsOf: parts.entries)
        // Entries without a parseable time keep their file position: they take the previous entry's time.
        var last = -Double.infinity
        var keys: [Double] = []
        keys.reserveCapacity(entries.count)
        for e in entries {
            if let t = e.startedAt {
                keys.append(t)
                last = t
            } else {
                keys.append(last)
                notes.append(
                    HARNote(
                        path: "\(e.path).startedDateTime",
                        "not an ISO 8601 time (\"\(e.startedDateTime.prefix(40))\"); kept at its file position"))
            }
        }
        if let firstOut = zip(keys, keys.dropFirst()).enumerated().first(where: { $0.element.1 < $0.element.0 }) {
            let order = keys.indices.sorted { keys[$0] != keys[$1] ? keys[$0] < keys[$1] : $0 < $1 }
            entries = order.map { entries[$0] }
            notes.append(
                HARNote(
                    path: "log.entries[\(firstOut.offset + 1)]",
                    "entries are not in time order; sorted by startedDateTime (equal times keep file order)"))
        }
        HARClassifier.resolveRedirectRoles(&entries)
        return HARLog(version: parts.version, creator: parts.creator, pages: parts.pages, entries: entries, notes: notes)
    }
}

// MARK: - Time

/// ISO 8601 date-times as HAR recorders write them: `2024-05-01T10:00:00.123Z`, `…+02:00`, `…+0200`,
/// any number of fraction digits, `T` or a space. Returns seconds since 1970 (UTC; no zone = UTC).
enum ISO8601Time {
    static func parse(_ text: String) -> Double? {
        let b = Array(text.utf8)
        var i = 0
        func digits(_ n: Int) -> Int? {
            guard i + n <= b.count else { return nil }
            var v = 0
            for k in 0..<n {
                let c = b[i + k]
                guard c >= 0x30, c <= 0x39 else { return nil }
                v = v * 10 + Int(c - 0x30)
            }
            i += n
            return v
        }
        func expect(_ ch: UInt8) -> Bool {
            guard i < b.count, b[i] == ch else { return false }
            i += 1
            return true
        }
        guard let y = digits(4), expect(0x2D), let mo = digits(2), expect(0x2D), let d = digits(2) else { return nil }
        guard i < b.count, b[i] == 0x54 || b[i] == 0x20 || b[i] == 0x74 else { return nil }
        i += 1
        guard let h = digits(2), expect(0x3A), let mi = digits(2), expect(0x3A), let s = digits(2) else { return nil }
        guard (1...12).contains(mo), (1...31).contains(d), h <= 24, mi <= 59, s <= 60 else { return nil }
        var fraction = 0.0
        if i < b.count, b[i] == 0x2E || b[i] == 0x2C {
            i += 1
            var scale = 0.1
            var any = false
            while i < b.count, b[i] >= 0x30, b[i] <= 0x39 {
                fraction += Double(b[i] - 0x30) * scale
                scale /= 10
                i += 1
                any = true
            }
            guard any else { return nil }
        }
        var offset = 0
        if i < b.count {
            let sign = b[i]
            if sign == 0x5A || sign == 0x7A {
                i += 1
            } else if sign == 0x2B || sign == 0x2D {
                i += 1
                guard let oh = digits(2) else { return nil }
                _ = expect(0x3A)
                let om = digits(2) ?? 0
                offset = (oh * 3600 + om * 60) * (sign == 0x2D ? -1 : 1)
            } else {
                return nil
            }
        }
        guard i == b.count else { return nil }
        // Days from the civil date (proleptic Gregorian), after H. Hinnant's algorithm.
        let yy = mo <= 2 ? y - 1 : y
        let era = (yy >= 0 ? yy : yy - 399) / 400
        let yoe = yy - era * 400
        let mp = (mo + 9) % 12
        let doy = (153 * mp + 2) / 5 + d - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        let days = era * 146097 + doe - 719468
        return Double(days * 86400 + h * 3600 + mi * 60 + s - offset) + fraction
    }
}
