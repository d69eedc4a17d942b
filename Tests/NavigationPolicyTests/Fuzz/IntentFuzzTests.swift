// Deterministic, bounded fuzzing of the NavigationPolicy parsers: grammar-aware generators plus byte-level
// mutations of the conformance vectors, with fixed seeds so every finding reproduces. Properties: nothing
// traps; a rejection is the parser's typed error with a message; round trips hold; security invariants hold.
// A finding prints the input Swift-escaped: paste it into `FuzzRegressionTests` (FuzzRegressionTests.swift).
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
            if AndroidIntent.isSafeForExternalApp(uri),
                AndroidIntent.lenientScheme(of: uri).map({ $0 == "intent" || $0 == "android-app" }) == true
            {
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
        if let data = intent.data, let s = AndroidIntent.lenientScheme(of: data), SchemeKind.neverExternalSchemes.contains(s),
            !intent.isUnsafeData
        {
            findings.record("unsafe data not flagged", input: uri)
        }
        if intent.isUnsafeData, AndroidIntent.isSafeForExternalApp(uri),
            AndroidIntent.lenientScheme(of: uri).map({ $0 == "intent" || $0 == "android-app" }) == true
        {
            findings.record("unsafe intent called safe", input: uri)
        }
        let launched = intent.sanitizedForLaunch()
        if launched.component != nil || launched.selector != nil || launched.flags & ~AndroidIntent.allowedLaunchFlags != 0
            || !launched.categories.contains(AndroidIntent.categoryBrowsable)
        {
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

    static let words = [
        "", "a", "x.y", "com.example.app", "android.intent.action.VIEW", "%", "%2", "%41", "%E2%82",
        "é", "a b", ";", "=", "#", "/", ".Main", "end", "SEL", "text/html", "0", "-1", "\u{7F}",
    ]

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
            case 3:
                uri +=
                    "launchFlags=\(rng.pick(["0x10000000", "-0x80000000", "0x80000000", "#ff", "017", "0", "x", "", "-", "0x-1", "+5", "99999999999"]));"
            case 4: uri += "package=\(rng.pick(words));"
            case 5: uri += "component=\(rng.pick(["p/.C", "p/c", "p/", "/c", "pc", "", "%2F"]));"
            case 6: uri += "scheme=\(rng.pick(["https", "http", "javascript", "JavaScript", "file", "", "%", "a b"]));"
            case 7: uri += "SEL;"
            case 8: uri += "sourceBounds=\(rng.pick(["1 2 3 4", "", "x"]));"
            case 9: uri += "identifier=\(rng.pick(words));"
            case 10: uri += rng.pick(["end;", "", ";", "x;", "S.", "S;", "q.k=v;", "=;"])
            default:
                let kind = rng.pick(["S", "B", "b", "c", "d", "f", "i", "l", "s"])
                let value = rng.pick([
                    "", "1", "-1", "127", "128", "-129", "32767", "2147483648", "9223372036854775808",
                    "true", "TRUE", "1.5", "1.5f", "2d", "NaN", "-Infinity", "0x1p3", "1e400", "1e-400",
                    "%", "%G1", "x", "é", "%F0%9D%84%9E", " 1 ",
                ])
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
            let pieces = [
                "a", "Z", "0", "-", ".", "_", "~", " ", "%", "#", ";", "=", "/", ":", "é", "𝄞", "\u{1}", "&", "+", "end", "SEL",
            ]
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
                .double(
                    rng.pick([
                        0.001, 1e7, 1e-4, -0.0, 123.456, .infinity, -.infinity, .leastNonzeroMagnitude, .greatestFiniteMagnitude,
                    ])),
                .float(rng.pick([Float(0.001), 1e7, 1e-4, 3.4028235e38, .leastNonzeroMagnitude])),
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
            if rng.oneIn(3) || b < 0x21 || b == 0x7F {
                out += String(format: "%%%02X", b)
            } else {
                out.unicodeScalars.append(Unicode.Scalar(b))
            }
        }
        return out
    }
}

// MARK: - apple-app-site-association
