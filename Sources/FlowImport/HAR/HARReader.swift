// Reads HAR 1.2 / 1.1 files into `HARLog`.
//
// Strict where the replay needs a value, best effort elsewhere (documented in HARReader's doc comment):
// - errors (HARError, with a JSON path): invalid JSON (truncated, syntax, invalid UTF-8, unpaired
//   surrogate escapes: with line/column), no `log`/`log.entries`, an entry without `request.method`,
//   `request.url` or `response.status`, a `base64` body that is not base64 (document entries only);
// - best effort (a HARNote says so): unparseable `startedDateTime` (the entry keeps its file position),
//   entries out of time order (sorted, stable); optional fields absent or of the wrong type are treated as
//   absent; subresource bodies are never decoded (memory), so a broken subresource body is not an error.
import Foundation

public struct HARReader: Sendable {
    public struct Options: Sendable, Hashable {
        /// Keep the bodies of scripts, images, XHR … too (off: only document and frame bodies are decoded).
        public var keepSubresourceBodies: Bool
        public init(keepSubresourceBodies: Bool = false) { self.keepSubresourceBodies = keepSubresourceBodies }
    }

    public var options: Options
    public init(options: Options = Options()) { self.options = options }

    /// Reads the file at `url` (memory-mapped; the JSON is decoded in place, not copied).
    /// `name` is how errors name the file (default: the path).
    public func read(contentsOf url: URL, name: String? = nil) throws(HARError) -> HARLog {
        let shown = name ?? url.path
        let data: Data
        do {
            data = try Data(contentsOf: url, options: [.alwaysMapped])
        } catch {
            throw HARError(.unreadable, file: shown, "cannot read the file (\(error.localizedDescription))")
        }
        do {
            return try read(data: data)
        } catch {
            throw error.inFile(shown)
        }
    }

    /// Reads HAR JSON held in memory.
    public func read(data: Data) throws(HARError) -> HARLog {
        var json = data
        if json.starts(with: [0xEF, 0xBB, 0xBF]) { json = json.dropFirst(3) } // UTF-8 BOM (Fiddler writes one)
        let decoder = JSONDecoder()
        decoder.userInfo[HARDecoding.optionsKey] = options
        let file: HARFileDTO
        do {
            file = try decoder.decode(HARFileDTO.self, from: json)
        } catch let error as HARError {
            // JSONDecoder checks strings lazily: a field we read may fail because of invalid UTF-8 or an
            // unpaired surrogate. Name the real cause, with line and column, when there is one.
            if error.code != .notHAR, let problem = JSONProbe.firstProblem(in: json) {
                throw HARError(.invalidJSON, path: error.path, line: problem.line, column: problem.column, problem.message)
            }
            throw error
        } catch let error as DecodingError {
            throw HARDecoding.translate(error, data: json)
        } catch {
            throw HARError(.invalidJSON, "\(error)")
        }
        return HARDecoding.assemble(file.log)
    }
}

// MARK: - Decoding

enum HARDecoding {
    static let optionsKey = CodingUserInfoKey(rawValue: "plainview.har.options")!

    static func path(_ codingPath: [any CodingKey], _ last: String? = nil) -> String {
        var out = ""
        for key in codingPath {
            if let i = key.intValue {
                out += "[\(i)]"
            } else {
                out += out.isEmpty ? key.stringValue : ".\(key.stringValue)"
            }
        }
        if let last { out += out.isEmpty ? last : ".\(last)" }
        return out
    }

    static func translate(_ error: DecodingError, data: Data) -> HARError {
        switch error {
        case .dataCorrupted(let ctx) where ctx.codingPath.isEmpty:
            if let problem = JSONProbe.firstProblem(in: data) {
                return HARError(.invalidJSON, line: problem.line, column: problem.column, problem.message)
            }
            return HARError(.invalidJSON, "not valid JSON (\(ctx.debugDescription))")
        case .dataCorrupted(let ctx):
            return HARError(.invalidValue, path: path(ctx.codingPath), ctx.debugDescription)
        case .keyNotFound(let key, let ctx):
            return HARError(.missingField, path: path(ctx.codingPath, key.stringValue), "missing")
        case .typeMismatch(let type, let ctx):
            return HARError(.invalidValue, path: path(ctx.codingPath), "expected \(jsonName(type))")
        case .valueNotFound(let type, let ctx):
            return HARError(.invalidValue, path: path(ctx.codingPath), "is null; expected \(jsonName(type))")
        @unknown default:
            return HARError(.invalidJSON, "\(error)")
        }
    }

    static func jsonName(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: return "a string"
        case is Int.Type, is Double.Type: return "a number"
        case is Bool.Type: return "true or false"
        default:
            let name = "\(type)"
            if name.hasPrefix("Array") { return "an array" }
            return "an object"
        }
    }

    /// Sorts (stable) and notes what was done.
    static func assemble(_ dto: HARLogDTO) -> HARLog {
        var notes: [HARNote] = []
        var entries = dto.entries.map(\.entry)
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
        return HARLog(version: dto.version, creator: dto.creator, pages: dto.pages, entries: entries, notes: notes)
    }
}

struct HARFileDTO: Decodable {
    var log: HARLogDTO

    enum CodingKeys: String, CodingKey { case log }
    init(from decoder: any Decoder) throws {
        let c: KeyedDecodingContainer<CodingKeys>
        do {
            c = try decoder.container(keyedBy: CodingKeys.self)
        } catch {
            throw HARError(.notHAR, "the top level is not a JSON object; expected {\"log\": {\"entries\": [...]}}")
        }
        guard c.contains(.log) else {
            throw HARError(.notHAR, path: "log", "missing; expected a HAR file ({\"log\": {\"entries\": [...]}})")
        }
        log = try c.decode(HARLogDTO.self, forKey: .log)
    }
}

struct HARLogDTO: Decodable {
    var version = ""
    var creator = ""
    var pages: [HARPage] = []
    var entries: [HAREntryDTO] = []

    enum CodingKeys: String, CodingKey { case version, creator, pages, entries }
    enum CreatorKeys: String, CodingKey { case name }

    init(from decoder: any Decoder) throws {
        guard let c = try? decoder.container(keyedBy: CodingKeys.self) else {
            throw HARError(.notHAR, path: "log", "expected an object with \"entries\"")
        }
        version = c.lenientString(.version) ?? ""
        if let cc = try? c.nestedContainer(keyedBy: CreatorKeys.self, forKey: .creator) {
            creator = cc.lenientString(.name) ?? ""
        }
        if var pc = try? c.nestedUnkeyedContainer(forKey: .pages) {
            while !pc.isAtEnd {
                guard let p = try? pc.decode(HARPageDTO.self) else {
                    _ = try? pc.decode(Skip.self)
                    continue
                }
                pages.append(HARPage(id: p.id, title: p.title, startedDateTime: p.startedDateTime))
            }
        }
        guard c.contains(.entries) else {
            throw HARError(.notHAR, path: "log.entries", "missing; expected an array of entries")
        }
        do {
            entries = try c.decode([HAREntryDTO].self, forKey: .entries)
        } catch DecodingError.typeMismatch(_, let ctx) where ctx.codingPath.count <= 2 {
            throw HARError(.notHAR, path: "log.entries", "expected an array of entries")
        }
    }
}

struct HARPageDTO: Decodable {
    var id: String
    var title: String
    var startedDateTime: String
    enum CodingKeys: String, CodingKey { case id, title, startedDateTime }
    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = c.lenientString(.id) ?? ""
        title = c.lenientString(.title) ?? ""
        startedDateTime = c.lenientString(.startedDateTime) ?? ""
    }
}

/// Consumes any JSON value.
struct Skip: Decodable { init(from decoder: any Decoder) throws {} }

struct HAREntryDTO: Decodable {
    var entry: HAREntry

    enum CodingKeys: String, CodingKey {
        case startedDateTime, pageref, request, response
        case resourceType = "_resourceType", initiator = "_initiator", cause = "_cause", type = "_type"
    }
    enum RequestKeys: String, CodingKey { case method, url, httpVersion, headers, postData }
    enum PostKeys: String, CodingKey { case mimeType, text, params }
    enum ResponseKeys: String, CodingKey { case status, statusText, headers, content, redirectURL }
    enum ContentKeys: String, CodingKey { case mimeType, text, encoding }
    enum TypeKeys: String, CodingKey { case type }

    init(from decoder: any Decoder) throws {
        let at = HARDecoding.path(decoder.codingPath)
        let index = decoder.codingPath.last?.intValue ?? 0
        let options = decoder.userInfo[HARDecoding.optionsKey] as? HARReader.Options ?? HARReader.Options()
        guard let c = try? decoder.container(keyedBy: CodingKeys.self) else {
            throw HARError(.invalidValue, path: at, "expected an entry object with request and response")
        }

        // request
        guard c.contains(.request) else { throw HARError(.missingField, path: "\(at).request", "missing; expected an object") }
        guard let rq = try? c.nestedContainer(keyedBy: RequestKeys.self, forKey: .request) else {
            throw HARError(.invalidValue, path: "\(at).request", "expected an object")
        }
        guard let method = rq.lenientString(.method), !method.isEmpty else {
            throw HARError(
                rq.contains(.method) ? .invalidValue : .missingField, path: "\(at).request.method",
                rq.contains(.method) ? "expected a non-empty string (GET, POST …)" : "missing; expected GET, POST …")
        }
        guard let url = rq.lenientString(.url), !url.isEmpty else {
            throw HARError(
                rq.contains(.url) ? .invalidValue : .missingField, path: "\(at).request.url",
                rq.contains(.url) ? "expected a non-empty string (an absolute URL)" : "missing; expected an absolute URL")
        }
        let requestHeaders = rq.headerList(.headers)
        var postData: HARPostData?
        if let pc = try? rq.nestedContainer(keyedBy: PostKeys.self, forKey: .postData) {
            postData = HARPostData(
                mimeType: pc.lenientString(.mimeType) ?? "", text: pc.lenientString(.text),
                params: pc.headerList(.params))
        }
        let request = HARRequest(
            method: method.uppercased(), url: url, httpVersion: rq.lenientString(.httpVersion) ?? "",
            headers: requestHeaders, postData: postData)

        // response (body decoded later, once we know whether it is kept)
        guard c.contains(.response) else { throw HARError(.missingField, path: "\(at).response", "missing; expected an object") }
        guard let rs = try? c.nestedContainer(keyedBy: ResponseKeys.self, forKey: .response) else {
            throw HARError(.invalidValue, path: "\(at).response", "expected an object")
        }
        guard rs.contains(.status) else {
            throw HARError(
                .missingField, path: "\(at).response.status", "missing; expected the HTTP status (a number; 0 when aborted)")
        }
        guard let status = rs.lenientInt(.status), (0...999).contains(status) else {
            throw HARError(.invalidValue, path: "\(at).response.status", "expected the HTTP status (a number 0…999)")
        }
        let cc = try? rs.nestedContainer(keyedBy: ContentKeys.self, forKey: .content)
        var response = HARResponse(
            status: status, statusText: rs.lenientString(.statusText) ?? "",
            headers: rs.headerList(.headers),
            content: HARContent(
                mimeType: cc?.lenientString(.mimeType) ?? "",
                encoding: cc?.lenientString(.encoding) ?? ""),
            redirectURL: rs.lenientString(.redirectURL) ?? "")

        // what the recorder says the entry is
        var declared = c.lenientString(.resourceType) ?? c.lenientString(.type)
        if declared == nil, let cause = try? c.nestedContainer(keyedBy: TypeKeys.self, forKey: .cause) {
            declared = cause.lenientString(.type) // Firefox's netmonitor `cause.type` when exported
        }
        var initiatorType: String?
        if let ic = try? c.nestedContainer(keyedBy: TypeKeys.self, forKey: .initiator) {
            initiatorType = ic.lenientString(.type)
        }
        let (resourceType, role) = HARClassifier.classify(declared: declared, request: request, response: response)

        if role != .subresource || options.keepSubresourceBodies, let cc, cc.contains(.text) {
            let text: String
            do {
                text = try cc.decodeIfPresent(String.self, forKey: .text) ?? ""
            } catch {
                throw HARError(.invalidValue, path: "\(at).response.content.text", "expected a string of text")
            }
            if response.content.encoding.lowercased() == "base64" {
                guard let bytes = Data(base64Encoded: text, options: .ignoreUnknownCharacters) else {
                    throw HARError(
                        .invalidValue, path: "\(at).response.content.text",
                        "not base64, although content.encoding is \"base64\"")
                }
                response.content.body = bytes
            } else {
                response.content.body = Data(text.utf8)
            }
        }

        let started = c.lenientString(.startedDateTime) ?? ""
        entry = HAREntry(
            fileIndex: index, startedDateTime: started, startedAt: ISO8601Time.parse(started),
            pageref: c.lenientString(.pageref), request: request, response: response,
            resourceType: resourceType, initiatorType: initiatorType, role: role)
    }
}

struct HARNameValueDTO: Decodable {
    var pair: HARHeader?
    enum CodingKeys: String, CodingKey { case name, value }
    init(from decoder: any Decoder) throws {
        guard let c = try? decoder.container(keyedBy: CodingKeys.self), let name = c.lenientString(.name) else {
            pair = nil
            return
        }
        pair = HARHeader(name: name, value: c.lenientString(.value) ?? "")
    }
}

extension KeyedDecodingContainer {
    /// A string, or a number/bool written as one; nil when absent, null or another type (best effort).
    func lenientString(_ key: Key) -> String? {
        if let s = try? decodeIfPresent(String.self, forKey: key) { return s }
        if let i = try? decodeIfPresent(Int.self, forKey: key) { return String(i) }
        if let d = try? decodeIfPresent(Double.self, forKey: key) { return String(d) }
        if let b = try? decodeIfPresent(Bool.self, forKey: key) { return String(b) }
        return nil
    }

    /// An integer, or a string of digits (some proxies write `"status": "200"`).
    func lenientInt(_ key: Key) -> Int? {
        if let i = try? decodeIfPresent(Int.self, forKey: key) { return i }
        if let d = try? decodeIfPresent(Double.self, forKey: key), d.rounded() == d, abs(d) < 1e9 { return Int(d) }
        if let s = try? decodeIfPresent(String.self, forKey: key) { return Int(s.trimmingCharacters(in: .whitespaces)) }
        return nil
    }

    /// `[{name, value}]`; entries without a name are skipped; a non-array is treated as empty.
    func headerList(_ key: Key) -> [HARHeader] {
        guard let list = try? decodeIfPresent([HARNameValueDTO].self, forKey: key) else { return [] }
        return list.compactMap(\.pair)
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
