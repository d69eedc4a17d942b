@testable import AppSwitch
import Testing
@testable import NavigationPolicy

@Suite struct BankIDTests {
    static let token = "7c40b5c9-fa74-49cf-b98c-bfe651f9a7c6"

    struct Built: Sendable, CustomStringConvertible {
        var redirect: BankIDRedirect
        var form: BankIDLaunchForm
        var url: String
        var description: String { url }
    }

    @Test(arguments: [
        Built(redirect: .previousApp, form: .scheme, url: "bankid:///?autostarttoken=\(token)&redirect=null"),
        Built(redirect: .previousApp, form: .universalLink, url: "https://app.bankid.com/?autostarttoken=\(token)&redirect=null"),
        Built(redirect: .absent, form: .scheme, url: "bankid:///?autostarttoken=\(token)"),
        Built(
            redirect: .url("shopapp://bankid?order=42"), form: .scheme,
            url: "bankid:///?autostarttoken=\(token)&redirect=shopapp%3A%2F%2Fbankid%3Forder%3D42"),
        Built(
            redirect: .url("https://shop.example/pay?o=1&fallback=true"), form: .universalLink,
            url:
                "https://app.bankid.com/?autostarttoken=\(token)&redirect=https%3A%2F%2Fshop.example%2Fpay%3Fo%3D1%26fallback%3Dtrue"
        ),
        Built(redirect: .url("null"), form: .scheme, url: "bankid:///?autostarttoken=\(token)&redirect=null"),
    ])
    func buildsBothFormsWithTheRedirectEncodedOnce(_ c: Built) throws {
        let launch = try BankIDLaunch(autoStartToken: Self.token, redirect: c.redirect, form: c.form)
        #expect(launch.url == c.url)
        // Round trip: the parsed launch names the same redirect.
        let parsed = try BankIDLaunch.parse(launch.url)
        #expect(parsed == launch)
    }

    @Test func redirectNullMeansPreviousApp() throws {
        #expect(try BankIDLaunch.parse("bankid:///?autostarttoken=\(Self.token)&redirect=null").redirect == .previousApp)
        #expect(try BankIDLaunch.parse("bankid:///?autostarttoken=\(Self.token)&redirect=NULL").redirect == .previousApp)
        #expect(try BankIDLaunch.parse("bankid:///?autostarttoken=\(Self.token)").redirect == .absent)
        #expect(try BankIDLaunch.parse("bankid:///?autostarttoken=\(Self.token)&redirect=").redirect == .absent)
    }

    @Test func parseReadsTheRedirectToFollow() throws {
        let launch = try BankIDLaunch.parse(
            "https://app.bankid.com/?autostarttoken=\(Self.token)&redirect=shopapp%3A%2F%2Fback%3Fa%3D1%2520b")
        #expect(launch.form == .universalLink)
        #expect(launch.redirect == .url("shopapp://back?a=1%20b"))
        #expect(launch.autoStartToken == Self.token)
    }

    @Test func theDefaultHTTPSPortIsTheSameUniversalLink() throws {
        #expect(try BankIDLaunch.parse("https://APP.bankid.com:443/?autostarttoken=\(Self.token)").form == .universalLink)
        #expect(appSwitchError { try BankIDLaunch.parse("https://app.bankid.com:8443/?autostarttoken=\(Self.token)") } != nil)
    }

    @Test func parseAcceptsALaunchWithoutToken() throws {
        #expect(try BankIDLaunch.parse("bankid:///?redirect=null").autoStartToken == nil)
        #expect(try BankIDLaunch.parse("bankid://").redirect == .absent)
    }

    @Test(arguments: [
        Self.token, Self.token.uppercased(), "00000000-0000-0000-0000-000000000000",
    ])
    func uuidTokensAreValid(_ t: String) {
        #expect(BankID.isValidAutoStartToken(t))
    }

    @Test(arguments: [
        "", "7c40b5c9fa7449cfb98cbfe651f9a7c6", "7c40b5c9-fa74-49cf-b98c-bfe651f9a7c", "7c40b5c9-fa74-49cf-b98c-bfe651f9a7c6a",
        "7c40b5c9_fa74-49cf-b98c-bfe651f9a7c6", "7g40b5c9-fa74-49cf-b98c-bfe651f9a7c6", "{7c40b5c9-fa74-49cf-b98c-bfe651f9a7c}",
        "7c40b5c9-fa74-49cf-b98c-bfe651f9a7c６",
    ])
    func malformedTokensAreRejectedNamingTheField(_ t: String) {
        #expect(!BankID.isValidAutoStartToken(t))
        let error = appSwitchError { try BankIDLaunch(autoStartToken: t) }
        #expect(error?.field == "autostarttoken")
    }

    @Test(arguments: [
        "javascript:alert(1)", "data:text/html,x", "file:///x", "bankid:///?redirect=null",
        "https://app.bankid.com/", "not a url", "https:///x", "",
    ])
    func unsafeOrLoopingRedirectsAreRejected(_ r: String) {
        let error = appSwitchError { try BankIDLaunch(autoStartToken: Self.token, redirect: .url(r)) }
        #expect(error?.field == "redirect")
    }

    @Test(arguments: [
        "bankid://host/?autostarttoken=\(token)",
        "bankid:///other?autostarttoken=\(token)",
        "https://app.bankid.com/path?autostarttoken=\(token)",
        "https://app.bankid.com.evil.example/?autostarttoken=\(token)",
        "http://app.bankid.com/?autostarttoken=\(token)",
        "bankid:///?autostarttoken=not-a-uuid",
        "bankid:///?autostarttoken=\(token)&autostarttoken=\(token)",
        "bankid:///?autostarttoken=\(token)&redirect=javascript%3Aalert(1)",
        "bankid:///?autostarttoken=\(token)&redirect=https%253A%252F%252Fshop.example%252F",
    ])
    func malformedLaunchURLsAreErrors(_ url: String) {
        #expect(appSwitchError { try BankIDLaunch.parse(url) } != nil)
    }

    @Test func doubleEncodedRedirectIsNamed() {
        let e = appSwitchError {
            try BankIDLaunch.parse("bankid:///?autostarttoken=\(Self.token)&redirect=shopapp%253A%252F%252F")
        }
        #expect(e?.field == "redirect")
        #expect(e?.description.contains("twice") == true)
    }
}
