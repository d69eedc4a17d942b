@testable import AppSwitch
@testable import PlainviewURL
import Foundation
import Testing
import TestSupport
@testable import NavigationPolicy

@Suite("Fuzz: app-switch URLs")
struct AppSwitchFuzzTests {
    static let token = "7c40b5c9-fa74-49cf-b98c-bfe651f9a7c6"

    static let corpus: [String] = {
        var urls = [
            "swish://paymentrequest?token=c28a4061470f4af48973bd2a4642b4fa&callbackurl=merchant%3A%2F%2F",
            "swish://paymentrequest?token=T1&callbackurl=https%3A%2F%2Fshop.example%2Fswish%3Fo%3D1%26r%3D%252F",
            "swish://paymentrequest?token=T1&callbackurl=merchant%253A%252F%252F",
            "bankid:///?autostarttoken=\(token)&redirect=null",
            "bankid:///?autostarttoken=\(token)&redirect=shopapp%3A%2F%2Fbankid%3Forder%3D42",
            "https://app.bankid.com/?autostarttoken=\(token)&redirect=https%3A%2F%2Fshop.example%2Fdone",
            "https://assets.roamdata.com/transaction/?amount=1000&tip=100&tax=8.25&authToken=abc&invoiceID=INV1&customReferenceNumber=R-1&transactionNotes=hi%20there&hostURL=shopapp://&loginStrategy=normal&tenderType=card",
            "https://assets.roamdata.com/transaction/?amount=1&authToken=t&hostURL=https://shop.example/back?x=1",
            "https://shop.example/back?x=1&transactionResponse=eyJ0cmFuc2FjdGlvbnMiOlt7InJlc3BvbnNlQ29kZSI6IjQ5OTMifV19#f",
        ]
        for outcome in ROAMpayOutcome.allCases {
            if let u = try? ROAMpayResponse.make(hostURL: "shopapp://", outcome: outcome) { urls.append(u) }
        }
        return urls
    }()

    static let jsonCorpus: [String] = ROAMpayOutcome.allCases.compactMap {
        (try? ROAMpayResponse(transactions: [ROAMpayTransaction.example(for: $0)]).jsonData()).map {
            String(decoding: $0, as: UTF8.self)
        }
    }

    static let dictionary = [
        "swish://", "bankid:///", "https://app.bankid.com/", "https://assets.roamdata.com/transaction/", "paymentrequest",
        "?", "&", "=", "#", "%", "%2", "%25", "%3A%2F%2F", "%00", "%FF", "%C3%A9", "token=", "callbackurl=",
        "autostarttoken=", "redirect=", "null", "amount=", "authToken=", "hostURL=", "transactionResponse=", "tax=",
        "javascript:", "javascript%3Aalert(1)", "data:", "file:", "JaVaScRiPt:", "@", "\\", ":", "//", "[", "]",
        "+", "-", "_", "==", " ", "\t", "é",
    ]

    @Test(arguments: [UInt64(1), 2, 3])
    func mutatedURLsAreReadOrRejectedWithAFieldAndRule(seed: UInt64) {
        var fuzz = FuzzRun(seed: seed, dictionary: Self.dictionary)
        for _ in 0..<800 {
            let url = fuzz.mutant(of: Self.corpus)
            Self.check(
                url, registered: fuzz.rng.pick(["merchant://", "https://shop.example/swish?o=1", "shopapp://done?id=7"]),
                &fuzz.findings)
        }
        #expect(fuzz.findings.isEmpty, "\(fuzz.findings)")
    }

    @Test(arguments: [UInt64(11), 12])
    func generatedLaunchesRoundTripAndNeverReturnToAnUnsafeScheme(seed: UInt64) {
        var fuzz = FuzzRun(seed: seed)
        for _ in 0..<500 {
            let callback = Self.generateReturnURL(&fuzz.rng)
            // Swish
            if let launch = try? SwishLaunch(
                token: fuzz.rng.pick(["T1", "c28a4061470f4af48973bd2a4642b4fa", "a-b_c.d~e"]), callbackURL: callback)
            {
                do {
                    let back = try SwishLaunch.parse(launch.url)
                    if back.token != launch.token || back.callbackURL != launch.callbackURL {
                        fuzz.findings.record("Swish parse(url) != launch", input: launch.url)
                    }
                } catch { fuzz.findings.record("Swish url does not parse", input: launch.url, detail: "\(error)") }
                Self.check(launch.url, registered: callback, &fuzz.findings)
            }
            // BankID
            let redirect: BankIDRedirect = fuzz.rng.oneIn(4) ? .previousApp : fuzz.rng.oneIn(4) ? .absent : .url(callback)
            if let launch = try? BankIDLaunch(
                autoStartToken: Self.token, redirect: redirect, form: fuzz.rng.oneIn(2) ? .scheme : .universalLink)
            {
                do {
                    let back = try BankIDLaunch.parse(launch.url)
                    if back != launch {
                        fuzz.findings.record("BankID parse(url) != launch", input: launch.url, detail: "\(back)")
                    }
                } catch { fuzz.findings.record("BankID url does not parse", input: launch.url, detail: "\(error)") }
                Self.check(launch.url, registered: callback, &fuzz.findings)
            }
            // ROAMpay X request and response
            var request = ROAMpayRequest(
                amount: String(1 + fuzz.rng.below(10_000_000)), authToken: fuzz.rng.pick(["t", "a&b=c", "x%y", "é"]),
                hostURL: callback)
            if fuzz.rng.oneIn(2) { request.tax = fuzz.rng.pick(["0", "8.25", "100", "100.000", "7.5"]) }
            if fuzz.rng.oneIn(2) { request.transactionNotes = fuzz.rng.pick(["hi there", "a&b=c#d", "100%", "+ok"]) }
            if fuzz.rng.oneIn(3) { request.tenderType = fuzz.rng.pick(ROAMpayTenderType.allCases) }
            if let url = try? request.url() {
                do {
                    var back = try ROAMpayRequest.parse(url)
                    back.unrecognizedParameters = []
                    if back != request { fuzz.findings.record("ROAMpay parse(url()) != request", input: url, detail: "\(back)") }
                } catch { fuzz.findings.record("ROAMpay url() does not parse", input: url, detail: "\(error)") }
                Self.check(url, registered: callback, &fuzz.findings)
            }
            if let back = try? ROAMpayResponse.make(hostURL: callback, outcome: fuzz.rng.pick(ROAMpayOutcome.allCases)) {
                do {
                    let response = try ROAMpayResponse.parse(url: back)
                    if response.hostURL != callback {
                        fuzz.findings.record("ROAMpay response hostURL changed", input: back, detail: response.hostURL ?? "nil")
                    }
                } catch { fuzz.findings.record("ROAMpay response does not parse", input: back, detail: "\(error)") }
            }
        }
        #expect(fuzz.findings.isEmpty, "\(fuzz.findings)")
    }

    @Test(arguments: [UInt64(21), 22])
    func mutatedTransactionResponsesAreDecodedOrRejected(seed: UInt64) {
        var fuzz = FuzzRun(
            seed: seed, dictionary: FuzzMutator.jsonSyntax + ["\"transactions\"", "\"responseCode\"", "\"emvData\""])
        for _ in 0..<1500 {
            let bytes = fuzz.mutantBytes(of: Self.jsonCorpus)
            Self.expectTypedError(String(decoding: bytes, as: UTF8.self), &fuzz.findings) {
                _ = try ROAMpayResponse.decode(json: Data(bytes))
            }
            let base64 = Data(bytes).base64EncodedString()
            let damaged =
                fuzz.rng.oneIn(2)
                ? base64 : FuzzMutator(dictionary: ["%", "=", "-", "_", " ", "+", "/"]).mutate(base64, other: "", rng: &fuzz.rng)
            Self.expectTypedError(damaged, &fuzz.findings) { _ = try ROAMpayResponse.decode(base64: damaged) }
        }
        #expect(fuzz.findings.isEmpty, "\(fuzz.findings)")
    }

    // MARK: properties

    static func check(_ url: String, registered: String, _ findings: inout FuzzFindings) {
        var message: AppSwitchMessage?
        expectTypedError(url, &findings) { message = try AppSwitchMessage.parse(url) }
        if case .url(let u)? = message?.whenDone, let s = AndroidIntent.lenientScheme(of: u),
            SchemeKind.neverExternalSchemes.contains(s)
        {
            findings.record("a launch returns to an unsafe scheme", input: url, detail: u)
        }
        expectTypedError(url, &findings) { _ = try SwishLaunch.parse(url) }
        expectTypedError(url, &findings) { _ = try SwishCallback.parse(url, registered: registered) }
        expectTypedError(url, &findings) { _ = try BankIDLaunch.parse(url) }
        expectTypedError(url, &findings) { _ = try ROAMpayRequest.parse(url) }
        expectTypedError(url, &findings) { _ = try ROAMpayResponse.parse(url: url) }
    }

    /// Runs `body`; any error must be an `AppSwitchError` with a message and a rule.
    static func expectTypedError(_ input: String, _ findings: inout FuzzFindings, _ body: () throws -> Void) {
        do {
            try body()
        } catch let error as AppSwitchError {
            if error.description.isEmpty || error.rule.isEmpty { findings.record("error without message", input: input) }
        } catch {
            findings.record("untyped error", input: input, detail: "\(type(of: error)): \(error)")
        }
    }

    static func generateReturnURL(_ rng: inout FuzzRNG) -> String {
        var url = rng.pick([
            "shopapp://", "merchant://", "https://shop.example", "http://shop.example:8080", "HTTPS://Shop.Example.",
            "javascript:", "JavaScript://", "data:", "file://", "swish://", "bankid:///", "x-y.z+w://", "https://",
        ])
        for _ in 0..<rng.below(3) { url += rng.pick(["/", "done", "a b", "%20", "%", "é", "?o=1", "&r=%2F", "#f", "@x", "\\"]) }
        return url
    }
}

// MARK: - Goodlist
