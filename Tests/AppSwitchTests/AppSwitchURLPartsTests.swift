@testable import AppSwitch
import Testing

/// AppSwitchURLParts reads scheme, host and path through the URL core and keeps the query as written.
@Suite struct AppSwitchURLPartsTests {
    @Test func hostsAreTheHostsABrowserContacts() throws {
        #expect(AppSwitchURLParts(#"https://evil.example\@app.bankid.com/"#)?.host == "evil.example")
        #expect(AppSwitchURLParts("https://app.bankid.com@evil.example/")?.host == "evil.example")
        #expect(AppSwitchURLParts("https://APP.BankID.com.:443/")?.host == "app.bankid.com")
        #expect(AppSwitchURLParts("https://APP.BankID.com.:443/")?.port == nil)
        #expect(AppSwitchURLParts("https://app.bankid.com:65536/") == nil)
        #expect(AppSwitchURLParts("swish://PaymentRequest?token=a")?.host == "paymentrequest")
        #expect(AppSwitchURLParts("https:///nohost")?.host == nil)
        #expect(AppSwitchURLParts("https://a b/") == nil)
    }

    @Test func queryAndFragmentStayAsWritten() throws {
        let p = try #require(
            AppSwitchURLParts("bankid:///?autostarttoken=ab%2Fc&redirect=https%3A%2F%2Fx.example%2F%3Fa%3D'é'#f"))
        #expect(p.scheme == "bankid")
        #expect(p.host == nil)
        #expect(p.hasAuthority)
        #expect(p.path == "/")
        #expect(p.query == "autostarttoken=ab%2Fc&redirect=https%3A%2F%2Fx.example%2F%3Fa%3D'é'")
        #expect(p.fragment == "f")
        #expect(p.base == "bankid:///")
    }
}
