import Testing
import NavigationPolicy

@Suite struct GoodlistParseTests {
    @Test func sdkFormatLoads() throws {
        let text = """
            # comment
            **.payex.com

              acs4.sparebank1.no  
            *.3dsecure.no
            """
        let list = try Goodlist(text: text, file: "good_redirects")
        #expect(list.entries.map(\.pattern) == ["**.payex.com", "acs4.sparebank1.no", "*.3dsecure.no"])
        #expect(list.entries.map(\.line) == [2, 4, 5])
        #expect(list.entries.allSatisfy { $0.provenance.isEmpty })
    }

    @Test func plainviewFormatReadsProvenance() throws {
        let text =
            #"**.payex.com  issuer="Swedbank Pay" added=2024-01-10 why="say \"hi\" \\ bye" source=https://x.example/a?b=c # note"#
        let src = try GoodlistSource.parse(text: text, file: "f")
        let (line, e) = try #require(src.entries.first)
        #expect(line.number == 1)
        #expect(e.problems.isEmpty, "\(e.problems)")
        #expect(e.patternText == "**.payex.com")
        #expect(e.attributes.map(\.key) == ["issuer", "added", "why", "source"])
        #expect(e.provenance["issuer"] == "Swedbank Pay")
        #expect(e.provenance["why"] == #"say "hi" \ bye"#)
        #expect(e.provenance["source"] == "https://x.example/a?b=c")
    }

    @Test(arguments: [
        (#"a.example why="open"#, "unterminated"),
        (#"a.example why"#, "expected key=value"),
        (#"a.example b.example"#, "expected key=value"),
        (#"a.example Why=x"#, "not a provenance key"),
        (#"a.example why=x why=y"#, "duplicate key"),
        (#"a.example why=a"b"#, "quote inside an unquoted value"),
        (#"a.example why="a"b"#, "space after the closing quote"),
        (#"a.example why="a\q""#, "only"),
    ])
    func provenanceSyntaxProblemsAreReportedOnTheLine(_ line: String, _ fragment: String) throws {
        let src = try GoodlistSource.parse(text: "# head\n" + line + "\n", file: "f")
        let (l, e) = try #require(src.entries.first)
        #expect(l.number == 2)
        #expect(e.problems.contains { $0.contains(fragment) }, "\(e.problems)")
        // A list used for decisions refuses the line, naming file and line.
        #expect(throws: GoodlistFileError(file: "f", line: 2, e.problems[0])) { try Goodlist(source: src) }
    }

    @Test func invalidPatternNamesFileAndLine() {
        do {
            _ = try Goodlist(text: "ok.example\nhttps://payex.com/\n", file: "list.goodlist")
            Issue.record("accepted")
        } catch {
            #expect(error.file == "list.goodlist")
            #expect(error.line == 2)
            #expect(error.description.hasPrefix("list.goodlist:2: invalid host pattern 'https://payex.com/'"))
        }
    }

    @Test func crlfBomAndMissingFinalNewline() throws {
        let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("**.payex.com\r\n# c\r\n*.op.fi".utf8)
        let src = try GoodlistSource.parse(bytes, file: "f")
        #expect(src.hasByteOrderMark)
        #expect(src.lines.map(\.ending) == ["\r\n", "\r\n", ""])
        #expect(src.lines.map(\.text) == ["**.payex.com", "# c", "*.op.fi"])
        #expect(src.rendered() == bytes)
        let list = try Goodlist(source: src)
        #expect(list.match(host: "x.op.fi")?.line == 3)
    }

    @Test func emptyFileIsAnEmptyList() throws {
        #expect(try GoodlistSource.parse([], file: "f").lines.isEmpty)
        #expect(try Goodlist(text: "", file: "f").isEmpty)
        #expect(try GoodlistSource.parse([0xEF, 0xBB, 0xBF], file: "f").lines.isEmpty)
    }

    @Test func binaryDataIsRefusedWithItsLine() {
        let bytes: [UInt8] = Array("a.example\nb.example\n".utf8) + [0x00, 0x01, 0x02]
        #expect(throws: GoodlistFileError.self) { try GoodlistSource.parse(bytes, file: "f") }
        do { _ = try GoodlistSource.parse(bytes, file: "f") } catch {
            #expect(error.line == 3)
            #expect(error.message.contains("binary"))
        }
    }

    @Test func invalidUTF8IsRefused() {
        let bytes: [UInt8] = Array("a.example\n".utf8) + [0xC3, 0x28, 0x0A]
        do {
            _ = try GoodlistSource.parse(bytes, file: "f")
            Issue.record("accepted")
        } catch {
            #expect(error.line == 2)
            #expect(error.message.contains("UTF-8"))
        }
    }

    @Test(arguments: ["Swedbank Pay", "plain", #"quo"te"#, #"back\slash"#, "", "a=b", "#hash"])
    func formattedValuesParseBack(_ value: String) throws {
        let line = GoodlistSource.formatLine(pattern: "a.example", attributes: [.init(key: "why", value: value)])
        let src = try GoodlistSource.parse(text: line, file: "f")
        let e = try #require(src.entries.first?.entry)
        #expect(e.problems.isEmpty, "\(line): \(e.problems)")
        #expect(e.provenance["why"] == value, "\(line)")
    }
}
