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
    /// Version 2 changed: the card form's redirect goes to a new 3-D Secure page, which also posts a 3DS Method form
    /// to the bank's own host in a hidden frame.
    static func cardCheckout(version: Int = 1) -> @Sendable (LoopbackSites.Request) -> LoopbackSites.Answer {
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
                    <input name="pan" autocomplete="cc-number">
                    <button type="submit">Pay 100 SEK</button></form>
                    """, [("Set-Cookie", "psp_session=s3ss10n-9f8e7d6c5b4a; Path=/; Secure; HttpOnly")])
            case ("psp.example.net", "POST", "/card/pay"):
                guard r.headers["cookie"]?.contains("psp_session=s3ss10n-9f8e7d6c5b4a") == true,
                    r.form("pan") == "4111111111111111"
                else { return LoopbackSites.Answer(status: 403, body: "<p>Your session was lost</p>") }
                return .redirect(version == 1 ? "/3ds?tx=T7" : "/3ds/v2?tx=T7")
            case ("bank.example", "POST", "/3ds-method"):
                return .page("<p>ok</p>")
            case ("psp.example.net", "GET", "/3ds"), ("psp.example.net", "GET", "/3ds/v2"):
                let method =
                    version == 1
                    ? ""
                    : """
                    <iframe name="method" style="display:none"></iframe><form id="m" target="method" method="post" \
                    action="https://bank.example/3ds-method"><input type="hidden" name="threeDSMethodData" value="e30"></form>
                    <script>document.getElementById("m").submit();</script>
                    """
                return .page(
                    method
                        + """
                        <title>Verifying</title><iframe name="challenge" width="390" height="400"></iframe>
                        <form id="creq" target="challenge" method="post" action="\(acs)/challenge">
                        <input type="hidden" name="creq" value="eyJ0eCI6IlQ3In0"></form>
                        <script>document.getElementById("creq").submit();</script>
                        """)
            case ("acs.bank.example", "POST", "/challenge"):
                return .page(
                    """
                    <title>Bank</title><p>Enter the code we sent you</p><form method="post" action="/challenge/verify">
                    <input name="otp" inputmode="numeric"><button type="submit">Confirm</button></form>
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
    }

    /// What the user does in the card checkout: types the card number and the one-time code, taps on.
    static let cardSteps = [
        "tap: Pay by card", "type: {field: pan, text: '4111111111111111'}", "tap: Pay 100 SEK",
        "type: {field: otp, text: '492817'}", "tap: Confirm",
    ].flatMap { ["--step", $0] }

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
        try await LoopbackSites.serve(Self.cardCheckout()) { port in
            let policy = try Self.policy(in: dir)
            let r = try await SimulateEngineCLITests.cli(
                [
                    "record", "https://shop.example.com/checkout?order=7", "--engine", engine, "--policy", policy,
                    "--out", out,
                    "--ca-file", LoopbackSites.caFile,
                ] + Self.cardSteps + Self.resolve(port), timeout: 300)
            #expect(r.status == 0, "\(r)")
            #expect(
                r.stdoutLines.first
                    == "recorded https://shop.example.com/checkout?order=7 in \(engine): complete in web view · 9 hops",
                "\(r)")
            #expect(
                r.stdoutLines.contains("replayed: model complete in web view · 9 hops; \(engine) complete in web view · 9 hops"),
                "\(r)")
            let yaml = try String(contentsOfFile: out + "/flow.yaml", encoding: .utf8)
            // The steps as given, what was typed redacted as the form posts were.
            #expect(
                yaml.contains(
                    """
                      - tap: "Pay by card"
                      - type: {field: "pan", text: "REDACTED-CARD-1"}
                      - tap: "Pay 100 SEK"
                      - type: {field: "otp", text: "REDACTED-TOKEN-
                    """), "\(yaml)")
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
        try await LoopbackSites.serve(Self.cardCheckout()) { port in
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

    /// Android: the bank app returns by opening paymentUrl, which Chrome opens; the payment-url helper's page there
    /// sends an intent: URL back to the app, which reloads the payment page (Pages/04-android-return-page, live).
    /// The server tells the web view (`wv` in the User-Agent) from Chrome, and counts the web view's loads.
    static func androidIntentReturn() -> @Sendable (LoopbackSites.Request) -> LoopbackSites.Answer {
        let loads = LoopbackSites.Counter()
        let payment = "/swedbank-pay-mobile/sdk-callback/android-intent"
        let paymentURL = "https://shop.example.com\(payment)?package=com.example.shop&id=7f3e9a"
        let intent =
            "intent://shop.example.com\(payment)?package=com.example.shop&amp;id=7f3e9a#Intent;scheme=https;action=com.swedbankpay.mobilesdk.VIEW_PAYMENTORDER;package=com.example.shop;end;"
        return { r in
            switch (r.host, r.path) {
            case ("shop.example.com", payment):
                guard r.headers["user-agent"]?.contains("; wv)") == true else {
                    return .page(
                        "<meta http-equiv=\"refresh\" content=\"0;url=\(intent)\"><p><a href=\"\(intent)\">Back to app</a></p>")
                }
                if loads.next() == 1 {
                    let back = paymentURL.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
                    return .page(
                        "<title>Checkout</title><a href=\"intent://authorize?ref=88f1&amp;return=\(back)#Intent;scheme=bankapp;package=com.bank.example;end\">Pay with the Bank app</a>"
                    )
                }
                return .page(
                    "<title>Paid</title><script>window.location.href = \"https://shop.example.com/payment-completed\";</script>")
            default:
                return .notFound
            }
        }
    }

    /// iOS: the PSP's page opens BankID, which returns to the app's universal link (its paymentUrl); the app
    /// reloads the payment page, which is paid now.
    static func iOSBankID() -> @Sendable (LoopbackSites.Request) -> LoopbackSites.Answer {
        let loads = LoopbackSites.Counter()
        return { r in
            switch (r.host, r.path) {
            case ("shop.example.com", "/pay"):
                if loads.next() == 1 {
                    return .page("<title>Checkout</title><a href=\"https://psp.example.net/bankid?tx=B1\">Pay with BankID</a>")
                }
                return .page(
                    "<title>Paid</title><script>window.location.href = \"https://shop.example.com/payment-completed\";</script>")
            case ("psp.example.net", "/bankid"):
                let back =
                    "https://shop.example.com/pay?order=9".addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
                return .page(
                    "<title>BankID</title><a href=\"bankid:///?autostarttoken=7c40b5c9-fa74-49cf-b98c-bfe651f9a7c6&amp;redirect=\(back)\">Open BankID</a>"
                )
            default:
                return .notFound
            }
        }
    }

    static func write(_ text: String, _ name: String, in folder: URL) throws -> String {
        let path = folder.appendingPathComponent(name).path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test(arguments: SimulateEngineCLITests.engines)
    func appSwitchesAreRecordedAndReplayAlike(engine: String) async throws {
        guard SimulateEngineCLITests.present("chromium"), SimulateEngineCLITests.present("webkit") else { return }
        let dir = try Project.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let androidPolicy = try Self.write(
            """
            platform: android
            paymentUrl: https://shop.example.com/swedbank-pay-mobile/sdk-callback/android-intent?package=com.example.shop&id=7f3e9a
            completeUrl: https://shop.example.com/payment-completed
            cancelUrl: https://shop.example.com/payment-canceled
            redirectPolicy: webview
            """, "android-policy.yaml", in: dir)
        let androidEnv = try Self.write(
            """
            apps:
              - name: Shop
                package: com.example.shop
                behaviour: {host: true}
              - name: Bank
                package: com.bank.example
                schemes: [bankapp]
                behaviour: {then: complete, returnTo: {queryParameter: return}}
            """, "android-env.yaml", in: dir)
        let iosPolicy = try Self.write(
            """
            platform: ios
            paymentUrl: https://shop.example.com/pay?order=9
            completeUrl: https://shop.example.com/payment-completed
            cancelUrl: https://shop.example.com/payment-canceled
            callbackScheme: shopapp
            redirectPolicy: goodlist
            goodlist: [psp.example.net]
            """, "ios-policy.yaml", in: dir)
        let iosEnv = try Self.write(
            """
            apps:
              - name: Shop
                schemes: [shopapp]
                universalLinks: [{host: shop.example.com, paths: ["/pay*"]}]
                behaviour: {host: true}
              - name: BankID
                behaviour: {model: bankid}
            """, "ios-env.yaml", in: dir)
        let cases:
            [(
                name: String, handler: @Sendable (LoopbackSites.Request) -> LoopbackSites.Answer, url: String,
                policy: String, env: String, steps: [String], hops: Int, apps: String
            )] = [
                (
                    "android-intent-return", Self.androidIntentReturn(),
                    "https://shop.example.com/swedbank-pay-mobile/sdk-callback/android-intent?package=com.example.shop&id=7f3e9a",
                    androidPolicy, androidEnv, ["tap: Pay with the Bank app"], 7, "Bank, Shop"
                ),
                (
                    "ios-bankid", Self.iOSBankID(), "https://shop.example.com/pay?order=9", iosPolicy, iosEnv,
                    ["tap: Pay with BankID", "tap: Open BankID"], 6, "BankID, Shop"
                ),
            ]
        for c in cases {
            let out = dir.appendingPathComponent(c.name).path
            try await LoopbackSites.serve(c.handler) { port in
                let r = try await SimulateEngineCLITests.cli(
                    [
                        "record", c.url, "--engine", engine, "--policy", c.policy, "--env", c.env, "--out", out, "--ca-file",
                        LoopbackSites.caFile,
                    ]
                        + c.steps.flatMap { ["--step", $0] } + Self.resolve(port), timeout: 300)
                #expect(r.status == 0, "\(r)")
                #expect(r.stdoutLines.first == "recorded \(c.url) in \(engine): complete in web view · \(c.hops) hops", "\(r)")
                let yaml = try String(contentsOfFile: out + "/flow.yaml", encoding: .utf8)
                #expect(yaml.contains("expect:\n  outcome: \"complete\""), "\(yaml)")
                if c.name == "android-intent-return" {
                    // The same URL answered the web view twice (menu, then paid) and Chrome once (the intent page).
                    #expect(yaml.contains("    in: \"browser\"\n"), "\(yaml)")
                    #expect(yaml.contains("recorded 2 times; served in order"), "\(yaml)")
                } else {
                    // BankID's token is redacted to a placeholder BankID still accepts.
                    #expect(yaml.contains("REDACTED") || !yaml.contains("7c40b5c9"), "\(yaml)")
                }
                let replay = try await SimulateEngineCLITests.cli(["simulate", "--engine", "compare", out], timeout: 300)
                #expect(replay.status == 0, "\(replay)")
                let line = "PASS  \(c.name)  complete in web view · \(c.hops) hops · apps: \(c.apps)"
                #expect(replay.stdoutLines.filter { $0 == line }.count == 3, "\(replay)")
                #expect(replay.stdoutLines.contains("compare: 1 flow, 0 differ (0 differences)"), "\(replay)")
            }
        }
    }

    /// Re-recording a checkout whose PSP changed, against the committed flow, lists what changed and exits 1; the
    /// same checkout unchanged shows no drift.
    @Test func aChangedCheckoutShowsAsDrift() async throws {
        guard SimulateEngineCLITests.present("chromium") else { return }
        let dir = try Project.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let committed = dir.appendingPathComponent("card").path
        let policy = try Self.policy(in: dir)
        func record(_ version: Int, _ extra: [String]) async throws -> CLIResult {
            try await LoopbackSites.serve(Self.cardCheckout(version: version)) { port in
                try await SimulateEngineCLITests.cli(
                    [
                        "record", "https://shop.example.com/checkout?order=7", "--policy", policy, "--ca-file",
                        LoopbackSites.caFile,
                    ] + Self.cardSteps + extra + Self.resolve(port), timeout: 300)
            }
        }
        let first = try await record(1, ["--out", committed])
        #expect(first.status == 0, "\(first)")
        let same = try await record(1, ["--diff", committed])
        #expect(same.status == 0, "\(same)")
        #expect(same.stdoutLines.last == "no drift against \(committed)", "\(same)")
        let changed = try await record(2, ["--diff", committed])
        #expect(changed.status == 1, "\(changed)")
        let drift = Array(changed.stdoutLines.drop { !$0.hasPrefix("drift against ") })
        #expect(
            drift == [
                "drift against \(committed): 5 change(s)",
                "  new host: bank.example (POST https://bank.example/3ds-method)",
                "  new page: GET https://psp.example.net/3ds/v2",
                "  new page: POST https://bank.example/3ds-method",
                "  gone page: GET https://psp.example.net/3ds",
                "  redirect: POST https://psp.example.net/card/pay: to https://psp.example.net/3ds → to https://psp.example.net/3ds/v2",
            ], "\(changed)")
        // Nothing was written by a --diff run without --out.
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() == ["card", "policy.yaml"])
    }

    /// A page in a coding the recorder cannot decode (it asks for gzip or deflate) is no answer, not bytes kept as a
    /// page: nothing is written, and the message names the coding.
    @Test func aPageInACodingTheRecorderCannotDecodeIsNoAnswer() async throws {
        guard SimulateEngineCLITests.present("chromium") else { return }
        let dir = try Project.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("br").path
        let policy = try Self.policy(in: dir)
        try await LoopbackSites.serve({ _ in
            LoopbackSites.Answer(headers: [("Content-Type", "text/html"), ("Content-Encoding", "br")], body: "\u{0B}\u{02}")
        }) { port in
            let r = try await SimulateEngineCLITests.cli(
                [
                    "record", "https://shop.example.com/checkout?order=7", "--policy", policy, "--out", out, "--ca-file",
                    LoopbackSites.caFile,
                ] + Self.resolve(port), timeout: 300)
            #expect(r.status == 1, "\(r)")
            #expect(r.stderr.contains("Content-Encoding: br, which the recorder cannot decode"), "\(r)")
            #expect(!FileManager.default.fileExists(atPath: out))
        }
    }

    /// Bad input is exit 64 with a message naming the flag, file or key, before any engine starts or any request
    /// goes out.
    @Test(arguments: [
        (
            ["--step", "tapp: B"],
            "--step 1:1: tapp: unknown step 'tapp'; expected tap, type, app, accept, decline or switch-to-app"
        ),
        (
            ["--step", "app: Nope complete"],
            "--step 1: step 'app: Nope complete' names an app that is not in the environment (--env)"
        ),
        (["--platform", "android"], "the policy POLICY is for ios"),
        (["--resolve", "shop.example.com"], "--resolve shop.example.com: expected HOST=ADDRESS or HOST=ADDRESS:PORT"),
        (["--resolve", "shop.example.com=127.0.0.1:70000"], "expected HOST=ADDRESS or HOST=ADDRESS:PORT"),
        (
            ["--resolve", "shop.example.com=127.0.0.1", "--resolve", "Shop.example.com=127.0.0.2"],
            "--resolve Shop.example.com=127.0.0.2: Shop.example.com is given twice"
        ),
        (["--ca-file", "/nonexistent/ca.pem"], "--ca-file /nonexistent/ca.pem: no such file"),
        (["--insecure", "--ca-file", "CA"], "--insecure and --ca-file contradict each other"),
        (["--timeout", "0"], "--timeout 0.0: expected 1 to 3600 seconds"),
        (["--no-out"], "record needs --out FOLDER, --diff FLOWDIR, or both"),
        (["--url", "ftp://shop.example.com/x"], "URL ftp://shop.example.com/x: expected an absolute http(s) URL"),
        (["--out", "POLICY"], "--out POLICY: already exists; choose another folder or pass --force to replace it"),
        (["--diff", "/nonexistent/flow"], "--diff /nonexistent/flow: no such flow folder or file"),
    ])
    func badInputIsAnInputErrorNamingIt(extra: [String], message: String) async throws {
        let dir = try Project.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let policy = try Self.policy(in: dir)
        var url = "https://shop.example.com/checkout?order=7"
        var args = extra.map { $0 == "CA" ? LoopbackSites.caFile : $0 == "POLICY" ? policy : $0 }
        var out = ["--out", dir.appendingPathComponent("out").path]
        if args.first == "--url" {
            url = args[1]
            args = []
        }
        if args == ["--no-out"] {
            out = []
            args = []
        }
        if args.first == "--out" { out = [] }
        let r = try await SimulateEngineCLITests.cli(["record", url, "--policy", policy] + out + args)
        #expect(r.status == 64, "\(r)")
        #expect(r.stderr.contains(message.replacingOccurrences(of: "POLICY", with: policy)), "\(r)")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("out").path))
    }
}
