// The URL core's fast paths (issue 9) must answer exactly what the general rules answer.
@testable import PlainviewURL
import Testing

@Suite struct EncodeSetFastPathTests {
    @Test(arguments: [WebURL.EncodeSet.c0Control, .fragment, .query, .specialQuery, .path, .userinfo])
    func encodeSetMasksEqualTheRules(_ set: WebURL.EncodeSet) {
        for c in 0...255 {
            #expect(WebURL.shouldEncode(UInt8(c), set) == WebURL.shouldEncodeSlow(UInt8(c), set), "byte \(c)")
        }
    }
}
