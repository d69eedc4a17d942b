@testable import PlainviewURL
import Testing

/// The one scheme list: special schemes with their default ports and the decision classes.
@Suite struct SchemeKindTests {
    @Test func specialSchemesAndTheirDefaultPorts() {
        for (scheme, port) in SchemeKind.special {
            #expect(SchemeKind.specialDefaultPort(scheme) == .some(port), "\(scheme)")
        }
        #expect(SchemeKind.specialDefaultPort("intent") == nil)
        #expect(SchemeKind.special.count == 6)
        #expect(WebURL("wss://h.example:443/")?.port == nil)
        #expect(WebURL("ftp://h.example:21/")?.port == nil)
    }

    @Test(arguments: [
        ("https", SchemeKind.web), ("HTTP", .web), ("intent", .intent), ("android-app", .intent),
        ("javascript", .neverExternal), ("JavaScript", .neverExternal), ("ws", .neverExternal), ("chrome", .neverExternal),
        ("content", .neverExternal), ("bankid", .custom), ("swish", .custom), ("mailto", .custom),
    ])
    func classes(_ scheme: String, _ kind: SchemeKind) {
        #expect(SchemeKind(scheme: scheme) == kind)
        #expect(SchemeKind.isCustom(scheme) == (kind == .custom))
    }

    @Test func classOfAURLString() {
        #expect(SchemeKind(url: "  JavaScript:alert(1)") == .neverExternal)
        #expect(SchemeKind(url: "intent://x#Intent;end") == .intent)
        #expect(SchemeKind(url: "/relative") == nil)
        #expect(WebURL.scheme(of: "\tHTTPS://x") == "https")
    }
}
