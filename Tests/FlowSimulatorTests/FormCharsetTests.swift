import Testing
import TestSupport
@testable import FlowSimulator

/// A GET form is submitted in the encoding of its page: from a windows-1252 page, `ø` is `%F8` (what WebKit and
/// Chromium send), so only the recording at `?name=Bj%F8rn` answers.
@Suite struct FormCharsetTests {
    static func run(contentType: String, meta: String = "") throws -> String {
        try ShopFlow.outcome(
            """
            pages:
              - url: https://shop.example.com/pay
                headers: {Content-Type: "\(contentType)"}
                body: "\(meta)<form action=/next><input name=name value='Bj&#248;rn'></form><script>document.forms[0].submit()</script>"
              - url: https://shop.example.com/next?name=Bj%F8rn
                location: /complete
                status: 302
              - url: https://shop.example.com/next?name=Bj%C3%B8rn
                location: /cancel
                status: 302
            """)
    }

    @Test func theHeadersCharsetEncodesTheForm() throws {
        #expect(try Self.run(contentType: "text/html; charset=windows-1252") == "complete")
    }

    @Test func aLatin1LabelIsWindows1252() throws {
        #expect(try Self.run(contentType: "text/html; charset=ISO-8859-1") == "complete")
    }

    @Test func thePagesMetaCharsetEncodesTheForm() throws {
        #expect(try Self.run(contentType: "text/html", meta: "<meta charset=windows-1252>") == "complete")
    }

    @Test func aUTF8PageSubmitsUTF8() throws {
        #expect(try Self.run(contentType: "text/html; charset=utf-8", meta: "<meta charset=windows-1252>") == "canceled")
    }
}
