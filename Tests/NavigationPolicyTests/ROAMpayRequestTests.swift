import Testing
@testable import NavigationPolicy

@Suite struct ROAMpayRequestTests {
    static let token = "MCM6-f601ecc7-95ba-4f6d-8682-1b5bcad1e435"   // seed 004 §3.1 example

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
        #expect(url == "https://assets.roamdata.com/transaction/?amount=1500&tip=200&tax=8.25&authToken=\(Self.token)"
            + "&invoiceID=2516504&customReferenceNumber=REF-1&transactionNotes=Table%204%20%26%20friends"
            + "&hostURL=RPXUniversalLinkNativeTestApp://&loginStrategy=readerserialnumber&tenderType=card")
    }

    @Test func onlyTheRequiredFieldsWhenNothingElseIsGiven() throws {
        #expect(try Self.request().url()
            == "https://assets.roamdata.com/transaction/?amount=1500&authToken=\(Self.token)&hostURL=RPXUniversalLinkNativeTestApp://")
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
            $0.transactionNotes = #"~!@#$%^&*()_+`-={}|[]\:";'<>?,./ x"#; $0.loginStrategy = .normal; $0.tenderType = .keyedOnPinPad
        }
        let parsed = try ROAMpayRequest.parse(try r.url())
        #expect(parsed == r)
    }

    @Test func parseAcceptsTheGuidesOtherSpellings() throws {
        // Seed 004's example writes invoiceId and ReaderSerialNumber.
        let r = try ROAMpayRequest.parse(
            "https://assets.roamdata.com/transaction/?amount=5&authToken=t&invoiceId=INV1&hostURL=App://&loginstrategy=ReaderSerialNumber&tenderType=CARD&foo=1")
        #expect(r.invoiceID == "INV1")
        #expect(r.loginStrategy == .readerSerialNumber)
        #expect(r.tenderType == .card)
        #expect(r.unrecognizedParameters == ["foo"])
        #expect(r.hostKind == .nativeApp)
    }

    struct Rule: Sendable, CustomStringConvertible {
        var field: String
        var value: String
        var apply: @Sendable (inout ROAMpayRequest, String) -> Void
        var description: String { "\(field)=\(value)" }
    }

    // Every rule of seed 004's table, broken once.
    static let broken: [Rule] = [
        Rule(field: "amount", value: "", apply: { $0.amount = $1 }),
        Rule(field: "amount", value: "12a", apply: { $0.amount = $1 }),
        Rule(field: "amount", value: "-5", apply: { $0.amount = $1 }),
        Rule(field: "amount", value: "1.50", apply: { $0.amount = $1 }),
        Rule(field: "amount", value: "١٢", apply: { $0.amount = $1 }),          // non-ASCII digits
        Rule(field: "amount", value: "0", apply: { $0.amount = $1 }),
        Rule(field: "amount", value: "0000", apply: { $0.amount = $1 }),
        Rule(field: "amount", value: "10000001", apply: { $0.amount = $1 }),
        Rule(field: "amount", value: "99999999999999999999999", apply: { $0.amount = $1 }),
        Rule(field: "authToken", value: "", apply: { $0.authToken = $1 }),
        Rule(field: "hostURL", value: "", apply: { $0.hostURL = $1 }),
        Rule(field: "hostURL", value: "myapp:", apply: { $0.hostURL = $1 }),
        Rule(field: "hostURL", value: "myapp://done", apply: { $0.hostURL = $1 }),
        Rule(field: "hostURL", value: "myapp", apply: { $0.hostURL = $1 }),
        Rule(field: "hostURL", value: "https://", apply: { $0.hostURL = $1 }),
        Rule(field: "hostURL", value: "ftp://files.example/", apply: { $0.hostURL = $1 }),
        Rule(field: "hostURL", value: "javascript://", apply: { $0.hostURL = $1 }),
        Rule(field: "hostURL", value: "my app://", apply: { $0.hostURL = $1 }),
        Rule(field: "tip", value: "", apply: { $0.tip = $1 }),
        Rule(field: "tip", value: "1.5", apply: { $0.tip = $1 }),
        Rule(field: "tip", value: "-1", apply: { $0.tip = $1 }),
        Rule(field: "tax", value: "", apply: { $0.tax = $1 }),
        Rule(field: "tax", value: "1000", apply: { $0.tax = $1 }),
        Rule(field: "tax", value: "8.2500", apply: { $0.tax = $1 }),
        Rule(field: "tax", value: ".5", apply: { $0.tax = $1 }),
        Rule(field: "tax", value: "5.", apply: { $0.tax = $1 }),
        Rule(field: "tax", value: "-1", apply: { $0.tax = $1 }),
        Rule(field: "tax", value: "8,25", apply: { $0.tax = $1 }),
        Rule(field: "tax", value: "100.001", apply: { $0.tax = $1 }),
        Rule(field: "tax", value: "101", apply: { $0.tax = $1 }),
        Rule(field: "tax", value: "999.9", apply: { $0.tax = $1 }),
        Rule(field: "invoiceID", value: "1234567890123456", apply: { $0.invoiceID = $1 }),
        Rule(field: "invoiceID", value: "INV-1", apply: { $0.invoiceID = $1 }),
        Rule(field: "invoiceID", value: "IN V", apply: { $0.invoiceID = $1 }),
        Rule(field: "invoiceID", value: "fakturaå", apply: { $0.invoiceID = $1 }),
        Rule(field: "transactionNotes", value: String(repeating: "x", count: 201), apply: { $0.transactionNotes = $1 }),
        Rule(field: "transactionNotes", value: "line\nbreak", apply: { $0.transactionNotes = $1 }),
        Rule(field: "transactionNotes", value: "tab\there", apply: { $0.transactionNotes = $1 }),
        Rule(field: "transactionNotes", value: "café", apply: { $0.transactionNotes = $1 }),
        Rule(field: "transactionNotes", value: "del\u{7F}", apply: { $0.transactionNotes = $1 }),
        Rule(field: "customReferenceNumber", value: String(repeating: "1", count: 21), apply: { $0.customReferenceNumber = $1 }),
        Rule(field: "customReferenceNumber", value: "REF_1", apply: { $0.customReferenceNumber = $1 }),
        Rule(field: "customReferenceNumber", value: "REF 1", apply: { $0.customReferenceNumber = $1 }),
        Rule(field: "base", value: "http://assets.roamdata.com/transaction/", apply: { $0.base = $1 }),
        Rule(field: "base", value: "https://assets.roamdata.com/transaction/?x=1", apply: { $0.base = $1 }),
        Rule(field: "base", value: "assets.roamdata.com/transaction/", apply: { $0.base = $1 }),
        Rule(field: "base", value: "https://user@assets.roamdata.com/transaction/", apply: { $0.base = $1 }),
    ]

    @Test(arguments: broken)
    func everyBrokenRuleIsAnErrorNamingItsField(_ rule: Rule) {
        var r = Self.request()
        rule.apply(&r, rule.value)
        let error = appSwitchError { try r.url() }
        #expect(error?.field == rule.field)
        #expect(error?.description.hasPrefix(rule.field + ":") == true)
    }

    static let accepted: [Rule] = [
        Rule(field: "amount", value: "1", apply: { $0.amount = $1 }),
        Rule(field: "amount", value: "10000000", apply: { $0.amount = $1 }),
        Rule(field: "amount", value: "00010000000", apply: { $0.amount = $1 }),
        Rule(field: "tip", value: "0", apply: { $0.tip = $1 }),
        Rule(field: "tip", value: "123456789012345678901234567890", apply: { $0.tip = $1 }),
        Rule(field: "tax", value: "0", apply: { $0.tax = $1 }),
        Rule(field: "tax", value: "100", apply: { $0.tax = $1 }),
        Rule(field: "tax", value: "100.0", apply: { $0.tax = $1 }),
        Rule(field: "tax", value: "99.999", apply: { $0.tax = $1 }),
        Rule(field: "tax", value: "007.5", apply: { $0.tax = $1 }),
        Rule(field: "invoiceID", value: "", apply: { $0.invoiceID = $1 }),
        Rule(field: "invoiceID", value: "ABCDEFGHIJ12345", apply: { $0.invoiceID = $1 }),
        Rule(field: "transactionNotes", value: "", apply: { $0.transactionNotes = $1 }),
        Rule(field: "transactionNotes", value: String(repeating: "~", count: 200), apply: { $0.transactionNotes = $1 }),
        Rule(field: "customReferenceNumber", value: "", apply: { $0.customReferenceNumber = $1 }),
        Rule(field: "customReferenceNumber", value: "-----aaaaa00000ZZZZZ", apply: { $0.customReferenceNumber = $1 }),
        Rule(field: "hostURL", value: "x://", apply: { $0.hostURL = $1 }),
        Rule(field: "hostURL", value: "com.shop.app://", apply: { $0.hostURL = $1 }),
        Rule(field: "hostURL", value: "http://shop.example", apply: { $0.hostURL = $1 }),
        Rule(field: "hostURL", value: "https://shop.example/rpx/return?x=1", apply: { $0.hostURL = $1 }),
        Rule(field: "base", value: "https://debug.roamdata.example/transaction/", apply: { $0.base = $1 }),
    ]

    @Test(arguments: accepted)
    func valuesAtTheEdgesOfEachRuleAreAccepted(_ rule: Rule) throws {
        var r = Self.request()
        rule.apply(&r, rule.value)
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
        #expect(appSwitchError { try ROAMpayRequest.parse("roampay://transaction/?amount=1&authToken=t&hostURL=a://") }?.field == nil)
    }
}
