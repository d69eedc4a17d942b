import Foundation
import Testing
import TestSupport

/// `plainview record` for real: a real engine runs a checkout served by loopback HTTPS servers standing for the
/// merchant, the PSP and the bank's ACS, under their own host names (`--resolve`), with a test certificate
/// authority (`--ca-file`). The recording becomes a flow that replays alike in the model and both engines.
@Suite(.serialized) struct RecordCLITests {
    static let secrets = ["4111111111111111", "s3ss10n-9f8e7d6c5b4a", "492817"]

    /// A card payment whose 3-D Secure challenge is posted into an iframe: the PSP's session cookie must come back
    /// with the card form, and the ACS checks the one-time code the user typed.
    static let cardCheckout: @Sendable (LoopbackSites.Request) -> LoopbackSites.Answer = {
        let shop = "https://shop.example.com", psp = "https://psp.example.net", acs = "https://acs.bank.example"
        return { r in
            switch (r.host, r.method, r.path) {
            case ("shop.example.com", "GET", "/checkout"):
                return .page("<title>Order 7</title><a href=\"\(psp)/card?order=7\">Pay by card</a>")
            case ("shop.example.com", "GET", "/complete"):
                return .page("<title>Thanks</title><p>Payment complete</p>")
            case ("psp.example.net", "GET", "/card"):
                return .page(
                    """
                    <title>Card</title><form method="post" action="/card/pay">
                    <input name="pan" autocomplete="cc-number" value="4111111111111111">
                    <button type="submit">Pay 100 SEK</button></form>
                    """, [("Set-Cookie", "psp_session=s3ss10n-9f8e7d6c5b4a; Path=/; Secure; HttpOnly")])
            case ("psp.example.net", "POST", "/card/pay"):
                guard r.headers["cookie"]?.contains("psp_session=s3ss10n-9f8e7d6c5b4a") == true,
                    r.form("pan") == "4111111111111111"
                else { return LoopbackSites.Answer(status: 403, body: "<p>Your session was lost</p>") }
                return .redirect("/3ds?tx=T7")
            case ("psp.example.net", "GET", "/3ds"):
                return .page(
                    """
                    <title>Verifying</title><iframe name="challenge" width="390" height="400"></iframe>
                    <form id="creq" target="challenge" method="post" action="\(acs)/challenge">
                    <input type="hidden" name="creq" value="eyJ0eCI6IlQ3In0"></form>
                    <script>document.getElementById("creq").submit();</script>
                    """)
            case ("acs.bank.example", "POST", "/challenge"):
                return .page(
                    """
                    <title>Bank</title><p>Enter the code we sent you</p><form method="post" action="/challenge/verify">
                    <input name="otp" inputmode="numeric" value="492817"><button type="submit">Confirm</button></form>
                    """)
            case ("acs.bank.example", "POST", "/challenge/verify"):
                guard r.form("otp") == "492817" else { return .page("<p>Wrong code</p>") }
                return .page(
                    """
                    <form id="cres" method="post" action="\(psp)/3ds/notify">
                    <input type="hidden" name="cres" value="eyJzdGF0dXMiOiJZIn0"></form>
                    <script>document.getElementById("cres").submit();</script>
                    """)
            case ("psp.example.net", "POST", "/3ds/notify"):
                return .page("<script>window.top.location.href = \"\(psp)/3ds/done?tx=T7\";</script>")
            case ("psp.example.net", "GET", "/3ds/done"):
                return .redirect("\(shop)/complete")
            default:
                return .notFound
            }
        }
    }()

    /// The shop's iOS policy.
    static func policy(in folder: URL) throws -> String {
        let path = folder.appendingPathComponent("policy.yaml").path
        try """
        platform: ios
        paymentUrl: https://shop.example.com/checkout?order=7
        completeUrl: https://shop.example.com/complete
        cancelUrl: https://shop.example.com/cancel
        callbackScheme: shopapp
        redirectPolicy: goodlist
        goodlist:
          - psp.example.net
          - acs.bank.example
        """.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// Every site's name to the loopback server on `port`.
    static func resolve(_ port: Int) -> [String] {
        ["shop.example.com", "psp.example.net", "acs.bank.example", "bank.example"].flatMap {
            ["--resolve", "\($0)=127.0.0.1:\(port)"]
        }
    }

    @Test(arguments: SimulateEngineCLITests.engines)
    func aCardCheckoutWithAChallengeInAnIframeIsRecordedAndReplaysAlike(engine: String) async throws {
        guard SimulateEngineCLITests.present("chromium"), SimulateEngineCLITests.present("webkit") else { return }
        let dir = try Project.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("card").path
        try await LoopbackSites.serve(Self.cardCheckout) { port in
            let policy = try Self.policy(in: dir)
            let r = try await SimulateEngineCLITests.cli(
                [
                    "record", "https://shop.example.com/checkout?order=7", "--engine", engine, "--policy", policy,
                    "--step", "tap: Pay by card", "--step", "tap: Pay 100 SEK", "--step", "tap: Confirm", "--out", out,
                    "--ca-file", LoopbackSites.caFile,
                ] + Self.resolve(port), timeout: 300)
            #expect(r.status == 0, "\(r)")
            #expect(
                r.stdoutLines.first
                    == "recorded https://shop.example.com/checkout?order=7 in \(engine): complete in web view · 9 hops",
                "\(r)")
            #expect(
                r.stdoutLines.contains("replayed: model complete in web view · 9 hops; \(engine) complete in web view · 9 hops"),
                "\(r)")
            let yaml = try String(contentsOfFile: out + "/flow.yaml", encoding: .utf8)
            #expect(yaml.contains("  - tap: \"Pay by card\"\n  - tap: \"Pay 100 SEK\"\n  - tap: \"Confirm\"\n"), "\(yaml)")
            #expect(yaml.contains("expect:\n  outcome: \"complete\""), "\(yaml)")
            #expect(yaml.contains("url: \"https://acs.bank.example/challenge/verify\"\n    method: \"POST\""), "\(yaml)")
            // What was served or typed and is secret (card number, session cookie, one-time code) is in no file.
            for file in try FileManager.default.contentsOfDirectory(atPath: out) {
                let text = try String(contentsOfFile: out + "/" + file, encoding: .utf8)
                for secret in Self.secrets { #expect(!text.contains(secret), "\(file) holds \(secret)") }
            }
            let replay = try await SimulateEngineCLITests.cli(["simulate", "--engine", "compare", out], timeout: 300)
            #expect(replay.status == 0, "\(replay)")
            #expect(
                replay.stdoutLines.filter { $0.hasPrefix("PASS  card  complete in web view · 9 hops") }.count == 3, "\(replay)")
            #expect(replay.stdoutLines.contains("compare: 1 flow, 0 differ (0 differences)"), "\(replay)")
        }
    }

    @Test func aServerWhoseCertificateIsNotTrustedIsNoRecordingAndWritesNothing() async throws {
        guard SimulateEngineCLITests.present("chromium") else { return }
        let dir = try Project.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("card").path
        try await LoopbackSites.serve(Self.cardCheckout) { port in
            let policy = try Self.policy(in: dir)
            let r = try await SimulateEngineCLITests.cli(
                ["record", "https://shop.example.com/checkout?order=7", "--policy", policy, "--out", out]
                    + Self.resolve(port), timeout: 300)
            #expect(r.status == 1, "\(r)")
            #expect(r.stderr.contains("1 page request(s) got no answer from the server; nothing was written"), "\(r)")
            #expect(r.stderr.contains("GET https://shop.example.com/checkout?order=7: TLS"), "\(r)")
            #expect(r.stderr.contains("--ca-file"), "\(r)")
            #expect(!FileManager.default.fileExists(atPath: out))
        }
    }
}
