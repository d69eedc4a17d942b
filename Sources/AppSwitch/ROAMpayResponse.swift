// ROAMpay X return (the ROAMpay X universal link guide §4.2–4.3): RPX opens `hostURL?transactionResponse=<base64 JSON>`.
import NavigationPolicy
import PlainviewURL
import PlainviewSupport
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What a transaction came to. The response codes are the ROAMpay X universal link guide's documented ones.
public enum ROAMpayOutcome: String, Sendable, Hashable, Codable, CaseIterable {
    /// `transactionResponseCode: "Approved"`.
    case approved
    /// `responseCode` 4945: "Transaction Cancelled by User".
    case cancelledByUser = "cancelled-by-user"
    /// `responseCode` 6010: "Reader Battery too low to complete payment".
    case readerBatteryLow = "reader-battery-low"
    /// `responseCode` 4995: "Invalid or Expired Session".
    case invalidSession = "invalid-session"
    /// `responseCode` 4999: "Unknown Error" (pre-login errors).
    case unknownError = "unknown-error"
    /// `responseCode` 4993: "Invalid Tender type".
    case invalidTenderType = "invalid-tender-type"
    /// A `transactionResponseCode` other than "Approved" (e.g. "Declined").
    case declined
    /// A `responseCode` the guide does not document, or neither code present.
    case unrecognized

    /// The documented `responseCode`, for the outcomes that have one.
    public var responseCode: String? {
        switch self {
        case .cancelledByUser: "4945"
        case .readerBatteryLow: "6010"
        case .invalidSession: "4995"
        case .unknownError: "4999"
        case .invalidTenderType: "4993"
        case .approved, .declined, .unrecognized: nil
        }
    }

    /// The guide's `clerkDisplay` text for the outcome.
    public var clerkDisplay: String {
        switch self {
        case .approved: "APPROVED"
        case .cancelledByUser: "Transaction Cancelled by User"
        case .readerBatteryLow: "Reader Battery too low to complete payment"
        case .invalidSession: "Invalid or Expired Session"
        case .unknownError: "Unknown Error"
        case .invalidTenderType: "Invalid Tender type"
        case .declined: "DECLINED"
        case .unrecognized: "Unrecognized response"
        }
    }

    /// The outcome a `responseCode` stands for.
    public init(responseCode: String) {
        self = ROAMpayOutcome.allCases.first { $0.responseCode == responseCode } ?? .unrecognized
    }
}

/// `submittedAmount` of an approved transaction. Amounts in cents.
public struct ROAMpayAmount: Sendable, Hashable, Codable {
    public var currency: String?
    public var total: Int?
    public var subTotal: Int?
    public init(currency: String? = nil, total: Int? = nil, subTotal: Int? = nil) {
        self.currency = currency
        self.total = total
        self.subTotal = subTotal
    }
}

/// One element of `transactions`, with every field the ROAMpay X universal link guide documents. Fields the guide does not name are
/// kept in `otherFields`. Text fields accept a JSON string or number (the guide's 4993 example gives
/// `responseCode` as a number); amounts accept a number or a digit string.
public struct ROAMpayTransaction: Sendable, Hashable, Encodable {
    public var responseCode: String?
    public var transactionResponseCode: String?
    public var clerkDisplay: String?
    public var customerDisplay: String?
    public var transactionID: String?
    public var transactionGUID: String?
    public var transactionGroupID: String?
    public var clientTransactionID: String?
    public var batchNumber: String?
    public var sequenceNumber: String?
    public var invoiceID: String?
    public var authCode: String?
    public var authorizedAmount: Int?
    public var submittedAmount: ROAMpayAmount?
    public var cardType: String?
    public var cardExpirationDate: String?
    public var transactionType: String?
    public var posEntryMode: String?
    public var cardVerificationMethod: String?
    public var emvData: AppSwitchJSON?
    public var tokenResponseParameters: AppSwitchJSON?
    public var otherFields: [String: AppSwitchJSON]

    public init(responseCode: String? = nil, transactionResponseCode: String? = nil, clerkDisplay: String? = nil) {
        self.responseCode = responseCode
        self.transactionResponseCode = transactionResponseCode
        self.clerkDisplay = clerkDisplay
        self.otherFields = [:]
    }

    /// The outcome: `responseCode` when present, else `transactionResponseCode` ("Approved" or not).
    public var outcome: ROAMpayOutcome {
        if let code = responseCode { return ROAMpayOutcome(responseCode: code) }
        if let t = transactionResponseCode { return t.lowercased() == "approved" ? .approved : .declined }
        return .unrecognized
    }

    /// The guide's example transaction for `outcome` (§4.2): the swipe-card response for `approved`,
    /// `responseCode` + `clerkDisplay` for the documented errors.
    public static func example(for outcome: ROAMpayOutcome) -> ROAMpayTransaction {
        switch outcome {
        case .approved:
            var t = ROAMpayTransaction(transactionResponseCode: "Approved", clerkDisplay: "APPROVED")
            t.emvData = .object(["emvOfflineData": .object([:])])
            t.batchNumber = "200326001"
            t.tokenResponseParameters = .object([:])
            t.transactionGUID = "fb1514ff-412a-4fea-95c1-b0d0e350c62b"
            t.submittedAmount = ROAMpayAmount(currency: "USD", total: 150000, subTotal: 152000)
            t.authCode = "PPS041"
            t.cardExpirationDate = "2412"
            t.transactionGroupID = "40596CC8-F21E-4249-A91B-C21D5B4A5EE4"
            t.invoiceID = "2516504"
            t.sequenceNumber = "3229"
            t.authorizedAmount = 150000
            t.cardType = "MasterCard"
            t.transactionType = "CreditSale"
            t.posEntryMode = "MagStripe"
            t.cardVerificationMethod = "Signature"
            t.clientTransactionID = "62A589C6-BCC6-491A-BDB5-1391A8A4B690"
            t.customerDisplay = "APPROVED"
            t.transactionID = "3046615"
            return t
        case .declined:
            return ROAMpayTransaction(transactionResponseCode: "Declined", clerkDisplay: outcome.clerkDisplay)
        case .unrecognized:
            return ROAMpayTransaction(responseCode: "9999", clerkDisplay: outcome.clerkDisplay)
        default:
            return ROAMpayTransaction(responseCode: outcome.responseCode, clerkDisplay: outcome.clerkDisplay)
        }
    }

    static var textFields: [(String, WritableKeyPath<ROAMpayTransaction, String?>)] {
        [
            ("responseCode", \.responseCode), ("transactionResponseCode", \.transactionResponseCode),
            ("clerkDisplay", \.clerkDisplay), ("customerDisplay", \.customerDisplay),
            ("transactionID", \.transactionID), ("transactionGUID", \.transactionGUID),
            ("transactionGroupID", \.transactionGroupID), ("clientTransactionID", \.clientTransactionID),
            ("batchNumber", \.batchNumber), ("sequenceNumber", \.sequenceNumber), ("invoiceID", \.invoiceID),
            ("authCode", \.authCode), ("cardType", \.cardType), ("cardExpirationDate", \.cardExpirationDate),
            ("transactionType", \.transactionType), ("posEntryMode", \.posEntryMode),
            ("cardVerificationMethod", \.cardVerificationMethod),
        ]
    }

    /// Reads one transaction object; `path` names it in errors (`transactions[0]`).
    init(json: [String: AppSwitchJSON], path: String) throws {
        self.init(responseCode: nil, transactionResponseCode: nil, clerkDisplay: nil)
        var rest = json
        for (key, keyPath) in Self.textFields {
            guard let value = rest.removeValue(forKey: key) else { continue }
            self[keyPath: keyPath] = try Self.text(value, path: "\(path).\(key)")
        }
        if let v = rest.removeValue(forKey: "authorizedAmount") {
            authorizedAmount = try Self.cents(v, path: "\(path).authorizedAmount")
        }
        if let v = rest.removeValue(forKey: "submittedAmount") {
            switch v {
            case .null: break
            case .object(var o):
                var amount = ROAMpayAmount()
                if let c = o.removeValue(forKey: "currency") {
                    amount.currency = try Self.text(c, path: "\(path).submittedAmount.currency")
                }
                if let t = o.removeValue(forKey: "total") {
                    amount.total = try Self.cents(t, path: "\(path).submittedAmount.total")
                }
                if let s = o.removeValue(forKey: "subTotal") {
                    amount.subTotal = try Self.cents(s, path: "\(path).submittedAmount.subTotal")
                }
                submittedAmount = amount
                for (k, v) in o { otherFields["submittedAmount.\(k)"] = v }
            default:
                throw AppSwitchError.malformedResponse(
                    field: "\(path).submittedAmount", reason: "must be an object, found \(v.typeName)")
            }
        }
        emvData = rest.removeValue(forKey: "emvData")
        tokenResponseParameters = rest.removeValue(forKey: "tokenResponseParameters")
        otherFields.merge(rest) { a, _ in a }
    }

    private static func text(_ value: AppSwitchJSON, path: String) throws -> String? {
        switch value {
        case .null: return nil
        case .string(let s): return s
        case .int(let i): return String(i)
        default:
            throw AppSwitchError.malformedResponse(
                field: path, reason: "must be a string or a whole number, found \(value.typeName)")
        }
    }

    private static func cents(_ value: AppSwitchJSON, path: String) throws -> Int? {
        switch value {
        case .null: return nil
        case .int(let i): return i
        case .double(let d) where d.rounded() == d && abs(d) < 9e15: return Int(d)
        case .string(let s) where ROAMpayRequest.isDigits(s) && s.count <= 15: return Int(s)
        default:
            throw AppSwitchError.malformedResponse(
                field: path, reason: "must be an amount in cents (a whole number), found \(value.typeName)")
        }
    }

    /// The JSON object RPX sends (only present fields; `responseCode` as a string).
    public var json: AppSwitchJSON {
        var o = otherFields.filter { !$0.key.hasPrefix("submittedAmount.") }
        for (key, keyPath) in Self.textFields { if let v = self[keyPath: keyPath] { o[key] = .string(v) } }
        if let a = authorizedAmount { o["authorizedAmount"] = .int(a) }
        if let s = submittedAmount {
            var a: [String: AppSwitchJSON] = [:]
            if let c = s.currency { a["currency"] = .string(c) }
            if let t = s.total { a["total"] = .int(t) }
            if let st = s.subTotal { a["subTotal"] = .int(st) }
            for (k, v) in otherFields where k.hasPrefix("submittedAmount.") {
                a[String(k.dropFirst("submittedAmount.".count))] = v
            }
            o["submittedAmount"] = .object(a)
        }
        if let e = emvData { o["emvData"] = e }
        if let t = tokenResponseParameters { o["tokenResponseParameters"] = t }
        return .object(o)
    }

    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ s: String) { stringValue = s }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// For reports (`plainview app parse`): the fields present, plus `outcome`.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        try c.encode(outcome, forKey: Key("outcome"))
        if case .object(let o) = json {
            for (k, v) in o { try c.encode(v, forKey: Key(k)) }
        }
    }
}

/// The decoded `transactionResponse` of a ROAMpay X return URL.
public struct ROAMpayResponse: Sendable, Hashable, Encodable {
    /// The return URL without its `transactionResponse` item (the app or page RPX opened), when parsed
    /// from a URL: `make(hostURL: h, …)` parses back to `h`.
    public var hostURL: String?
    public var transactions: [ROAMpayTransaction]

    public init(hostURL: String? = nil, transactions: [ROAMpayTransaction]) {
        self.hostURL = hostURL
        self.transactions = transactions
    }

    /// The first transaction's outcome (`unrecognized` when there is none).
    public var outcome: ROAMpayOutcome { transactions.first?.outcome ?? .unrecognized }

    /// Largest `transactionResponse` accepted (characters); RPX's payloads are a few kilobytes.
    public static let maximumEncodedLength = 1 << 20

    /// Reads `hostURL?transactionResponse=<base64 JSON>`. Like the guide's `openURL` code, the value after
    /// the last `transactionResponse=` is used. The base64 may be percent-encoded, URL-safe (`-_`),
    /// unpadded, or have had `+` turned into spaces by a form decoder; all are read back.
    public static func parse(url: String) throws -> ROAMpayResponse {
        guard let parts = AppSwitchURLParts(url) else {
            throw AppSwitchError.unrecognizedURL(url: url, expected: "an absolute URL (hostURL?transactionResponse=…)")
        }
        let values = parts.queryItems.filter { $0.name == "transactionResponse" }
        guard let last = values.last else {
            throw AppSwitchError.missingField(
                field: "transactionResponse", rule: "RPX returns hostURL?transactionResponse=<base64 JSON>")
        }
        var response = try decode(base64: last.rawValue ?? "")
        // hostURL: the URL as RPX was given it, i.e. without the transactionResponse item(s).
        var host = parts.base
        let rest = (parts.query ?? "").split(separator: "&", omittingEmptySubsequences: true).filter {
            let name = $0.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
            return (AppSwitchEncoding.decode(name) ?? name) != "transactionResponse"
        }
        if !rest.isEmpty { host += "?" + rest.joined(separator: "&") }
        if let fragment = parts.fragment { host += "#" + fragment }
        response.hostURL = host
        return response
    }

    /// Decodes the base64 of `transactionResponse` (see `parse(url:)` for what is tolerated).
    public static func decode(base64 raw: String) throws -> ROAMpayResponse {
        if raw.isEmpty {
            throw AppSwitchError.missingField(
                field: "transactionResponse", rule: "RPX returns hostURL?transactionResponse=<base64 JSON>")
        }
        if raw.utf8.count > maximumEncodedLength {
            throw AppSwitchError.malformedResponse(
                field: "transactionResponse",
                reason: "is \(raw.utf8.count) characters long; at most \(maximumEncodedLength) are read")
        }
        var text = raw
        if text.contains("%") {
            guard let d = AppSwitchEncoding.decode(text) else {
                throw AppSwitchError.malformedResponse(
                    field: "transactionResponse", reason: "has a % that is not followed by two hex digits")
            }
            text = d
        }
        var chars: [UInt8] = []
        for b in text.utf8 {
            switch b {
            case UInt8(ascii: " "): chars.append(UInt8(ascii: "+")) // a form decoder turned + into space
            case UInt8(ascii: "-"): chars.append(UInt8(ascii: "+")) // base64url
            case UInt8(ascii: "_"): chars.append(UInt8(ascii: "/"))
            case UInt8(ascii: "\r"), UInt8(ascii: "\n"), UInt8(ascii: "\t"): continue
            default: chars.append(b)
            }
        }
        while chars.last == UInt8(ascii: "=") { chars.removeLast() }
        if let bad = chars.first(where: {
            !(AppSwitchEncoding.isUnreserved($0) || $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "/")) || $0 == UInt8(ascii: ".")
                || $0 == UInt8(ascii: "~")
        }) {
            throw AppSwitchError.malformedResponse(
                field: "transactionResponse",
                reason: "is not base64: it contains \(AppSwitchError.quote(String(decoding: [bad], as: UTF8.self)))")
        }
        if chars.count % 4 == 1 {
            throw AppSwitchError.malformedResponse(
                field: "transactionResponse", reason: "is not base64: its length is impossible (truncated?)")
        }
        while chars.count % 4 != 0 { chars.append(UInt8(ascii: "=")) }
        guard let data = Data(base64Encoded: Data(chars)) else {
            throw AppSwitchError.malformedResponse(field: "transactionResponse", reason: "is not valid base64")
        }
        return try decode(json: data)
    }

    /// Decodes the JSON payload (`{"transactions": [ … ]}`) that RPX sends, as in the ROAMpay X universal link guide §4.2.
    public static func decode(json data: Data) throws -> ROAMpayResponse {
        guard String(validating: Array(data), as: UTF8.self) != nil else {
            throw AppSwitchError.malformedResponse(
                field: "transactionResponse", reason: "does not decode to UTF-8 text, so it is not the JSON RPX sends")
        }
        let value: AppSwitchJSON
        do {
            value = try JSONDecoder().decode(AppSwitchJSON.self, from: data)
        } catch {
            let where_ = JSONSyntax.firstError(in: Array(data)) ?? Self.describe(error)
            throw AppSwitchError.malformedResponse(field: "transactionResponse", reason: "is not valid JSON (\(where_))")
        }
        guard case .object(let root) = value else {
            throw AppSwitchError.malformedResponse(
                field: "transactionResponse", reason: "must be a JSON object {\"transactions\": […]}, found \(value.typeName)")
        }
        guard let list = root["transactions"] else {
            throw AppSwitchError.malformedResponse(field: "transactionResponse", reason: "has no \"transactions\" array")
        }
        guard case .array(let items) = list else {
            throw AppSwitchError.malformedResponse(field: "transactions", reason: "must be an array, found \(list.typeName)")
        }
        var transactions: [ROAMpayTransaction] = []
        for (i, item) in items.enumerated() {
            guard case .object(let o) = item else {
                throw AppSwitchError.malformedResponse(
                    field: "transactions[\(i)]", reason: "must be an object, found \(item.typeName)")
            }
            transactions.append(try ROAMpayTransaction(json: o, path: "transactions[\(i)]"))
        }
        return ROAMpayResponse(transactions: transactions)
    }

    /// The JSON RPX would send for these transactions (keys sorted).
    public func jsonData() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(AppSwitchJSON.object(["transactions": .array(transactions.map(\.json))]))
    }

    /// Builds the return URL RPX opens: `hostURL` + `?transactionResponse=` + standard base64 (`+/=` kept
    /// raw, as the guide's `openURL` code reads the value without percent-decoding). `&` when `hostURL`
    /// already has a query.
    public static func make(hostURL: String, transactions: [ROAMpayTransaction]) throws -> String {
        try ROAMpayRequest.validateHostURL(hostURL)
        let base64 = try ROAMpayResponse(transactions: transactions).jsonData().base64EncodedString()
        // The item goes into the query, before any fragment.
        var head = Substring(hostURL), fragment = ""
        if let hash = hostURL.firstIndex(of: "#") {
            head = hostURL[..<hash]
            fragment = String(hostURL[hash...])
        }
        let separator = head.contains("?") ? (head.hasSuffix("?") || head.hasSuffix("&") ? "" : "&") : "?"
        return "\(head)\(separator)transactionResponse=\(base64)\(fragment)"
    }

    /// The return URL for one documented outcome, using the guide's example transaction for it.
    public static func make(hostURL: String, outcome: ROAMpayOutcome) throws -> String {
        try make(hostURL: hostURL, transactions: [ROAMpayTransaction.example(for: outcome)])
    }

    private static func describe(_ error: any Error) -> String {
        if let e = error as? DecodingError {
            switch e {
            case .dataCorrupted(let c): return Self.underlying(c)
            case .typeMismatch(_, let c), .valueNotFound(_, let c), .keyNotFound(_, let c): return Self.underlying(c)
            @unknown default: return "\(e)"
            }
        }
        return "\(error)"
    }

    private static func underlying(_ c: DecodingError.Context) -> String {
        if let u = c.underlyingError { return "\(c.debugDescription) \(u)" }
        return c.debugDescription
    }

    private enum CodingKeys: String, CodingKey { case hostURL, outcome, transactions }
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeIfPresent(hostURL, forKey: .hostURL)
        try c.encode(outcome, forKey: .outcome)
        try c.encode(transactions, forKey: .transactions)
    }
}
