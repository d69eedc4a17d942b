// Deterministic, bounded fuzzing of the NavigationPolicy parsers: grammar-aware generators plus byte-level
// mutations of the conformance vectors, with fixed seeds so every finding reproduces. Properties: nothing
// traps; a rejection is the parser's typed error with a message; round trips hold; security invariants hold.
// A finding prints the input Swift-escaped: paste it into `FuzzRegressionTests` (FuzzRegressionTests.swift).
@testable import PaymentURLHelpers
@testable import AppSwitch
@testable import PlainviewURL
import Foundation
import Testing
import TestSupport
@testable import NavigationPolicy

// MARK: - Android intents

@Suite("Fuzz: Android intent URIs")
struct IntentFuzzTests {
    static let dictionary = [
        "#Intent;", ";end", "end", "SEL;", "scheme=", "action=", "category=", "type=", "identifier=",
        "launchFlags=", "package=", "component=", "sourceBounds=", "S.", "B.", "b.", "c.", "d.", "f.", "i.", "l.",
        "s.", "=", ";", "#", "intent:", "intent://", "android-app://", "javascript:", "file:", "data:", "%", "%2",
        "%25", "%00", "%C3%A9", "%FF", "0x", "-0x80000000", "2147483648", "NaN", "-Infinity", "0x1p3", "1e400", "/",
        "/.", "\u{0}", "\t", " ", "é", "𝄞",
    ]

    static let corpus: [String] = {
        var seeds = FuzzCorpus.strings(in: "android_intent_uri_aosp_cts.json") { $0.contains(":") || $0.contains("#") }
        seeds += FuzzCorpus.strings(in: "geckoview_intentutils_safe_uri.json") { $0.contains(":") }
        seeds += FuzzCorpus.strings(in: "android_external_navigation_chromium.json") {
            $0.hasPrefix("intent:") || $0.hasPrefix("android-app:") || $0.contains("#Intent;")
        }
        return seeds
    }()

    @Test func theSeedCorpusIsLoaded() {
        #expect(Self.corpus.count > 40)
    }

    @Test(arguments: [UInt64(1), 2, 3])
    func mutatedConformanceInputsNeverTrapAndKeepTheirInvariants(seed: UInt64) {
        var fuzz = FuzzRun(seed: seed, dictionary: Self.dictionary)
        var parsed = 0
        for _ in 0..<1500 {
            let input = fuzz.mutant(of: Self.corpus)
            if Self.check(input, &fuzz.findings) { parsed += 1 }
        }
        #expect(fuzz.findings.isEmpty, "\(fuzz.findings)")
        #expect(parsed > 300, "too few mutants parse for the invariants to be exercised")
    }

    @Test(arguments: [UInt64(11), 12, 13])
    func generatedIntentURIsNeverTrapAndKeepTheirInvariants(seed: UInt64) {
        var fuzz = FuzzRun(seed: seed)
        var parsed = 0
        for _ in 0..<1500 {
            if Self.check(Self.generateURI(&fuzz.rng), &fuzz.findings) { parsed += 1 }
        }
        #expect(fuzz.findings.isEmpty, "\(fuzz.findings)")
        #expect(parsed > 300, "too few generated URIs parse for the invariants to be exercised")
    }

    @Test(arguments: [UInt64(21), 22])
    func generatedIntentsSurviveToURIAndParse(seed: UInt64) throws {
        var fuzz = FuzzRun(seed: seed)
        for _ in 0..<1500 {
            let intent = Self.generateIntent(&fuzz.rng)
            let uri = intent.toURI()
            do {
                let back = try AndroidIntent.parse(uri)
                if Self.comparable(back) != Self.comparable(intent) {
                    fuzz.findings.record("parse(toURI()) != intent", input: uri, detail: "\(intent) → \(back)")
                }
            } catch {
                fuzz.findings.record("toURI() of a valid intent does not parse", input: uri, detail: error.description)
            }
        }
        #expect(fuzz.findings.isEmpty, "\(fuzz.findings)")
    }

    /// Unsafe schemes hidden by case, blanks and control characters are still unsafe, in the data and in the
    /// selector, and such a URI is never safe to hand to an app.
    @Test(arguments: [UInt64(31), 32])
    func unsafeDataIsAlwaysFlagged(seed: UInt64) throws {
        var fuzz = FuzzRun(seed: seed)
        var checked = 0
        for _ in 0..<1000 {
            let scheme = Self.disguise(fuzz.rng.pick(["javascript", "file", "data", "content", "vbscript"]), &fuzz.rng)
            let uri: String
            switch fuzz.rng.below(4) {
            case 0: uri = "intent:alert(1)#Intent;scheme=\(Self.percentEncodeSome(scheme, &fuzz.rng));end"
            case 1: uri = "intent://x/y#Intent;package=com.example;SEL;scheme=\(Self.percentEncodeSome(scheme, &fuzz.rng));end"
            case 2: uri = "\(scheme):alert(1)#Intent;action=android.intent.action.VIEW;end"
            default: uri = "intent:#Intent;S.browser_fallback_url=\(scheme)%3Aalert(1);scheme=\(scheme);end"
            }
            guard let intent = try? AndroidIntent.parse(uri) else { continue }
            let dataScheme = (intent.data ?? intent.selector?.intent.data).flatMap(AndroidIntent.lenientScheme(of:))
            guard let dataScheme, SchemeKind.neverExternalSchemes.contains(dataScheme) else { continue }
            checked += 1
            if !intent.isUnsafeData { fuzz.findings.record("unsafe data not flagged", input: uri) }
            if AndroidIntent.isSafeForExternalApp(uri) { fuzz.findings.record("unsafe intent called safe", input: uri) }
            if intent.safeBrowserFallbackURL != nil { fuzz.findings.record("non-http fallback offered", input: uri) }
        }
        #expect(fuzz.findings.isEmpty, "\(fuzz.findings)")
        #expect(checked > 500)
    }

    // MARK: properties

    /// Checks every property for `uri`; true when it parsed.
    @discardableResult
    static func check(_ uri: String, _ findings: inout FuzzFindings) -> Bool {
        let intent: AndroidIntent
        do {
            intent = try AndroidIntent.parse(uri)
        } catch {
            // Typed throws: `error` is an AndroidIntent.ParseError.
            if error.message.isEmpty { findings.record("empty error message", input: uri) }
            if let offset = error.offset, !(0...uri.utf8.count).contains(offset) {
                findings.record("error offset outside the input", input: uri, detail: "\(offset)")
            }
            if AndroidIntent.isSafeForExternalApp(uri), AndroidIntent.lenientScheme(of: uri).map({ $0 == "intent" || $0 == "android-app" }) == true {
                findings.record("unparsable intent called safe", input: uri)
            }
            return false
        }
        // Round trip: what `toURI` writes parses back to the same intent.
        let written = intent.toURI()
        do {
            let back = try AndroidIntent.parse(written)
            if comparable(back) != comparable(intent) {
                findings.record("parse(toURI(x)) != x", input: uri, detail: "toURI = \(written.debugDescription)")
            }
        } catch {
            findings.record("toURI(x) does not parse", input: uri, detail: "toURI = \(written.debugDescription): \(error)")
        }
        if let app = intent.toAndroidAppURI() { _ = try? AndroidIntent.parse(app) }
        // Security invariants.
        if let fallback = intent.safeBrowserFallbackURL {
            let lower = fallback.lowercased()
            if !(lower.hasPrefix("http://") || lower.hasPrefix("https://")) {
                findings.record("safeBrowserFallbackURL is not http(s)", input: uri, detail: fallback)
            }
        }
        if let data = intent.data, let s = AndroidIntent.lenientScheme(of: data), SchemeKind.neverExternalSchemes.contains(s), !intent.isUnsafeData {
            findings.record("unsafe data not flagged", input: uri)
        }
        if intent.isUnsafeData, AndroidIntent.isSafeForExternalApp(uri), AndroidIntent.lenientScheme(of: uri).map({ $0 == "intent" || $0 == "android-app" }) == true {
            findings.record("unsafe intent called safe", input: uri)
        }
        let launched = intent.sanitizedForLaunch()
        if launched.component != nil || launched.selector != nil || launched.flags & ~AndroidIntent.allowedLaunchFlags != 0
            || !launched.categories.contains(AndroidIntent.categoryBrowsable) {
            findings.record("sanitizedForLaunch keeps something Chrome strips", input: uri)
        }
        return true
    }

    /// The intent in a form where equal means "the same intent": categories in a canonical order (Android
    /// keeps a set; `toUri` writes hash order), NaN extras made comparable, and no selector when a package
    /// is named (Android's `parseUri` keeps both for `android-app://PKG#Intent;…;SEL;…`, but a URI naming
    /// both parses back without the selector, on Android too).
    static func comparable(_ intent: AndroidIntent) -> AndroidIntent {
        var out = intent
        out.categories.sort()
        if out.package != nil { out.selector = nil }
        for (key, value) in out.extras {
            switch value {
            case .double(let d) where d.isNaN: out.extras[key] = .string("(NaN double)")
            case .float(let f) where f.isNaN: out.extras[key] = .string("(NaN float)")
            default: break
            }
        }
        if var sel = out.selector?.intent {
            // Android's `toUri` writes only the selector data's scheme (`Uri.getScheme()`): `SEL;scheme=a:b;`
            // comes back as `a:`, on Android too.
            sel.data = sel.data.map { d in d.firstIndex(of: ":").map { String(d[..<$0]) + ":" } ?? d }
            out.selector = AndroidIntent.Box(comparable(sel))
        }
        return out
    }

    // MARK: generators

    static let words = ["", "a", "x.y", "com.example.app", "android.intent.action.VIEW", "%", "%2", "%41", "%E2%82",
                        "é", "a b", ";", "=", "#", "/", ".Main", "end", "SEL", "text/html", "0", "-1", "\u{7F}"]

    static func generateURI(_ rng: inout FuzzRNG) -> String {
        var uri = rng.pick(["intent:", "intent://", "INTENT://", "android-app://", "android-app:", "https://", "", "x:"])
        uri += rng.pick(["", "host", "com.example.app", "example.com/path", "com.example/https/example.com/p?q#f", "a/b/c"])
        if rng.oneIn(4) { uri += "#frag" + rng.pick(words) }
        guard !rng.oneIn(6) else { return uri }
        uri += "#Intent;"
        for _ in 0..<rng.below(8) {
            switch rng.below(14) {
            case 0: uri += "action=\(rng.pick(words));"
            case 1: uri += "category=\(rng.pick(words));"
            case 2: uri += "type=\(rng.pick(words));"
            case 3: uri += "launchFlags=\(rng.pick(["0x10000000", "-0x80000000", "0x80000000", "#ff", "017", "0", "x", "", "-", "0x-1", "+5", "99999999999"]));"
            case 4: uri += "package=\(rng.pick(words));"
            case 5: uri += "component=\(rng.pick(["p/.C", "p/c", "p/", "/c", "pc", "", "%2F"]));"
            case 6: uri += "scheme=\(rng.pick(["https", "http", "javascript", "JavaScript", "file", "", "%", "a b"]));"
            case 7: uri += "SEL;"
            case 8: uri += "sourceBounds=\(rng.pick(["1 2 3 4", "", "x"]));"
            case 9: uri += "identifier=\(rng.pick(words));"
            case 10: uri += rng.pick(["end;", "", ";", "x;", "S.", "S;", "q.k=v;", "=;"])
            default:
                let kind = rng.pick(["S", "B", "b", "c", "d", "f", "i", "l", "s"])
                let value = rng.pick(["", "1", "-1", "127", "128", "-129", "32767", "2147483648", "9223372036854775808",
                                      "true", "TRUE", "1.5", "1.5f", "2d", "NaN", "-Infinity", "0x1p3", "1e400", "1e-400",
                                      "%", "%G1", "x", "é", "%F0%9D%84%9E", " 1 "])
                uri += "\(kind).\(rng.pick(["k", "", "browser_fallback_url", "%41", "a=b"]))=\(value);"
            }
        }
        if !rng.oneIn(5) { uri += "end" }
        return uri
    }

    /// A valid intent in the shape `parse` produces (action set, flags without the URI-grant bits, selector
    /// data reduced to `scheme:` as Android's `toUri` writes it, no selector when a package is named).
    static func generateIntent(_ rng: inout FuzzRNG) -> AndroidIntent {
        func text(_ rng: inout FuzzRNG) -> String {
            let pieces = ["a", "Z", "0", "-", ".", "_", "~", " ", "%", "#", ";", "=", "/", ":", "é", "𝄞", "\u{1}", "&", "+", "end", "SEL"]
            return (0..<(1 + rng.below(6))).map { _ in rng.pick(pieces) }.joined()
        }
        var i = AndroidIntent()
        switch rng.below(5) {
        case 0: i.data = nil
        case 1: i.data = "https://example.com/\(rng.below(100))?q=\(rng.below(9))"
        case 2: i.data = "mailto:a@b.example"
        case 3: i.data = "custom+x.y-z://h/p#frag"
        default: i.data = "tel:123"
        }
        i.action = rng.oneIn(3) ? AndroidIntent.actionView : text(&rng)
        for _ in 0..<rng.below(3) { let c = text(&rng); if !i.categories.contains(c) { i.categories.append(c) } }
        if rng.oneIn(3) { i.type = text(&rng) }
        if rng.oneIn(4) { i.identifier = text(&rng) }
        if rng.oneIn(2) {
            let raw = UInt32(truncatingIfNeeded: rng.next()) & ~AndroidIntent.immutableFlags
            i.flags = Int(rng.oneIn(2) ? raw & 0x7FFF_FFFF : raw)
        }
        if rng.oneIn(2) { i.package = text(&rng) }
        if rng.oneIn(3) { i.component = "com.example/\(rng.oneIn(2) ? "com.example." : "org.other.")Main\(rng.below(9))" }
        if rng.oneIn(4) { i.sourceBounds = "\(rng.below(9)) \(rng.below(9)) \(rng.below(99)) \(rng.below(99))" }
        for _ in 0..<rng.below(4) {
            let key = text(&rng)
            let values: [IntentExtra] = [
                .string(text(&rng)), .bool(rng.oneIn(2)), .byte(Int8(truncatingIfNeeded: rng.next())),
                .char(rng.pick(["a", "é", "𝄞", ";", "%"])),
                .double(Double(bitPattern: rng.next()).isNaN ? 0.5 : Double(bitPattern: rng.next())),
                .float(Float(bitPattern: UInt32(truncatingIfNeeded: rng.next()))),
                .int(Int32(truncatingIfNeeded: rng.next())), .long(Int64(bitPattern: rng.next())),
                .short(Int16(truncatingIfNeeded: rng.next())),
                .double(rng.pick([0.001, 1e7, 1e-4, -0.0, 123.456, .infinity, -.infinity, 5e-324, .greatestFiniteMagnitude])),
                .float(rng.pick([Float(0.001), 1e7, 1e-4, 3.4028235e38, 1.0e-45])),
            ]
            var v = rng.pick(values)
            if case .double(let d) = v, d.isNaN { v = .double(1) }
            if case .float(let f) = v, f.isNaN { v = .float(1) }
            i.extras[key] = v
        }
        if i.package == nil, rng.oneIn(4) {
            var sel = AndroidIntent()
            if rng.oneIn(2) { sel.data = "https:" }
            if rng.oneIn(2) { sel.action = text(&rng) }
            if rng.oneIn(2) { sel.package = text(&rng) }
            if rng.oneIn(2) { sel.categories = [text(&rng)] }
            i.selector = AndroidIntent.Box(sel)
        }
        return i
    }

    /// `scheme` with its case scrambled and, sometimes, blanks or control characters slipped in.
    static func disguise(_ scheme: String, _ rng: inout FuzzRNG) -> String {
        var out = ""
        for c in scheme {
            out += rng.oneIn(2) ? c.uppercased() : String(c)
            if rng.oneIn(8) { out += rng.pick(["\t", "\n", "\r", "\u{0}", "\u{7F}", "\u{1F}"]) }
        }
        return rng.oneIn(4) ? rng.pick([" ", "\t", "\u{0}"]) + out : out
    }

    /// Percent-encodes some characters of `s` (the intent parser decodes `scheme=` values).
    static func percentEncodeSome(_ s: String, _ rng: inout FuzzRNG) -> String {
        var out = ""
        for b in s.utf8 {
            if rng.oneIn(3) || b < 0x21 || b == 0x7F { out += String(format: "%%%02X", b) } else { out.unicodeScalars.append(Unicode.Scalar(b)) }
        }
        return out
    }
}

// MARK: - apple-app-site-association

@Suite("Fuzz: apple-app-site-association")
struct AASAFuzzTests {
    static let domain = "example.com"

    static let documents: [String] = {
        var docs = FuzzCorpus.jsonObjects(in: "aasa_blazingly_conformance.json", key: "aasa")
        docs += FuzzCorpus.jsonObjects(in: "aasa_blazingly_swcutil_gap_probes.json", key: "aasa")
        docs += FuzzCorpus.jsonObjects(in: "aasa_st_tech_universal_links_test.json", key: "aasa")
        return docs
    }()

    static let urls: [String] = {
        var urls: [String] = []
        for file in ["aasa_blazingly_conformance.json", "aasa_st_tech_universal_links_test.json", "aasa_swift_aasa_validator.json"] {
            urls += FuzzCorpus.strings(in: file) { $0.hasPrefix("https://") || $0.hasPrefix("http://") }
        }
        return urls.isEmpty ? ["https://example.com/buy/1"] : urls
    }()

    static let jsonDictionary = [
        "{", "}", "[", "]", ",", ":", "\"", "\\", "\\u0000", "\\ud800", "null", "true", "1e999", "-0", "\"applinks\"",
        "\"details\"", "\"components\"", "\"appIDs\"", "\"appID\"", "\"paths\"", "\"NOT /\"", "\"/\"", "\"?\"", "\"#\"",
        "\"exclude\"", "\"caseSensitive\"", "\"percentEncoded\"", "\"defaults\"", "\"substitutionVariables\"",
        "\"$(lang)\"", "\"$(region)\"", "\"$(alnum)\"", "\"$(\"", "$(", ")", "*", "?*", "\"*\"",
    ]
    static let urlDictionary = [
        "%", "%2", "%2F", "%00", "%C3%A9", "?", "#", "&", "=", "*", "/", "//", "\\", "@", ":", ":443", ":8443", "[", "]",
        "https://", "http://", "example.com", "EXAMPLE.COM.", "evil.example", "é", "𝄞", " ", "\t",
    ]

    /// (document, domain, URL) of every conformance row: mutants of a document are tried on its own URLs.
    static let cases: [[String]] = FuzzCorpus.caseFields(in: "aasa_blazingly_conformance.json", ["aasa", "domain", "url"])
        + FuzzCorpus.caseFields(in: "aasa_blazingly_swcutil_gap_probes.json", ["aasa", "domain", "url"])

    @Test func theSeedCorpusIsLoaded() {
        #expect(Self.cases.count > 100)
        #expect(Self.documents.count > 20)
        #expect(Self.urls.count > 20)
    }

    @Test(arguments: [UInt64(1), 2, 3])
    func mutatedDocumentsAreReadOrRejectedWithAKeyPath(seed: UInt64) {
        var fuzz = FuzzRun(seed: seed, dictionary: Self.jsonDictionary)
        let urlMutator = FuzzMutator(dictionary: Self.urlDictionary)
        var accepted = 0, matched = 0
        for _ in 0..<1000 {
            let row = fuzz.rng.pick(Self.cases)
            let bytes = fuzz.mutator.mutate(Array(row[0].utf8), other: Array(fuzz.rng.pick(Self.documents).utf8), rng: &fuzz.rng, maxSteps: 2)
            let text = String(decoding: bytes, as: UTF8.self)
            let aasa: AppSiteAssociation
            do {
                aasa = try AppSiteAssociation(json: bytes, domain: row[1])
                accepted += 1
            } catch {
                if error.message.isEmpty || error.keyPath.isEmpty { fuzz.findings.record("error without message or key path", input: text) }
                continue
            }
            for _ in 0..<3 {
                let url = fuzz.rng.oneIn(3) ? row[2] : urlMutator.mutate(row[2], other: fuzz.rng.pick(Self.urls), rng: &fuzz.rng, maxSteps: 2)
                if Self.check(aasa, url: url, domain: row[1], document: text, &fuzz.findings) { matched += 1 }
            }
        }
        #expect(fuzz.findings.isEmpty, "\(fuzz.findings)")
        #expect(accepted > 100 && matched > 25, "accepted \(accepted), matched \(matched): too few to exercise matching")
    }

    @Test(arguments: [UInt64(11), 12, 13])
    func generatedDocumentsAreReadOrRejectedAndMatchingKeepsItsInvariants(seed: UInt64) {
        var fuzz = FuzzRun(seed: seed)
        let urlMutator = FuzzMutator(dictionary: Self.urlDictionary)
        var accepted = 0, matched = 0
        for _ in 0..<250 {
            let text = Self.generateDocument(&fuzz.rng)
            let aasa: AppSiteAssociation
            do {
                aasa = try AppSiteAssociation(json: text, domain: Self.domain)
                accepted += 1
            } catch {
                if error.message.isEmpty || error.keyPath.isEmpty { fuzz.findings.record("error without message or key path", input: text) }
                continue
            }
            for _ in 0..<4 {
                let url = fuzz.rng.oneIn(2) ? Self.generateURL(&fuzz.rng) : urlMutator.mutate(fuzz.rng.pick(Self.urls), other: Self.generateURL(&fuzz.rng), rng: &fuzz.rng)
                if Self.check(aasa, url: url, domain: Self.domain, document: text, &fuzz.findings) { matched += 1 }
            }
        }
        #expect(fuzz.findings.isEmpty, "\(fuzz.findings)")
        #expect(accepted > 40 && matched > 30, "accepted \(accepted), matched \(matched): too few to exercise matching")
    }

    // MARK: properties

    /// Checks the matching properties for `url`; true when some app matched it.
    @discardableResult
    static func check(_ aasa: AppSiteAssociation, url: String, domain: String, document: String, _ findings: inout FuzzFindings) -> Bool {
        let verdicts = aasa.verdicts(for: url)
        let first = aasa.app(for: url)
        let expectedFirst = aasa.appIDs.first { aasa.verdict(appID: $0, url: url) == .match }
        if first != expectedFirst { findings.record("app(for:) is not the first matching app", input: url, detail: document) }
        if let first, verdicts[first] != .match { findings.record("verdicts(for:) disagrees with app(for:)", input: url, detail: document) }
        guard let app = first else { return false }
        // A match is only ever for an https URL of the document's own host.
        let lower = url.lowercased()
        if !lower.hasPrefix("https://") || url.contains("\\") {
            findings.record("a non-https or backslash URL matched", input: url, detail: document)
        }
        // Moving the real host into the userinfo, a subdomain, the port or the path never keeps the match.
        guard let rest = Self.afterHost(url, domain: domain) else { return true }
        for variant in [
            "https://\(domain)@evil.example\(rest)", "https://\(domain).evil.example\(rest)",
            "https://evil.example\\@\(domain)\(rest)", "https://evil.example\\.\(domain)\(rest)",
            "https://evil.example#@\(domain)\(rest)", "http://\(domain)\(rest)", "https://\(domain):8443\(rest)",
            "https://evil\(domain)\(rest)", "https://\(domain)%2F@evil.example\(rest)",
        ] where aasa.verdict(appID: app, url: variant) == .match {
            findings.record("a URL for another host matched", input: variant, detail: document)
        }
        return true
    }

    /// Everything after `https://example.com` (path, query, fragment) when the URL is exactly on the domain.
    static func afterHost(_ url: String, domain: String) -> String? {
        let prefix = "https://\(domain)"
        guard url.lowercased().hasPrefix(prefix) else { return nil }
        let rest = url.dropFirst(prefix.count)
        guard rest.isEmpty || rest.hasPrefix("/") || rest.hasPrefix("?") || rest.hasPrefix("#") else { return nil }
        return String(rest)
    }

    // MARK: generators

    static func generateURL(_ rng: inout FuzzRNG) -> String {
        var url = rng.pick(["https://example.com", "https://EXAMPLE.com.", "https://example.com:443", "http://example.com",
                            "https://user@example.com", "https://example.com@evil.example", "https://evil.example"])
        for _ in 0..<rng.below(4) { url += "/" + rng.pick(["buy", "help", "en", "GB", "%2F", "a%20b", "é", "", "*", "?", "x"]) }
        if rng.oneIn(2) { url += "?" + rng.pick(["a=1", "articleNumber=1234", "a=1&a=2", "=", "&&", "%", "q=%E2%82"]) }
        if rng.oneIn(3) { url += "#" + rng.pick(["", "no_universal_links", "x", "%23"]) }
        return url
    }

    static func generateDocument(_ rng: inout FuzzRNG) -> String {
        func str(_ rng: inout FuzzRNG) -> String {
            let s = rng.pick(["/", "/buy/*", "*", "?", "?*", "/help/*/x", "$(lang)", "/$(lang)_$(region)/*", "$(alnum)*",
                              "$(v)", "$(missing)", "$(", "$()", "NOT /x", "", "é", "%2F", "/a?b", "\\\\", "\\u0000"])
            return "\"\(s)\""
        }
        func bad(_ rng: inout FuzzRNG) -> String { rng.pick(["null", "1", "true", "[]", "{}", "\"s\"", "[1]"]) }
        func component(_ rng: inout FuzzRNG) -> String {
            var keys: [String] = []
            if !rng.oneIn(4) { keys.append("\"/\": \(rng.oneIn(10) ? bad(&rng) : str(&rng))") }
            if rng.oneIn(3) {
                let q = rng.oneIn(2) ? str(&rng) : "{\"a\": \(str(&rng)), \"articleNumber\": \(rng.oneIn(5) ? bad(&rng) : str(&rng))}"
                keys.append("\"?\": \(rng.oneIn(10) ? bad(&rng) : q)")
            }
            if rng.oneIn(3) { keys.append("\"#\": \(rng.oneIn(10) ? bad(&rng) : str(&rng))") }
            if rng.oneIn(3) { keys.append("\"exclude\": \(rng.oneIn(10) ? bad(&rng) : rng.pick(["true", "false"]))") }
            if rng.oneIn(4) { keys.append("\"caseSensitive\": \(rng.pick(["true", "false"]))") }
            if rng.oneIn(4) { keys.append("\"percentEncoded\": \(rng.pick(["true", "false"]))") }
            return "{" + keys.joined(separator: ", ") + "}"
        }
        var details: [String] = []
        for _ in 0..<(1 + rng.below(3)) {
            let ids = rng.oneIn(8) ? bad(&rng) : "[\"T.app\(rng.below(3))\"" + (rng.oneIn(2) ? ", \"T.app\(rng.below(3))\"]" : "]")
            if rng.oneIn(3) {
                let paths = (0..<rng.below(4)).map { _ in str(&rng) }.joined(separator: ", ")
                details.append("{\"appID\": \"T.app\(rng.below(3))\", \"paths\": [\(paths)]}")
            } else {
                let components = (0..<rng.below(5)).map { _ in rng.oneIn(15) ? bad(&rng) : component(&rng) }.joined(separator: ", ")
                details.append("{\"appIDs\": \(ids), \"components\": [\(components)]\(rng.oneIn(4) ? ", \"defaults\": \(component(&rng))" : "")}")
            }
        }
        var applinks = "\"details\": [\(details.joined(separator: ", "))]"
        if rng.oneIn(3) { applinks += ", \"substitutionVariables\": {\"v\": [\(str(&rng)), \(str(&rng))]}" }
        if rng.oneIn(4) { applinks += ", \"defaults\": \(component(&rng))" }
        return rng.oneIn(20) ? bad(&rng) : "{\"applinks\": {\(applinks)}}"
    }
}

// MARK: - App switch (Swish, BankID, ROAMpay X)

@Suite("Fuzz: app-switch URLs")
struct AppSwitchFuzzTests {
    static let token = "7c40b5c9-fa74-49cf-b98c-bfe651f9a7c6"

    static let corpus: [String] = {
        var urls = [
            "swish://paymentrequest?token=c28a4061470f4af48973bd2a4642b4fa&callbackurl=merchant%3A%2F%2F",
            "swish://paymentrequest?token=T1&callbackurl=https%3A%2F%2Fshop.example%2Fswish%3Fo%3D1%26r%3D%252F",
            "swish://paymentrequest?token=T1&callbackurl=merchant%253A%252F%252F",
            "bankid:///?autostarttoken=\(token)&redirect=null",
            "bankid:///?autostarttoken=\(token)&redirect=shopapp%3A%2F%2Fbankid%3Forder%3D42",
            "https://app.bankid.com/?autostarttoken=\(token)&redirect=https%3A%2F%2Fshop.example%2Fdone",
            "https://assets.roamdata.com/transaction/?amount=1000&tip=100&tax=8.25&authToken=abc&invoiceID=INV1&customReferenceNumber=R-1&transactionNotes=hi%20there&hostURL=shopapp://&loginStrategy=normal&tenderType=card",
            "https://assets.roamdata.com/transaction/?amount=1&authToken=t&hostURL=https://shop.example/back?x=1",
            "https://shop.example/back?x=1&transactionResponse=eyJ0cmFuc2FjdGlvbnMiOlt7InJlc3BvbnNlQ29kZSI6IjQ5OTMifV19#f",
        ]
        for outcome in ROAMpayOutcome.allCases {
            if let u = try? ROAMpayResponse.make(hostURL: "shopapp://", outcome: outcome) { urls.append(u) }
        }
        return urls
    }()

    static let jsonCorpus: [String] = ROAMpayOutcome.allCases.compactMap {
        (try? ROAMpayResponse(transactions: [ROAMpayTransaction.example(for: $0)]).jsonData()).map { String(decoding: $0, as: UTF8.self) }
    }

    static let dictionary = [
        "swish://", "bankid:///", "https://app.bankid.com/", "https://assets.roamdata.com/transaction/", "paymentrequest",
        "?", "&", "=", "#", "%", "%2", "%25", "%3A%2F%2F", "%00", "%FF", "%C3%A9", "token=", "callbackurl=",
        "autostarttoken=", "redirect=", "null", "amount=", "authToken=", "hostURL=", "transactionResponse=", "tax=",
        "javascript:", "javascript%3Aalert(1)", "data:", "file:", "JaVaScRiPt:", "@", "\\", ":", "//", "[", "]",
        "+", "-", "_", "==", " ", "\t", "é",
    ]

    @Test(arguments: [UInt64(1), 2, 3])
    func mutatedURLsAreReadOrRejectedWithAFieldAndRule(seed: UInt64) {
        var fuzz = FuzzRun(seed: seed, dictionary: Self.dictionary)
        for _ in 0..<800 {
            let url = fuzz.mutant(of: Self.corpus)
            Self.check(url, registered: fuzz.rng.pick(["merchant://", "https://shop.example/swish?o=1", "shopapp://done?id=7"]), &fuzz.findings)
        }
        #expect(fuzz.findings.isEmpty, "\(fuzz.findings)")
    }

    @Test(arguments: [UInt64(11), 12])
    func generatedLaunchesRoundTripAndNeverReturnToAnUnsafeScheme(seed: UInt64) {
        var fuzz = FuzzRun(seed: seed)
        for _ in 0..<500 {
            let callback = Self.generateReturnURL(&fuzz.rng)
            // Swish
            if let launch = try? SwishLaunch(token: fuzz.rng.pick(["T1", "c28a4061470f4af48973bd2a4642b4fa", "a-b_c.d~e"]), callbackURL: callback) {
                do {
                    let back = try SwishLaunch.parse(launch.url)
                    if back.token != launch.token || back.callbackURL != launch.callbackURL {
                        fuzz.findings.record("Swish parse(url) != launch", input: launch.url)
                    }
                } catch { fuzz.findings.record("Swish url does not parse", input: launch.url, detail: "\(error)") }
                Self.check(launch.url, registered: callback, &fuzz.findings)
            }
            // BankID
            let redirect: BankIDRedirect = fuzz.rng.oneIn(4) ? .previousApp : fuzz.rng.oneIn(4) ? .absent : .url(callback)
            if let launch = try? BankIDLaunch(autoStartToken: Self.token, redirect: redirect, form: fuzz.rng.oneIn(2) ? .scheme : .universalLink) {
                do {
                    let back = try BankIDLaunch.parse(launch.url)
                    if back != launch { fuzz.findings.record("BankID parse(url) != launch", input: launch.url, detail: "\(back)") }
                } catch { fuzz.findings.record("BankID url does not parse", input: launch.url, detail: "\(error)") }
                Self.check(launch.url, registered: callback, &fuzz.findings)
            }
            // ROAMpay X request and response
            var request = ROAMpayRequest(amount: String(1 + fuzz.rng.below(10_000_000)), authToken: fuzz.rng.pick(["t", "a&b=c", "x%y", "é"]), hostURL: callback)
            if fuzz.rng.oneIn(2) { request.tax = fuzz.rng.pick(["0", "8.25", "100", "100.000", "7.5"]) }
            if fuzz.rng.oneIn(2) { request.transactionNotes = fuzz.rng.pick(["hi there", "a&b=c#d", "100%", "+ok"]) }
            if fuzz.rng.oneIn(3) { request.tenderType = fuzz.rng.pick(ROAMpayTenderType.allCases) }
            if let url = try? request.url() {
                do {
                    var back = try ROAMpayRequest.parse(url)
                    back.unrecognizedParameters = []
                    if back != request { fuzz.findings.record("ROAMpay parse(url()) != request", input: url, detail: "\(back)") }
                } catch { fuzz.findings.record("ROAMpay url() does not parse", input: url, detail: "\(error)") }
                Self.check(url, registered: callback, &fuzz.findings)
            }
            if let back = try? ROAMpayResponse.make(hostURL: callback, outcome: fuzz.rng.pick(ROAMpayOutcome.allCases)) {
                do {
                    let response = try ROAMpayResponse.parse(url: back)
                    if response.hostURL != callback { fuzz.findings.record("ROAMpay response hostURL changed", input: back, detail: response.hostURL ?? "nil") }
                } catch { fuzz.findings.record("ROAMpay response does not parse", input: back, detail: "\(error)") }
            }
        }
        #expect(fuzz.findings.isEmpty, "\(fuzz.findings)")
    }

    @Test(arguments: [UInt64(21), 22])
    func mutatedTransactionResponsesAreDecodedOrRejected(seed: UInt64) {
        var fuzz = FuzzRun(seed: seed, dictionary: AASAFuzzTests.jsonDictionary + ["\"transactions\"", "\"responseCode\"", "\"emvData\""])
        for _ in 0..<1500 {
            let bytes = fuzz.mutantBytes(of: Self.jsonCorpus)
            Self.expectTypedError(String(decoding: bytes, as: UTF8.self), &fuzz.findings) { _ = try ROAMpayResponse.decode(json: Data(bytes)) }
            let base64 = Data(bytes).base64EncodedString()
            let damaged = fuzz.rng.oneIn(2) ? base64 : FuzzMutator(dictionary: ["%", "=", "-", "_", " ", "+", "/"]).mutate(base64, other: "", rng: &fuzz.rng)
            Self.expectTypedError(damaged, &fuzz.findings) { _ = try ROAMpayResponse.decode(base64: damaged) }
        }
        #expect(fuzz.findings.isEmpty, "\(fuzz.findings)")
    }

    // MARK: properties

    static func check(_ url: String, registered: String, _ findings: inout FuzzFindings) {
        var message: AppSwitchMessage?
        expectTypedError(url, &findings) { message = try AppSwitchMessage.parse(url) }
        if case .url(let u)? = message?.whenDone, let s = AndroidIntent.lenientScheme(of: u),
           SchemeKind.neverExternalSchemes.contains(s) {
            findings.record("a launch returns to an unsafe scheme", input: url, detail: u)
        }
        expectTypedError(url, &findings) { _ = try SwishLaunch.parse(url) }
        expectTypedError(url, &findings) { _ = try SwishCallback.parse(url, registered: registered) }
        expectTypedError(url, &findings) { _ = try BankIDLaunch.parse(url) }
        expectTypedError(url, &findings) { _ = try ROAMpayRequest.parse(url) }
        expectTypedError(url, &findings) { _ = try ROAMpayResponse.parse(url: url) }
    }

    /// Runs `body`; any error must be an `AppSwitchError` with a message and a rule.
    static func expectTypedError(_ input: String, _ findings: inout FuzzFindings, _ body: () throws -> Void) {
        do {
            try body()
        } catch let error as AppSwitchError {
            if error.description.isEmpty || error.rule.isEmpty { findings.record("error without message", input: input) }
        } catch {
            findings.record("untyped error", input: input, detail: "\(type(of: error)): \(error)")
        }
    }

    static func generateReturnURL(_ rng: inout FuzzRNG) -> String {
        var url = rng.pick(["shopapp://", "merchant://", "https://shop.example", "http://shop.example:8080", "HTTPS://Shop.Example.",
                            "javascript:", "JavaScript://", "data:", "file://", "swish://", "bankid:///", "x-y.z+w://", "https://"])
        for _ in 0..<rng.below(3) { url += rng.pick(["/", "done", "a b", "%20", "%", "é", "?o=1", "&r=%2F", "#f", "@x", "\\"]) }
        return url
    }
}

// MARK: - Goodlist

@Suite("Fuzz: goodlist files and host patterns")
struct GoodlistFuzzTests {
    static let shipped: String = (try? String(contentsOf: Project.path("Goodlist/3ds.goodlist"), encoding: .utf8)) ?? ""

    static let seeds: [String] = [
        shipped,
        "**.payex.com\n*.3dsecure.no source=x\nacs1.luottokunta.fi why=\"a \\\"quoted\\\" value\" # trailing\n",
        "\u{FEFF}# bom\r\nbücher.example\r\n*.xn--bcher-kva.example added=2026-01-01\r\n",
        "192.0.2.1\n*.1.2.3\n**.\n*.*.x\nhttps://payex.com/\npayex.com:443\nuser@payex.com\n",
    ]

    static let dictionary = [
        "\n", "\r\n", "\t", " ", "#", "**.", "*.", ".", "..", "=", "\"", "\\\"", "\\", "key=", "source=", "é", "xn--",
        "\u{FEFF}", "\u{0}", "\u{7F}", "@", ":", "/", "%", "-", "_", "0", "255.255.255.255", "[::1]",
    ]

    @Test(arguments: [UInt64(1), 2, 3])
    func mutatedFilesParseBackByteForByteOrFailWithALine(seed: UInt64) {
        var fuzz = FuzzRun(seed: seed, dictionary: Self.dictionary)
        var lists = 0
        for _ in 0..<600 {
            let bytes = fuzz.mutantBytes(of: Self.seeds)
            let text = String(decoding: bytes, as: UTF8.self)
            let source: GoodlistSource
            do {
                source = try GoodlistSource.parse(bytes, file: "fuzz.goodlist")
            } catch {
                if error.message.isEmpty || error.file != "fuzz.goodlist" || error.line == nil { fuzz.findings.record("file error without line or message", input: text) }
                continue
            }
            if source.rendered() != bytes { fuzz.findings.record("rendered() is not the file's bytes", input: text) }
            do {
                let list = try Goodlist(source: source)
                lists += 1
                for _ in 0..<4 {
                    Self.checkMatching(list, host: Self.host(from: list, &fuzz.rng, mutator: fuzz.mutator), &fuzz.findings)
                }
            } catch {
                if error.message.isEmpty || !(1...max(1, source.lines.count)).contains(error.line ?? -1) {
                    fuzz.findings.record("list error without a line of the file", input: text, detail: error.description)
                }
            }
        }
        #expect(fuzz.findings.isEmpty, "\(fuzz.findings)")
        #expect(lists > 50, "too few mutated files are usable lists (\(lists))")
    }

    @Test(arguments: [UInt64(11), 12])
    func mutatedPatternsAreCanonicalOrRefused(seed: UInt64) {
        var fuzz = FuzzRun(seed: seed, dictionary: Self.dictionary)
        let patterns = ["**.payex.com", "*.3dsecure.no", "acs1.luottokunta.fi", "bücher.example", "*.xn--bcher-kva.example", "a.b"]
        for _ in 0..<1500 {
            let text = fuzz.mutant(of: patterns, maxSteps: 2)
            let pattern: HostPattern
            do {
                pattern = try HostPattern(text)
            } catch {
                if error.description.isEmpty || error.detail.isEmpty { fuzz.findings.record("pattern error without detail", input: text) }
                continue
            }
            guard let again = try? HostPattern(pattern.description), again == pattern else {
                fuzz.findings.record("description does not parse back to the pattern", input: text, detail: pattern.description)
                continue
            }
            if !pattern.matches(normalizedHost: pattern.base) { fuzz.findings.record("a pattern does not admit its base", input: text) }
            let list = Goodlist([(pattern, GoodlistEntry(pattern: text))])
            for trick in Self.tricks(pattern.base) where list.allows(host: trick) {
                fuzz.findings.record("a look-alike host is admitted", input: trick, detail: pattern.description)
            }
            Self.checkMatching(list, host: "a." + pattern.base, &fuzz.findings)
            Self.checkMatching(list, host: "a.b." + pattern.base, &fuzz.findings)
        }
        #expect(fuzz.findings.isEmpty, "\(fuzz.findings)")
    }

    // MARK: properties

    /// The trie agrees with the patterns' own semantics, and what it returns admits the host.
    static func checkMatching(_ list: Goodlist, host: String, _ findings: inout FuzzFindings) {
        let viaTrie = list.matchIndex(host: host)
        let viaPatterns = list.patterns.contains { $0.matches(host: host) }
        if (viaTrie != nil) != viaPatterns {
            findings.record("trie and patterns disagree", input: host, detail: "trie \(String(describing: viaTrie)), patterns \(viaPatterns)")
        }
        if let i = viaTrie {
            if !(list.patterns.indices.contains(i)) || !list.patterns[i].matches(host: host) {
                findings.record("the matched entry does not admit the host", input: host)
            }
            if host.contains(where: { "@\\/: \t%".contains($0) }) {
                findings.record("a host with userinfo, path, port or escape characters is admitted", input: host)
            }
        }
    }

    /// Hosts that look like `base` but are not it nor below it.
    static func tricks(_ base: String) -> [String] {
        ["evil\(base)", "\(base).evil.example", "\(base)@evil.example", "evil.example@\(base)", "evil.example\\\(base)",
         "evil.example/\(base)", "\(base):443", "\(base)%2Eevil.example", " \(base)", "\(base)\t", "evil.example#\(base)"]
    }

    static func host(from list: Goodlist, _ rng: inout FuzzRNG, mutator: FuzzMutator) -> String {
        let base = list.patterns.isEmpty ? "payex.com" : rng.pick(list.patterns).base
        switch rng.below(4) {
        case 0: return base
        case 1: return rng.pick(["a.", "a.b.", "xn--bcher-kva.", "A.", ""]) + base + rng.pick(["", ".", "."])
        case 2: return rng.pick(tricks(base))
        default: return mutator.mutate(base, other: "evil.example", rng: &rng, maxSteps: 2)
        }
    }
}

// MARK: - URLs and hosts (WebURL, HostName, IDNA, Punycode)

@Suite("Fuzz: URL and host parsing")
struct URLFuzzTests {
    static let urls: [String] = {
        var out = FuzzCorpus.strings(in: "url_whatwg_urltestdata_subset.json") { $0.contains(":") }
        out += ["https://user:pw@shop.example.com:8443/a/../b/./c?q=1#f", "http://[::ffff:192.0.2.1]/", "http://0x7f.1/",
                "https://xn--bcher-kva.example./", "https://bücher.example/", "shopapp://x/y"]
        return out
    }()

    static let hosts: [String] = {
        var out = FuzzCorpus.strings(in: "url_whatwg_toascii.json")
        out += ["shop.example.com", "SHOP.Example.COM.", "bücher.example", "xn--bcher-kva.example", "192.0.2.1", "0x7f.1",
                "[::1]", "[::ffff:192.0.2.1]", "a..b", "-a.b", "ß.de", "ﬁ.example"]
        return out
    }()

    static let dictionary = [
        "://", "//", "/", "\\", "@", ":", "::", "[", "]", "%", "%2e", "%2E%2E", "%00", "%41", "..", ".", "?", "#", "xn--",
        "0x", "255", "4294967296", "\t", "\n", " ", "é", "ß", "\u{200D}", "\u{FF0E}", "。", "https:", "file:", "javascript:",
    ]

    static let forbiddenInHost = Set(" #%/:<>?@[\\]^|".unicodeScalars)

    @Test(arguments: [UInt64(1), 2, 3])
    func parsedURLsReserialiseStably(seed: UInt64) {
        var fuzz = FuzzRun(seed: seed, dictionary: Self.dictionary)
        var parsed = 0
        for _ in 0..<1500 {
            let input = fuzz.mutant(of: Self.urls, maxSteps: 3)
            guard let url = WebURL(input) else { continue }
            parsed += 1
            // The URL Standard's idempotence: parsing the href gives the same href.
            guard let again = WebURL(url.href) else {
                fuzz.findings.record("href does not parse", input: input, detail: url.href)
                continue
            }
            if again.href != url.href { fuzz.findings.record("href is not stable", input: input, detail: "\(url.href) → \(again.href)") }
            if url.isSpecial, let host = url.comparableHost, !host.hasPrefix("[") {
                if host.unicodeScalars.contains(where: { Self.forbiddenInHost.contains($0) || !$0.isASCII || ("A"..."Z").contains($0) }) {
                    fuzz.findings.record("a special URL's host is not canonical", input: input, detail: host)
                }
            }
        }
        #expect(fuzz.findings.isEmpty, "\(fuzz.findings)")
        #expect(parsed > 500, "too few mutants parse (\(parsed))")
    }

    @Test(arguments: [UInt64(11), 12])
    func normalisedHostsAreCanonicalAndStable(seed: UInt64) {
        var fuzz = FuzzRun(seed: seed, dictionary: Self.dictionary)
        var valid = 0
        for _ in 0..<2000 {
            let input = fuzz.mutant(of: Self.hosts, maxSteps: 2)
            guard let h = HostName.normalize(input) else { continue }
            valid += 1
            if HostName.normalize(h) != h { fuzz.findings.record("normalize is not idempotent", input: input, detail: h) }
            if h.isEmpty || h.hasSuffix(".") { fuzz.findings.record("empty host or trailing dot", input: input, detail: h) }
            if !h.hasPrefix("["), h.unicodeScalars.contains(where: { Self.forbiddenInHost.contains($0) || !$0.isASCII || ("A"..."Z").contains($0) }) {
                fuzz.findings.record("a normalised host is not lower-case ASCII without delimiters", input: input, detail: h)
            }
            // (An xn-- label need not be valid Punycode: WPT toascii keeps `xn--a` as it is.)
        }
        #expect(fuzz.findings.isEmpty, "\(fuzz.findings)")
        #expect(valid > 300, "too few mutants are hosts (\(valid))")
    }

    @Test(arguments: [UInt64(21), 22])
    func punycodeRoundTripsAnyScalars(seed: UInt64) {
        var fuzz = FuzzRun(seed: seed)
        let ranges: [ClosedRange<UInt32>] = [0x61...0x7A, 0x30...0x39, 0xE0...0x17F, 0x400...0x4FF, 0x4E00...0x9FFF, 0x1F600...0x1F64F, 0x10000...0x10FFFF]
        for _ in 0..<1500 {
            var scalars: [Unicode.Scalar] = []
            for _ in 0..<(1 + fuzz.rng.below(20)) {
                let r = fuzz.rng.pick(ranges)
                if let s = Unicode.Scalar(r.lowerBound + UInt32(fuzz.rng.below(Int(r.upperBound - r.lowerBound) + 1))) { scalars.append(s) }
            }
            let text = String(String.UnicodeScalarView(scalars))
            guard let encoded = Punycode.encode(scalars) else { continue }
            if Punycode.decode(encoded) != scalars { fuzz.findings.record("decode(encode(x)) != x", input: text, detail: encoded) }
            _ = IDNA.toASCII(text + ".example")
        }
        // Garbage never traps the decoder.
        for _ in 0..<1500 {
            let garbage = String((0..<fuzz.rng.below(30)).map { _ in fuzz.rng.pick(Array("abcxyz0189-_.é\u{0}~")) })
            _ = Punycode.decode(garbage)
            _ = IDNA.toASCII("xn--" + garbage)
        }
        #expect(fuzz.findings.isEmpty, "\(fuzz.findings)")
    }
}

// MARK: - Helper endpoints (what `plainview serve` answers)

@Suite("Fuzz: helper endpoints")
struct HelperEndpointsFuzzTests {
    static let endpoints: HelperEndpoints? = try? HelperEndpoints(configuration: HelperEndpointsConfiguration(
        publicURL: "https://shop.example.com", root: "/swedbank-pay-mobile/", appIDs: ["ABCDE12345.com.example.shop"],
        androidPackage: "com.example.shop", sha256CertFingerprints: [String(repeating: "ab", count: 32)]))

    static let seeds = [
        "/swedbank-pay-mobile/sdk-callback/android-intent?package=your.ecom.app&id=abb50c53",
        "/swedbank-pay-mobile/sdk-callback/ios-universal-link?scheme=shop&language=en-US",
        "/swedbank-pay-mobile/sdk-callback/ios-universal-link?fallback=true&scheme=s&language=sv-SE&id=7",
        "/swedbank-pay-mobile/sdk-callback/trampoline?target=https%3A%2F%2Fshop.example.com%2Fswedbank-pay-mobile%2Fx&language=da-DK",
        "/.well-known/apple-app-site-association", "/.well-known/assetlinks.json", "/nothing-here?x=1",
    ]

    /// Markers that are only harmless when escaped: a raw `"`, `'` or `<` between `x` and `zq` breaks out of
    /// an attribute or opens a tag.
    static let markers = ["x\"zq", "x'zq", "x<zq"]
    static let dictionary = markers + markers.map { AppSwitchEncoding.encodeComponent($0) } + [
        "&", "=", "?", "#", "%", "%0D%0A", "\r\n", "%00", "javascript:", "<script>", "%3Cscript%3E", "package=",
        "scheme=", "language=", "target=", "fallback=", "id=", "https%3A%2F%2Fevil.example%2F", "//", "/../", "é", "%C3",
    ]

    @Test(arguments: [UInt64(1), 2, 3])
    func responsesEscapeWhatTheyEchoAndCarrySafeHeaders(seed: UInt64) throws {
        let endpoints = try #require(Self.endpoints)
        var fuzz = FuzzRun(seed: seed, dictionary: Self.dictionary)
        var ok = 0
        for _ in 0..<800 {
            let target = fuzz.mutant(of: Self.seeds, maxSteps: 3)
            let r = endpoints.respond(to: HelperRequest(method: fuzz.rng.pick(["GET", "GET", "HEAD", "POST"]), target: target))
            if r.status == 200 || r.status == 302 { ok += 1 }
            if !(200...599).contains(r.status) { fuzz.findings.record("status \(r.status)", input: target) }
            for h in r.headers where h.name.isEmpty || (h.name + h.value).unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
                fuzz.findings.record("a header holds a control character (response splitting)", input: target, detail: "\(h.name): \(h.value)")
            }
            // Location: an absolute URL (https, or the app's own scheme for the iOS fallback), never a script
            // or local scheme, never with blanks.
            if let location = r.header("location") {
                let scheme = AndroidIntent.scheme(of: location)
                if scheme == nil || ["javascript", "data", "file", "vbscript"].contains(scheme ?? "") || location.contains(" ") {
                    fuzz.findings.record("Location is not a safe absolute URL", input: target, detail: location)
                }
            }
            let type = r.header("content-type") ?? ""
            if type.hasPrefix("text/html") {
                for marker in Self.markers where r.body.contains(marker) {
                    fuzz.findings.record("HTML echoes \(marker.debugDescription) unescaped", input: target)
                }
            }
            if type.contains("json"), !r.body.isEmpty, (try? JSONSerialization.jsonObject(with: Data(r.body.utf8))) == nil {
                fuzz.findings.record("a JSON response is not JSON", input: target, detail: String(r.body.prefix(200)))
            }
        }
        #expect(fuzz.findings.isEmpty, "\(fuzz.findings)")
        #expect(ok > 5, "too few mutated requests succeed to exercise the pages (\(ok))")
    }
}
