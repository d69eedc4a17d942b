import Foundation
import Testing
import PlainviewSupport

/// The one JSON writer: compact lines keep the keys in the order given; the pretty layout sorts them.
@Suite struct JSONWriterTests {
    static let value = JSONValue.object([
        ("url", .string("https://a.example/?x=1&y=<2>")), ("target", .null), ("absent", nil), ("n", .int(3)),
        ("ok", .bool(true)), ("list", .array([.string("a\"b"), .array([])])),
    ])

    @Test func aCompactLineKeepsTheKeyOrderAndLeavesAbsentKeysOut() {
        #expect(
            JSONWriter.line(Self.value)
                == #"{"url":"https://a.example/?x=1&y=<2>","target":null,"n":3,"ok":true,"list":["a\"b",[]]}"#)
    }

    @Test func thePrettyLayoutSortsKeysAndIndentsByTwo() {
        var w = JSONWriter(.pretty)
        w.value(Self.value)
        #expect(
            String(decoding: w.bytes, as: UTF8.self) == """
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
        #expect(
            String(decoding: c.chunks.joined(), as: UTF8.self) == "[" + (0..<30_000).map(String.init).joined(separator: ",") + "]"
        )
        #expect(w.bytes.isEmpty)
    }

    /// A string longer than the buffer (an 8 MB textarea's value in `extract`) reaches the sink in pieces of at most
    /// 64 kB, escapes and all, with every byte in order: the writer never holds it whole.
    @Test(arguments: [1 << 16 - 3, 1 << 16, 300_000, 1_000_001])
    func aLongStringReachesTheSinkInBoundedPieces(length: Int) {
        final class Collector: @unchecked Sendable { var chunks: [[UInt8]] = [] }
        let c = Collector()
        // Runs longer than the buffer, broken by escapes and two-byte characters.
        let text = String((0..<length).map { i -> Character in i % 200_000 == 0 ? "\"" : i % 70_001 == 0 ? "é" : "a" })
        var w = JSONWriter(.compact, sink: { c.chunks.append($0) })
        w.raw("[1,")
        w.value(.string(text))
        w.raw("]")
        w.flush()
        var unbounded = JSONWriter(.compact)
        unbounded.raw("[1,")
        unbounded.value(.string(text))
        unbounded.raw("]")
        #expect(Array(c.chunks.joined()) == unbounded.bytes)
        #expect(c.chunks.allSatisfy { $0.count <= 1 << 16 && !$0.isEmpty })
        #expect(c.chunks.count >= unbounded.bytes.count / (1 << 16))
    }

    @Test(arguments: [0, 7, -7, 10, 1_000_000, Int.max, Int.min])
    func numbersAreWrittenAsSwiftPrintsThem(_ n: Int) {
        #expect(JSONWriter.line(.int(n)) == String(n))
    }

    @Test func deeplyIndentedAndOutOfOrderObjectsWithRepeatedKeys() {
        // 20 levels (indent past 32 spaces), keys out of order, one key twice: sorted, the repeat kept in place.
        var v = JSONValue.object([("b", .int(2)), ("a", .int(1)), ("b", .int(3))])
        for _ in 0..<20 { v = .array([v]) }
        var w = JSONWriter(.pretty)
        w.value(v)
        let text = String(decoding: w.bytes, as: UTF8.self)
        #expect(
            text.contains(
                "\n" + String(repeating: " ", count: 42) + "\"a\" : 1,\n" + String(repeating: " ", count: 42) + "\"b\" : 2,\n"
                    + String(repeating: " ", count: 42) + "\"b\" : 3\n"))
    }

    /// Objects written field by field are the objects the same fields give as `JSONValue`s, in both layouts.
    @Test(arguments: [JSONWriter.Layout.pretty, .compact])
    func objectsWrittenFieldByFieldMatchTheirValues(_ layout: JSONWriter.Layout) {
        let rows: [(String?, String, Int?, Bool)] = [(nil, "a\"b", 3, true), ("t", "", nil, false), ("x<y", "é\n", -1, true)]
        var direct = JSONWriter(layout)
        direct.array(rows, indent: 2) { r, w in
            w.field("a", r.0); w.field("b", r.1); w.field("c", r.2); w.field("d", r.3); w.field("e", JSONValue?.some(.null))
        }
        var built = JSONWriter(layout)
        built.array(rows, indent: 2) { r in
            .object([
                ("a", r.0.map(JSONValue.string)), ("b", .string(r.1)), ("c", r.2.map(JSONValue.int)), ("d", .bool(r.3)),
                ("e", .null),
            ])
        }
        #expect(String(decoding: direct.bytes, as: UTF8.self) == String(decoding: built.bytes, as: UTF8.self))
        var empty = JSONWriter(layout)
        empty.array([Int](), indent: 2) { _, _ in }
        #expect(String(decoding: empty.bytes, as: UTF8.self) == "[]")
    }
}

/// The escaper looks at eight bytes at a time: every byte that needs an escape is found wherever it falls in a
/// word, in both modes, and the literal reads back as the string.
@Suite struct JSONEscapingTests {
    /// The literal built a character at a time: no piece is long enough for the eight-byte path.
    static func byCharacter(_ s: String, htmlSafe: Bool) -> String {
        "\"" + s.map { JSONEscaping.quote(String($0), htmlSafe: htmlSafe).dropFirst().dropLast() }.joined() + "\""
    }

    @Test(arguments: [false, true])
    func everySpecialByteIsFoundAtEveryPositionOfAWord(_ htmlSafe: Bool) throws {
        let specials: [String] = [
            "\"", "\\", "\n", "\r", "\t", "\u{0}", "\u{1F}", "\u{7F}", "<", ">", "&", "\u{2028}", "\u{2029}",
            "\u{E2}", "\u{20AC}", "é", " ", "~",
        ]
        for special in specials {
            for before in 0..<17 {
                for after in [0, 1, 7, 8, 9] {
                    let s = String(repeating: "a", count: before) + special + String(repeating: "z", count: after)
                    let quoted = JSONEscaping.quote(s, htmlSafe: htmlSafe)
                    #expect(quoted == Self.byCharacter(s, htmlSafe: htmlSafe), "\(s.debugDescription)")
                    let back = try JSONSerialization.jsonObject(with: Data(quoted.utf8), options: [.fragmentsAllowed]) as? String
                    #expect(back == s, "\(s.debugDescription)")
                    if htmlSafe { #expect(!quoted.contains("<") && !quoted.contains("\u{2028}")) }
                }
            }
        }
        // The escapes themselves (what a character alone gives).
        #expect(JSONEscaping.quote("\"\\\n\u{1}<", htmlSafe: false) == #""\"\\\n\u0001<""#)
        #expect(JSONEscaping.quote("<&\u{2028}", htmlSafe: true) == #""\u003c\u0026\u2028""#)
    }

    @Test func aLongURLWithEscapesReadsBack() throws {
        let s = String(repeating: "https://shop.example/p?q=1&r=<2>\u{2028}\"x\"\\y\tz\u{1}é€/", count: 40)
        for htmlSafe in [false, true] {
            let quoted = JSONEscaping.quote(s, htmlSafe: htmlSafe)
            #expect(quoted == Self.byCharacter(s, htmlSafe: htmlSafe))
            let back = try JSONSerialization.jsonObject(with: Data(quoted.utf8), options: [.fragmentsAllowed]) as? String
            #expect(back == s)
        }
        var w = JSONWriter(.compact)
        w.value(.string(s))
        #expect(String(decoding: w.bytes, as: UTF8.self) == Self.byCharacter(s, htmlSafe: false))
    }
}
