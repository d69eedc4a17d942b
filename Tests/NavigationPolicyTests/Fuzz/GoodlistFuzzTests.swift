@testable import AppSwitch
@testable import PlainviewURL
import Foundation
import Testing
import TestSupport
@testable import NavigationPolicy

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
                if error.message.isEmpty || error.file != "fuzz.goodlist" || error.line == nil {
                    fuzz.findings.record("file error without line or message", input: text)
                }
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
        let patterns = [
            "**.payex.com", "*.3dsecure.no", "acs1.luottokunta.fi", "bücher.example", "*.xn--bcher-kva.example", "a.b",
        ]
        for _ in 0..<1500 {
            let text = fuzz.mutant(of: patterns, maxSteps: 2)
            let pattern: HostPattern
            do {
                pattern = try HostPattern(text)
            } catch {
                if error.description.isEmpty || error.detail.isEmpty {
                    fuzz.findings.record("pattern error without detail", input: text)
                }
                continue
            }
            guard let again = try? HostPattern(pattern.description), again == pattern else {
                fuzz.findings.record("description does not parse back to the pattern", input: text, detail: pattern.description)
                continue
            }
            if !pattern.matches(normalizedHost: pattern.base) {
                fuzz.findings.record("a pattern does not admit its base", input: text)
            }
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
            findings.record(
                "trie and patterns disagree", input: host, detail: "trie \(String(describing: viaTrie)), patterns \(viaPatterns)")
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
        [
            "evil\(base)", "\(base).evil.example", "\(base)@evil.example", "evil.example@\(base)", "evil.example\\\(base)",
            "evil.example/\(base)", "\(base):443", "\(base)%2Eevil.example", " \(base)", "\(base)\t", "evil.example#\(base)",
        ]
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
