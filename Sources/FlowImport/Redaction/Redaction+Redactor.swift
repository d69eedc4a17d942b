// Replaces secrets with stable placeholders: the same secret becomes the same placeholder everywhere in a
// recording (in URLs, headers, cookies, form and JSON bodies, HTML), so URLs that must match still match,
// a cookie set by one response is still the cookie the next request sends, and the flow still replays.
//
// How: two passes over the recording. The first only learns secrets (values found by name, cookies,
// credentials, cards, personal numbers, e-mails) and gives each a placeholder in order of appearance; the
// second replaces them where found and, for secrets of at least `minimumGlobalLength` characters, everywhere
// else in the file too, in their plain, percent-encoded, form-encoded and HTML-escaped spellings.
import PlainviewURL
import PageScan
import Foundation
import PlainviewSupport

public struct Redactor: Sendable {
    public let config: RedactionConfig
    private let names: [NamePattern]
    private let keep: [NamePattern]
    private let credentialHeaders: Set<String>
    private let custom: [RegexBox]

    private var placeholderOf: [String: String] = [:]
    /// The kind of each placeholder that does not spell it (a UUID-shaped one; see `kind(ofPlaceholder:)`).
    private var kindOfPlaceholder: [String: RedactionKind] = [:]
    private var counters: [RedactionKind: Int] = [:]
    /// The placeholders written that Detectors.isPlaceholder does not know by their shape (`isPlaceholder` asks
    /// both: the others need no place here).
    private var placeholders: Set<String> = []
    /// Textual placeholder → its number form (for secrets written as JSON or script numbers).
    private var numericOf: [String: String] = [:]
    /// How many secrets written as UUIDs got a UUID placeholder.
    private var uuidPlaceholders = 0
    /// Spellings to replace everywhere (at least `minimumGlobalLength` characters): their bytes → placeholder.
    private var known: KnownSpellings
    /// A secret's spelling as found → the key its spellings were learnt with, for pairs whose spellings take
    /// encoding: the same pair learns nothing new.
    private var spellingsLearnt: [String: String] = [:]
    /// `matchesName` per name as written, and whether `keep` spares a cookie, for the first names met: a
    /// recording repeats its few names thousands of times (a cookie-heavy one may hold many more, not kept).
    private var nameVerdicts: [String: Bool] = [:]
    private var keptCookies: [String: Bool] = [:]
    /// Short texts the detectors found nothing in, whatever is learnt (see `redactDecoded`), per `scripts` flag.
    private var cleanTexts: Set<String> = []
    private var cleanScriptTexts: Set<String> = []
    private static let verdictsKept = 4096
    private var learning = false
    /// Which part of the work `redact(_:)` is doing (see `redact(_:)`).
    private var phase = Phase.all
    /// The `redactText` and `redactField` calls made so far in this phase, and whether one is running: with
    /// them, a replacement of the known-secrets pass is put back in the report where the old second pass put it.
    private var calls: Int64 = 0
    private var inCall = false
    /// The detecting pass: where each place of the report was first recorded (`order`), one per place.
    private var firstOrder: [Int64] = []
    /// The known-secrets pass: its replacements, in the order made, with where they stand (`order`).
    private var knownPlaces: [(order: Int64, kind: RedactionKind, location: String, placeholder: String, count: Int)] = []
    /// The detecting pass on two cores (`detectEntries`): what the detectors found in the texts of the entries
    /// being redacted, worked out ahead by a scout.
    private var detectedAhead: [Detection.Key: Detection] = [:]
    /// The scout (`Phase.scout`): what it found in the texts it met since it last handed its findings over.
    private var detectedByScout: [Detection.Key: Detection] = [:]

    /// False: every detector runs its regular expression, also on ASCII text (the matchers' reference, for tests).
    var usesASCIIMatchers = true
    /// False: the detecting pass runs on one core, without a scout (the reference of `detectEntries`, for tests).
    var detectsAhead = true

    /// What the second pass (or the `redact…` calls) replaced.
    public private(set) var report = RedactionReport()

    public init(config: RedactionConfig = .default) {
        self.config = config
        names = config.names.map(NamePattern.init)
        keep = config.keep.map(NamePattern.init)
        credentialHeaders = Set(config.headers.map { $0.lowercased() })
        custom = config.patterns.map { RegexBox($0) }
        known = KnownSpellings(keyLength: config.minimumGlobalLength)
    }

    // MARK: - Whole recordings

    /// Redacts every string of the recording a flow could carry: URLs, headers, post data, bodies, page titles.
    public mutating func redact(_ log: HARLog) -> HARLog {
        var out = log
        redact(&out)
        return out
    }

    /// Redacts `log` in place (learning its secrets first): each string is replaced as it is redacted, so the
    /// recording is never held twice.
    ///
    /// In two passes: the first runs the detectors once per string, replacing what they find (it learns every
    /// secret on the way); the second only replaces the secrets known by then wherever else they stand (a
    /// byte scan, no detector), so a secret first seen late is still replaced early. The result and the report
    /// are those of learning everything first and then redacting with all detectors again (as before): the
    /// detectors find the same secrets either way, as what they find does not depend on what was learnt, and
    /// the report's places are put back in that order. With configured `patterns` (which run after the known
    /// secrets are replaced) it is done that way.
    public mutating func redact(_ log: inout HARLog) {
        guard custom.isEmpty else {
            learn(log)
            redactEntries(&log)
            return
        }
        phase = .detect
        calls = 0
        firstOrder = Array(repeating: .min, count: report.placeCount) // places recorded before: first
        detectEntries(&log)
        phase = .known
        calls = 0
        knownEntries(&log)
        phase = .all
        if !knownPlaces.isEmpty { report = mergedReport() }
        firstOrder = []
        knownPlaces = []
    }

    /// `scout`: a second redactor that only runs the detectors of `redactDecoded` ahead of the detecting pass,
    /// keeping what they find (`detectedByScout`); it replaces, learns and records nothing.
    private enum Phase { case all, detect, known, scout }

    /// The report as one pass in order would have written it: each place where it was first recorded, a
    /// replacement of a known secret right after the detectors of the text it stands in.
    private func mergedReport() -> RedactionReport {
        let items = report.items
        var events = items.indices.map { (order: firstOrder[$0], index: $0) }
        events += knownPlaces.indices.map { (order: knownPlaces[$0].order, index: items.count + $0) }
        events.sort { $0.order != $1.order ? $0.order < $1.order : $0.index < $1.index }
        var out = RedactionReport()
        for e in events {
            if e.index < items.count {
                let i = items[e.index]
                out.record(i.kind, at: i.location, name: i.name, placeholder: i.placeholder, count: i.count)
            } else {
                let k = knownPlaces[e.index - items.count]
                out.record(k.kind, at: k.location, name: "", placeholder: k.placeholder, count: k.count)
            }
        }
        return out
    }

    /// Where a place recorded now stands among the calls: within the running call (0), or after the last one (2);
    /// a known secret's replacement stands between the two (1).
    private var order: Int64 { calls * 4 + (inCall ? 0 : 2) }

    private mutating func record(_ kind: RedactionKind, at location: String, name: String, placeholder: String, count: Int = 1) {
        if phase == .known {
            knownPlaces.append((order: calls * 4 + 1, kind: kind, location: location, placeholder: placeholder, count: count))
            return
        }
        let before = report.placeCount
        report.record(kind, at: location, name: name, placeholder: placeholder, count: count)
        if phase == .detect, report.placeCount > before { firstOrder.append(order) }
    }

    /// Learns the secrets of a recording without replacing anything (call before redacting parts of it
    /// one by one, so a secret first seen late is still replaced early).
    public mutating func learn(_ log: HARLog) {
        learning = true
        defer { learning = false }
        for p in log.pages.indices { _ = redactText(log.pages[p].title, at: "log.pages[\(p)].title", as: .plain) }
        for e in log.entries { learn(e) }
    }

    /// Learns the secrets of one entry (see `learn(_:)`).
    mutating func learn(_ entry: HAREntry) {
        let wasLearning = learning
        learning = true
        defer { learning = wasLearning }
        var e = entry
        redactEntry(&e)
    }

    /// The pages' titles, first in every pass (before the entries).
    private mutating func redactPageTitles(_ log: inout HARLog) {
        for p in log.pages.indices {
            log.pages[p].title = redactText(log.pages[p].title, at: "log.pages[\(p)].title", as: .plain)
        }
    }

    private mutating func redactEntries(_ log: inout HARLog) {
        redactPageTitles(&log)
        for i in log.entries.indices { redactEntry(&log.entries[i]) }
    }

    /// The detecting pass (`redactEntries`), on two cores: a scout redactor goes through each block of entries one
    /// block ahead on another thread (Threads.pipeline), running the detectors of `redactDecoded` on the texts as
    /// it meets them, and hands what they found over. What the detectors find depends on the text alone (see
    /// `detect`), so this redactor takes the scout's findings for a text it meets with the very same bytes, and
    /// searches any other itself (one an earlier step of `redactText` replaced something in). Everything else
    /// (checking findings against the placeholders, numbering, learning, recording) is done here alone, in the
    /// entries' order, so the result is the one-core pass's.
    private mutating func detectEntries(_ log: inout HARLog) {
        let blocks = Redactor.blocks(of: log.entries)
        guard detectsAhead, blocks.count > 1, ProcessInfo.processInfo.activeProcessorCount > 1 else {
            return redactEntries(&log)
        }
        redactPageTitles(&log)
        var scout = Redactor(config: config)
        scout.usesASCIIMatchers = usesASCIIMatchers
        scout.phase = .scout
        log.entries.withUnsafeMutableBufferPointer { entries in
            // The scout reads block b + 1 while this thread rewrites block b: never the same entry at once, and
            // a block is handed over only once the scout is done with it.
            Threads.pipeline(
                blocks.count,
                produce: { b -> [Detection.Key: Detection] in
                    for i in blocks[b] {
                        var copy = entries[i]
                        scout.redactEntry(&copy)
                    }
                    defer { scout.detectedByScout = [:] }
                    return scout.detectedByScout
                },
                consume: { b, found in
                    detectedAhead = found
                    for i in blocks[b] { redactEntry(&entries[i]) }
                })
        }
        detectedAhead = [:]
    }

    /// The known-secrets pass (`redactEntries` in `Phase.known`), on two cores: each half of the entries is
    /// redacted by its own copy of this redactor. The pass only reads what the detecting pass learnt and appends
    /// the places it replaces, each ordered by the calls made before it (`order`). So the second half counts its
    /// calls from 0, and its places are put after the first half's with the first half's calls added: the
    /// order, the places and the entries are the one-core pass's.
    private mutating func knownEntries(_ log: inout HARLog) {
        let count = log.entries.count
        guard detectsAhead, count >= 2 * Redactor.knownHalfAtLeast, ProcessInfo.processInfo.activeProcessorCount > 1 else {
            return redactEntries(&log)
        }
        redactPageTitles(&log)
        let half = count / 2
        var second = self
        second.calls = 0
        second.knownPlaces = []
        log.entries.withUnsafeMutableBufferPointer { entries in
            _ = Threads.map(2, threads: 2) { part in
                if part == 0 {
                    for i in 0..<half { redactEntry(&entries[i]) }
                } else {
                    for i in half..<count { second.redactEntry(&entries[i]) }
                }
            }
        }
        let offset = calls * 4
        knownPlaces += second.knownPlaces.map { ($0.order + offset, $0.kind, $0.location, $0.placeholder, $0.count) }
        calls += second.calls
    }

    /// The fewest entries in each half of a known-secrets pass on two cores (fewer run on one).
    static let knownHalfAtLeast = 64

    /// The blocks of entries the scout hands over at once: up to 64 entries, and ending once their URLs and bodies
    /// reach 128 kB, so what waits (the findings, each with its text twice as UTF-16) stays a few MB even when
    /// every page is large.
    static func blocks(of entries: [HAREntry]) -> [Range<Int>] {
        var out: [Range<Int>] = []
        var start = 0, bytes = 0
        for (i, e) in entries.enumerated() {
            bytes +=
                e.request.url.utf8.count + (e.request.postData?.text?.utf8.count ?? 0) + (e.response.content.body?.count ?? 0)
            if i + 1 - start == 64 || bytes >= 128 << 10 {
                out.append(start..<(i + 1))
                start = i + 1
                bytes = 0
            }
        }
        if start < entries.count { out.append(start..<entries.count) }
        return out
    }

    /// Redacts one entry in place (learning only, while `learning`).
    mutating func redactEntry(_ e: inout HAREntry) {
        let at = e.path
        e.request.url = redactText(e.request.url, at: "\(at).request.url", as: .url)
        // The scout leaves headers to the pass itself (short values, nearly all of them clean or cookies).
        if phase != .scout { e.request.headers = redactHeaders(e.request.headers, at: "\(at).request.headers") }
        if var post = e.request.postData {
            e.request.postData = nil
            post.params = post.params.map { p in
                HARHeader(name: p.name, value: redactField(name: p.name, value: p.value, at: "\(at).request.postData.params"))
            }
            if let text = post.text {
                post.text = redactText(text, at: "\(at).request.postData.text", as: TextContext(mimeType: post.mimeType))
            }
            e.request.postData = post
        }
        if phase != .scout { e.response.headers = redactHeaders(e.response.headers, at: "\(at).response.headers") }
        if !e.response.redirectURL.isEmpty {
            e.response.redirectURL = redactText(e.response.redirectURL, at: "\(at).response.redirectURL", as: .url)
        }
        if let body = e.response.content.body {
            e.response.content.body = nil
            e.response.content.body = redactBody(body, contentType: e.response.contentType, at: "\(at).response.content")
        }
    }

    // MARK: - Parts

    public enum TextContext: Sendable {
        case url, form, json, html, plain

        public init(mimeType: String) {
            let m = mimeType.lowercased()
            if SecretPrefilter.has(m, "x-www-form-urlencoded") {
                self = .form
            } else if SecretPrefilter.has(m, "json") {
                self = .json
            } else if SecretPrefilter.has(m, "html") || SecretPrefilter.has(m, "xml") {
                self = .html
            } else {
                self = .plain
            }
        }
    }

    /// A header list: cookies per value, credential headers whole, everything else as text.
    public mutating func redactHeaders(_ headers: [HARHeader], at location: String) -> [HARHeader] {
        headers.map { HARHeader(name: $0.name, value: redactHeader(name: $0.name, value: $0.value, at: location)) }
    }

    public mutating func redactHeader(name: String, value: String, at location: String) -> String {
        let lname = name.lowercased()
        let place = "\(location).\(name)"
        if config.cookies, lname == "cookie" {
            // The known-secrets pass leaves every cookie value as the detecting pass wrote it, and the names and
            // separators as recorded: the header is what it was (and it counts no call).
            if phase == .known { return value }
            if ASCII.isASCII(value) { return redactASCIICookies(value, at: place) }
            let pairs = value.components(separatedBy: ";").map { part -> String in
                let leading = String(part.prefix { $0 == " " })
                let trimmed = part.dropFirst(leading.count)
                guard let eq = trimmed.firstIndex(of: "=") else { return part }
                let cname = String(trimmed[..<eq]), cvalue = String(trimmed[trimmed.index(after: eq)...])
                return leading + cname + "=" + redactCookieValue(cvalue, cookie: cname, at: place)
            }
            return pairs.joined(separator: ";")
        }
        if config.cookies, lname == "set-cookie" {
            // Several cookies may be folded into one value with newlines (Chrome does so).
            let lines = value.utf8.contains(0x0A) ? value.components(separatedBy: "\n") : [value]
            return lines.map { line -> String in
                let semi = line.firstIndex(of: ";") ?? line.endIndex
                let first = line[..<semi]
                guard let eq = first.firstIndex(of: "=") else { return redactText(line, at: place, as: .plain) }
                let cname = Redactor.trimmingSpaces(first[..<eq])
                let cvalue = String(first[first.index(after: eq)...])
                let attributes = redactText(String(line[semi...]), at: place, as: .plain)
                return String(first[..<eq]) + "=" + redactCookieValue(cvalue, cookie: cname, at: place) + attributes
            }.joined(separator: "\n")
        }
        if credentialHeaders.contains(lname) || (matchesName(name) && !["referer", "location"].contains(lname)) {
            // The known-secrets pass leaves what the detecting pass replaced whole (it never scanned it).
            guard phase != .known, !value.isEmpty, !isPlaceholder(value) else { return value }
            // Keep the scheme word of `Authorization: Bearer …` / `Basic …` so the header still reads right.
            let parts = value.split(separator: " ", maxSplits: 1)
            if parts.count == 2, parts[0].allSatisfy({ $0.isLetter }), parts[0].count <= 12 {
                let secret = String(parts[1])
                if isPlaceholder(secret) { return value }
                return parts[0] + " " + replaceSecret(secret, key: secret, kind: .credential, name: name, at: place)
            }
            return replaceSecret(value, key: value, kind: .credential, name: name, at: place)
        }
        return redactText(value, at: place, as: lname == "refresh" || lname == "location" || lname == "referer" ? .url : .plain)
    }

    /// A `Cookie` header of ASCII text, split on its bytes: there every byte is a character (CR LF, one
    /// character of two bytes, holds none of `;`, `=` and space), so the pairs, names and values are those of the
    /// general split.
    private mutating func redactASCIICookies(_ value: String, at place: String) -> String {
        var out = ""
        out.reserveCapacity(value.utf8.count)
        var first = true
        for part in value.utf8.split(separator: 0x3B, omittingEmptySubsequences: false) {
            if !first { out += ";" }
            first = false
            let trimmed = part.drop { $0 == 0x20 }
            guard let eq = trimmed.firstIndex(of: 0x3D) else {
                out += Substring(part)
                continue
            }
            out += Substring(part[..<eq])
            out += "="
            let cname = String(Substring(trimmed[..<eq]))
            out += redactCookieValue(String(Substring(trimmed[trimmed.index(after: eq)...])), cookie: cname, at: place)
        }
        return out
    }

    /// A form field or query item given as a name/value pair.
    public mutating func redactField(name: String, value: String, at location: String) -> String {
        calls += 1
        let wasInCall = inCall
        inCall = true
        defer { inCall = wasInCall }
        // The known-secrets pass leaves a value the detecting pass replaced whole.
        if phase == .known, isPlaceholder(value), matchesName(name) { return value }
        if shouldRedact(name: name, value: value) {
            return replaceSecret(value, key: value, kind: .token, name: name, at: location)
        }
        return redactTextOnce(value, at: location, as: .plain)
    }

    /// A response or request body: text bodies are redacted in their own encoding (UTF-8, else each byte
    /// as ISO-8859-1, which round-trips any bytes); binary bodies (images, fonts, media) are left alone.
    public mutating func redactBody(_ body: Data, contentType: String, at location: String) -> Data {
        let mime = contentType.lowercased()
        let binaryPrefixes = [
            "image/", "font/", "audio/", "video/", "application/octet-stream", "application/pdf",
            "application/zip", "application/wasm", "application/font",
        ]
        if binaryPrefixes.contains(where: { mime.hasPrefix($0) }) { return body }
        if let text = String(validating: body, as: UTF8.self) {
            let out = redactText(text, at: location, as: TextContext(mimeType: mime.isEmpty ? "text/html" : mime))
            return out == text ? body : Data(out.utf8)
        }
        guard let latin = String(data: body, encoding: .isoLatin1) else { return body }
        let out = redactText(latin, at: location, as: TextContext(mimeType: mime.isEmpty ? "text/html" : mime))
        if out == latin { return body }
        return out.data(using: .isoLatin1) ?? Data(out.utf8)
    }

    /// Any text: names in its raw structure (HTML attributes, JSON pairs, multipart parts, URL passwords),
    /// then everything found in the text as a browser decodes it (name=value pairs, scripts' assignments,
    /// cards, personal and organisation numbers, e-mails, JWTs, Bearer credentials), then long known secrets
    /// wherever else they stand, then configured patterns.
    public mutating func redactText(_ text: String, at location: String, as context: TextContext) -> String {
        calls += 1
        let wasInCall = inCall
        inCall = true
        defer { inCall = wasInCall }
        return redactTextOnce(text, at: location, as: context)
    }

    /// `redactText` without counting a call.
    private mutating func redactTextOnce(_ text: String, at location: String, as context: TextContext) -> String {
        guard !text.isEmpty else { return text }
        if phase == .known { return replaceKnown(text, at: location) }
        // The scout replaces nothing, so the steps before the detectors hand them the text as it is.
        if phase == .scout { return redactDecoded(text, at: location, scripts: context != .url && context != .form) }
        var s = text
        if context == .html {
            s = redactHTMLAttributes(s, at: location)
            if SecretPrefilter.hasIgnoringCase(s, "<textarea") { s = redactTextareas(s, at: location) }
        }
        if context == .json || context == .html || context == .plain { s = redactJSONPairs(s, at: location) }
        if SecretPrefilter.has(s, "@") { s = redactUserinfo(s, at: location) }
        if SecretPrefilter.hasIgnoringCase(s, "form-data") { s = redactMultipart(s, at: location) }
        s = redactDecoded(s, at: location, scripts: context != .url && context != .form)
        s = replaceKnown(s, at: location)
        for (i, re) in custom.enumerated() {
            s = re.replace(in: s) { m, ns in
                let g = m.numberOfRanges > 1 ? 1 : 0
                guard let found = m.group(g, in: ns), !found.isEmpty, !isPlaceholder(found) else { return nil }
                let whole = ns.substring(with: m.range)
                let r = m.range(at: g)
                let before = (whole as NSString).substring(to: r.location - m.range.location)
                let after = (whole as NSString).substring(from: r.location - m.range.location + r.length)
                return before + replaceSecret(found, key: found, kind: .pattern, name: "patterns[\(i)]", at: location) + after
            }
        }
        return s
    }

    // MARK: - Detectors by name

    /// A placeholder of this redactor or of an earlier run (a flow imported once and redacted again).
    private func isPlaceholder(_ s: String) -> Bool {
        Redactor.isPlaceholder(s, learnt: placeholders)
    }

    /// A placeholder by its shape, or one of `learnt` (those whose shape does not tell).
    private static func isPlaceholder(_ s: String, learnt: Set<String>) -> Bool {
        learnt.contains(s) || Detectors.isPlaceholder(s)
    }

    private mutating func matchesName(_ rawName: String) -> Bool {
        if let known = nameVerdicts[rawName] { return known }
        // A form field's name as recorded may still be percent-encoded (`s%C3%A4kerhetskod`).
        let name = rawName.contains("%") ? HARForm.percentDecode(rawName) : rawName
        let lower = name.lowercased(), words = NamePattern.words(name)
        let verdict =
            names.contains(where: { $0.matches(lower: lower, words: words) })
            && !keep.contains { $0.matches(lower: lower, words: words) }
        if nameVerdicts.count < Redactor.verdictsKept { nameVerdicts[rawName] = verdict }
        return verdict
    }

    /// True when `keep` spares cookie `name` (matched as written, not decoded).
    private mutating func keepsCookie(_ name: String) -> Bool {
        if let known = keptCookies[name] { return known }
        let verdict = keep.contains { $0.matches(name) }
        if keptCookies.count < Redactor.verdictsKept { keptCookies[name] = verdict }
        return verdict
    }

    private mutating func shouldRedact(name: String, value: String) -> Bool {
        !value.isEmpty && !isPlaceholder(value) && mayRedact(name: name, value: value)
    }

    /// `shouldRedact` but for the value being a placeholder (what was learnt): the name matches, and the value is
    /// not empty and not a URL.
    private mutating func mayRedact(name: String, value: String) -> Bool {
        guard !value.isEmpty, matchesName(name) else { return false }
        // A URL-valued field (a return URL) stays a URL; its own secrets are redacted inside it.
        let v = (PercentEncoding.decodeComponent(value) ?? value).lowercased()
        if v.hasPrefix("http://") || v.hasPrefix("https://") || v.hasPrefix("/") || SecretPrefilter.has(v, "://") { return false }
        return true
    }

    private mutating func redactCookieValue(_ value: String, cookie: String, at location: String) -> String {
        guard phase != .known, !value.isEmpty, !isPlaceholder(value), !keepsCookie(cookie) else {
            return value
        }
        let quoted = Redactor.characterCount(value, atLeast: 2) && value.hasPrefix("\"") && value.hasSuffix("\"")
        let inner = quoted ? String(value.dropFirst().dropLast()) : value
        guard !inner.isEmpty else { return value }
        let p = replaceSecret(
            inner, key: PercentEncoding.decodeComponent(inner) ?? inner, kind: .cookie, name: cookie, at: location)
        return quoted ? "\"\(p)\"" : p
    }

    static let userinfo = RegexBox(#"\b([A-Za-z][A-Za-z0-9+.\-]*://[^/?#@\s"'<>:]*:)([^/?#@\s"'<>]+)@"#)

    /// The password of `https://user:password@host/`.
    private mutating func redactUserinfo(_ text: String, at location: String) -> String {
        // The expression needs a scheme's `://`.
        guard ASCII.contains(Array("://".utf8), in: Array(text.utf8)) else { return text }
        return Redactor.userinfo.replace(in: text) { m, ns in
            guard let head = m.group(1, in: ns), let password = m.group(2, in: ns), !isPlaceholder(password) else { return nil }
            let key = HARForm.percentDecode(password)
            return head + replaceSecret(password, key: key, kind: .credential, name: "URL password", at: location) + "@"
        }
    }

    static let textarea = RegexBox(
        #"(<textarea[^>]*\sname\s*=\s*["']?([^"'\s>]{1,80})["']?[^>]*>)([^<]*)(</textarea>)"#,
        options: [.caseInsensitive])

    /// `<textarea name="creq">…</textarea>` (some ACS forms post the 3-D Secure message so).
    private mutating func redactTextareas(_ text: String, at location: String) -> String {
        Redactor.textarea.replace(in: text) { m, ns in
            guard let open = m.group(1, in: ns), let name = m.group(2, in: ns), let value = m.group(3, in: ns),
                let close = m.group(4, in: ns)
            else { return nil }
            let trimmed = value.trimmingCharacters(in: .whitespacesAndNewlines)
            guard shouldRedact(name: name, value: trimmed) else { return nil }
            return open
                + replaceSecret(
                    trimmed, key: BrowserEscapes.decodeCharacterReferences(trimmed), kind: .token, name: name, at: location)
                + close
        }
    }

    static let multipart = RegexBox(
        #"(Content-Disposition:[ \t]*form-data;[ \t]*name="([^"]{1,80})"[^\r\n]*\r?\n(?:[^\r\n]+\r?\n)*\r?\n)([^\r\n]*)"#,
        options: [.caseInsensitive])

    /// `multipart/form-data` parts whose name matches.
    private mutating func redactMultipart(_ text: String, at location: String) -> String {
        Redactor.multipart.replace(in: text) { m, ns in
            guard let head = m.group(1, in: ns), let name = m.group(2, in: ns), let value = m.group(3, in: ns),
                shouldRedact(name: name, value: value)
            else { return nil }
            return head + replaceSecret(value, key: value, kind: .token, name: name, at: location)
        }
    }

    static let jsonPairs = RegexBox(#""([^"\\]{1,80})"\s*:\s*(?:"((?:[^"\\]|\\.){0,4096})"|(-?[0-9][0-9.eE+\-]{0,40}))"#)

    /// `"name": "value"` and `"name": 123` in JSON bodies and inline scripts.
    private mutating func redactJSONPairs(_ text: String, at location: String) -> String {
        guard SecretPrefilter.has(text, "\"") && SecretPrefilter.has(text, ":") else { return text }
        return Redactor.jsonPairs.replace(in: text) { m, ns in
            guard let name = m.group(1, in: ns) else { return nil }
            let whole = ns.substring(with: m.range)
            if let str = m.group(2, in: ns) {
                let key = str.replacingOccurrences(of: "\\/", with: "/")
                guard shouldRedact(name: name, value: key) else { return nil }
                let prefixLen = m.range(at: 2).location - m.range.location
                return String(whole.prefix(prefixLen)) + replaceSecret(str, key: key, kind: .token, name: name, at: location)
                    + "\""
            }
            if let num = m.group(3, in: ns) {
                guard shouldRedact(name: name, value: num) else { return nil }
                let prefixLen = m.range(at: 3).location - m.range.location
                let p = replaceSecret(num, key: num, kind: .token, name: name, at: location)
                return String(whole.prefix(prefixLen)) + (p == num ? num : numericPlaceholder(for: p))
            }
            return nil
        }
    }

    static let tags = RegexBox(#"<[A-Za-z][A-Za-z0-9\-]*\s[^>]{0,8192}>"#)
    static let attributes = RegexBox(#"([A-Za-z_:][A-Za-z0-9_:.\-]*)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>"'=`]+))"#)

    /// In each tag: the `value`/`content` of an element whose `name`/`id`/`property` matches (hidden 3DS
    /// inputs, `<meta name="csrf-token">`), and any attribute whose own name matches (`data-session-id`).
    private mutating func redactHTMLAttributes(_ text: String, at location: String) -> String {
        guard SecretPrefilter.has(text, "<") else { return text }
        let d = DetectorText(text, isASCII: usesASCIIMatchers && ASCII.isASCII(text))
        var out = ""
        var cursor = 0
        for tm in d.matches(Redactor.tags, ASCIIScanners.tags) {
            guard let tag = redactTag(d.text(tm.range(at: 0)), at: location) else { continue }
            out += d.text(NSRange(location: cursor, length: tm.range.lowerBound - cursor)) + tag
            cursor = tm.range.upperBound
        }
        guard cursor > 0 else { return text }
        return out + d.text(NSRange(location: cursor, length: d.length - cursor))
    }

    /// One tag with its secret attribute values replaced; nil when none is.
    private mutating func redactTag(_ tag: String, at location: String) -> String? {
        let t = DetectorText(tag, isASCII: usesASCIIMatchers && ASCII.isASCII(tag))
        let found = t.matches(Redactor.attributes, ASCIIScanners.attributes)
        guard !found.isEmpty else { return nil }
        struct Attr { var name: String; var valueRange: NSRange; var value: String }
        var attrs: [Attr] = []
        for a in found {
            guard let n = t.group(a, 1) else { continue }
            for g in 2...4 {
                let r = a.range(at: g)
                if r.location != NSNotFound {
                    attrs.append(Attr(name: n.lowercased(), valueRange: r, value: t.text(r)))
                    break
                }
            }
        }
        let label = attrs.first { ["name", "id", "property", "itemprop"].contains($0.name) && matchesName($0.value) }
        var edits: [(NSRange, String)] = []
        for a in attrs {
            let key = BrowserEscapes.decodeCharacterReferences(a.value)
            var byName: String?
            if let label, ["value", "content"].contains(a.name) {
                byName = label.value
            } else if ![
                "name", "id", "property", "itemprop", "value", "content", "type", "class", "href", "src",
                "action", "method", "style", "rel", "lang", "for",
            ].contains(a.name), matchesName(a.name) {
                byName = a.name
            }
            guard let byName, shouldRedact(name: byName, value: key), !isPlaceholder(a.value) else { continue }
            edits.append((a.valueRange, replaceSecret(a.value, key: key, kind: .token, name: byName, at: location)))
        }
        guard !edits.isEmpty else { return nil }
        let out = NSMutableString(string: tag)
        for (r, v) in edits.sorted(by: { $0.0.location > $1.0.location }) { out.replaceCharacters(in: r, with: v) }
        return out as String
    }

    // MARK: - Detectors on decoded text

    /// Runs the detectors over `text` as a browser decodes it and replaces each finding at its original span.
    /// `scripts`: also `name = "value"` assignments and `name: 'value'` properties (inline scripts, HTML text),
    /// and numbers written as JSON or script numbers stay numbers; false for URLs and form bodies.
    private mutating func redactDecoded(_ text: String, at location: String, scripts: Bool) -> String {
        guard Detectors.mayHoldSecret(text) else { return text }
        if phase == .scout {
            let key = Detection.Key(text: text, scripts: scripts)
            if detectedByScout.index(forKey: key) == nil { detectedByScout[key] = detect(text, scripts: scripts) }
            return text
        }
        if (scripts ? cleanScriptTexts : cleanTexts).contains(text) { return text }
        let detection =
            detectedAhead.isEmpty
            ? detect(text, scripts: scripts)
            : detectedAhead[Detection.Key(text: text, scripts: scripts)] ?? detect(text, scripts: scripts)
        // A text found clean without what was learnt is clean for good, and remembered (`; Path=/`, `text/html`).
        if !detection.dependsOnLearnt, text.utf8.count <= 512 {
            if scripts, cleanScriptTexts.count < Redactor.verdictsKept { cleanScriptTexts.insert(text) }
            if !scripts, cleanTexts.count < Redactor.verdictsKept { cleanTexts.insert(text) }
        }
        // The static test with the one table it reads: a method called on `self` from a closure here would copy
        // the whole redactor (every table retained and released) once per finding.
        let learnt = placeholders
        var found = detection.findings.filter {
            !Redactor.isPlaceholder($0.original, learnt: learnt) && !Redactor.isPlaceholder($0.key, learnt: learnt)
        }
        guard !found.isEmpty else { return text }
        // Leftmost first; at one place the longest; overlapping later findings are covered by the earlier one.
        found.sort {
            $0.range.location != $1.range.location ? $0.range.location < $1.range.location : $0.range.length > $1.range.length
        }
        let source = detection.view.original
        // Text whose decoded form is ASCII is ASCII itself (decoding never removes other characters): it is put
        // together as UTF-8, its offsets being the same.
        let bytes: [UInt8]? = detection.isASCII ? Array(text.utf8) : nil
        var out16: [UInt16] = [], out8: [UInt8] = []
        if bytes == nil { out16.reserveCapacity(source.count) } else { out8.reserveCapacity(source.count) }
        var cursor = 0
        for f in found where f.range.location >= cursor {
            let start = f.range.location, end = f.range.location + f.range.length
            let spelling =
                bytes.map { String(decoding: $0[start..<end], as: UTF8.self) }
                ?? String(decoding: source[start..<end], as: UTF16.self)
            var placeholder = replaceSecret(spelling, key: f.key, kind: f.kind, name: f.name, at: location)
            if placeholder == spelling { continue } // a kept value
            if scripts, [.card, .personalNumber, .organisationNumber].contains(f.kind), Detectors.isBareNumber(source, start, end)
            {
                placeholder = numericPlaceholder(for: placeholder) // a JSON/JS number stays a number
            } else if f.kind == .email, Redactor.holdsPercentEncodedAt(spelling) {
                placeholder = Redactor.percentEncodedAt(placeholder)
            }
            if let bytes {
                out8.append(contentsOf: bytes[cursor..<start])
                out8.append(contentsOf: placeholder.utf8)
            } else {
                out16.append(contentsOf: source[cursor..<start])
                out16.append(contentsOf: placeholder.utf16)
            }
            cursor = end
        }
        guard cursor > 0 else { return text }
        if let bytes {
            out8.append(contentsOf: bytes[cursor...])
            return String(decoding: out8, as: UTF8.self)
        }
        out16.append(contentsOf: source[cursor...])
        return String(decoding: out16, as: UTF16.self)
    }

    /// What the detectors find in `text` as a browser decodes it, before any finding is checked against the
    /// placeholders made so far. It depends on the text, `scripts`, the configuration and `usesASCIIMatchers`
    /// alone (`matchesName` only caches its verdicts), never on what was learnt, so a scout may work it out
    /// ahead (`detectEntries`).
    private mutating func detect(_ text: String, scripts: Bool) -> Detection {
        let view = DecodedText(text)
        let decoded = view.string
        var found: [Detection.Finding] = []
        var dependsOnLearnt = false
        let can = SecretPrefilter(decoded)
        // ASCII text goes to the hand-written matchers (ASCIIScanners), anything else to the expressions.
        let d = DetectorText(decoded, isASCII: usesASCIIMatchers && !can.hasNonASCII)
        func add(_ r: NSRange, key: String, kind: RedactionKind, name: String = "") {
            guard r.length > 0 else { return }
            dependsOnLearnt = true
            // Nothing decoded: the original text of the range is the decoded text's.
            let original = view.isIdentity ? d.text(r) : view.originalText(r)
            found.append(Detection.Finding(range: view.originalRange(r), original: original, key: key, kind: kind, name: name))
        }
        for m in can.mayHoldJWT ? d.matches(Detectors.jwt) : [] {
            add(m.range(at: 0), key: d.text(m.range(at: 0)), kind: .jwt)
        }
        for m in can.mayHoldSchemeCredential ? d.matches(Detectors.schemeCredential) : [] {
            add(m.range(at: 1), key: d.text(m.range(at: 1)), kind: .credential, name: "Bearer")
        }
        if config.emails, SecretPrefilter.has(decoded, "@") {
            for m in d.matches(Detectors.email, ASCIIScanners.emails) {
                let whole = d.text(m.range(at: 0))
                let tld = whole.split(separator: ".").last.map { $0.lowercased() } ?? ""
                guard !Detectors.notMailDomains.contains(tld) else { continue }
                add(m.range(at: 0), key: whole.lowercased(), kind: .email)
            }
        }
        if config.cards, can.longestJoinedDigits >= 13 {
            for m in d.matches(Detectors.cardRun, ASCIIScanners.cardRuns) {
                let run = d.text(m.range(at: 0))
                guard Detectors.isCardNumber(run) else { continue }
                add(m.range(at: 0), key: Detectors.digits(run).map(String.init).joined(), kind: .card)
            }
        }
        if config.personalNumbers, can.mayHoldPersonalNumber {
            for m in d.matches(Detectors.personalNumberRun, ASCIIScanners.personalNumbers) {
                let run = d.text(m.range(at: 0))
                if Detectors.isPersonalNumber(run) {
                    add(m.range(at: 0), key: Detectors.digitsAndCheck(run), kind: .personalNumber)
                } else if Detectors.isOrganisationNumber(run) {
                    add(m.range(at: 0), key: Detectors.digitsAndCheck(run), kind: .organisationNumber)
                }
            }
        }
        for m in can.hasEquals ? d.matches(Redactor.pairs, ASCIIScanners.pairs) : [] {
            guard let name = d.group(m, 1), var value = d.group(m, 2) else { continue }
            var r = m.range(at: 2)
            // A path parameter (`/checkout;jsessionid=…/pay`) ends at the next path segment.
            let start = m.range.lowerBound
            let semicolonBefore = start > 0 && d.unit(at: start - 1) == 0x3B
            if semicolonBefore, let slash = value.firstIndex(of: "/") {
                value = String(value[..<slash])
                r.length = (value as NSString).length
            }
            if matchesName(name) { dependsOnLearnt = true }
            guard mayRedact(name: name, value: value) else { continue }
            add(r, key: value, kind: .token, name: name)
        }
        for m in can.mayHoldPathToken ? d.matches(Detectors.pathSegment) : [] {
            let segment = d.text(m.range(at: 0))
            guard Detectors.isPathToken(segment), Detectors.isInURLPath(d.nsString, m.range(at: 0)) else {
                continue
            }
            add(m.range(at: 0), key: segment, kind: .token, name: "URL path")
        }
        for m in can.mayHoldAWSKey ? d.matches(Detectors.awsAccessKey) : [] {
            add(m.range(at: 0), key: d.text(m.range(at: 0)), kind: .credential, name: "AWS access key")
        }
        if scripts, can.hasQuote, can.hasColon || can.hasEquals {
            for m in d.matches(Redactor.assignments, ASCIIScanners.assignments) {
                guard let name = d.group(m, 1), let value = d.group(m, 3) else { continue }
                if matchesName(name) { dependsOnLearnt = true }
                guard mayRedact(name: name, value: value) else { continue }
                add(m.range(at: 3), key: value, kind: .token, name: name)
            }
        }
        return Detection(view: view, isASCII: d.ascii != nil, findings: found, dependsOnLearnt: dependsOnLearnt)
    }

    // `name=value` in URLs, form bodies, cookie strings and scripts, after decoding (so also inside another
    // URL's encoded parameter); names in any script (`säkerhetskod`). The value stops at the next separator or `?`.
    static let pairs = RegexBox(#"(?<![^?&;#\s"'(,{])([\p{L}\p{M}\p{N}_.\-\[\]]{1,80})=([^&#;?"'\s<>]+)"#)
    // `name = "value"`, `obj.name = 'value'`, `name: "value"` in scripts.
    static let assignments = RegexBox(#"([\p{L}_$][\p{L}\p{M}\p{N}_$.\-]{0,80})["']?\s*[:=]\s*(["'])([^"'\n\\]{1,4096})\2"#)

    /// The number standing for `placeholder` where the secret was a bare number (JSON or script): negative, so
    /// no real card or personal number has its shape, and stable per secret.
    private mutating func numericPlaceholder(for placeholder: String) -> String {
        if let n = numericOf[placeholder] { return n }
        let n = "-\(990_000_000 + numericOf.count + 1)"
        numericOf[placeholder] = n
        remember(placeholder: n)
        return n
    }

    // MARK: - Placeholders

    /// Returns the placeholder of secret `key` (creating it), records the replacement of `found`, and learns
    /// the spellings of the secret to replace elsewhere.
    private mutating func replaceSecret(
        _ found: String, key: String, kind: RedactionKind, name: String,
        at location: String
    ) -> String {
        if phase == .scout { return found }
        if !config.keepValues.isEmpty, config.keepValues.contains(found) || config.keepValues.contains(key) { return found }
        let placeholder: String
        let keyAt = placeholderOf.index(forKey: key)
        let foundAt = found == key ? keyAt : placeholderOf.index(forKey: found)
        let byKey = keyAt.map { placeholderOf[$0].value }
        let byFound = foundAt.map { placeholderOf[$0].value }
        // Both were learnt before with these very bytes: the dictionary finds a key by canonical equivalence
        // (`K` and the Kelvin sign are one key), while spellings are learnt and matched as bytes.
        func learntAsIs(_ at: Dictionary<String, String>.Index?, _ s: String) -> Bool {
            at.map { placeholderOf[$0].key.utf8.elementsEqual(s.utf8) } ?? false
        }
        let seenBoth = learntAsIs(keyAt, key) && learntAsIs(foundAt, found)
        if let p = byKey ?? byFound {
            placeholder = p
        } else {
            let n = (counters[kind] ?? 0) + 1
            counters[kind] = n
            if kind == .email {
                placeholder = "redacted\(n)@example.invalid"
            } else if Detectors.isUUID(found) {
                uuidPlaceholders += 1
                let digits = String(uuidPlaceholders)
                placeholder =
                    Detectors.uuidPlaceholderPrefix + String(repeating: "0", count: max(0, 12 - digits.count)) + digits
            } else {
                placeholder = "REDACTED-\(kind.placeholderStem)-\(n)"
            }
            placeholderOf[key] = placeholder
            if Detectors.isUUID(placeholder) { kindOfPlaceholder[placeholder] = kind }
            remember(placeholder: placeholder)
            if kind == .email { remember(placeholder: Redactor.percentEncodedAt(placeholder)) }
        }
        if byFound == nil { placeholderOf[found] = placeholder }
        learnSpellings(found: found, key: key, placeholder: placeholder, seenBoth: seenBoth)
        if !learning { record(kind, at: location, name: name, placeholder: placeholder) }
        return placeholder
    }

    /// `seenBoth`: `found` and `key`, byte for byte, both had a placeholder before this replacement, so both were
    /// spellings of an earlier one, and learnt then if ever (a spelling learnt keeps its first placeholder; what
    /// is a placeholder only grows).
    private mutating func learnSpellings(found: String, key: String, placeholder: String, seenBoth: Bool) {
        // A key of unreserved characters encodes and escapes to itself; a value without `&`, `%` or `+` decodes
        // to itself (most secrets: tokens, ids, cookies). Other pairs are worked out once: the spellings depend
        // only on `found` and `key` (the placeholder of a pair never changes).
        let plainKey = key.utf8.allSatisfy(PercentEncoding.isUnreserved)
        let plainFound = !found.utf8.contains(where: { $0 == 0x26 || $0 == 0x25 || $0 == 0x2B })
        if plainKey, plainFound, seenBoth { return } // nothing to learn but `found` and `key`, learnt before
        if plainKey, plainFound {
            // The spellings are `found` and `key` themselves (most secrets): no set to build.
            learnSpelling(found, placeholder: placeholder)
            // Compared as the set below compares them (canonical equivalence): the same spellings are learnt.
            if found != key { learnSpelling(key, placeholder: placeholder) }
            return
        }
        var spellings: Set<String> = found == key ? [found] : [found, key]
        if !plainKey || !plainFound {
            if spellingsLearnt[found] == key { return }
            spellingsLearnt[found] = key
        }
        if !plainKey {
            spellings.insert(PercentEncoding.encode(key, keeping: PercentEncoding.isUnreserved))
            spellings.insert(PercentEncoding.encode(key, keeping: PercentEncoding.isUnreserved, spaceAsPlus: true))
            spellings.insert(HTMLEscaping.escape(key))
        }
        if !plainFound {
            spellings.insert(BrowserEscapes.decodeCharacterReferences(found))
            if let decoded = PercentEncoding.decodeComponent(found) { spellings.insert(decoded) }
        }
        for s in spellings { learnSpelling(s, placeholder: placeholder) }
    }

    /// Learns one spelling of a secret, to replace everywhere, when it is long enough and not a placeholder.
    private mutating func learnSpelling(_ s: String, placeholder: String) {
        guard Redactor.characterCount(s, atLeast: config.minimumGlobalLength), !isPlaceholder(s) else { return }
        // An e-mail's spelling in a URL keeps its form: `%40`. (A spelling learnt before is kept as it was.)
        addGlobal(s, placeholder: Redactor.holdsPercentEncodedAt(s) ? Redactor.percentEncodedAt(placeholder) : placeholder)
    }

    /// Replaces every known secret spelling in `text`: one pass over the bytes, leftmost match first and, at
    /// one position, the longest spelling (so a secret containing another wins). Candidates are found by
    /// their first bytes (a hash lookup per position), so the cost does not grow with the number of secrets.
    private mutating func replaceKnown(_ text: String, at location: String) -> String {
        if learning || phase == .detect || phase == .scout { return text } // learning registers nothing here
        guard !known.isEmpty, text.utf8.count >= known.keyLength else { return text }
        var out: [UInt8] = []
        var changed = false
        var counts: [String: Int] = [:]
        var native = text
        native.makeContiguousUTF8() // bridged strings (from NSString) too: always scanned, never skipped
        _ = native.utf8.withContiguousStorageIfAvailable { b in
            var i = 0
            var copiedUpTo = 0
            while i + known.keyLength <= b.count {
                // Only a whole token: not the tail or head of a longer word (`api-bearer` keeps `bearer`).
                let matched = known.longest(in: b, at: i) { length in
                    (i == 0 || !Detectors.isWordByte(b[i - 1])) && (i + length == b.count || !Detectors.isWordByte(b[i + length]))
                }
                if let (length, placeholder) = matched {
                    if !changed { out.reserveCapacity(b.count) }
                    changed = true
                    out.append(contentsOf: b[copiedUpTo..<i])
                    out.append(contentsOf: placeholder.utf8)
                    counts[placeholder, default: 0] += 1
                    i += length
                    copiedUpTo = i
                } else {
                    i += 1
                }
            }
            if changed { out.append(contentsOf: b[copiedUpTo...]) }
        }
        guard changed else { return text }
        for (placeholder, n) in counts.sorted(by: { $0.key < $1.key }) {
            let plain =
                Redactor.holdsPercentEncodedAt(placeholder) ? placeholder.replacingOccurrences(of: "%40", with: "@") : placeholder
            let kind = kind(ofPlaceholder: plain) ?? .token
            record(kind, at: location, name: "", placeholder: placeholder, count: n)
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// `trimmingCharacters(in: .whitespaces)`; for ASCII text (a cookie's name, nearly always) without Foundation:
    /// the ASCII characters of that set are space and TAB.
    static func trimmingSpaces(_ s: Substring) -> String {
        guard ASCII.isASCII(s) else { return s.trimmingCharacters(in: .whitespaces) }
        let u = s.utf8
        guard let a = u.firstIndex(where: { $0 != 0x20 && $0 != 0x09 }), let b = u.lastIndex(where: { $0 != 0x20 && $0 != 0x09 })
        else { return "" }
        return String(s[a...b])
    }

    private mutating func remember(placeholder: String) {
        if !Detectors.isPlaceholder(placeholder) { placeholders.insert(placeholder) }
    }

    /// The kind a placeholder of this redactor stands for: spelt in it (`REDACTED-CARD-2`, an e-mail's), or
    /// remembered (a UUID-shaped one).
    private func kind(ofPlaceholder p: String) -> RedactionKind? {
        if p.hasPrefix("redacted"), p.hasSuffix("@example.invalid") { return .email }
        if p.hasPrefix("REDACTED-"), let dash = p.lastIndex(of: "-") {
            let stem = p[p.index(p.startIndex, offsetBy: 9)..<dash]
            return RedactionKind.allCases.first { $0.placeholderStem == stem }
        }
        return kindOfPlaceholder[p]
    }

    /// `s.count >= n`, without counting the characters of ASCII text (one per byte) or of text with fewer bytes.
    static func characterCount(_ s: String, atLeast n: Int) -> Bool {
        let bytes = s.utf8.count
        if bytes < n { return false }
        if ASCII.isASCII(s) { return true }
        return s.count >= n
    }

    /// An e-mail placeholder as a URL writes it (`redacted1%40example.invalid`); any other text as it is.
    static func percentEncodedAt(_ s: String) -> String {
        guard s.utf8.contains(0x40) else { return s }
        // ASCII text (every placeholder) byte by byte: Foundation's replacement costs more than the rest of
        // creating an e-mail's placeholder.
        guard ASCII.isASCII(s) else { return s.replacingOccurrences(of: "@", with: "%40") }
        var out: [UInt8] = []
        out.reserveCapacity(s.utf8.count + 4)
        for b in s.utf8 {
            if b == 0x40 { out += [0x25, 0x34, 0x30] } else { out.append(b) }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// True when `s` holds `%40` (as written: the spelling of an e-mail in a URL).
    static func holdsPercentEncodedAt(_ s: String) -> Bool {
        var matched = 0
        for b in s.utf8 {
            matched = b == [0x25, 0x34, 0x30][matched] ? matched + 1 : (b == 0x25 ? 1 : 0)
            if matched == 3 { return true }
        }
        return false
    }

    private mutating func addGlobal(_ text: String, placeholder: String) { known.add(text, placeholder: placeholder) }
}
