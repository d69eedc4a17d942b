import Foundation
import PlainviewConfig
import Testing
import TestSupport
@testable import FlowImport
@testable import FlowSimulator


/// Generated recordings (seeded): a chain of pages with secrets planted in random spellings, in URLs, page
/// text, inline scripts and forms. Whatever the spelling, no planted secret reaches the written files, and the
/// imported flow reaches the same outcome as the unredacted recording.
@Suite struct ImportPropertyTests {
    struct Secret {
        /// What must never appear, in the decoded text with separators removed (digits) or as is (others).
        var canonical: String
        var isDigits: Bool
        /// Spellings fit for a URL's query (what a browser sends) and for any page text.
        var urlSpellings: [String]
        var textSpellings: [String]
    }

    static func percentAll(_ s: String) -> String { s.utf8.map { String(format: "%%%02X", $0) }.joined() }
    static func htmlAll(_ s: String) -> String { s.unicodeScalars.map { "&#\($0.value);" }.joined() }
    static func jsAll(_ s: String) -> String { s.unicodeScalars.map { String(format: "\\u%04x", $0.value) }.joined() }

    static func card(_ rng: inout FuzzRNG) -> Secret {
        let d = rng.pick(["4111111111111111", "5555555555554444", "4012888888881881", "6011111111111117", "5105105105105100"])
        let groups = stride(from: 0, to: 16, by: 4).map { String(Array(d)[$0..<($0 + 4)]) }
        return Secret(
            canonical: d, isDigits: true,
            urlSpellings: [
                d, groups.joined(separator: "%20"), groups.joined(separator: "-"), groups.joined(separator: "."),
                percentAll(groups.joined(separator: " ")),
            ],
            textSpellings: [
                groups.joined(separator: " "), groups.joined(separator: "&nbsp;"),
                groups.joined(separator: "\u{A0}"), htmlAll(d), jsAll(groups.joined(separator: " ")),
            ])
    }

    /// A valid Swedish personnummer: a date, three digits, the Luhn digit.
    static func personalNumber(_ rng: inout FuzzRNG) -> Secret {
        let nine = String(format: "%02d%02d%02d%03d", 40 + rng.below(60), 1 + rng.below(12), 1 + rng.below(28), rng.below(1000))
        let digits = nine.compactMap(\.wholeNumberValue)
        let check = (0...9).first { Detectors.luhnValid(digits + [$0]) }!
        let ten = nine + String(check)
        let dashed = String(ten.prefix(6)) + "-" + ten.suffix(4)
        return Secret(
            canonical: ten, isDigits: true,
            urlSpellings: [ten, String(ten.prefix(6)) + "%2D" + ten.suffix(4), "19" + ten, percentAll(dashed)],
            textSpellings: [dashed, String(ten.prefix(6)) + " " + ten.suffix(4), "SE19" + ten, htmlAll(dashed), jsAll(dashed)])
    }

    static func email(_ rng: inout FuzzRNG) -> Secret {
        let local = rng.pick(["anna", "erik", "sven.k", "lisa_m"]) + String(rng.below(10000))
        let mail = "\(local)@\(rng.pick(["example.se", "mail.example.no", "post.example.fi"]))"
        return Secret(
            canonical: mail, isDigits: false,
            urlSpellings: [mail.replacingOccurrences(of: "@", with: "%40"), percentAll(mail)],
            textSpellings: [
                mail, mail.replacingOccurrences(of: "@", with: "&#64;"),
                mail.replacingOccurrences(of: "@", with: "\\u0040"), htmlAll(mail), jsAll(mail),
            ])
    }

    static func jwt(_ rng: inout FuzzRNG) -> Secret {
        func b64(_ s: String) -> String {
            Data(s.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
                .replacingOccurrences(of: "=", with: "")
        }
        let payload = b64("{\"sub\":\"user-\(rng.next() % 1_000_000)\",\"n\":\(rng.next() % 1000)}")
        let token = b64("{\"alg\":\"HS256\"}") + "." + payload + "." + b64("sig-\(rng.next())")
        return Secret(
            canonical: payload, isDigits: false, urlSpellings: [token],
            textSpellings: [token, "Bearer " + token, token.replacingOccurrences(of: ".", with: "\\u002e")])
    }

    static func session(_ rng: inout FuzzRNG) -> Secret {
        let alphabet = Array("ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789")
        let value = String((0..<24).map { _ in rng.pick(alphabet) })
        return Secret(
            canonical: value, isDigits: false, urlSpellings: ["session=" + value],
            textSpellings: ["document.cookie = \"sessionid=\(value); path=/\"", "var authToken = '\(value)';"])
    }

    enum Ending: CaseIterable { case complete, cancel, stuck }

    /// A recording: the payment URL redirects to the PSP; each PSP page shows secrets and refreshes to the next
    /// (its URL carrying a secret); the last one redirects to complete or cancel, or just stops (stuck).
    static func recording(seed: UInt64) -> (har: Data, secrets: [Secret], ending: Ending) {
        var rng = FuzzRNG(seed: seed)
        var secrets: [Secret] = []
        func plant(_ rng: inout FuzzRNG) -> Secret {
            let s: Secret
            switch rng.below(5) {
            case 0: s = card(&rng)
            case 1: s = personalNumber(&rng)
            case 2: s = email(&rng)
            case 3: s = jwt(&rng)
            default: s = session(&rng)
            }
            secrets.append(s)
            return s
        }
        func entry(_ method: String, _ url: String, _ status: Int, _ headers: [[String: String]], _ body: String) -> [String: Any]
        {
            [
                "_resourceType": "document", "startedDateTime": "2026-11-20T10:00:00.000Z",
                "request": [
                    "method": method, "url": url, "httpVersion": "h2", "headers": [[String: String]](), "queryString": [Any](),
                    "cookies": [Any](),
                ],
                "response": [
                    "status": status, "statusText": "", "httpVersion": "h2", "headers": headers, "cookies": [Any](),
                    "content": ["size": body.utf8.count, "mimeType": "text/html", "text": body], "redirectURL": "",
                ],
                "cache": [String: Any](), "timings": [String: Any](),
            ]
        }
        let hops = 1 + rng.below(4)
        func pageURL(_ i: Int, _ rng: inout FuzzRNG) -> String {
            let s = plant(&rng)
            let q = rng.pick(s.urlSpellings)
            return "https://psp.example.net/checkout/s\(i)?" + (q.contains("=") ? q : "ref=" + q)
        }
        var urls = (0..<hops).map { pageURL($0, &rng) }
        let ending = Ending.allCases[rng.below(3)]
        var entries: [[String: Any]] = [
            entry("GET", "https://shop.example.com/pay?order=42", 302, [["name": "Location", "value": urls[0]]], "")
        ]
        for i in 0..<hops {
            var body = "<!doctype html><title>Step \(i)</title>"
            for _ in 0..<(1 + rng.below(3)) {
                let s = plant(&rng)
                let spelling = rng.pick(s.textSpellings)
                body += rng.oneIn(2) ? "<p>\(spelling)</p>" : "<script>var v = \"\(spelling)\";</script>"
            }
            if rng.oneIn(3) {
                let s = plant(&rng)
                body += "<form><input type=\"hidden\" name=\"PaReq\" value=\"\(rng.pick(s.textSpellings))\"></form>"
            }
            var headers = [["name": "Content-Type", "value": "text/html"]]
            if i + 1 < hops {
                body +=
                    "<meta http-equiv=\"refresh\" content=\"0;url=\(urls[i + 1].replacingOccurrences(of: "&", with: "&amp;"))\">"
            } else if ending != .stuck {
                // The policy's completeUrl and cancelUrl as they are: the flow ends where they match.
                urls.append(ending == .complete ? "https://shop.example.com/complete" : "https://shop.example.com/cancel")
                headers = [["name": "Location", "value": urls[hops]]]
                body = ""
            }
            entries.append(entry("GET", urls[i], headers.first?["name"] == "Location" ? 302 : 200, headers, body))
        }
        if ending != .stuck {
            entries.append(entry("GET", urls[hops], 200, [["name": "Content-Type", "value": "text/html"]], "<p>Done</p>"))
        }
        let log: [String: Any] = [
            "log": [
                "version": "1.2", "creator": ["name": "ImportPropertyTests", "version": "1"], "pages": [Any](),
                "entries": entries,
            ]
        ]
        return (try! JSONSerialization.data(withJSONObject: log), secrets, ending)
    }

    static let policy = Project.path("Tests/FlowImportTests/Fixtures/har/policy-ios.yaml").path

    @Test(arguments: 0..<24)
    func plantedSecretsNeverLeakAndTheFlowReplaysTheSame(seed: Int) throws {
        let (har, secrets, ending) = Self.recording(seed: UInt64(seed))
        let dir = try Project.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("r\(seed).har")
        try har.write(to: path)
        if let keep = ProcessInfo.processInfo.environment["PLAINVIEW_KEEP_HAR"] {
            try? har.write(to: URL(fileURLWithPath: "\(keep)/r\(seed).har"))
        }

        // What import writes: nothing planted survives, in any spelling.
        var redaction = RedactionConfig.default
        redaction.keepQueryValues(ofURLsIn: try String(contentsOfFile: Self.policy, encoding: .utf8))
        let writer = HARFlowWriter.Options(name: "r\(seed)", source: path.path, policyPath: Self.policy, expect: "complete")
        let folder = dir.appendingPathComponent("flow")
        _ = try HARImport.run(
            har: path, name: path.path, to: folder, force: false, options: .init(redaction: redaction, writer: writer))
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
            let decoded = DecodedText(String(decoding: try Data(contentsOf: folder.appendingPathComponent(name)), as: UTF8.self))
                .string
            // As the secrets corpus test reads a file: every layer decoded, and with separators removed.
            let joined = String(decoded.unicodeScalars.filter { !" \u{A0}.-+".unicodeScalars.contains($0) }.map(Character.init))
                .uppercased()
            for s in secrets {
                let leaked = s.isDigits ? joined.contains(s.canonical) : decoded.lowercased().contains(s.canonical.lowercased())
                #expect(!leaked, "seed \(seed): \(s.canonical) leaked in \(name)")
            }
        }

        // The imported flow and the unredacted recording end the same way, and that way is the recorded one.
        let raw = try LoadedFlows.replay(path.path, name: "raw", options: HARReplayOptions(policy: Self.policy, redaction: nil)).0
        let imported = try FlowLoader.load(file: folder.appendingPathComponent("flow.yaml").path)
        let expected: Outcome.Kind =
            switch ending {
            case .complete: .complete
            case .cancel: .canceled
            case .stuck: .stuck
            }
        let rawOutcome = Simulator.run(raw).branches[0].outcome.kind
        let importedOutcome = Simulator.run(imported).branches[0].outcome.kind
        #expect(rawOutcome == expected, "seed \(seed)")
        #expect(importedOutcome == rawOutcome, "seed \(seed): \(Simulator.run(imported).branches[0].outcome)")
    }
}
