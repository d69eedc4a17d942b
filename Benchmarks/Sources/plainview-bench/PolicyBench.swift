// Policy decisions per second, the goodlist-size ratio, and the ratio to Foundation's URL parse.
import PlainviewURL
import Foundation
import NavigationPolicy

enum PolicyBench {
    static func engine(goodlistSize: Int) -> NavigationPolicyEngine {
        let entries = Corpus.goodlistPatterns(count: goodlistSize).map { GoodlistEntry(pattern: $0) }
        let policy = Policy(
            platform: .ios, paymentURL: Corpus.paymentURL, completeURL: Corpus.completeURL,
            cancelURL: Corpus.cancelURL, callbackScheme: "shopapp", goodlist: Goodlist(entries: entries))
        return NavigationPolicyEngine(policy: policy)
    }

    static func decisionsPerSecond(_ engine: NavigationPolicyEngine, _ navigations: [Navigation], seconds: Double) -> Double {
        Measure.cpuRate(seconds: seconds) {
            var acc = 0
            for n in navigations { acc &+= engine.decide(n).rule.rawValue.utf8.count }
            consume(acc)
            return navigations.count
        }
    }

    static func run(seconds: Double) -> [Metric] {
        let urls = Corpus.urlMix(count: 4096)
        let navigations = urls.map {
            Navigation(url: $0, currentURL: "https://acs.3dsecure.no/3ds/challenge", frame: .main, trigger: .link)
        }
        let small = engine(goodlistSize: 12)
        let large = engine(goodlistSize: 100_000)
        let rate12 = decisionsPerSecond(small, navigations, seconds: seconds)
        let rate100k = decisionsPerSecond(large, navigations, seconds: seconds)
        let parseRate = Measure.cpuRate(seconds: seconds) {
            var acc = 0
            for u in urls { acc &+= URL(string: u)?.host?.utf8.count ?? 0 }
            consume(acc)
            return urls.count
        }
        let sizeRatio = rate12 / rate100k // time per decision at 100k ÷ at 12
        let parseRatio = parseRate / rate12 // time per decision ÷ time per Foundation parse
        return [
            Metric(
                name: "policy.decisions_per_s.goodlist12", value: rate12, unit: "1/s",
                target: ">= 500000", pass: rate12 >= 500_000,
                note: "one thread (thread CPU time), typical URL mix of 4096 navigations"),
            Metric(
                name: "policy.decision_time.goodlist100k_over_12", value: 1e9 / rate100k, unit: "ns",
                baseline: 1e9 / rate12, ratio: sizeRatio, target: "<= 1.5", pass: sizeRatio <= 1.5),
            Metric(
                name: "policy.decision_time_over_foundation_url_parse", value: 1e9 / rate12, unit: "ns",
                baseline: 1e9 / parseRate, ratio: parseRatio, target: "<= 4", pass: parseRatio <= 4,
                note: "baseline: Foundation URL(string:) of the same strings"),
        ]
    }
}

enum GoodlistBench {
    static func run(seconds: Double) -> [Metric] {
        var out: [Metric] = []
        // Each size looks up 2048 hosts: the same 1024 hosts of the typical URL mix (mostly not listed), and
        // 1024 hosts admitted by entries of that list (so every size does the work of a real match).
        let mixHosts: [String] = Corpus.urlMix(count: 1024).compactMap { WebURL($0)?.comparableHost }
        var rate12 = 0.0
        var entryRate12 = 0.0
        for size in [12, 10_000, 100_000] {
            let patterns = Corpus.goodlistPatterns(count: size)
            let list = Goodlist(entries: patterns.map { GoodlistEntry(pattern: $0) })
            var rng = SeededRandom(seed: Corpus.seed &+ 7)
            var hosts = mixHosts
            while hosts.count < 2048 {
                let p = rng.pick(patterns)
                let bare = p.replacingOccurrences(of: "**.", with: "").replacingOccurrences(of: "*.", with: "")
                hosts.append(p.hasPrefix("*") ? "acs.\(bare)" : bare)
            }
            /// Lookups per second of all `hosts`, `admits` telling whether a host was admitted.
            func lookupRate(_ admits: (String) -> Bool) -> Double {
                Measure.cpuRate(seconds: seconds) {
                    var acc = 0
                    for h in hosts where admits(h) { acc &+= 1 }
                    consume(acc)
                    return hosts.count
                }
            }
            // The matcher: which entry admits the host (its index), as `allows(host:)` and the engine's lookup do.
            let rate = lookupRate { list.matchIndex(host: $0) != nil }
            if size == 12 { rate12 = rate }
            out.append(
                Metric(
                    name: "goodlist.matches_per_s.entries\(size)", value: rate, unit: "1/s",
                    baseline: size == 12 ? nil : rate12, ratio: size == 12 ? nil : rate12 / rate,
                    target: size == 100_000 ? "ratio <= 1.5" : nil,
                    pass: size == 100_000 ? rate12 / rate <= 1.5 : nil,
                    note: "host → matching entry index; ratio = time per match ÷ time per match at 12 entries"))
            // The same lookups returning the entry itself (pattern, file:line, provenance): one more random
            // access into the entries and a retain of their strings. Reported, not a target.
            let entryRate = lookupRate { list.match(host: $0) != nil }
            if size == 12 { entryRate12 = entryRate }
            if size == 100_000 {
                out.append(
                    Metric(
                        name: "goodlist.entry_lookups_per_s.entries100000", value: entryRate, unit: "1/s",
                        baseline: entryRate12, ratio: entryRate12 / entryRate,
                        note: "match(host:) returning the GoodlistEntry; ratio against the same at 12 entries"))
            }
        }
        return out
    }
}
