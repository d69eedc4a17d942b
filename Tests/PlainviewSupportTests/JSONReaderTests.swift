import Foundation
import Testing
import PlainviewSupport

/// The one JSON reader: values in file order, from memory or read in pieces; escapes, surrogate pairs and
/// UTF-8 checked in the strings read; clear errors (line, column, what was expected) for everything else.
@Suite struct JSONReaderTests {
    /// A reader over `text` handing its bytes over `piece` at a time (nil: all in memory).
    static func reader(_ bytes: [UInt8], piece: Int? = nil) -> JSONReader {
        guard let piece else { return JSONReader(bytes: bytes) }
        var at = 0
        return JSONReader(chunk: 64) { buffer in
            let n = min(piece, buffer.count, bytes.count - at)
            for k in 0..<n { buffer[k] = bytes[at + k] }
            at += n
            return n
        }
    }

    static func reader(_ text: String, piece: Int? = nil) -> JSONReader { reader(Array(text.utf8), piece: piece) }

    /// The document as text again, every value read (keys in file order): what the reader saw.
    static func echo(_ r: JSONReader) throws -> String {
        switch try r.peek() {
        case .object:
            var parts: [String] = []
            try r.object { key in parts.append("\(key)=\(try echo(r))") }
            return "{" + parts.joined(separator: ",") + "}"
        case .array:
            var parts: [String] = []
            try r.array { _ in parts.append(try echo(r)) }
            return "[" + parts.joined(separator: ",") + "]"
        case .string: return "'" + (try r.string()) + "'"
        case .number: return try r.numberText()
        case .bool: return String(try r.bool())
        case .null:
            try r.null()
            return "null"
        }
    }

    static let document = """
        {"a": [1, -2.5e3, true, false, null, {}, []], "b": {"c": "d\\"\\\\\\/\\b\\f\\n\\r\\t\\u00e9\\ud83d\\ude00"},
         "é": "åäö 😀", "n": 0}
        """
    static let echoed = "{a=[1,-2.5e3,true,false,null,{},[]],b={c='d\"\\/\u{8}\u{C}\n\r\té😀'},é='åäö 😀',n=0}"

    @Test(arguments: [nil, 1, 2, 3, 7, 64])
    func valuesReadTheSameFromMemoryAndInPieces(piece: Int?) throws {
        let r = Self.reader(Self.document, piece: piece)
        #expect(try Self.echo(r) == Self.echoed)
        try r.expectEnd()
    }

    @Test func surrogatePairsBecomeOneScalarAndUnpairedOnesAreAnErrorOfThatStringOnly() throws {
        let r = Self.reader(#"["\ud83d\ude00", "x\ud800y", "\udc00", "ok"]"#)
        var got: [String] = []
        var problems: [JSONReader.Failure] = []
        try r.array { _ in
            do {
                got.append(try r.string())
            } catch let error as JSONReader.Failure {
                #expect(error.isContent)
                problems.append(error)
            }
        }
        #expect(got == ["😀", "ok"])
        #expect(problems.count == 2)
        #expect(problems[0].message.contains("unpaired surrogate"))
        #expect(problems[0].column == 20)
        #expect(problems[1].message.contains("unpaired low surrogate"))
    }

    @Test(
        arguments: [
            [0x22, 0xC3, 0x28, 0x22], // a lead byte without its continuation
            [0x22, 0xC0, 0xAF, 0x22], // an overlong '/'
            [0x22, 0xED, 0xA0, 0x80, 0x22], // a surrogate written in UTF-8
            [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], // past U+10FFFF
            [0x22, 0xFF, 0x22],
        ] as [[UInt8]])
    func invalidUTF8IsAnErrorOfTheStringRead(bytes: [UInt8]) throws {
        let r = Self.reader(bytes + Array(#" "#.utf8))
        #expect(throws: JSONReader.Failure.self) { _ = try r.string() }
        do {
            _ = try Self.reader(bytes).string()
        } catch let error as JSONReader.Failure {
            #expect(error.isContent)
            #expect(error.message.contains("not UTF-8"))
            #expect(error.column == 2)
        }
        // Skipped, the same string is no error: only strings read are checked as text.
        let skipped = Self.reader(bytes)
        try skipped.skip()
        try skipped.expectEnd()
    }

    @Test(arguments: [nil, 100, 4096])
    func hugeStringsAreReadWholeAcrossPieces(piece: Int?) throws {
        let big = String(repeating: "abcé\\n", count: 200_000)
        let r = Self.reader("{\"big\": \"\(big)\", \"after\": 1}", piece: piece)
        var length = 0
        var after = ""
        try r.object { key in
            if key == "big" { length = try r.string().utf8.count }
            if key == "after" { after = try r.numberText() }
        }
        #expect(length == 200_000 * 6)
        #expect(after == "1")
        let bytes = try Self.reader("\"\(big)\"", piece: piece).stringBytes()
        #expect(bytes.count == 200_000 * 6)
    }

    @Test func membersLeftUnreadAreSkipped() throws {
        let r = Self.reader(#"{"skip": {"deep": [1, {"x": "y"}, "s\"}"]}, "read": "yes", "also": [1, 2]}"#)
        var got: [String] = []
        try r.object { key in
            if key == "read" { got.append(try r.string()) }
        }
        try r.expectEnd()
        #expect(got == ["yes"])
    }

    @Test func deepNestingIsSkippedWithoutRecursion() throws {
        let depth = 200_000
        let r = Self.reader(String(repeating: "[", count: depth) + String(repeating: "]", count: depth))
        try r.skip()
        try r.expectEnd()
        let open = Self.reader(String(repeating: "[{\"a\":", count: depth))
        #expect(throws: JSONReader.Failure.self) { try open.skip() }
    }

    /// Every prefix of a document is an error (never a crash or a hang), and says the text ends early.
    @Test(arguments: [nil, 3])
    func everyTruncationIsAClearError(piece: Int?) {
        let bytes = Array(Self.document.utf8)
        for n in 0..<(bytes.count - 1) {
            do {
                let r = Self.reader(Array(bytes[..<n]), piece: piece)
                _ = try Self.echo(r)
                try r.expectEnd()
                Issue.record("no error for \(n) bytes")
            } catch let f as JSONReader.Failure {
                #expect(f.message.contains("ends"), "\(n) bytes: \(f)")
            } catch {
                Issue.record("\(error)")
            }
        }
    }

    @Test(arguments: [
        ("", 1, 1, "the file is empty"),
        ("[1, 2", 1, 6, "expected ',' or ']'; 1 open bracket(s) unclosed"),
        ("{\"a\" 1}", 1, 6, "unexpected '1'; expected ':'"),
        ("{\"a\": 1,}", 1, 9, "unexpected '}'; expected a \"key\""),
        ("[1,]", 1, 4, "unexpected ']'; expected a value"),
        ("[1 2]", 1, 4, "expected ',' or ']'"),
        ("{\"a\": tru}", 1, 10, "unexpected '}'; expected a value"),
        ("[01]", 1, 2, "not a JSON number"),
        ("[-]", 1, 2, "not a JSON number"),
        ("{}\n x", 2, 2, "after the end of the JSON value"),
        ("\"abc", 1, 1, "ends inside a string"),
        ("\"a\nb\"", 1, 3, "control character"),
        ("\"\\x\"", 1, 2, "invalid escape"),
        ("\"\\u12g4\"", 1, 2, "four hex digits"),
    ])
    func badInputSaysWhereAndWhatWasExpected(text: String, line: Int, column: Int, mentions: String) {
        do {
            let r = Self.reader(text)
            _ = try Self.echo(r)
            try r.expectEnd()
            Issue.record("no error for \(text)")
        } catch let f as JSONReader.Failure {
            #expect(f.line == line, "\(f)")
            #expect(f.column == column, "\(f)")
            #expect(f.message.contains(mentions), "\(f)")
            #expect(!f.isContent)
        } catch {
            Issue.record("\(error)")
        }
    }

    @Test func aByteOrderMarkIsSkippedAndFinishChecksTheRest() throws {
        let r = Self.reader([0xEF, 0xBB, 0xBF] + Array(#"{"a": {"b": 1}, "c": [2, 3]}"#.utf8))
        try r.skipByteOrderMark()
        var stopped = false
        do {
            try r.object { key in
                if key == "a" { throw CancellationError() }
            }
        } catch is CancellationError {
            stopped = true
        }
        #expect(stopped)
        try r.finish() // the rest is well-formed

        let broken = Self.reader(#"{"a": {"b": 1}, "c": [2 3]}"#)
        do {
            try broken.object { _ in throw CancellationError() }
        } catch {}
        #expect(throws: JSONReader.Failure.self) { try broken.finish() }
    }
}
