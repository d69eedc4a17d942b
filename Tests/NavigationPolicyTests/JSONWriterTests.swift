@testable import NavigationPolicy
import Testing

/// The one JSON writer: compact lines keep the keys in the order given; the pretty layout sorts them.
@Suite struct JSONWriterTests {
    static let value = JSONValue.object([
        ("url", .string("https://a.example/?x=1&y=<2>")), ("target", .null), ("absent", nil), ("n", .int(3)),
        ("ok", .bool(true)), ("list", .array([.string("a\"b"), .array([])])),
    ])

    @Test func aCompactLineKeepsTheKeyOrderAndLeavesAbsentKeysOut() {
        #expect(JSONWriter.line(Self.value)
            == #"{"url":"https://a.example/?x=1&y=<2>","target":null,"n":3,"ok":true,"list":["a\"b",[]]}"#)
    }

    @Test func thePrettyLayoutSortsKeysAndIndentsByTwo() {
        var w = JSONWriter(.pretty)
        w.value(Self.value)
        #expect(String(decoding: w.bytes, as: UTF8.self) == """
        {
          "list" : [
            "a\\"b",
            []
          ],
          "n" : 3,
          "ok" : true,
          "target" : null,
          "url" : "https://a.example/?x=1&y=<2>"
        }
        """)
    }

    @Test func aSinkGetsTheOutputInChunksAndAllOfIt() {
        final class Collector: @unchecked Sendable { var chunks: [[UInt8]] = [] }
        let c = Collector()
        var w = JSONWriter(.compact, sink: { c.chunks.append($0) })
        w.array(0..<30_000) { .int($0) }
        w.flush()
        #expect(c.chunks.count > 1)
        #expect(String(decoding: c.chunks.joined(), as: UTF8.self) == "[" + (0..<30_000).map(String.init).joined(separator: ",") + "]")
        #expect(w.bytes.isEmpty)
    }
}
