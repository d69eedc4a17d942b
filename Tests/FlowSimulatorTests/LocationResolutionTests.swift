@testable import NavigationPolicy
import Testing
@testable import FlowSimulator
import PlainviewURL

/// A `Location` header is resolved as a browser resolves it (the URL core), and the policy is asked about
/// where it really goes (issue 13: `\\host` used to stay on the page's host as a path and pass as own-host).
@Suite struct LocationResolutionTests {
    static let target = "https://acs.bank.example/3ds?x=1"

    @Test func aBackslashLocationGoesToTheOtherHostAndThePolicyIsAsked() throws {
        let flow = testFlow([
            redirect("https://shop.example.com/start", "https://shop.example.com/go"),
            redirect("https://shop.example.com/go", #"\\acs.bank.example/3ds?x=1"#),
            redirect(Self.target, "https://shop.example.com/complete"),
        ])
        let r = Simulator.runBranch(flow)
        let navigations = r.events.filter { $0.event == .navigate && $0.context == "webview" }.compactMap(\.url)
        #expect(navigations.contains(Self.target), "\(navigations)")
        #expect(!navigations.contains { $0.contains("%5C") }, "\(navigations)")
        // The decision that follows the navigation to the bank is about the bank, not the shop's own host.
        let i = try #require(r.events.firstIndex { $0.event == .navigate && $0.url == Self.target })
        let decision = try #require(r.events[(i + 1)...].first { $0.event == .decide })
        #expect(decision.rule != nil)
        #expect(decision.rule != "web.own-host", "\(decision.text)")
        let ownHost = r.events.first { $0.event == .decide && $0.rule == "web.own-host" }
        #expect(ownHost != nil, "the shop's own redirect is decided as own-host")
    }

    @Test(
        arguments: [
            ("/\\acs.bank.example/3ds?x=1", "https://acs.bank.example/3ds?x=1"),
            ("https:\\\\acs.bank.example/3ds?x=1", "https://acs.bank.example/3ds?x=1"),
            ("../a/./b?q#f", "https://shop.example.com/a/b?q#f"),
            (" //acs.bank.example:443/x ", "https://acs.bank.example/x"),
            ("bankapp:///sign?t=1", "bankapp:///sign?t=1"),
            ("//a b/", nil),
        ] as [(String, String?)])
    func locationsResolveAsInABrowser(_ location: String, _ expected: String?) {
        #expect(URLTools.resolve(location, against: "https://shop.example.com/go") == expected)
    }

    @Test func hostsPageKeysAndFormURLsComeFromTheURLCore() {
        #expect(URLTools.host("https://Shop.Example.COM.:443/x") == "shop.example.com")
        #expect(URLTools.host("https://shop.example.com:65536/x") == nil)
        #expect(URLTools.host("bankapp://x/y") == nil)
        #expect(URLTools.pageKey("HTTPS://Shop.Example.com.:443/a/../b#frag") == "https://shop.example.com/b")
        #expect(URLTools.pageKey("https://shop.example.com") == "https://shop.example.com/")
        #expect(
            URLTools.formGetURL(action: "https://shop.example.com/s?old=1#f", fields: [("q", "a b&c"), ("é", "*")])
                == "https://shop.example.com/s?q=a+b%26c&%C3%A9=*")
        #expect(HelperBridge.split("https://Shop.example.com:443/x/y?z=1#f")! == ("https://shop.example.com", "/x/y?z=1"))
        #expect(HelperBridge.split("http://shop.example.com:8080")! == ("http://shop.example.com:8080", "/"))
        #expect(HelperBridge.split("bankapp://x/y") == nil)
    }
}
