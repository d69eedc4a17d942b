// Deterministic fuzzing helpers for the test targets: a seeded PRNG, byte-level mutations of seed inputs,
// and a seed corpus drawn from Tests/Vectors/conformance. Same seed → same inputs, so a failure reproduces.
import Foundation

/// SplitMix64: small, fast, and the same sequence on every platform for a given seed.
public struct FuzzRNG: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `0..<n` (0 when n ≤ 0).
    public mutating func below(_ n: Int) -> Int { n <= 0 ? 0 : Int(next() % UInt64(n)) }

    /// True with probability 1/n.
    public mutating func oneIn(_ n: Int) -> Bool { below(n) == 0 }

    public mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }
}

/// Byte-level mutations in the style of libFuzzer's default mutators, plus dictionary insertion.
public struct FuzzMutator: Sendable {
    /// Tokens of JSON's own grammar, for mutating any JSON document (add the format's keys to it).
    public static let jsonSyntax = [
        "{", "}", "[", "]", ",", ":", "\"", "\\", "\\u0000", "\\ud800", "null", "true", "1e999", "-0",
    ]

    /// Tokens spliced in whole (the "dictionary"): delimiters and keywords of the grammar under test.
    public var dictionary: [[UInt8]]

    public init(dictionary: [String]) { self.dictionary = dictionary.map { Array($0.utf8) } }

    /// Bytes that break parsers: delimiters, controls, and the starts of invalid or long UTF-8 sequences.
    public static let interestingBytes: [UInt8] =
        [
            0x00, 0x09, 0x0A, 0x0D, 0x20, 0x7F, 0x80, 0xC0, 0xC3, 0xE2, 0xF0, 0xFF,
        ] + Array("#;=%:/\\@?&.*$()[]{}\",+-_~!'<>|^`0123456789aAzZ".utf8)

    /// One to `maxSteps` random edits of `input`; `other` is a second corpus entry for crossover.
    public func mutate(_ input: [UInt8], other: [UInt8], rng: inout FuzzRNG, maxSteps: Int = 4, maxLength: Int = 4096) -> [UInt8]
    {
        var out = input
        for _ in 0...rng.below(maxSteps) {
            let p = rng.below(out.count + 1)
            switch rng.below(10) {
            case 0 where !out.isEmpty: // flip one bit
                let i = rng.below(out.count)
                out[i] ^= UInt8(1) << UInt8(rng.below(8))
            case 1 where !out.isEmpty: // replace a byte with an interesting one
                out[rng.below(out.count)] = rng.pick(Self.interestingBytes)
            case 2: // insert an interesting byte
                out.insert(rng.pick(Self.interestingBytes), at: p)
            case 3 where !dictionary.isEmpty, 4 where !dictionary.isEmpty: // insert a token
                out.insert(contentsOf: rng.pick(dictionary), at: p)
            case 5 where !out.isEmpty: // delete a run
                let start = rng.below(out.count)
                let n = min(out.count - start, 1 + rng.below(8))
                out.removeSubrange(start..<(start + n))
            case 6 where !out.isEmpty: // duplicate a run
                let start = rng.below(out.count)
                let n = min(out.count - start, 1 + rng.below(16))
                out.insert(contentsOf: out[start..<(start + n)], at: p)
            case 7 where !other.isEmpty: // crossover: our prefix, their suffix
                let cut = rng.below(other.count)
                out = Array(out[..<min(p, out.count)]) + other[cut...]
            case 8: // truncate
                out = Array(out[..<p])
            default: // replace a byte with a random one
                if !out.isEmpty { out[rng.below(out.count)] = UInt8(truncatingIfNeeded: rng.next()) }
            }
        }
        if out.count > maxLength { out.removeLast(out.count - maxLength) }
        return out
    }

    /// `mutate` on text: the result is decoded as UTF-8 (invalid sequences become U+FFFD).
    public func mutate(_ input: String, other: String, rng: inout FuzzRNG, maxSteps: Int = 4) -> String {
        String(decoding: mutate(Array(input.utf8), other: Array(other.utf8), rng: &rng, maxSteps: maxSteps), as: UTF8.self)
    }
}

/// One seeded fuzz loop's state: the generator, a mutator over the grammar's dictionary, and the findings.
public struct FuzzRun {
    public var rng: FuzzRNG
    public let mutator: FuzzMutator
    public var findings = FuzzFindings()

    public init(seed: UInt64, dictionary: [String] = []) {
        rng = FuzzRNG(seed: seed)
        mutator = FuzzMutator(dictionary: dictionary)
    }

    /// A mutant of an entry picked from `corpus`, crossed over with a second pick (libFuzzer's way).
    public mutating func mutant(of corpus: [String], maxSteps: Int = 4) -> String {
        let input = rng.pick(corpus), other = rng.pick(corpus)
        return mutator.mutate(input, other: other, rng: &rng, maxSteps: maxSteps)
    }

    /// `mutant(of:)` as bytes, undecoded (invalid UTF-8 stays invalid).
    public mutating func mutantBytes(of corpus: [String], maxSteps: Int = 4) -> [UInt8] {
        let input = Array(rng.pick(corpus).utf8), other = Array(rng.pick(corpus).utf8)
        return mutator.mutate(input, other: other, rng: &rng, maxSteps: maxSteps)
    }
}

/// Seed inputs gathered from the conformance vectors.
public enum FuzzCorpus {
    /// Every string value (at any depth) of `Tests/Vectors/conformance/NAME.json` for which `keep` is true,
    /// deduplicated, in document order.
    public static func strings(in name: String, where keep: (String) -> Bool = { _ in true }) -> [String] {
        let data = Project.requiredConformance(name)
        guard let root = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) else { return [] }
        var out: [String] = []
        var seen = Set<String>()
        var stack: [Any] = [root]
        while let value = stack.popLast() {
            if let s = value as? String {
                if keep(s), seen.insert(s).inserted { out.append(s) }
            } else if let a = value as? [Any] {
                stack.append(contentsOf: a.reversed())
            } else if let o = value as? [String: Any] {
                for key in o.keys.sorted().reversed() { if let v = o[key] { stack.append(v) } }
            }
        }
        return out
    }

    /// For each case of `Tests/Vectors/conformance/NAME.json` that has every one of `keys`: their values in that
    /// order, strings as they are and anything else as JSON text with sorted keys.
    public static func caseFields(in name: String, _ keys: [String]) -> [[String]] {
        let data = Project.requiredConformance(name)
        guard let root = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let cases = root["cases"] as? [[String: Any]]
        else { return [] }
        return cases.compactMap { c in
            var row: [String] = []
            for key in keys {
                guard let value = c[key] else { return nil }
                if let s = value as? String {
                    row.append(s)
                } else if JSONSerialization.isValidJSONObject(value),
                    let json = try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys])
                {
                    row.append(String(decoding: json, as: UTF8.self))
                } else {
                    return nil
                }
            }
            return row
        }
    }

    /// The JSON text of every object found under `key` in `cases[]` of `Tests/Vectors/conformance/NAME.json`
    /// (e.g. the AASA documents), with sorted keys so the corpus is stable.
    public static func jsonObjects(in name: String, key: String) -> [String] {
        let data = Project.requiredConformance(name)
        guard let root = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let cases = root["cases"] as? [[String: Any]]
        else { return [] }
        var out: [String] = []
        var seen = Set<String>()
        for c in cases {
            guard let value = c[key], JSONSerialization.isValidJSONObject(value),
                let json = try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys]),
                let text = String(data: json, encoding: .utf8), seen.insert(text).inserted
            else { continue }
            out.append(text)
        }
        return out
    }
}
