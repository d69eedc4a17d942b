// Injection probes: every parameter each helper endpoint uses (and the path) gets hostile values (HTML, attribute,
// unquoted-attribute, JavaScript-string, intent, query, javascript: URL and CR/LF breakers) raw, percent-encoded and
// double-percent-encoded. A probe FAILs only when its value comes back unescaped in its context: a tag or a closed
// attribute in HTML, an attribute the parsed page gained, code an inline script gained, a new intent extra, a new
// query item or fragment in a generated URL, a javascript: link, or a new response header. A 4xx refusal or a
// correctly escaped echo passes.
import PlainviewURL
import PaymentURLHelpers
import AsyncHTTPClient
import Foundation
import NavigationPolicy
import PageScan

extension BackendChecker {
    enum PayloadKind: String, Sendable, CaseIterable {
        case html = "HTML/attribute breaker"
        /// A space (then `/` and `>`): ends an unquoted attribute value even when `&<>"'` are escaped.
        case unquoted = "unquoted-attribute breaker"
        /// Quotes (and a backslash before one): ends a JavaScript string literal even when `<` is escaped.
        case script = "JavaScript string breaker"
        case intent = "intent breaker"
        case query = "query/fragment breaker"
        case url = "javascript: URL"
        case crlf = "CR/LF header breaker"
    }

    enum Form: String, Sendable, CaseIterable {
        case raw = "raw"
        case encoded = "percent-encoded"
        case double = "double-percent-encoded"
    }

    enum Endpoint: String, Sendable { case android = "android-intent", ios = "ios-universal-link", trampoline = "back-link page" }

    struct InjectionTarget: Sendable {
        var endpoint: Endpoint
        /// A query parameter, or "path".
        var param: String
        var kinds: [PayloadKind]
        var check: String { "\(endpoint.rawValue) injection \(param)" }
    }

    static let injectionTargets: [InjectionTarget] = [
        .init(endpoint: .android, param: "package", kinds: [.html, .unquoted, .script, .intent, .query, .crlf]),
        .init(endpoint: .android, param: "id", kinds: [.html, .unquoted, .script, .intent, .query, .crlf]),
        .init(endpoint: .android, param: "path", kinds: [.html, .unquoted, .script, .intent]),
        .init(endpoint: .ios, param: "scheme", kinds: [.html, .unquoted, .script, .query, .crlf]),
        .init(endpoint: .ios, param: "language", kinds: [.html, .unquoted, .script, .query, .crlf]),
        .init(endpoint: .ios, param: "id", kinds: [.html, .unquoted, .script, .query, .crlf]),
        .init(endpoint: .ios, param: "app", kinds: [.html, .unquoted, .script, .query, .crlf]),
        .init(endpoint: .ios, param: "fallback", kinds: [.html, .unquoted, .script, .query, .crlf]),
        .init(endpoint: .ios, param: "path", kinds: [.html, .unquoted, .script]),
        .init(endpoint: .trampoline, param: "target", kinds: [.html, .unquoted, .script, .url, .crlf]),
        .init(endpoint: .trampoline, param: "language", kinds: [.html, .unquoted, .script, .crlf]),
        .init(endpoint: .trampoline, param: "app", kinds: [.html, .unquoted, .script, .crlf]),
    ]

    static var injectionCheckNames: [String] { injectionTargets.map(\.check) }

    /// Start and end markers of probe `n`: the payload sits between them, so an echo can be delimited.
    static func markers(_ n: Int) -> (String, String) {
        let d = String(n + 1000).suffix(3)
        return ("pvs\(d)", "pve\(d)")
    }

    /// The hostile value (decoded form) of one probe.
    static func payload(_ kind: PayloadKind, start s: String, end e: String) -> String {
        switch kind {
        case .html: return "\(s)\"'><img/src=x/onerror=alert(\(e))>"
        case .unquoted:
            let a = probeAttribute(s)
            // No tab: a backend that refuses control characters would refuse the whole value, spaces and all.
            return "\(s) \(a)=1 /\(a)s=1>\(e)"
        case .script:
            let c = probeCall(s)
            return "\(s)';\(c)();'\";\(c)();\"\\';\(c)();'\(e)"
        case .intent: return "\(s);S.pvinj=1;end;#Intent;S.pvinj=1;\(e);end"
        case .query: return "\(s)&pvinj=1#pvinj\(e)"
        case .url: return "javascript:alert(\(s))//\(e)"
        case .crlf: return "\(s)\r\nX-Pv-Injected: \(e)"
        }
    }

    /// The attribute name an unquoted-attribute probe adds when it breaks out (`pva` and the marker's digits).
    static func probeAttribute(_ start: String) -> String { "pva" + start.dropFirst(3) }

    /// The function a JavaScript-string probe calls when it breaks out (`pvjs` and the marker's digits).
    static func probeCall(_ start: String) -> String { "pvjs" + start.dropFirst(3) }

    /// A value as sent on the wire: raw keeps every byte a request line can carry literally.
    static func encode(_ value: String, _ form: Form, path: Bool = false) -> String? {
        switch form {
        case .raw:
            if PercentEncoding.containsControl(value) { return nil } // CR/LF cannot be sent raw in a request line
            return PercentEncoding.encode(value) { b in
                b > 0x20 && b < 0x7F && b != UInt8(ascii: "#") && b != UInt8(ascii: "&") && b != UInt8(ascii: "%")
                    && b != UInt8(ascii: "+") && !(path && (b == UInt8(ascii: "?") || b == UInt8(ascii: "/")))
            }
        case .encoded: return PercentEncoding.encodeComponent(value)
        case .double: return PercentEncoding.encodeComponent(PercentEncoding.encodeComponent(value))
        }
    }

    struct Finding {
        var fail: Bool
        var text: String
    }

    func checkInjection(_ client: HTTPClient, _ report: inout Report, androidDown: String?, iosDown: String?, trampoline: String?)
        async
    {
        var n = 0
        for t in Self.injectionTargets {
            switch t.endpoint {
            case .android: if let androidDown { report.skip(t.check, androidDown); continue }
            case .ios: if let iosDown { report.skip(t.check, iosDown); continue }
            case .trampoline:
                if trampoline == nil {
                    report.skip(t.check, "no back-link page under the base to probe (see the ios-universal-link redirect check)");
                    continue
                }
            }
            var findings: [Finding] = []
            var refused = 0, accepted = 0, sent = 0
            for kind in t.kinds {
                for form in Form.allCases {
                    for url in probeURLs(t, kind: kind, form: form, n: &n, trampoline: trampoline) {
                        let (s, e) = url.markers
                        sent += 1
                        let fetched: Result<Fetched, BackendCheckError>
                        if form == .raw {
                            fetched = await fetchRaw(client, url.url)
                        } else {
                            fetched = await fetch(client, url.url)
                        }
                        switch fetched {
                        case .failure(let err):
                            findings.append(
                                Finding(
                                    fail: false,
                                    text: "no readable answer to the \(form.rawValue) \(kind.rawValue): \(err.description)"))
                        case .success(let r):
                            if (400...499).contains(r.status) { refused += 1 } else { accepted += 1 }
                            findings += judge(r, t: t, kind: kind, form: form, start: s, end: e)
                        }
                    }
                }
            }
            if let f = findings.first(where: \.fail) {
                let more = findings.filter(\.fail).count - 1
                report.fail(t.check, f.text + (more > 0 ? " (and \(more) more failing probe(s))" : ""))
            } else if let w = findings.first {
                report.warn(t.check, w.text + (findings.count > 1 ? " (and \(findings.count - 1) more)" : ""))
            } else {
                let kinds = t.kinds.map(\.rawValue).joined(separator: ", ")
                report.pass(
                    t.check,
                    "\(sent) probes (\(kinds); raw, percent-encoded, double-percent-encoded): \(refused) refused with 4xx, \(accepted) answered with every echo escaped for its context"
                )
            }
        }
    }

    struct ProbeURL { var url: String; var markers: (String, String) }

    func probeURLs(_ t: InjectionTarget, kind: PayloadKind, form: Form, n: inout Int, trampoline: String?) -> [ProbeURL] {
        n += 1
        let (s, e) = Self.markers(n)
        var value = Self.payload(kind, start: s, end: e)
        if t.endpoint == .trampoline && t.param == "target" && kind != .url {
            // Inside an otherwise valid target: the page must still escape it where it links.
            value = "\(publicBase)\(HelperEndpoints.iosPath)?scheme=\(options.scheme)&id=\(value)"
        }
        let path = t.param == "path"
        guard let v = Self.encode(value, form, path: path) else { return [] }
        func query(_ items: [(String, String)]) -> String {
            items.map { $0.0 == t.param ? "\($0.0)=\(v)" : "\($0.0)=\($0.1)" }.joined(separator: "&")
        }
        switch t.endpoint {
        case .android:
            let q = query([("package", options.package), ("id", Self.id)])
            let p = path ? "\(HelperEndpoints.androidPath)/\(v)" : HelperEndpoints.androidPath
            return [ProbeURL(url: "\(base)\(p)?\(q)", markers: (s, e))]
        case .ios:
            let items = [
                ("scheme", options.scheme), ("language", options.language), ("id", Self.id),
                ("app", PercentEncoding.encodeComponent(options.appName)),
            ]
            let p = path ? "\(HelperEndpoints.iosPath)/\(v)" : HelperEndpoints.iosPath
            if t.param == "fallback" {
                return [ProbeURL(url: "\(base)\(p)?\(query(items + [("fallback", "")]))", markers: (s, e))]
            }
            // Both rungs of the ladder: to the back-link page, and (fallback=true) to the app's scheme.
            return [
                ProbeURL(url: "\(base)\(p)?\(query(items))", markers: (s, e)),
                ProbeURL(url: "\(base)\(p)?\(query(items + [("fallback", "true")]))", markers: (s, e)),
            ]
        case .trampoline:
            guard let trampoline else { return [] }
            let (pageBase, _) = Self.splitURL(trampoline)
            let target = PercentEncoding.encodeComponent("\(publicBase)\(HelperEndpoints.iosPath)?\(iosQuery)&fallback=true")
            let q = query([
                ("target", target), ("language", options.language), ("app", PercentEncoding.encodeComponent(options.appName)),
            ])
            return [ProbeURL(url: "\(pageBase)?\(q)", markers: (s, e))]
        }
    }

    /// Every way the answer shows the value unescaped in its context; empty when it is safe.
    func judge(_ r: Fetched, t: InjectionTarget, kind: PayloadKind, form: Form, start s: String, end e: String) -> [Finding] {
        var out: [Finding] = []
        let probe = "\(form.rawValue) \(kind.rawValue) in \(t.param)"
        func fail(_ what: String, _ found: String) {
            out.append(
                Finding(
                    fail: true,
                    text:
                        "\(t.param) \(what) (\(probe)): \(r.summary)\(found); expected a 4xx refusal or every echo escaped for its context"
                ))
        }
        if let h = r.headers.first(where: { $0.0.lowercased() == "x-pv-injected" }) {
            fail("became a response header (CR/LF header injection)", ", header X-Pv-Injected: \(h.1)")
        }
        for (name, value) in r.headers where name.lowercased() != "x-pv-injected" && value.contains(s) {
            if value.contains("\r") || value.contains("\n") {
                fail("is echoed with CR/LF into the \(name) header", ", \(name): \(Self.oneLine(value))")
            }
        }
        let ct = r.contentType
        if ct.isEmpty || ct.contains("html") {
            // The page as a browser parses it: an attribute or script code the probe added.
            for (what, evidence) in Self.markupInjection(r.body, start: s) { fail(what, ", \(evidence)") }
            if let why = Self.htmlReflection(r.body, start: s, end: e) {
                fail("is echoed unescaped into the page, \(why.0)", ", body has …\(why.1)…")
            }
            let page = Self.scan(r.body, at: base)
            let urls = page.links.map(\.url) + (page.refresh.map { [$0.url] } ?? [])
            if let js = urls.first(where: {
                $0.trimmingCharacters(in: .whitespaces).lowercased().hasPrefix("javascript:") && $0.contains(s)
            }) {
                fail("becomes a javascript: link in the page", ", link \(js)")
            }
            for u in urls where u.lowercased().hasPrefix("intent:") {
                if let why = Self.intentInjection(u, start: s) {
                    fail("breaks out of its place in the intent URL, \(why)", ", intent \(u)")
                }
            }
            if t.endpoint == .trampoline {
                for u in urls where Self.urlInjection(u) != nil {
                    fail("adds to the linked URL, \(Self.urlInjection(u)!)", ", link \(u)")
                }
            }
        }
        if let l = r.header("location") {
            if t.param == "scheme" && l.hasPrefix(s) {
                // The value is the Location's scheme (the fallback rung): whatever follows it, the caller chose
                // where the browser goes, which an unchecked scheme allows anyway. Not reachable by a third
                // party through escaping; refusing schemes that are not the app's is the fix.
                out.append(
                    Finding(
                        fail: false,
                        text:
                            "scheme is used unchecked as the Location's scheme (\(probe)): \(r.summary); refuse schemes that are not RFC 3986 schemes or not the app's"
                    ))
            } else {
                if let why = Self.urlInjection(l) { fail("adds to the Location, \(why)", "") }
                let (_, q) = Self.splitURL(l)
                let names = q.map(Self.queryNames) ?? []
                if names.filter({ $0 == "target" }).count > 1 {
                    fail("adds a second target= to the Location (parameter pollution)", "")
                }
                if l.lowercased().hasPrefix("javascript:") && l.contains(s) { fail("becomes a javascript: Location", "") }
            }
        }
        if (500...599).contains(r.status) {
            out.append(Finding(fail: false, text: "the \(probe) makes the backend fail: \(r.summaryWithBody)"))
        }
        return out
    }

    /// What the probe marked `start` added to the page as libxml2 parses it: an attribute (`pvaNNN…`) on an element,
    /// or a call of `pvjsNNN` that a script (inline, or an `on…` handler) tokenizes as code rather than as a string.
    static func markupInjection(_ body: String, start s: String) -> [(String, String)] {
        let attribute = probeAttribute(s), call = probeCall(s)
        guard body.contains(attribute) || body.contains(call) else { return [] }
        var out: [(String, String)] = []
        for element in PageScanner.elements(Array(body.utf8)) {
            if let a = element.attributes.first(where: { $0.name.hasPrefix(attribute) }) {
                let tag = element.attributes.map { a in a.value.map { "\(a.name)=\($0)" } ?? a.name }.joined(separator: " ")
                out.append(
                    (
                        "breaks out of an unquoted attribute and adds the attribute \(a.name) to <\(element.name)>",
                        "parsed as <\(element.name) \(oneLine(String(tag.prefix(200))))>"
                    ))
            }
            var scripts: [(String, String)] = []
            if element.name == "script", element.attribute("src") == nil { scripts.append(("an inline script", element.text)) }
            for a in element.attributes where a.name.hasPrefix("on") {
                scripts.append(("the \(a.name) handler of <\(element.name)>", a.value ?? ""))
            }
            for (place, code) in scripts where code.contains(call) && PageScanner.codeIdentifiers(inScript: code).contains(call) {
                out.append(
                    (
                        "breaks out of a JavaScript string in \(place): \(call)() is code, not text",
                        "script has …\(snippet(code, around: call) ?? "")…"
                    ))
            }
        }
        return out
    }

    /// Where in the page an echo of `start…end` is not escaped for its context (a description and a snippet).
    static func htmlReflection(_ body: String, start s: String, end e: String) -> (String, String)? {
        let bytes = Array(body.utf8)
        let sb = Array(s.utf8), eb = Array(e.utf8)
        func find(_ needle: [UInt8], from: Int) -> Int? {
            guard needle.count <= bytes.count else { return nil }
            var i = from
            while i + needle.count <= bytes.count {
                if bytes[i] == needle[0] && bytes[i..<(i + needle.count)].elementsEqual(needle) { return i }
                i += 1
            }
            return nil
        }
        func snippet(_ at: Int) -> String {
            let lo = max(0, at - 50), hi = min(bytes.count, at + 90)
            return oneLine(String(decoding: bytes[lo..<hi], as: UTF8.self))
        }
        var from = 0
        while let i = find(sb, from: from) {
            from = i + sb.count
            // The echo runs to the next end marker (bounded); when it was cut, only the byte after the start
            // marker (the payload's first breaker) is judged.
            let endAt: Int = {
                if let j = find(eb, from: from), j - from < 400, find(sb, from: from).map({ $0 > j }) ?? true { return j }
                return min(bytes.count, from + 1)
            }()
            let region = bytes[from..<endAt]
            switch context(bytes, at: i) {
            case .text:
                if let lt = region.firstIndex(of: UInt8(ascii: "<")), lt + 1 < endAt, isLetter(bytes[lt + 1]) {
                    return ("a tag was injected into HTML text", snippet(i))
                }
            case .attribute(let q):
                if region.contains(q) {
                    return ("the value closes its \(q == UInt8(ascii: "\"") ? "double" : "single")-quoted attribute", snippet(i))
                }
            case .unquotedAttribute:
                if region.contains(where: {
                    $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == UInt8(ascii: ">") || $0 == UInt8(ascii: "\"")
                        || $0 == UInt8(ascii: "'")
                }) {
                    return ("the value ends its unquoted attribute", snippet(i))
                }
            case .comment:
                if region.starts(with: Array("-->".utf8)) || bytes[from..<endAt].firstRange(of: Array("-->".utf8)) != nil {
                    return ("the value closes the HTML comment it is in", snippet(i))
                }
            case .rawText:
                // Inside <script>/<style>/<title>/<textarea> only "</" ends the element; a raw '<' shows that
                // nothing is escaped, so a "</title><script>" would get through the same way.
                if region.contains(UInt8(ascii: "<")) {
                    return (
                        "'<' comes back raw inside a script/style/title/textarea element, which '</…' would close", snippet(i)
                    )
                }
            }
        }
        return nil
    }

    static func isLetter(_ b: UInt8) -> Bool {
        (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == UInt8(ascii: "!") || b == UInt8(ascii: "/")
    }

    enum HTMLContext: Equatable { case text, attribute(UInt8), unquotedAttribute, rawText, comment }

    /// A light tokenizer: is byte `at` in text, inside a tag (quoted or unquoted attribute), or in script/style?
    static func context(_ b: [UInt8], at: Int) -> HTMLContext {
        var i = 0
        var rawEnd: [UInt8]? = nil // inside <script>/<style>/<title>/<textarea>: the closing tag name
        while i < at {
            if let end = rawEnd {
                if b[i] == UInt8(ascii: "<"), i + 1 < b.count, b[i + 1] == UInt8(ascii: "/"),
                    i + 2 + end.count <= b.count, b[(i + 2)..<(i + 2 + end.count)].map({ $0 | 0x20 }).elementsEqual(end)
                {
                    rawEnd = nil
                } else {
                    i += 1; continue
                }
            }
            if b[i] == UInt8(ascii: "<"), i + 1 < b.count, isLetter(b[i + 1]) || b[i + 1] == UInt8(ascii: "!") {
                if b[(i + 1)...].starts(with: Array("!--".utf8)) {
                    // Comment: skip to -->.
                    var j = i + 4
                    while j + 2 < b.count, !(b[j] == 0x2D && b[j + 1] == 0x2D && b[j + 2] == 0x3E) { j += 1 }
                    if j + 2 >= at { return .comment }
                    i = j + 3
                    continue
                }
                // Inside a tag until an unquoted '>'.
                var nameEnd = i + 1
                while nameEnd < b.count, isLetter(b[nameEnd]) || (b[nameEnd] >= 0x30 && b[nameEnd] <= 0x39) { nameEnd += 1 }
                let name = b[(i + 1)..<nameEnd].map { $0 | 0x20 }
                var j = nameEnd
                var quote: UInt8? = nil
                var afterEquals = false
                var inUnquoted = false
                while j < b.count {
                    if j == at {
                        if let q = quote { return .attribute(q) }
                        return .unquotedAttribute
                    }
                    let c = b[j]
                    if let q = quote {
                        if c == q { quote = nil }
                    } else if c == UInt8(ascii: ">") {
                        break
                    } else if afterEquals && (c == UInt8(ascii: "\"") || c == UInt8(ascii: "'")) {
                        quote = c; afterEquals = false
                    } else if c == UInt8(ascii: "=") {
                        afterEquals = true
                    } else if c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D {
                        if inUnquoted { inUnquoted = false; afterEquals = false }
                    } else if afterEquals {
                        inUnquoted = true; afterEquals = false
                    }
                    j += 1
                }
                for raw in ["script", "style", "title", "textarea"] where name.elementsEqual(Array(raw.utf8)) {
                    rawEnd = Array(raw.utf8)
                }
                i = j + 1
                continue
            }
            i += 1
        }
        return rawEnd != nil ? .rawText : .text
    }

    /// An intent URL whose extras or data were extended by the probe value.
    static func intentInjection(_ url: String, start s: String) -> String? {
        let parts = url.components(separatedBy: "#Intent;")
        if parts.count > 2 { return "a second #Intent; section" }
        let data = parts[0]
        if let hash = data.firstIndex(of: "#") { return "a fragment '\(data[hash...])' in the intent data" }
        if let q = splitURL(data).1, queryNames(q).contains("pvinj") { return "a new query item pvinj in the intent data" }
        if parts.count == 2 {
            let items = parts[1].split(separator: ";").map(String.init)
            if let bad = items.first(where: { $0.hasPrefix("S.pvinj") || ($0.contains(s) && !$0.hasPrefix("package=")) }) {
                return "a new intent extra '\(bad)'"
            }
        }
        return nil
    }

    /// A generated URL (Location, link) that gained a query item or fragment from the probe.
    static func urlInjection(_ url: String) -> String? {
        let (_, q) = splitURL(url)
        if url.contains("#pvinj") { return "a fragment #pvinj" }
        if let q, queryNames(q).contains("pvinj") { return "a new query item pvinj" }
        return nil
    }
}
