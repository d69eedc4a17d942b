// libFuzzer harness for the NavigationPolicy parsers. Not a package target: run.sh compiles it together
// with Sources/NavigationPolicy/*.swift into one module (so internal helpers are visible) with
// `swiftc -sanitize=fuzzer`. The target is chosen by PLAINVIEW_FUZZ_TARGET (intent, aasa, appswitch, url,
// engine, goodlist).
// Every property violation calls `fatalError`, which libFuzzer records as a crash with its input.
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

private enum Target: String { case intent, aasa, appswitch, url, engine, goodlist }

private let target: Target = {
    let name = getenv("PLAINVIEW_FUZZ_TARGET").map { String(cString: $0) } ?? "intent"
    guard let t = Target(rawValue: name) else { fatalError("PLAINVIEW_FUZZ_TARGET must be intent, aasa, appswitch, url, engine or goodlist") }
    return t
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    switch target {
    case .intent: fuzzIntent(String(decoding: bytes, as: UTF8.self))
    case .aasa: fuzzAASA(bytes)
    case .appswitch: fuzzAppSwitch(bytes)
    case .url: fuzzURL(String(decoding: bytes, as: UTF8.self))
    case .engine: fuzzEngine(String(decoding: bytes, as: UTF8.self))
    case .goodlist: fuzzGoodlist(bytes)
    }
    return 0
}

private func violated(_ property: String, _ input: String) -> Never {
    fatalError("\(property): \(input.debugDescription)")
}

// MARK: intent

private func comparable(_ intent: AndroidIntent) -> AndroidIntent {
    var out = intent
    out.categories.sort()
    if out.package != nil { out.selector = nil }
    for (key, value) in out.extras {
        if case .double(let d) = value, d.isNaN { out.extras[key] = .string("(NaN)") }
        if case .float(let f) = value, f.isNaN { out.extras[key] = .string("(NaN)") }
    }
    if var sel = out.selector?.intent {
        // Android's `toUri` writes only the selector data's scheme: `SEL;scheme=a:b;` comes back as `a:`.
        sel.data = sel.data.map { d in d.firstIndex(of: ":").map { String(d[..<$0]) + ":" } ?? d }
        out.selector = AndroidIntent.Box(comparable(sel))
    }
    return out
}

private func fuzzIntent(_ uri: String) {
    let intent: AndroidIntent
    do {
        intent = try AndroidIntent.parse(uri)
    } catch {
        if error.message.isEmpty { violated("empty error message", uri) }
        if let o = error.offset, !(0...uri.utf8.count).contains(o) { violated("offset outside the input", uri) }
        return
    }
    let written = intent.toURI()
    guard let back = try? AndroidIntent.parse(written) else { violated("toURI does not parse", uri) }
    if comparable(back) != comparable(intent) { violated("parse(toURI(x)) != x", uri) }
    if let app = intent.toAndroidAppURI() { _ = try? AndroidIntent.parse(app) }
    if let f = intent.safeBrowserFallbackURL?.lowercased(), !(f.hasPrefix("http://") || f.hasPrefix("https://")) {
        violated("non-http fallback", uri)
    }
    if let d = intent.data, let s = AndroidIntent.lenientScheme(of: d), SchemeKind(scheme: s) == .neverExternal, !intent.isUnsafeData {
        violated("unsafe data not flagged", uri)
    }
    let launched = intent.sanitizedForLaunch()
    if launched.component != nil || launched.selector != nil || launched.flags & ~AndroidIntent.allowedLaunchFlags != 0 {
        violated("sanitizedForLaunch keeps something", uri)
    }
    _ = AndroidIntent.isSafeForExternalApp(uri)
}

// MARK: AASA (input: document, a NUL byte, then a URL)

private func fuzzAASA(_ bytes: [UInt8]) {
    let cut = bytes.firstIndex(of: 0) ?? bytes.endIndex
    let document = bytes[..<cut]
    let url = cut < bytes.endIndex ? String(decoding: bytes[(cut + 1)...], as: UTF8.self) : "https://example.com/buy/1"
    let aasa: AppSiteAssociation
    do {
        aasa = try AppSiteAssociation(json: document, domain: "example.com")
    } catch {
        if error.message.isEmpty || error.keyPath.isEmpty { violated("error without message", String(decoding: document, as: UTF8.self)) }
        return
    }
    let first = aasa.app(for: url)
    let verdicts = aasa.verdicts(for: url)
    if let first, verdicts[first] != .match { violated("verdicts disagree with app(for:)", url) }
    guard let app = first else { return }
    if !url.lowercased().hasPrefix("https://") || url.contains("\\") { violated("non-https URL matched", url) }
    if url.lowercased().hasPrefix("https://example.com/") {
        let rest = url.dropFirst("https://example.com".count)
        for variant in ["https://example.com@evil.example\(rest)", "https://example.com.evil.example\(rest)",
                        "https://evil.example\\@example.com\(rest)", "http://example.com\(rest)"]
        where aasa.verdict(appID: app, url: variant) == .match {
            violated("another host matched", variant)
        }
    }
}

// MARK: app switch

private func fuzzAppSwitch(_ bytes: [UInt8]) {
    let url = String(decoding: bytes, as: UTF8.self)
    func typed(_ body: () throws -> Void) {
        do { try body() } catch let e as AppSwitchError {
            if e.description.isEmpty || e.rule.isEmpty { violated("error without message", url) }
        } catch { violated("untyped error \(error)", url) }
    }
    typed {
        let message = try AppSwitchMessage.parse(url)
        if case .url(let u)? = message.whenDone, let s = AndroidIntent.lenientScheme(of: u), SchemeKind(scheme: s) == .neverExternal {
            violated("returns to an unsafe scheme", url)
        }
    }
    typed { _ = try SwishCallback.parse(url, registered: "merchant://done?id=7") }
    typed { _ = try ROAMpayResponse.decode(json: Data(bytes)) }
    typed { _ = try ROAMpayResponse.decode(base64: url) }
}

// MARK: URL and host

private let forbiddenInHost = Set(" #%/:<>?@[\\]^|".unicodeScalars)

/// Bases for the resolver property: its shortcut applies to the http(s) ones, not to the others.
private let resolverBases: [WebURL.Resolver] = ["https://acs.3dsecure.no/3ds/challenge?x=1#f", "http://u:p@shop.example:8080/a/b/",
                                                "file:///tmp/a/b", "mailto:x@example.com"].compactMap { WebURL($0).map(WebURL.Resolver.init) }

private func fuzzURL(_ input: String) {
    for r in resolverBases {
        let expected = WebURL(input, relativeTo: r.base)?.href
        if r.href(input) != expected { violated("Resolver disagrees with WebURL(_:relativeTo:) against \(r.base.href)", input) }
        if Array(input.utf8).withUnsafeBufferPointer({ r.href(utf8: $0) }) != expected {
            violated("Resolver (UTF-8 bytes) disagrees with WebURL(_:relativeTo:) against \(r.base.href)", input)
        }
    }
    if let url = WebURL(input) {
        guard let again = WebURL(url.href) else { violated("href does not parse", input) }
        if again.href != url.href { violated("href is not stable", input) }
        if url.isSpecial, let h = url.comparableHost, !h.hasPrefix("["),
           h.unicodeScalars.contains(where: { forbiddenInHost.contains($0) || !$0.isASCII || ("A"..."Z").contains($0) }) {
            violated("special host not canonical", input)
        }
    }
    if let h = HostName.normalize(input) {
        if HostName.normalize(h) != h { violated("normalize not idempotent", input) }
        if !h.hasPrefix("["), h.unicodeScalars.contains(where: { forbiddenInHost.contains($0) || !$0.isASCII || ("A"..."Z").contains($0) }) {
            violated("normalised host not canonical", input)
        }
    }
}

// MARK: engine (input: a URL; every policy shape, every app installed)

private struct EverythingInstalled: SystemServices {
    func universalLinkApp(for url: String) -> String? { "com.example.ul" }
    func appLinkApp(for url: String) -> String? { "com.example.applink" }
    func customSchemeApp(for scheme: String) -> String? { "app.\(scheme)" }
    func intentApp(for intent: AndroidIntent) -> String? { "com.example.intent" }
}

private let engines: [NavigationPolicyEngine] = Platform.allCases.flatMap { platform in
    RedirectPolicy.allCases.map { redirect in
        NavigationPolicyEngine(policy: Policy(
            platform: platform, paymentURL: "https://shop.example.com/pay?o=1", completeURL: "https://shop.example.com/done",
            cancelURL: "https://shop.example.com/cancel", callbackScheme: "shopapp", redirectPolicy: redirect,
            allowedHosts: ["shop.example.com"]), system: EverythingInstalled())
    }
}

private let unsafe: Set<String> = ["javascript", "file", "data", "vbscript"]

private func fuzzEngine(_ url: String) {
    let scheme = AndroidIntent.lenientScheme(of: url)
    // What a browser would contact: an allowed-looking URL whose real host is not shop.example.com must not be allowed.
    let realHost = WebURL(url).flatMap { $0.isSpecial ? $0.comparableHost : nil }
    for engine in engines {
        for frame in NavigationFrame.allCases {
            let d = engine.decide(Navigation(url: url, currentURL: "https://shop.example.com/pay?o=1", frame: frame))
            if d.rule.rawValue.isEmpty || d.reason.isEmpty { violated("decision without rule or reason", url) }
            if let t = d.action.target, let s = AndroidIntent.lenientScheme(of: t), unsafe.contains(s) {
                violated("\(d.action.name) hands on \(s)", url)
            }
            if frame == .main, let scheme, unsafe.contains(scheme), d.action == .allow || d.action.via != nil {
                violated("top-level \(scheme) got \(d.action.name)", url)
            }
            if engine.policy.redirectPolicy != .webview, d.action == .allow, frame == .main,
               let scheme, scheme == "http" || scheme == "https", realHost != "shop.example.com" {
                violated("allowed a main-frame URL whose host is \(realHost ?? "nil") (\(engine.policy.platform), \(engine.policy.redirectPolicy))", url)
            }
        }
    }
}

// MARK: goodlist (input: a goodlist file, a NUL byte, then a host)

private func fuzzGoodlist(_ bytes: [UInt8]) {
    let cut = bytes.firstIndex(of: 0) ?? bytes.endIndex
    let file = Array(bytes[..<cut])
    let host = cut < bytes.endIndex ? String(decoding: bytes[(cut + 1)...], as: UTF8.self) : "a.payex.com"
    guard let source = try? GoodlistSource.parse(file, file: "fuzz.goodlist") else { return }
    if source.rendered() != file { violated("rendered() differs from the file", String(decoding: file, as: UTF8.self)) }
    guard let list = try? Goodlist(source: source) else { return }
    let viaTrie = list.matchIndex(host: host)
    let viaPatterns = list.patterns.contains { $0.matches(host: host) }
    if (viaTrie != nil) != viaPatterns { violated("trie and patterns disagree", host) }
    // `%` is no delimiter: a host's percent-escapes are decoded as browsers decode them (%55 is U).
    if viaTrie != nil, host.contains(where: { "@\\/: \t".contains($0) }) { violated("a host with delimiters is admitted", host) }
}
