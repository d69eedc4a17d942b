import AppSwitch
import ArgumentParser
import Foundation
import NavigationPolicy

struct AppSwish: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "swish",
        abstract: "Build swish://paymentrequest?token=…&callbackurl=… (callback encoded once).")

    @Option(help: "The payment request token from Swish.")
    var token: String
    @Option(help: "The URL Swish opens when done: your app's own scheme (shopapp://…) or an https page.")
    var callback: String
    @OptionGroup var output: AppOutputOptions

    func run() async throws {
        let launch = try AppOutput.run { try SwishLaunch(token: token, callbackURL: callback) }
        for note in launch.notes { printError("note: \(note)") }
        print(output.json ? try AppOutput.json(launch) : launch.url)
    }
}

struct AppBankID: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bankid",
        abstract: "Build bankid:///?autostarttoken=…&redirect=… (or the https://app.bankid.com/ link).")

    @Option(help: "The autoStartToken from BankID (a UUID).")
    var autostarttoken: String
    @Option(help: "Where BankID returns: a URL, or 'null' for the previous app. Omitted: no redirect parameter.")
    var redirect: String?
    @Flag(help: "Build the universal link https://app.bankid.com/?… instead of bankid:///?….")
    var universal = false
    @OptionGroup var output: AppOutputOptions

    func run() async throws {
        let target: BankIDRedirect =
            switch redirect {
            case nil: .absent
            case let r? where r.lowercased() == "null": .previousApp
            case let r?: .url(r)
            }
        let launch = try AppOutput.run {
            try BankIDLaunch(autoStartToken: autostarttoken, redirect: target, form: universal ? .universalLink : .scheme)
        }
        print(output.json ? try AppOutput.json(launch) : launch.url)
    }
}

struct AppROAMpay: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "roampay",
        abstract: "Build a ROAMpay X universal link https://…/transaction/?amount=…&authToken=…&hostURL=….")

    @Option(help: "The link's base (https, with a host).")
    var base: String = ROAMpay.defaultBase
    @Option(help: "Amount in cents: digits, > 0 and <= 10000000.")
    var amount: String
    @Option(name: .customLong("auth-token"), help: "Security token from /wsapi/SecurityTokens.")
    var authToken: String
    @Option(name: .customLong("host-url"), help: "Where RPX returns: yourscheme:// (native) or an http(s) URL (web).")
    var hostURL: String
    @Option(help: "Tip in cents (digits).")
    var tip: String?
    @Option(help: "Tax in percent: ^\\d{1,3}(\\.\\d{1,3})?$, 0…100.")
    var tax: String?
    @Option(name: .customLong("invoice-id"), help: "[a-zA-Z0-9]{0,15}.")
    var invoiceID: String?
    @Option(name: .customLong("transaction-notes"), help: "Printable ASCII, at most 200 characters.")
    var transactionNotes: String?
    @Option(name: .customLong("custom-reference-number"), help: "[-a-zA-Z0-9]{0,20}.")
    var customReferenceNumber: String?
    @Option(name: .customLong("login-strategy"), help: "normal | readerserialnumber.")
    var loginStrategy: String?
    @Option(name: .customLong("tender-type"), help: "cash | keyed | card | keyedonpinpad.")
    var tenderType: String?
    @OptionGroup var output: AppOutputOptions

    private struct Built: Encodable {
        var url: String
        var hostKind: ROAMpayRequest.HostKind
        var request: ROAMpayRequest
    }

    func run() async throws {
        let (request, url) = try AppOutput.run { () throws -> (ROAMpayRequest, String) in
            var r = ROAMpayRequest(
                base: base, amount: amount, authToken: authToken, hostURL: hostURL, tip: tip, tax: tax,
                invoiceID: invoiceID, transactionNotes: transactionNotes, customReferenceNumber: customReferenceNumber)
            if let loginStrategy {
                guard let v = ROAMpayLoginStrategy(rawValue: loginStrategy.lowercased()) else {
                    throw AppSwitchError.invalidField(
                        field: "loginStrategy", rule: #"must be "normal" or "readerserialnumber""#, value: loginStrategy)
                }
                r.loginStrategy = v
            }
            if let tenderType {
                guard let v = ROAMpayTenderType(rawValue: tenderType.lowercased()) else {
                    throw AppSwitchError.invalidField(
                        field: "tenderType", rule: #"must be "cash", "keyed", "card" or "keyedonpinpad""#, value: tenderType)
                }
                r.tenderType = v
            }
            return (r, try r.url())
        }
        print(output.json ? try AppOutput.json(Built(url: url, hostKind: request.hostKind, request: request)) : url)
    }
}

extension ROAMpayOutcome: ExpressibleByArgument {}

struct AppROAMpayResponse: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "roampay-response",
        abstract: "Build the return URL ROAMpay X opens for a documented outcome (hostURL?transactionResponse=…).")

    @Option(name: .customLong("host-url"), help: "The hostURL of the request: yourscheme:// or an http(s) URL.")
    var hostURL: String
    @Option(
        help:
            "approved | cancelled-by-user (4945) | reader-battery-low (6010) | invalid-session (4995) | unknown-error (4999) | invalid-tender-type (4993) | declined | unrecognized."
    )
    var outcome: ROAMpayOutcome = .approved
    @OptionGroup var output: AppOutputOptions

    func run() async throws {
        let url = try AppOutput.run { try ROAMpayResponse.make(hostURL: hostURL, outcome: outcome) }
        if output.json {
            let parsed = try AppOutput.run { try ROAMpayResponse.parse(url: url) }
            print(try AppOutput.json(["url": AppSwitchJSON.string(url), "response": try jsonValue(parsed)]))
        } else {
            print(url)
        }
    }

    private func jsonValue(_ value: some Encodable) throws -> AppSwitchJSON {
        try JSONDecoder().decode(AppSwitchJSON.self, from: JSONEncoder().encode(value))
    }
}

struct AppParse: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "parse",
        abstract: "Decode a Swish, BankID or ROAMpay X URL (launch or return) to JSON.",
        discussion: "Recognises swish://paymentrequest?…, bankid:///?… and https://app.bankid.com/?…, "
            + "ROAMpay X links (https://…/transaction/?amount=…) and returns (…?transactionResponse=<base64 JSON>). "
            + "With --swish-callback, URL is read as that registered callback coming back from Swish.")

    @Argument(help: "The URL to decode.")
    var url: String
    @Option(name: .customLong("swish-callback"), help: "The callback URL the Swish launch registered.")
    var swishCallback: String?

    func run() async throws {
        let message = try AppOutput.run { try AppSwitchMessage.parse(url, swishCallback: swishCallback) }
        print(try AppOutput.json(message))
    }
}
