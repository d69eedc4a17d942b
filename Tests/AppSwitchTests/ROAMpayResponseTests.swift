@testable import AppSwitch
import Foundation
import Testing
@testable import NavigationPolicy
import PlainviewSupport

/// The ROAMpay X guide's §4.2 example responses, verbatim.
enum SeedResponses {
    static let swipeCard = """
        {
          "transactions" : [
            {
              "emvData" : {
                "emvOfflineData" : {
                }
              },
              "batchNumber" : "200326001",
              "tokenResponseParameters" : {
              },
              "transactionGUID" : "fb1514ff-412a-4fea-95c1-b0d0e350c62b",
              "submittedAmount" : {
                "currency" : "USD",
                "total" : 150000,
                "subTotal" : 152000
              },
              "authCode" : "PPS041",
              "cardExpirationDate" : "2412",
              "transactionGroupID" : "40596CC8-F21E-4249-A91B-C21D5B4A5EE4",
              "invoiceID" : "2516504",
              "transactionResponseCode" : "Approved",
              "sequenceNumber" : "3229",
              "authorizedAmount" : 150000,
              "cardType" : "MasterCard",
              "transactionType" : "CreditSale",
              "posEntryMode" : "MagStripe",
              "cardVerificationMethod" : "Signature",
              "clientTransactionID" : "62A589C6-BCC6-491A-BDB5-1391A8A4B690",
              "customerDisplay" : "APPROVED",
              "transactionID" : "3046615",
              "clerkDisplay" : "APPROVED"
            }
          ]
        }
        """

    static func error(_ code: String, _ display: String) -> String {
        """
        {
          "transactions": [
            {
              "responseCode": "\(code)",
              "clerkDisplay": "\(display)"
            }
          ]
        }
        """
    }

    /// The 4993 example as printed: a number, a missing comma and a trailing comma (not valid JSON).
    static let invalidTenderVerbatim = """
        {
          "transactions" : [
            {
              "responseCode": 4993
              "clerkDisplay": "Invalid Tender type",
            }
          ]
        }
        """

    /// The same with the two typos fixed (what RPX's JSON serialiser emits).
    static let invalidTenderFixed = """
        {
          "transactions" : [
            {
              "responseCode": 4993,
              "clerkDisplay": "Invalid Tender type"
            }
          ]
        }
        """

    static func returnURL(_ json: String, host: String = "RPXUniversalLinkNativeTestApp://") -> String {
        host + "?transactionResponse=" + Data(json.utf8).base64EncodedString()
    }
}

@Suite struct ROAMpayResponseTests {
    @Test func theSwipeCardResponseDecodesToEveryDocumentedField() throws {
        let r = try ROAMpayResponse.parse(url: SeedResponses.returnURL(SeedResponses.swipeCard))
        #expect(r.hostURL == "RPXUniversalLinkNativeTestApp://")
        #expect(r.transactions.count == 1)
        let t = try #require(r.transactions.first)
        #expect(t.outcome == .approved)
        #expect(r.outcome == .approved)
        #expect(t.emvData == .object(["emvOfflineData": .object([:])]))
        #expect(t.batchNumber == "200326001")
        #expect(t.tokenResponseParameters == .object([:]))
        #expect(t.transactionGUID == "fb1514ff-412a-4fea-95c1-b0d0e350c62b")
        #expect(t.submittedAmount == ROAMpayAmount(currency: "USD", total: 150000, subTotal: 152000))
        #expect(t.authCode == "PPS041")
        #expect(t.cardExpirationDate == "2412")
        #expect(t.transactionGroupID == "40596CC8-F21E-4249-A91B-C21D5B4A5EE4")
        #expect(t.invoiceID == "2516504")
        #expect(t.transactionResponseCode == "Approved")
        #expect(t.sequenceNumber == "3229")
        #expect(t.authorizedAmount == 150000)
        #expect(t.cardType == "MasterCard")
        #expect(t.transactionType == "CreditSale")
        #expect(t.posEntryMode == "MagStripe")
        #expect(t.cardVerificationMethod == "Signature")
        #expect(t.clientTransactionID == "62A589C6-BCC6-491A-BDB5-1391A8A4B690")
        #expect(t.customerDisplay == "APPROVED")
        #expect(t.transactionID == "3046615")
        #expect(t.clerkDisplay == "APPROVED")
        #expect(t.responseCode == nil)
        #expect(t.otherFields.isEmpty)
        // The library's own example for `approved` is the seed's transaction.
        #expect(t == ROAMpayTransaction.example(for: .approved))
    }

    @Test(arguments: [
        ("4945", "Transaction Cancelled by User", ROAMpayOutcome.cancelledByUser),
        ("6010", "Reader Battery too low to complete payment", .readerBatteryLow),
        ("4995", "Invalid or Expired Session", .invalidSession),
        ("4999", "Unknown Error", .unknownError),
    ])
    func theDocumentedErrorResponsesDecodeToTheirOutcome(_ c: (String, String, ROAMpayOutcome)) throws {
        let r = try ROAMpayResponse.parse(url: SeedResponses.returnURL(SeedResponses.error(c.0, c.1)))
        let t = try #require(r.transactions.first)
        #expect(t.responseCode == c.0)
        #expect(t.clerkDisplay == c.1)
        #expect(t.outcome == c.2)
        #expect(c.2.responseCode == c.0)
        #expect(c.2.clerkDisplay == c.1)
    }

    @Test func invalidTenderWithANumericResponseCodeDecodes() throws {
        let r = try ROAMpayResponse.parse(url: SeedResponses.returnURL(SeedResponses.invalidTenderFixed))
        #expect(r.transactions.first?.responseCode == "4993")
        #expect(r.transactions.first?.clerkDisplay == "Invalid Tender type")
        #expect(r.outcome == .invalidTenderType)
    }

    @Test func theGuidesMisprintedInvalidTenderExampleIsAClearJSONError() {
        // The ROAMpay X guide prints the 4993 example with a missing comma; decoding it must fail cleanly, not guess.
        let e = appSwitchError { try ROAMpayResponse.parse(url: SeedResponses.returnURL(SeedResponses.invalidTenderVerbatim)) }
        #expect(e?.field == "transactionResponse")
        #expect(
            e?.description.contains("not valid JSON (line 5, column 7: expected ',' or '}'") == true, "\(String(describing: e))")
    }

    @Test(
        arguments: [
            (#"{"a": [1, 2.5e3, -0.1, true, false, null, "x\"y"], "b": {}}"#, nil),
            (#"{"a": 1,}"#, "line 1, column 9: expected a key after ','"),
            (#"{"a": 1 "b": 2}"#, "line 1, column 9: expected ',' or '}'"),
            ("[1,\n2,\n]", "line 3, column 1: expected a value"),
            (#"{"a" 1}"#, "line 1, column 6: expected ':'"),
            (#"{"a": 1} x"#, "line 1, column 10: unexpected text"),
            (#"{"a": "#, "line 1, column 7: unexpected end"),
            ("[\"é\" x]", "line 1, column 6: expected ',' or ']'"),
        ] as [(String, String?)])
    func theSyntaxLocatorPointsAtTheFirstError(_ c: (String, String?)) {
        let found = JSONSyntax.firstError(in: Array(c.0.utf8))
        if let want = c.1 {
            #expect(found?.hasPrefix(want) == true, "\(String(describing: found))")
        } else {
            #expect(found == nil)
        }
    }

    @Test(arguments: ROAMpayOutcome.allCases)
    func makeThenParseGivesTheOutcomeBack(_ outcome: ROAMpayOutcome) throws {
        for host in ["shopapp://", "https://shop.example/rpx?order=42"] {
            let url = try ROAMpayResponse.make(hostURL: host, outcome: outcome)
            let r = try ROAMpayResponse.parse(url: url)
            #expect(r.outcome == outcome)
            #expect(r.transactions == [ROAMpayTransaction.example(for: outcome)])
        }
    }

    @Test func makeAppendsWithAmpersandWhenTheHostURLHasAQuery() throws {
        let url = try ROAMpayResponse.make(hostURL: "https://shop.example/rpx?order=42", outcome: .cancelledByUser)
        #expect(url.hasPrefix("https://shop.example/rpx?order=42&transactionResponse="))
    }

    @Test(arguments: [
        "shopapp://", "https://shop.example/rpx", "https://shop.example/rpx?order=42&step=2",
        "https://shop.example/rpx#done", "https://shop.example/rpx?order=42#done",
    ])
    func parsingTheMadeURLGivesTheHostURLBack(_ host: String) throws {
        let url = try ROAMpayResponse.make(hostURL: host, outcome: .approved)
        let r = try ROAMpayResponse.parse(url: url)
        #expect(r.hostURL == host)
        #expect(r.outcome == .approved)
    }

    @Test func makeRejectsABadHostURL() {
        #expect(appSwitchError { try ROAMpayResponse.make(hostURL: "javascript://", outcome: .approved) }?.field == "hostURL")
    }

    @Test func theBase64IsReadInEveryShapeItArrivesIn() throws {
        let json = SeedResponses.error("4945", "Transaction Cancelled by User")
        let b64 = Data(json.utf8).base64EncodedString()
        let urlSafe = b64.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        let unpadded = b64.replacingOccurrences(of: "=", with: "")
        let percent = b64.replacingOccurrences(of: "+", with: "%2B").replacingOccurrences(of: "/", with: "%2F")
            .replacingOccurrences(of: "=", with: "%3D")
        let spaced = b64.replacingOccurrences(of: "+", with: " ")
        for value in [b64, urlSafe, unpadded, percent, spaced] {
            let r = try ROAMpayResponse.decode(base64: value)
            #expect(r.outcome == .cancelledByUser, "\(value)")
        }
    }

    @Test func theLastTransactionResponseWinsAsInTheGuidesCode() throws {
        let first = Data(SeedResponses.error("4945", "x").utf8).base64EncodedString()
        let last = Data(SeedResponses.error("6010", "y").utf8).base64EncodedString()
        let r = try ROAMpayResponse.parse(url: "app://?transactionResponse=\(first)&transactionResponse=\(last)")
        #expect(r.outcome == .readerBatteryLow)
    }

    @Test func unknownFieldsAndCodesAreKeptNotDropped() throws {
        let json =
            #"{"transactions":[{"responseCode":"1234","clerkDisplay":"New","tipAmount":50,"submittedAmount":{"total":"100","tax":7}}]}"#
        let t = try #require(try ROAMpayResponse.decode(json: Data(json.utf8)).transactions.first)
        #expect(t.outcome == .unrecognized)
        #expect(t.otherFields["tipAmount"] == .int(50))
        #expect(t.otherFields["submittedAmount.tax"] == .int(7))
        #expect(t.submittedAmount?.total == 100)
        // Re-encoding keeps them where they were.
        let again = try ROAMpayResponse.decode(json: try ROAMpayResponse(transactions: [t]).jsonData())
        #expect(again.transactions == [t])
    }

    @Test func aDeclinedTransactionIsDeclined() throws {
        let json = #"{"transactions":[{"transactionResponseCode":"Declined","clerkDisplay":"DECLINED"}]}"#
        #expect(try ROAMpayResponse.decode(json: Data(json.utf8)).outcome == .declined)
    }

    struct Malformed: Sendable, CustomStringConvertible {
        var url: String
        var field: String
        var says: String
        var description: String { url }
    }

    static func b64(_ s: String) -> String { Data(s.utf8).base64EncodedString() }

    @Test(arguments: [
        Malformed(url: "app://", field: "transactionResponse", says: "required"),
        Malformed(url: "app://?other=1", field: "transactionResponse", says: "required"),
        Malformed(url: "app://?transactionResponse=", field: "transactionResponse", says: "required"),
        Malformed(url: "app://?transactionResponse=!!!!", field: "transactionResponse", says: "not base64"),
        Malformed(url: "app://?transactionResponse=abcde", field: "transactionResponse", says: "not base64"),
        Malformed(url: "app://?transactionResponse=ab%zz", field: "transactionResponse", says: "%"),
        Malformed(url: "app://?transactionResponse=" + b64("not json"), field: "transactionResponse", says: "not valid JSON"),
        Malformed(url: "app://?transactionResponse=" + b64("[1,2]"), field: "transactionResponse", says: "JSON object"),
        Malformed(url: "app://?transactionResponse=" + b64("{}"), field: "transactionResponse", says: "transactions"),
        Malformed(url: "app://?transactionResponse=" + b64(#"{"transactions":{}}"#), field: "transactions", says: "array"),
        Malformed(url: "app://?transactionResponse=" + b64(#"{"transactions":[7]}"#), field: "transactions[0]", says: "object"),
        Malformed(
            url: "app://?transactionResponse=" + b64(#"{"transactions":[{"responseCode":true}]}"#),
            field: "transactions[0].responseCode", says: "boolean"),
        Malformed(
            url: "app://?transactionResponse=" + b64(#"{"transactions":[{"authorizedAmount":"12.50"}]}"#),
            field: "transactions[0].authorizedAmount", says: "cents"),
        Malformed(
            url: "app://?transactionResponse=" + b64(#"{"transactions":[{"submittedAmount":[]}]}"#),
            field: "transactions[0].submittedAmount", says: "object"),
        Malformed(
            url: "app://?transactionResponse=" + Data([0xFF, 0xFE, 0x00]).base64EncodedString(),
            field: "transactionResponse", says: "UTF-8"),
    ])
    func malformedReturnsAreClearErrorsNeverCrashes(_ m: Malformed) {
        let e = appSwitchError { try ROAMpayResponse.parse(url: m.url) }
        #expect(e?.field == m.field)
        #expect(e?.description.contains(m.says) == true, "\(String(describing: e))")
    }

    @Test func deeplyNestedJSONIsAnErrorNotAStackOverflow() {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        let json = #"{"transactions":[{"emvData":"# + deep + "}]}"
        #expect(appSwitchError { try ROAMpayResponse.decode(json: Data(json.utf8)) } != nil)
    }

    @Test func anOversizedPayloadIsRefused() {
        let huge = String(repeating: "A", count: ROAMpayResponse.maximumEncodedLength + 4)
        #expect(appSwitchError { try ROAMpayResponse.decode(base64: huge) }?.description.contains("at most") == true)
    }
}
