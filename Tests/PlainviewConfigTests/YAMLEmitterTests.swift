import Testing
import PlainviewConfig

/// What the emitter writes reads back through ConfigNode as exactly the values given, and nothing else, however
/// hostile the values: no character can end a scalar or a comment, add a key, or change the structure.
@Suite struct YAMLEmitterTests {
    static let hostile: [String] = [
        "plain", "", " leading and trailing ", "a\nb", "a\r\nb", "a\rb", "nel\u{85}next", "ls\u{2028}next",
        "ps\u{2029}next", "vt\u{0B}ff\u{0C}", "tab\there", "nul\u{0}byte", "del\u{7F}c1\u{9B}", "bom\u{FEFF}x",
        "non\u{FFFE}char\u{FFFF}", "# not a comment", "key: value", "a: b # c", "\"double\" 'single'", "back\\slash",
        "- dash", "? question", "& anchor", "* alias", "! tag", "| literal", "> folded", "% directive", "@at", "`tick",
        "{flow: map}", "[flow, seq]", "---", "...", "true", "null", "~", "0x10", "1e3", "007", "yes",
        "https://shop.example/a?b=1#x\u{2028}expect: {outcome: stuck}",
        "x\u{85}expect:\u{2029}  outcome: stuck", "emoji 😀 and combining e\u{301}", "\u{2028}", "\u{85}",
    ]

    @Test func hostileValuesReadBackExactlyAndAddNothing() throws {
        var y = YAMLEmitter()
        for (i, v) in Self.hostile.enumerated() {
            y.comment(v)
            y.pair("k\(i)", .string(v), comment: v)
        }
        y.pair("list", nil, comment: "items")
        for v in Self.hostile { y.item(.string(v), indent: 1, comment: v) }
        y.pair("records", nil)
        for v in Self.hostile {
            y.pair("value", .string(v), indent: 2, item: true, comment: v)
            y.pair(
                v.isEmpty ? "empty" : v,
                .flowMap([.init(v.isEmpty ? "e" : v, .flowSequence([.string(v), .int(1), .bool(true)]))]), indent: 2)
        }
        let root = try ConfigNode.parse(y.text, file: "hostile.yaml")
        let entries = try root.mapping()
        #expect(entries.map(\.key) == Self.hostile.indices.map { "k\($0)" } + ["list", "records"])
        for (i, v) in Self.hostile.enumerated() {
            #expect(try entries[i].value.text() == v, "k\(i)")
        }
        #expect(try entries[Self.hostile.count].value.sequence().map { try $0.text() } == Self.hostile)
        let records = try entries[Self.hostile.count + 1].value.sequence()
        #expect(records.count == Self.hostile.count)
        for (record, v) in zip(records, Self.hostile) {
            let m = try record.mapping()
            let key = v.isEmpty ? "empty" : v
            #expect(m.map(\.key) == ["value", key])
            #expect(try m[0].value.text() == v)
            let inner = try m[1].value.mapping()
            #expect(inner.map(\.key) == [v.isEmpty ? "e" : v])
            let seq = try inner[0].value.sequence()
            #expect(try seq[0].text() == v)
            #expect(try seq[1].int() == 1)
            #expect(try seq[2].bool() == true)
        }
    }

    @Test(arguments: [
        ("plain", "\"plain\""),
        ("a \"q\" \\ b", "\"a \\\"q\\\" \\\\ b\""),
        ("line\nbreak\t#: &*", "\"line\\nbreak\\t#: &*\""),
        ("\u{7}bell åäö", "\"\\u0007bell åäö\""),
        ("nel\u{85}ls\u{2028}ps\u{2029}", "\"nel\\u0085ls\\u2028ps\\u2029\""),
    ])
    func quoting(raw: String, quoted: String) {
        #expect(YAMLEmitter.quoted(raw) == quoted)
    }

    @Test(arguments: [
        ("a\nb", "# a\\u000Ab"), ("a\u{2028}b", "# a\\u2028b"), ("a\u{85}b\u{2029}", "# a\\u0085b\\u2029"),
        ("tab\tkept # and hash", "# tab\tkept # and hash"),
    ])
    func commentsStayOneLine(raw: String, written: String) {
        #expect(YAMLEmitter.comment(raw) == written)
    }

    @Test(arguments: [
        ("status", "status"), ("Content-Type", "\"Content-Type\""), ("true", "\"true\""), ("1a", "\"1a\""), ("", "\"\""),
    ])
    func keysArePlainOnlyWhenSafe(raw: String, written: String) {
        #expect(YAMLEmitter.key(raw) == written)
    }
}
