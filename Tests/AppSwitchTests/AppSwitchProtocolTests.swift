@testable import AppSwitch
import Testing
@testable import NavigationPolicy

/// The `AppSwitchError` `body` throws; nil (and a recorded issue) when it succeeds or throws something else.
func appSwitchError<T>(_ body: () throws -> T, sourceLocation: SourceLocation = #_sourceLocation) -> AppSwitchError? {
    do {
        let value = try body()
        Issue.record("expected an AppSwitchError, got \(value)", sourceLocation: sourceLocation)
        return nil
    } catch let error as AppSwitchError {
        return error
    } catch {
        Issue.record("expected an AppSwitchError, got \(error)", sourceLocation: sourceLocation)
        return nil
    }
}

@Suite struct AppSwitchProtocolTests {
    struct Case: Sendable, CustomStringConvertible {
        var url: String
        var app: KnownApp?
        var description: String { url }
    }

    @Test(arguments: [
        Case(url: "swish://paymentrequest?token=T&callbackurl=x", app: .swish),
        Case(url: "SWISH://", app: .swish),
        Case(url: "bankid:///?autostarttoken=x&redirect=null", app: .bankID),
        Case(url: "BankID:///", app: .bankID),
        Case(url: "https://app.bankid.com/?autostarttoken=x", app: .bankID),
        Case(url: "https://APP.BANKID.COM./?autostarttoken=x", app: .bankID),
        Case(url: "https://app.bankid.com:443/", app: .bankID),
        Case(url: "https://assets.roamdata.com/transaction/?amount=1", app: .roampayX),
        Case(url: "https://assets.roamdata.com/transaction?amount=1", app: .roampayX),
        Case(url: "intent://x#Intent;scheme=bankid;package=com.bankid.bus;end", app: .bankID),
        Case(url: "intent://x#Intent;package=se.bankgirot.swish;end", app: .swish),
        // Look-alikes and tricks are not recognised.
        Case(url: "https://app.bankid.com.evil.example/", app: nil),
        Case(url: "https://evilapp.bankid.com/", app: nil),
        Case(url: "https://app.bankid.com@evil.example/", app: nil),
        Case(url: "https://evil.example\\@app.bankid.com/", app: nil),
        Case(url: "http://app.bankid.com/", app: nil),
        Case(url: "https://assets.roamdata.com/other/", app: nil),
        Case(url: "https://shop.example/?swish://", app: nil),
        Case(url: "javascript:swish://", app: nil),
        Case(url: "swishy://", app: nil),
        Case(url: "not a url", app: nil),
        Case(url: "", app: nil),
    ])
    func identifiesTheAppAURLOpens(_ c: Case) {
        #expect(AppSwitchProtocol.identify(url: c.url) == c.app)
    }

    @Test func knownAppsCarryNamesSchemesAndHosts() {
        #expect(KnownApp.swish.displayName == "Swish")
        #expect(KnownApp.swish.schemes == ["swish"])
        #expect(KnownApp.swish.androidPackage == "se.bankgirot.swish")
        #expect(KnownApp.bankID.universalLinkHosts == ["app.bankid.com"])
        #expect(KnownApp.bankID.androidPackage == "com.bankid.bus")
        #expect(KnownApp.roampayX.universalLinkHosts == ["assets.roamdata.com"])
        #expect(KnownApp.roampayX.displayName == "ROAMpay X")
    }

    @Test func notInstalledMessageNamesTheApp() {
        #expect(KnownApp.notInstalledMessage(url: "swish://paymentrequest") == "Swish is not installed")
        #expect(KnownApp.notInstalledMessage(url: "https://shop.example/") == nil)
    }

    @Test func dispatcherRecognisesEachKind() throws {
        #expect(try AppSwitchMessage.parse("swish://paymentrequest?token=T&callbackurl=m%3A%2F%2F").kind == "swish-launch")
        #expect(try AppSwitchMessage.parse("bankid:///?redirect=null").kind == "bankid-launch")
        #expect(
            try AppSwitchMessage.parse("https://app.bankid.com/?autostarttoken=7c40b5c9-fa74-49cf-b98c-bfe651f9a7c6").kind
                == "bankid-launch")
        #expect(
            try AppSwitchMessage.parse("https://assets.roamdata.com/transaction/?amount=1&authToken=t&hostURL=app://").kind
                == "roampay-request")
        #expect(
            try AppSwitchMessage.parse("https://debug.example/transaction/?amount=1&authToken=t&hostURL=app://").kind
                == "roampay-request")
        let back = try ROAMpayResponse.make(hostURL: "app://", outcome: .approved)
        #expect(try AppSwitchMessage.parse(back).kind == "roampay-response")
        #expect(try AppSwitchMessage.parse("shopapp://swish?x=1", swishCallback: "shopapp://swish").kind == "swish-callback")
    }

    @Test func launchesSayWhereTheUserComesBack() throws {
        #expect(
            try AppSwitchMessage.parse("swish://paymentrequest?token=T&callbackurl=shopapp%3A%2F%2Fdone").whenDone
                == .url("shopapp://done"))
        #expect(try AppSwitchMessage.parse("bankid:///?redirect=null").whenDone == .previousApp)
        #expect(try AppSwitchMessage.parse("bankid:///").whenDone == AppSwitchReturn.none)
        #expect(
            try AppSwitchMessage.parse("https://app.bankid.com/?redirect=https%3A%2F%2Fshop.example%2Fpay").whenDone
                == .url("https://shop.example/pay"))
        #expect(
            try AppSwitchMessage.parse("https://assets.roamdata.com/transaction/?amount=1&authToken=t&hostURL=shopapp://")
                .whenDone == .url("shopapp://"))
        #expect(try AppSwitchMessage.parse(try ROAMpayResponse.make(hostURL: "shopapp://", outcome: .approved)).whenDone == nil)
    }

    @Test(arguments: ["https://shop.example/checkout", "mailto:a@b.example", "not a url", "javascript:alert(1)"])
    func dispatcherRejectsOtherURLs(_ url: String) {
        #expect(appSwitchError { try AppSwitchMessage.parse(url) } != nil)
    }

    @Test func errorsReadAsSentences() {
        let e = AppSwitchError.invalidField(field: "amount", rule: "must be > 0", value: "0")
        #expect(e.description == #"amount: must be > 0 (got "0")"#)
        #expect(AppSwitchError.missingField(field: "hostURL", rule: "x").description == "hostURL: is required; x")
        #expect(AppSwitchError.invalidField(field: "f", rule: "r", value: "a\nb").description.contains("a\\nb"))
    }

    @Test func percentDecodingRejectsBrokenEscapes() {
        #expect(AppSwitchEncoding.decode("a%2") == nil)
        #expect(AppSwitchEncoding.decode("a%zz") == nil)
        #expect(AppSwitchEncoding.decode("%FF") == nil) // not UTF-8
        #expect(AppSwitchEncoding.decode("a+b%20c") == "a+b c")
    }
}
