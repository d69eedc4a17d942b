import Foundation
import Testing
import TestSupport
@testable import FlowImport

/// Issue 34: the hand-written matchers that stand in for the detectors' regular expressions on ASCII text must
/// find exactly what the expressions find: the same matches, groups and order.
@Suite struct ASCIIScannerTests {
    /// Each matcher with its expression and the pieces random texts are built from (the characters and words
    /// that decide its matches: separators, lengths near its limits, what its look-arounds test).
    static let cases: [(name: String, regex: RegexBox, scan: @Sendable ([UInt8]) -> [ScanMatch], pieces: [String])] = [
        (
            "pairs", Redactor.pairs, ASCIIScanners.pairs,
            [
                "a", "token", "x_y", "[0]", ".", "-", "=", "==", "?", "&", ";", "#", "\"", "'", "(", ",", "{", " ", "\t",
                "\u{0B}", "\n", "<", ">", "/", ":", "%", "@", "9", String(repeating: "n", count: 79), "b",
            ]
        ),
        (
            "emails", Detectors.email, ASCIIScanners.emails,
            [
                "a", "Z", "0", ".", "_", "+", "-", "@", "com", "se", "x", "example", "..", " ", "'", "<", "1",
                String(repeating: "l", count: 62), String(repeating: "p", count: 23), "mail.", "-x", "/", "user@", "@b.",
                "@mail.example.", "a@b.se", "x.y+z@d-1.co", "@", "@",
            ]
        ),
        (
            "cardRuns", Detectors.cardRun, ASCIIScanners.cardRuns,
            [
                "4111", "1", "0", "12", "5", " ", "\t", ".", ",", "-", "+", "_", "/", "x", "  ", "4111 1111 1111 1111",
                "378282246310005", "99", ".5", ",7",
            ]
        ),
        (
            "assignments", Redactor.assignments, ASCIIScanners.assignments,
            [
                "a", "tok", "$x", "_", "obj.k", "-", "9", ":", "=", " ", "\t", "\n", "\"", "'", "\\", "v", "val ue",
                String(repeating: "n", count: 78), "x", ";", "{", String(repeating: "w", count: 300), "ä", "k=\"", "= '",
                ": \"v", "\" : \"", "'", "\"", "id = 'x'", "k:\"\"",
            ]
        ),
        (
            "personalNumbers", Detectors.personalNumberRun, ASCIIScanners.personalNumbers,
            [
                "19", "20", "800101", "1234", "12345", "-", "+", " ", "A", "U", "Y", "Z", "DK", "dk", "x", "8", "9",
                "12345678", "0", "1234567", "556000-4615", "811218-9876", "131052-308T", "923 609 016", "DK 13585628",
            ]
        ),
        (
            "tags", Redactor.tags, ASCIIScanners.tags,
            [
                "<", ">", "a", "div", "-", " ", "\n", "\t", "x=1", "'", "\"", "b2", "<input ", "/>",
                String(repeating: "z", count: 9000),
            ]
        ),
        (
            "attributes", Redactor.attributes, ASCIIScanners.attributes,
            [
                "a", "data-x", ":", "_", "=", " ", "\"", "'", "`", ">", "v", "1", "\n", "x", ".", "name", "=\"", "='",
                "value=\"abc\"", "<", "\t",
            ]
        ),
    ]

    static func regexMatches(_ regex: RegexBox, _ text: String) -> [ScanMatch] {
        regex.matches(in: text).map(ScanMatch.init)
    }

    @Test(arguments: 0..<7)
    func matchesWhatTheExpressionMatches(_ index: Int) {
        let c = Self.cases[index]
        var rng = FuzzRNG(seed: 34 + UInt64(index))
        var differences = 0, withMatches = 0
        for round in 0..<4000 {
            var text = ""
            for _ in 0..<(1 + rng.below(round < 2000 ? 12 : 40)) { text += rng.pick(c.pieces) }
            // The matchers are for ASCII text only (the expressions take the rest).
            guard text.utf8.allSatisfy({ $0 < 0x80 }) else { continue }
            let want = Self.regexMatches(c.regex, text)
            let got = c.scan(Array(text.utf8))
            if !want.isEmpty { withMatches += 1 }
            if want != got {
                differences += 1
                if differences <= 3 { Issue.record("\(c.name) on \(text.debugDescription): \(got) ≠ expression \(want)") }
            }
        }
        #expect(differences == 0)
        // The texts are built so the expression finds something in many of them.
        #expect(withMatches >= 400, "\(c.name): only \(withMatches) texts with a match")
    }

    /// Limits and look-arounds written out: each is found (or not) as the expression finds it.
    @Test func limitsAndLookArounds() {
        let texts = [
            "4111 1111 1111 1111", "4111 1111 1111 1111 2", "1.4111111111111111", "4111111111111111.5",
            "41111111111111111111111", "a@b.co.x", "a@b..com", "x@y.comm1", "a@b@c.com",
            String(repeating: "a", count: 65) + "@b.se",
            "t=1&u=2", "a=b=c", String(repeating: "n", count: 81) + "=v", "(k=v)", "x:k=v", "name = \"v\"",
            "k: 'a\"b'", "k=\"\"", String(repeating: "n", count: 90) + "=\"v\"", "a\u{0B}=\u{0B}'v'",
        ]
        for text in texts {
            for c in Self.cases {
                #expect(c.scan(Array(text.utf8)) == Self.regexMatches(c.regex, text), "\(c.name) on \(text.debugDescription)")
            }
        }
    }
}
