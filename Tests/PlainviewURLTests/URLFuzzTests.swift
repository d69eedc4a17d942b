@testable import PlainviewURL
import Foundation
import Testing
import TestSupport

@Suite("Fuzz: URL and host parsing")
struct URLFuzzTests {
    static let urls: [String] = {
        var out = FuzzCorpus.strings(in: "url_whatwg_urltestdata_subset.json") { $0.contains(":") }
        out += [
            "https://user:pw@shop.example.com:8443/a/../b/./c?q=1#f", "http://[::ffff:192.0.2.1]/", "http://0x7f.1/",
            "https://xn--bcher-kva.example./", "https://bücher.example/", "shopapp://x/y",
        ]
        return out
    }()

    static let hosts: [String] = {
        var out = FuzzCorpus.strings(in: "url_whatwg_toascii.json")
        out += [
            "shop.example.com", "SHOP.Example.COM.", "bücher.example", "xn--bcher-kva.example", "192.0.2.1", "0x7f.1",
            "[::1]", "[::ffff:192.0.2.1]", "a..b", "-a.b", "ß.de", "ﬁ.example",
        ]
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
            if again.href != url.href {
                fuzz.findings.record("href is not stable", input: input, detail: "\(url.href) → \(again.href)")
            }
            if url.isSpecial, let host = url.comparableHost, !host.hasPrefix("[") {
                if host.unicodeScalars.contains(where: {
                    Self.forbiddenInHost.contains($0) || !$0.isASCII || ("A"..."Z").contains($0)
                }) {
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
            if !h.hasPrefix("["),
                h.unicodeScalars.contains(where: { Self.forbiddenInHost.contains($0) || !$0.isASCII || ("A"..."Z").contains($0) })
            {
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
        let ranges: [ClosedRange<UInt32>] = [
            0x61...0x7A, 0x30...0x39, 0xE0...0x17F, 0x400...0x4FF, 0x4E00...0x9FFF, 0x1F600...0x1F64F, 0x10000...0x10FFFF,
        ]
        for _ in 0..<1500 {
            var scalars: [Unicode.Scalar] = []
            for _ in 0..<(1 + fuzz.rng.below(20)) {
                let r = fuzz.rng.pick(ranges)
                if let s = Unicode.Scalar(r.lowerBound + UInt32(fuzz.rng.below(Int(r.upperBound - r.lowerBound) + 1))) {
                    scalars.append(s)
                }
            }
            let text = String(String.UnicodeScalarView(scalars))
            guard let encoded = Punycode.encode(scalars) else { continue }
            if Punycode.decode(encoded) != scalars {
                fuzz.findings.record("decode(encode(x)) != x", input: text, detail: encoded)
            }
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
