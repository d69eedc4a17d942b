import AppSwitch
import Foundation
import Testing
import TestSupport

@Suite struct AppCLITests {
    static let uuid = "7c40b5c9-fa74-49cf-b98c-bfe651f9a7c6"
    static let rpxToken = "MCM6-f601ecc7-95ba-4f6d-8682-1b5bcad1e435"

    func object(_ r: CLIResult) throws -> [String: Any] {
        let json = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8))
        return try #require(json as? [String: Any], "\(r)")
    }

    @Test func swishPrintsTheLaunchURLWithTheCallbackEncodedOnce() throws {
        let r = try CLI.run([
            "app", "swish", "--token", "c28a4061470f4af48973bd2a4642b4fa", "--callback", "shopapp://swish?order=42&note=a%20b",
        ])
        #expect(r.status == 0, "\(r)")
        #expect(
            r.stdout
                == "swish://paymentrequest?token=c28a4061470f4af48973bd2a4642b4fa&callbackurl=shopapp%3A%2F%2Fswish%3Forder%3D42%26note%3Da%2520b\n"
        )
        #expect(r.stderr.isEmpty)
    }

    @Test func swishJSONShowsThePreEncodedCallbackDecodedOnce() throws {
        let r = try CLI.run(["app", "swish", "--token", "T1", "--callback", "merchant%3A%2F%2F", "--json"])
        #expect(r.status == 0, "\(r)")
        let o = try object(r)
        #expect(o["callbackURL"] as? String == "merchant://")
        #expect(o["callbackWasPreEncoded"] as? Bool == true)
        #expect(o["url"] as? String == "swish://paymentrequest?token=T1&callbackurl=merchant%3A%2F%2F")
    }

    /// Black-box: a library validation error is exit 64 with `error: FIELD: …` on stderr and nothing on stdout;
    /// the options the CLI itself checks (login strategy, tender type) likewise. The other rows are tested
    /// in-process against the library (`AppValidationRows`).
    @Test(
        arguments: [
            (["app", "bankid", "--autostarttoken", "1234"], "autostarttoken: must be a UUID"),
            (
                ["app", "roampay", "--amount", "1", "--auth-token", "t", "--host-url", "a://", "--login-strategy", "x"],
                "loginStrategy:"
            ),
            (
                ["app", "roampay", "--amount", "1", "--auth-token", "t", "--host-url", "a://", "--tender-type", "gold"],
                "tenderType:"
            ),
        ] as [([String], String)])
    func invalidInputExits64NamingTheFieldAndRule(_ c: ([String], String)) throws {
        let r = try CLI.run(c.0)
        #expect(r.status == 64, "\(r)")
        #expect(r.stderr.hasPrefix("error: "), "\(r)")
        #expect(r.stderr.contains(c.1), "\(r)")
        #expect(r.stdout.isEmpty)
        #expect(!r.stderr.contains("Fatal error"))
    }

    @Test func theSeedsPlaceholderSchemeIsANoteOnStderrNotAnError() throws {
        let r = try CLI.run(["app", "swish", "--token", "T", "--callback", "merchant://"])
        #expect(r.status == 0, "\(r)")
        #expect(r.stdout == "swish://paymentrequest?token=T&callbackurl=merchant%3A%2F%2F\n")
        #expect(r.stderr.contains("note: callbackurl uses merchant://"))
    }

    @Test func missingRequiredOptionIsAUsageError() throws {
        let r = try CLI.run(["app", "swish", "--token", "T"])
        #expect(r.status == 64, "\(r)")
        #expect(r.stderr.contains("--callback"))
    }

    @Test func bankIDBuildsBothForms() throws {
        let scheme = try CLI.run(["app", "bankid", "--autostarttoken", Self.uuid, "--redirect", "null"])
        #expect(scheme.stdout == "bankid:///?autostarttoken=\(Self.uuid)&redirect=null\n", "\(scheme)")
        let universal = try CLI.run([
            "app", "bankid", "--autostarttoken", Self.uuid, "--redirect", "https://shop.example/pay?o=1", "--universal",
        ])
        #expect(
            universal.stdout
                == "https://app.bankid.com/?autostarttoken=\(Self.uuid)&redirect=https%3A%2F%2Fshop.example%2Fpay%3Fo%3D1\n",
            "\(universal)")
        let none = try CLI.run(["app", "bankid", "--autostarttoken", Self.uuid])
        #expect(none.stdout == "bankid:///?autostarttoken=\(Self.uuid)\n", "\(none)")
    }

    @Test func roampayPrintsTheLinkAndItsJSON() throws {
        let args = [
            "app", "roampay", "--amount", "1500", "--auth-token", Self.rpxToken, "--host-url", "RPXUniversalLinkNativeTestApp://",
            "--tax", "8.25", "--tender-type", "card",
        ]
        let r = try CLI.run(args)
        #expect(r.status == 0, "\(r)")
        #expect(
            r.stdout
                == "https://assets.roamdata.com/transaction/?amount=1500&tax=8.25&authToken=\(Self.rpxToken)&hostURL=RPXUniversalLinkNativeTestApp://&tenderType=card\n"
        )
        let j = try object(try CLI.run(args + ["--json"]))
        #expect(j["hostKind"] as? String == "native-app")
        #expect((j["request"] as? [String: Any])?["amount"] as? String == "1500")
    }

    @Test func parseDecodesEachKindToJSON() throws {
        let swish = try object(try CLI.run(["app", "parse", "swish://paymentrequest?token=T1&callbackurl=shopapp%3A%2F%2Fdone"]))
        #expect(swish["kind"] as? String == "swish-launch")
        #expect(swish["callbackURL"] as? String == "shopapp://done")

        let bankid = try object(
            try CLI.run(["app", "parse", "https://app.bankid.com/?autostarttoken=\(Self.uuid)&redirect=null"]))
        #expect(bankid["kind"] as? String == "bankid-launch")
        #expect(bankid["returnsTo"] as? String == "previous-app")
        #expect(bankid["form"] as? String == "universal-link")

        let link = "https://assets.roamdata.com/transaction/?amount=5&authToken=t&hostURL=shopapp://"
        let request = try object(try CLI.run(["app", "parse", link]))
        #expect(request["kind"] as? String == "roampay-request")
        #expect(request["hostURL"] as? String == "shopapp://")

        let callback = try object(try CLI.run(["app", "parse", "shopapp://done?x=1", "--swish-callback", "shopapp://done"]))
        #expect(callback["kind"] as? String == "swish-callback")
        #expect((callback["addedParameters"] as? [String: String]) == ["x": "1"])
    }

    @Test(arguments: [
        "approved", "cancelled-by-user", "reader-battery-low", "invalid-session", "unknown-error", "invalid-tender-type",
    ])
    func roampayResponseRoundTripsThroughParse(_ outcome: String) throws {
        let made = try CLI.run(["app", "roampay-response", "--host-url", "shopapp://", "--outcome", outcome])
        #expect(made.status == 0, "\(made)")
        let url = made.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(url.hasPrefix("shopapp://?transactionResponse="))
        let parsed = try object(try CLI.run(["app", "parse", url]))
        #expect(parsed["kind"] as? String == "roampay-response")
        #expect(parsed["outcome"] as? String == outcome)
        #expect(parsed["hostURL"] as? String == "shopapp://")
    }

    @Test func unknownOutcomeIsAUsageError() throws {
        let r = try CLI.run(["app", "roampay-response", "--host-url", "shopapp://", "--outcome", "maybe"])
        #expect(r.status == 64, "\(r)")
    }
}

/// The `app` subcommands' invalid-input rows, in-process against the AppSwitch library the CLI calls: the same
/// sentence the CLI prints after `error: `, naming the field and the rule.
@Suite struct AppValidationRows {
    struct Row: Sendable, CustomTestStringConvertible {
        var mentions: String
        var field: String?
        var call: @Sendable () throws -> Void
        var testDescription: String { mentions }
    }

    static func roampay(
        amount: String = "1", authToken: String = "t", hostURL: String = "a://", tip: String? = nil, tax: String? = nil,
        invoiceID: String? = nil, notes: String? = nil, reference: String? = nil
    ) -> @Sendable () throws -> Void {
        {
            _ = try ROAMpayRequest(
                amount: amount, authToken: authToken, hostURL: hostURL, tip: tip, tax: tax, invoiceID: invoiceID,
                transactionNotes: notes, customReferenceNumber: reference
            ).url()
        }
    }

    static let rows: [Row] = [
        Row(mentions: "token:", field: "token") { _ = try SwishLaunch(token: "a b", callbackURL: "merchant://") },
        Row(mentions: "callbackurl:", field: "callbackurl") {
            _ = try SwishLaunch(token: "T", callbackURL: "javascript:alert(1)")
        },
        Row(mentions: "redirect:", field: "redirect") {
            _ = try BankIDLaunch(autoStartToken: AppCLITests.uuid, redirect: .url("file:///etc/passwd"))
        },
        Row(mentions: "amount: must be > 0", field: "amount", call: roampay(amount: "0")),
        Row(mentions: "amount: must be <= 10000000", field: "amount", call: roampay(amount: "10000001")),
        Row(mentions: "authToken:", field: "authToken", call: roampay(authToken: "")),
        Row(mentions: "hostURL:", field: "hostURL", call: roampay(hostURL: "a://x")),
        Row(mentions: "tax:", field: "tax", call: roampay(tax: "101")),
        Row(mentions: "tip:", field: "tip", call: roampay(tip: "1.5")),
        Row(mentions: "invoiceID:", field: "invoiceID", call: roampay(invoiceID: "A-1")),
        Row(mentions: "customReferenceNumber:", field: "customReferenceNumber", call: roampay(reference: "a b")),
        Row(mentions: "transactionNotes:", field: "transactionNotes", call: roampay(notes: "café")),
        Row(mentions: "transactionResponse:", field: "transactionResponse") {
            _ = try AppSwitchMessage.parse("app://?transactionResponse=%%%")
        },
        Row(mentions: "not valid JSON", field: "transactionResponse") {
            _ = try AppSwitchMessage.parse("app://?transactionResponse=bm90IGpzb24=")
        },
        Row(mentions: "is not a Swish, BankID or ROAMpay X URL", field: nil) {
            _ = try AppSwitchMessage.parse("https://shop.example/checkout")
        },
        Row(mentions: "callbackurl: is percent-encoded twice", field: "callbackurl") {
            _ = try AppSwitchMessage.parse("swish://paymentrequest?token=T&callbackurl=m%253A%252F%252F")
        },
    ]

    @Test(arguments: rows)
    func invalidInputNamesTheFieldAndRule(_ row: Row) {
        let error = #expect(throws: AppSwitchError.self) { try row.call() }
        #expect(error?.field == row.field, "\(String(describing: error))")
        #expect(error?.description.contains(row.mentions) == true, "\(String(describing: error))")
    }
}
