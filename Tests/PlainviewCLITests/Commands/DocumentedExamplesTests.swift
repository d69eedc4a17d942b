import Foundation
import Testing
import TestSupport

/// Every `$ plainview …` example in README.md, docs/ and the folders' READMEs runs as written and prints what the
/// page shows. A code block is a little session: `$ cat FILE` followed by the file's lines writes that file first,
/// `$ plainview ARGS` (a trailing `\` continues the line; `| tail -N` keeps the last lines) is run, and the lines
/// after it, up to the next `$`, are its expected output: standard output, or standard error when nothing went to
/// standard output. `(exit N)` on a line of its own, or `# exit N` after a line, is the expected exit status
/// (otherwise 0); a line `…` stands for lines the page leaves out. Commands run in a fresh folder holding the
/// block's files beside links to the repository's `Pages/`, `Goodlist/`, `Tests/` and `schemas/`, so examples
/// that name those run as a reader runs them, after the block's earlier `plainview` commands (so a command can
/// read what those wrote, as `merge-results` reads the shards' results files).
@Suite struct DocumentedExamplesTests {
    /// Commands a test cannot run as a short process: a server that runs until stopped, and what talks to one
    /// (helper-endpoints.md's `serve`, `curl` and `check-backend`, checked live by the server and backend tests;
    /// record.md's `record`, run live against loopback servers by RecordCLITests).
    static let notRunHere = ["plainview serve", "plainview check-backend", "plainview record"]

    /// Inputs a page describes in words instead of showing them (docs/cli.md: "one <div> with 200,000 attributes").
    static let describedInputs: [String: @Sendable () -> String] = [
        "flood.html": { "<div " + (0..<200_000).map { "a\($0)=x" }.joined(separator: " ") + ">flood</div>" }
    ]

    struct Example: CustomTestStringConvertible, Sendable {
        var page: String
        var line: Int
        var files: [String: String]
        var command: String
        /// The block's earlier commands, run first in the same folder (their output is their own examples').
        var before: [String] = []
        var expected: [String]
        var status: Int32
        var testDescription: String { "\(page):\(line) \(command.prefix(60))" }
    }

    static let pages: [String] = {
        let docs = (try? FileManager.default.contentsOfDirectory(atPath: Project.path("docs").path)) ?? []
        return ["README.md", "Pages/README.md", "Goodlist/README.md", "Benchmarks/README.md"]
            + docs.filter { $0.hasSuffix(".md") }.sorted().map { "docs/\($0)" }
    }()

    static let examples: [Example] = pages.flatMap { page in
        guard let text = try? String(contentsOf: Project.path(page), encoding: .utf8) else { return [Example]() }
        return parse(text, page: page)
    }

    /// The examples of one page.
    static func parse(_ text: String, page: String) -> [Example] {
        var out: [Example] = []
        var inBlock = false
        var files: [String: String] = [:]
        var current: (kind: String, line: Int, head: String, body: [String])? = nil
        var earlier: [String] = []

        func flush() {
            guard let c = current else { return }
            current = nil
            if c.kind == "cat" {
                files[c.head] = c.body.joined(separator: "\n") + "\n"
                return
            }
            var expected: [String] = []
            var status: Int32 = 0
            for line in c.body {
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                if trimmed.hasPrefix("(exit "), trimmed.hasSuffix(")"), let n = Int32(trimmed.dropFirst(6).dropLast()) {
                    status = n
                } else if let hash = line.range(of: "# exit "),
                    let n = Int32(line[hash.upperBound...].trimmingCharacters(in: .whitespaces))
                {
                    status = n
                    expected.append(String(line[..<hash.lowerBound]).trimmingCharacters(in: .whitespaces))
                } else {
                    expected.append(line)
                }
            }
            out.append(
                Example(
                    page: page, line: c.line, files: files, command: c.head, before: earlier, expected: expected,
                    status: status))
            earlier.append(c.head)
        }

        let lines = text.components(separatedBy: "\n")
        var i = 0
        // A block inside a list item is indented; its lines lose the fence's indentation.
        var indent = 0
        while i < lines.count {
            let raw = lines[i]
            let fence = raw.drop { $0 == " " }
            if fence.hasPrefix("```") {
                flush()
                inBlock.toggle()
                if inBlock {
                    files = [:]
                    earlier = []
                    indent = raw.count - fence.count
                }
                i += 1
                continue
            }
            let line = String(raw.dropFirst(min(indent, raw.prefix { $0 == " " }.count)))
            guard inBlock else { i += 1; continue }
            if line.hasPrefix("$ ") {
                flush()
                var command = String(line.dropFirst(2))
                let start = i + 1
                while command.hasSuffix("\\"), i + 1 < lines.count {
                    command = String(command.dropLast()) + " " + lines[i + 1].trimmingCharacters(in: .whitespaces)
                    i += 1
                }
                if command.hasPrefix("cat ") {
                    current = ("cat", start, String(command.dropFirst(4)).trimmingCharacters(in: .whitespaces), [])
                } else {
                    // A trailing comment explains the command; it is not part of it.
                    if let hash = command.range(of: "   #") { command = String(command[..<hash.lowerBound]) }
                    current = ("run", start, command.trimmingCharacters(in: .whitespaces), [])
                }
            } else if current != nil {
                current!.body.append(line)
            }
            i += 1
        }
        flush()
        return out.filter { isRun($0.command) }.map { e in
            var e = e
            e.before = e.before.filter(isRun)
            return e
        }
    }

    /// True for a command this test runs: `plainview …` (or `swift run plainview …`), but not those of `notRunHere`.
    static func isRun(_ command: String) -> Bool {
        let program = command.replacingOccurrences(of: "swift run plainview", with: "plainview")
        return program.hasPrefix("plainview ") && !notRunHere.contains { program.hasPrefix($0) }
    }

    /// The arguments of `command` after `plainview`, and N of a trailing `| tail -N`.
    static func arguments(_ command: String) -> (arguments: [String], keepLast: Int?) {
        var command = command.replacingOccurrences(of: "swift run plainview", with: "plainview")
        var keepLast: Int? = nil
        if let pipe = command.range(of: " | tail -") {
            keepLast = Int(command[pipe.upperBound...].trimmingCharacters(in: .whitespaces))
            command = String(command[..<pipe.lowerBound])
        }
        return (Array(words(command).dropFirst()), keepLast)
    }

    /// Splits a command line as a POSIX shell does for these examples: single quotes keep everything, double quotes
    /// keep all but `\"` and `\\`, a backslash outside quotes escapes the next character.
    static func words(_ command: String) -> [String] {
        var out: [String] = []
        var word = ""
        var inWord = false
        var quote: Character? = nil
        var escaped = false
        for ch in command {
            if escaped {
                word.append(ch)
                escaped = false
            } else if let q = quote {
                if ch == q {
                    quote = nil
                } else if q == "\"", ch == "\\" {
                    escaped = true
                } else {
                    word.append(ch)
                }
            } else if ch == "'" || ch == "\"" {
                quote = ch
                inWord = true
            } else if ch == "\\" {
                escaped = true
                inWord = true
            } else if ch == " " {
                if inWord { out.append(word) }
                word = ""
                inWord = false
            } else {
                word.append(ch)
                inWord = true
            }
        }
        if inWord { out.append(word) }
        return out
    }

    @Test func everyPageHasItsExamplesFound() {
        // A parser that finds nothing would pass every example: the pages hold at least these many.
        #expect(Self.examples.count >= 10, "\(Self.examples.map(\.testDescription))")
        #expect(Self.examples.contains { $0.page == "README.md" })
        #expect(Self.examples.contains { $0.page == "docs/cli.md" && $0.command.contains("decide") })
        #expect(Self.words(#"a 'b\@c' "d \" e" f\ g"#) == ["a", #"b\@c"#, #"d " e"#, "f g"])
    }

    @Test(arguments: examples)
    func theExampleRunsAsWritten(_ example: Example) throws {
        let dir = try Project.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        for name in ["Pages", "Goodlist", "Tests", "schemas"] {
            try FileManager.default.createSymbolicLink(
                at: dir.appendingPathComponent(name), withDestinationURL: Project.path(name))
        }
        for (name, make) in Self.describedInputs where example.command.contains(name) && example.files[name] == nil {
            try make().write(to: dir.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        for (name, text) in example.files {
            try text.write(to: dir.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        for earlier in example.before { _ = try CLI.run(Self.arguments(earlier).arguments, in: dir, timeout: 300) }
        let (arguments, keepLast) = Self.arguments(example.command)
        let r = try CLI.run(arguments, in: dir, timeout: 300)
        #expect(r.status == example.status, "\(example.testDescription)\n\(r)")
        var actual = (r.stdout.isEmpty ? r.stderr : r.stdout).components(separatedBy: "\n")
        if actual.last == "" { actual.removeLast() }
        if let keepLast { actual = Array(actual.suffix(keepLast)) }
        var expected = example.expected
        while expected.last?.isEmpty == true { expected.removeLast() }
        // `…` on a line of its own: the lines before it begin the output, the lines after it end it.
        if let gap = expected.firstIndex(where: { $0.trimmingCharacters(in: .whitespaces) == "…" }) {
            let head = Array(expected[..<gap]), tail = Array(expected[(gap + 1)...])
            if actual.count >= head.count + tail.count, Array(actual.prefix(head.count)) == head,
                Array(actual.suffix(tail.count)) == tail
            {
                actual = expected
            }
        }
        #expect(
            actual == expected,
            "\(example.testDescription)\n--- expected\n\(expected.joined(separator: "\n"))\n--- actual\n\(actual.joined(separator: "\n"))"
        )
    }
}
