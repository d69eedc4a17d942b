import Foundation
import Testing
@testable import NavigationPolicy
@testable import PlainviewConfig

/// U+0085, U+2028 and U+2029 end a line for YAML but not for editors, grep, diff or review: behind one, a key hides in
/// the line before it. The reader refuses them anywhere, naming the file, the line editors show and the character.
@Suite struct HiddenLineBreakTests {
    static let policy = """
        paymentUrl: https://shop.example.com/pay?order=42
        completeUrl: https://shop.example.com/complete
        cancelUrl: https://shop.example.com/cancel
        platform: ios

        """

    @Test(arguments: [
        ("\u{2028}", "U+2028 LINE SEPARATOR"), ("\u{2029}", "U+2029 PARAGRAPH SEPARATOR"), ("\u{85}", "U+0085 NEXT LINE"),
    ])
    func aKeyHiddenBehindOneInACommentIsRefused(_ character: String, _ name: String) {
        // What a reviewer sees as one comment line; YAML reads a second line, `redirectPolicy: webview`.
        let text = Self.policy + "# reviewed by the security team\(character)redirectPolicy: webview\n"
        #expect {
            _ = try PolicyFile.parse(text, file: "policy.yaml")
        } throws: { error in
            guard let e = error as? ConfigError else { return false }
            return e.file == "policy.yaml" && e.line == 5 && e.message.contains(name) && e.message.contains("hide a key")
        }
    }

    @Test func insideAQuotedStringItIsRefusedTooAndItsEscapeIsRead() throws {
        #expect(throws: ConfigError.self) { try ConfigNode.parse("name: \"a\u{2028}b\"\n", file: "f.yaml") }
        #expect(throws: ConfigError.self) { try ConfigNode.parse("{\"name\": \"a\u{2029}b\"}", file: "f.json") }
        let escaped = try ConfigNode.parse("name: \"a\\u2028b\"\n", file: "f.yaml")
        #expect(try escaped.fields(["name"]).value("name")?.string() == "a\u{2028}b")
    }

    @Test func withoutOneThePolicyStillReads() throws {
        // The same text with a plain newline: the key is visible and read.
        let p = try PolicyFile.parse(Self.policy + "# reviewed\nredirectPolicy: webview\n", file: "policy.yaml")
        #expect(p.redirectPolicy == .webview)
        // Other characters past ASCII (C2 and E2 lead bytes among them) are text as before.
        let q = try PolicyFile.parse(Self.policy + "# ©\u{2027}\u{202F} ok\n", file: "policy.yaml")
        #expect(q.redirectPolicy == .goodlist)
    }
}
