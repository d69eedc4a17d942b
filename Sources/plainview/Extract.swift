import ArgumentParser
import Foundation
import NavigationPolicy
import PageScan
import PlainviewSupport

struct Extract: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "extract",
        abstract: "Print where a served page sends the user next, as JSON.",
        discussion: """
            Reads an HTML page (a file, or - for standard input) served at --base and prints one JSON object:
            refresh, links, forms, frames, scriptNavigations, hooks, and truncations (the limits the page broke,
            usually none). Every URL is absolute.
            """
    )

    @Argument(help: "The HTML file to read, or - for standard input.")
    var file: String

    @Option(name: .long, help: "The URL the page was served at (relative URLs resolve against it).")
    var base: String

    @Option(name: .customLong("content-type"), help: "The Content-Type header the page came with (for its charset).")
    var contentType: String?

    @Option(
        name: .customLong("android-interface"),
        help: "An Android JavaScript-interface object name to report calls of (repeatable; default: callbacks, Android).")
    var androidInterfaces: [String] = []

    func run() async throws {
        // The page is read a few kB at a time as the parser needs it, never held whole (a 100 MB page is a
        // supported input).
        let fd: Int32
        if file == "-" {
            fd = 0
        } else {
            fd = open(file, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { throw inputError("cannot read '\(file)': \(String(cString: strerror(errno)).lowercased())") }
            var info = stat()
            if fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR {
                close(fd)
                throw inputError("cannot read '\(file)': it is a directory, not an HTML file")
            }
        }
        defer { if fd != 0 { close(fd) } }
        let interfaces = androidInterfaces.isEmpty ? PageScanner.defaultAndroidInterfaces : Set(androidInterfaces)
        let result: PageScanResult
        do {
            result = try PageScanner.scan(
                fileDescriptor: fd, name: file == "-" ? "standard input" : "'\(file)'",
                contentType: contentType, documentURL: base, androidInterfaces: interfaces)
        } catch {
            if error.code == .invalidDocumentURL { throw inputError("--base: \(error.message)") }
            if error.code == .unreadable { throw inputError(error.message) }
            throw inputError("'\(file)': \(error.message)")
        }
        let output = FileOutput()
        var out = JSONWriter(.pretty, sink: output.write)
        Self.write(result, to: &out)
        out.flush()
        if let code = output.writeError {
            throw inputError("cannot write the output: \(String(cString: strerror(code)).lowercased())")
        }
    }

    /// The JSON object, written as it goes: every key present (`refresh` is null when the page has none), keys
    /// sorted (fields are listed in key order, so the writer need not sort them), each link, form, … turned into
    /// JSON only when it is written.
    static func write(_ result: PageScanResult, to out: inout JSONWriter) {
        out.raw("{\n  ")
        out.key("forms")
        out.array(result.forms, indent: 2) { f in
            .object([
                ("action", .string(f.action)), ("autoSubmit", .bool(f.autoSubmit)),
                ("autoSubmitCondition", f.autoSubmitCondition.map { JSONValue.string($0.rawValue) }),
                ("autoSubmitOrder", f.autoSubmitOrder.map(JSONValue.int)),
                ("fields", .array(f.fields.map { .object([("name", .string($0.name)), ("value", .string($0.value))]) })),
                ("method", .string(f.method)), ("target", f.target.map(JSONValue.string)),
            ])
        }
        out.raw(",\n  ")
        out.key("frames")
        out.array(result.frames, indent: 2) { .object([("name", $0.name.map(JSONValue.string)), ("url", .string($0.url))]) }
        out.raw(",\n  ")
        out.key("hooks")
        out.array(result.hooks, indent: 2) { h in
            .object([
                ("argument", h.argument.map(JSONValue.string)), ("kind", .string(h.kind.rawValue)),
                ("name", .string(h.name)), ("onLoad", .bool(h.onLoad)),
            ])
        }
        out.raw(",\n  ")
        out.key("links")
        out.array(result.links, indent: 2) { l, w in
            w.field("condition", l.condition?.rawValue)
            switch l.script {
            case .navigates: w.field("script", "navigates")
            case .submits(let form): w.field("script", "submits form \(form)")
            case nil: break
            }
            w.field("target", l.target); w.field("text", l.text); w.field("url", l.url)
        }
        out.raw(",\n  ")
        out.key("refresh")
        out.value(result.refresh.map { .object([("delay", .int($0.delay)), ("url", .string($0.url))]) } ?? .null, indent: 2)
        out.raw(",\n  ")
        out.key("scriptNavigations")
        out.array(result.scriptNavigations, indent: 2) { n, w in
            w.field("condition", n.condition?.rawValue); w.field("delay", n.delay); w.field("kind", n.kind.rawValue)
            w.field("onLoad", n.onLoad)
            w.field("runOrder", n.runOrder); w.field("target", n.target); w.field("url", n.url)
        }
        out.raw(",\n  ")
        out.key("truncations")
        out.array(result.truncations, indent: 2) { t in
            .object([
                ("count", .int(t.count)), ("dropped", .int(t.dropped)), ("kind", .string(t.kind.rawValue)),
                ("limit", .int(t.limit)),
            ])
        }
        out.raw("\n}\n")
    }
}
