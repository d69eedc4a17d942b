@testable import AppSwitch
import Testing
@testable import NavigationPolicy

@Suite struct ROAMpayRequestTests {
    static let token = "MCM6-f601ecc7-95ba-4f6d-8682-1b5bcad1e435" // the ROAMpay X universal link guide §3.1 example

    static func request(_ change: (inout ROAMpayRequest) -> Void = { _ in }) -> ROAMpayRequest {
        var r = ROAMpayRequest(amount: "1500", authToken: token, hostURL: "RPXUniversalLinkNativeTestApp://")
        change(&r)
        return r
    }

    @Test func buildsTheSeedsLinkWithHostURLReadable() throws {
        let url = try Self.request {
            $0.tip = "200"; $0.tax = "8.25"; $0.invoiceID = "2516504"; $0.customReferenceNumber = "REF-1"
            $0.transactionNotes = "Table 4 & friends"; $0.loginStrategy = .readerSerialNumber; $0.tenderType = .card
        }.url()
        #expect(
            url == "https://assets.roamdata.com/transaction/?amount=1500&tip=200&tax=8.25&authToken=\(Self.token)"
                + "&invoiceID=2516504&customReferenceNumber=REF-1&transactionNotes=Table%204%20%26%20friends"
                + "&hostURL=RPXUniversalLinkNativeTestApp://&loginStrategy=readerserialnumber&tenderType=card")
    }

    @Test func onlyTheRequiredFieldsWhenNothingElseIsGiven() throws {
        #expect(
            try Self.request().url()
                == "https://assets.roamdata.com/transaction/?amount=1500&authToken=\(Self.token)&hostURL=RPXUniversalLinkNativeTestApp://"
        )
    }

    @Test func aWebHostURLWithItsOwnQueryIsEncodedSoItSurvives() throws {
        let r = Self.request { $0.hostURL = "https://shop.example/rpx?order=42&step=2" }
        let url = try r.url()
        #expect(url.hasSuffix("hostURL=https://shop.example/rpx?order%3D42%26step%3D2"))
        #expect(r.hostKind == .webApp)
        #expect(try ROAMpayRequest.parse(url).hostURL == "https://shop.example/rpx?order=42&step=2")
    }

    @Test func roundTripKeepsEveryField() throws {
        let r = Self.request {
            $0.tip = "0"; $0.tax = "100.000"; $0.invoiceID = "ABCdef012345678"; $0.customReferenceNumber = "a-b-c"
            $0.transactionNotes = #"~!@#$%^&*()_+`-={}|[]\:";'<>?,./ x"#; $0.loginStrategy = .normal;
            $0.tenderType = .keyedOnPinPad
        }
        let parsed = try ROAMpayRequest.parse(try r.url())
        #expect(parsed == r)
    }

    @Test func parseAcceptsTheGuidesOtherSpellings() throws {
        // The ROAMpay X guide's example writes invoiceId and ReaderSerialNumber.
        let r = try ROAMpayRequest.parse(
            "https://assets.roamdata.com/transaction/?amount=5&authToken=t&invoiceId=INV1&hostURL=App://&loginstrategy=ReaderSerialNumber&tenderType=CARD&foo=1"
        )
        #expect(r.invoiceID == "INV1")
        #expect(r.loginStrategy == .readerSerialNumber)
        #expect(r.tenderType == .card)
        #expect(r.unrecognizedParameters == ["foo"])
        #expect(r.hostKind == .nativeApp)
    }

    /// One request field set to one value (a row of the ROAMpay X universal link guide's parameter table).
    struct Rule: Sendable, CustomStringConvertible {
        var field: String
        var value: String
        init(_ field: String, _ value: String) { self.field = field; self.value = value }
        var description: String { "\(field)=\(value)" }

        /// Sets the rule's field of `r` to its value.
        func apply(to r: inout ROAMpayRequest) {
            switch field {
            case "base": r.base = value
            case "amount": r.amount = value
            case "authToken": r.authToken = value
            case "hostURL": r.hostURL = value
            case "tip": r.tip = value
            case "tax": r.tax = value
            case "invoiceID": r.invoiceID = value
            case "transactionNotes": r.transactionNotes = value
            case "customReferenceNumber": r.customReferenceNumber = value
            default: Issue.record("no request field '\(field)'")
            }
        }
    }

    // Every rule of the ROAMpay X universal link guide's table, broken once.
    static let broken: [Rule] = [
        Rule("amount", ""),
        Rule("amount", "12a"),
        Rule("amount", "-5"),
        Rule("amount", "1.50"),
        Rule("amount", "١٢"), // non-ASCII digits
        Rule("amount", "0"),
        Rule("amount", "0000"),
        Rule("amount", "10000001"),
        Rule("amount", "99999999999999999999999"),
        Rule("authToken", ""),
        Rule("hostURL", ""),
        Rule("hostURL", "myapp:"),
        Rule("hostURL", "myapp://done"),
        Rule("hostURL", "myapp"),
        Rule("hostURL", "https://"),
        Rule("hostURL", "ftp://files.example/"),
        Rule("hostURL", "javascript://"),
        Rule("hostURL", "my app://"),
        Rule("tip", ""),
        Rule("tip", "1.5"),
        Rule("tip", "-1"),
        Rule("tax", ""),
        Rule("tax", "1000"),
        Rule("tax", "8.2500"),
        Rule("tax", ".5"),
        Rule("tax", "5."),
        Rule("tax", "-1"),
        Rule("tax", "8,25"),
        Rule("tax", "100.001"),
        Rule("tax", "101"),
        Rule("tax", "999.9"),
        Rule("invoiceID", "1234567890123456"),
        Rule("invoiceID", "INV-1"),
        Rule("invoiceID", "IN V"),
        Rule("invoiceID", "fakturaå"),
        Rule("transactionNotes", String(repeating: "x", count: 201)),
        Rule("transactionNotes", "line\nbreak"),
        Rule("transactionNotes", "tab\there"),
        Rule("transactionNotes", "café"),
        Rule("transactionNotes", "del\u{7F}"),
        Rule("customReferenceNumber", String(repeating: "1", count: 21)),
        Rule("customReferenceNumber", "REF_1"),
        Rule("customReferenceNumber", "REF 1"),
        Rule("base", "http://assets.roamdata.com/transaction/"),
        Rule("base", "https://assets.roamdata.com/transaction/?x=1"),
        Rule("base", "assets.roamdata.com/transaction/"),
        Rule("base", "https://user@assets.roamdata.com/transaction/"),
    ]

    @Test(arguments: broken)
    func everyBrokenRuleIsAnErrorNamingItsField(_ rule: Rule) {
        var r = Self.request()
        rule.apply(to: &r)
        let error = appSwitchError { try r.url() }
        #expect(error?.field == rule.field)
        #expect(error?.description.hasPrefix(rule.field + ":") == true)
    }

    static let accepted: [Rule] = [
        Rule("amount", "1"),
        Rule("amount", "10000000"),
        Rule("amount", "00010000000"),
        Rule("tip", "0"),
        Rule("tip", "123456789012345678901234567890"),
        Rule("tax", "0"),
        Rule("tax", "100"),
        Rule("tax", "100.0"),
        Rule("tax", "99.999"),
        Rule("tax", "007.5"),
        Rule("invoiceID", ""),
        Rule("invoiceID", "ABCDEFGHIJ12345"),
        Rule("transactionNotes", ""),
        Rule("transactionNotes", String(repeating: "~", count: 200)),
        Rule("customReferenceNumber", ""),
        Rule("customReferenceNumber", "-----aaaaa00000ZZZZZ"),
        Rule("hostURL", "x://"),
        Rule("hostURL", "com.shop.app://"),
        Rule("hostURL", "http://shop.example"),
        Rule("hostURL", "https://shop.example/rpx/return?x=1"),
        Rule("base", "https://debug.roamdata.example/transaction/"),
    ]

    @Test(arguments: accepted)
    func valuesAtTheEdgesOfEachRuleAreAccepted(_ rule: Rule) throws {
        var r = Self.request()
        rule.apply(to: &r)
        let url = try r.url()
        #expect(try ROAMpayRequest.parse(url) == r)
    }

    @Test(arguments: [
        ("loginStrategy", "https://assets.roamdata.com/transaction/?amount=1&authToken=t&hostURL=a://&loginStrategy=magic"),
        ("tenderType", "https://assets.roamdata.com/transaction/?amount=1&authToken=t&hostURL=a://&tenderType=crypto"),
        ("amount", "https://assets.roamdata.com/transaction/?authToken=t&hostURL=a://"),
        ("authToken", "https://assets.roamdata.com/transaction/?amount=1&hostURL=a://"),
        ("hostURL", "https://assets.roamdata.com/transaction/?amount=1&authToken=t"),
        ("amount", "https://assets.roamdata.com/transaction/?amount=1&amount=2&authToken=t&hostURL=a://"),
        ("amount", "https://assets.roamdata.com/transaction/?amount=1%2&authToken=t&hostURL=a://"),
    ])
    func enumsMissingAndRepeatedFieldsInALinkAreErrors(_ c: (String, String)) {
        let error = appSwitchError { try ROAMpayRequest.parse(c.1) }
        #expect(error?.field == c.0)
    }

    @Test func aLinkThatIsNotHTTPSIsNotAROAMpayLink() {
        #expect(
            appSwitchError { try ROAMpayRequest.parse("roampay://transaction/?amount=1&authToken=t&hostURL=a://") }?.field == nil)
    }
}
