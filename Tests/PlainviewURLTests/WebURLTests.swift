@testable import PlainviewURL
import Testing

@Suite struct WebURLTests {
    @Test(arguments: [
        ("HTTPS://Shop.Example.COM:443", "https://shop.example.com/"),
        ("http://shop.example.com:80/a/./b/../c?x=1#f", "http://shop.example.com/a/c?x=1#f"),
        ("https:\\\\shop.example.com\\a\\b", "https://shop.example.com/a/b"),
        ("https:shop.example.com/x", "https://shop.example.com/x"),
        ("https://user:pw@shop.example.com:8443/", "https://user:pw@shop.example.com:8443/"),
        ("https://b\u{FC}cher.de/", "https://xn--bcher-kva.de/"),
        ("https://0x7f.1/", "https://127.0.0.1/"),
        ("https://[0:0::1]/", "https://[::1]/"),
        ("https://[::ffff:192.168.0.1]/", "https://[::ffff:c0a8:1]/"),
        ("https://shop.example.com/a b?c d#e f", "https://shop.example.com/a%20b?c%20d#e%20f"),
        ("bankid:///?autostarttoken=x", "bankid:///?autostarttoken=x"),
        ("swish://paymentrequest?token=1", "swish://paymentrequest?token=1"),
        ("mailto:a@b.example", "mailto:a@b.example"),
        ("javascript:alert(1)", "javascript:alert(1)"),
    ])
    func normalises(_ input: String, _ href: String) {
        #expect(WebURL(input)?.href == href)
    }

    @Test(arguments: [
        "", "https://", "https://a b/", "https://[::1/", "https://x:70000/", "https://x:8o/", "1http://x/",
        "https://%00/", "https://a@/", "http://[1:2:3:4:5:6:7:8:9]/", "://x",
    ])
    func rejects(_ input: String) {
        #expect(WebURL(input) == nil)
    }

    @Test func queryItemsAreDecodedAndOrderFree() {
        let u = WebURL("https://x.example/p?b=2&a=1+1&c=%26")
        #expect(
            u?.queryItems.sorted() == [
                .init(name: "a", value: "1 1"), .init(name: "b", value: "2"), .init(name: "c", value: "&"),
            ])
    }

    @Test(arguments: [
        ("Shop.Example.com.", "shop.example.com"),
        ("B\u{FC}cher.DE", "xn--bcher-kva.de"),
        ("shop\u{3002}example\u{FF0E}com", "shop.example.com"),
        ("xn--bcher-kva.de", "xn--bcher-kva.de"),
        ("192.168.0.1", "192.168.0.1"),
        ("[::1]", "[::1]"),
    ])
    func hostNamesNormalise(_ raw: String, _ expected: String) {
        #expect(HostName.normalize(raw) == expected)
    }

    @Test(arguments: ["", ".", "a..", "exa mple.com", "a/b", "a@b", "a:b", "\u{FFFD}.com", "256.256.256.256"])
    func badHostNamesAreNil(_ raw: String) {
        #expect(HostName.normalize(raw) == nil)
    }

    @Test func punycodeRoundTrips() {
        // RFC 3492 §7.1 sample (A) Arabic (Egyptian) and (L) 3<nen>B<gumi><kinpachi><sensei>.
        let arabic =
            "\u{644}\u{64A}\u{647}\u{645}\u{627}\u{628}\u{62A}\u{643}\u{644}\u{645}\u{648}\u{634}\u{639}\u{631}\u{628}\u{64A}\u{61F}"
        #expect(Punycode.encode(Array(arabic.unicodeScalars)) == "egbpdaj6bu4bxfgehfvwxn")
        #expect(Punycode.decode("egbpdaj6bu4bxfgehfvwxn").map { String(String.UnicodeScalarView($0)) } == arabic)
        let l = "3\u{5E74}B\u{7D44}\u{91D1}\u{516B}\u{5148}\u{751F}"
        #expect(Punycode.encode(Array(l.unicodeScalars))?.lowercased() == "3b-ww4c5e180e575a65lsy2b")
        #expect(Punycode.decode("99999999999999999999") == nil)
        #expect(Punycode.decode("t\u{E9}st") == nil)
    }
}
