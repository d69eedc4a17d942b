import ArgumentParser
import Foundation
import NavigationPolicy
import PlainviewConfig
import PlainviewSupport
import GoodlistTools

struct GoodlistCheckCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Say for each URL (or host) whether the goodlist allows it, and which entry (file:line).",
        discussion: """
            Exit 0 when every URL is allowed, 1 when one is not (or has no usable host), 64 when a list cannot be \
            read or has an invalid line.
            """
    )

    @Option(
        name: .customLong("goodlist"),
        help: "List files or folders, or plainview:3ds (repeatable; default: the built-in list, plainview:3ds).")
    var goodlist: [String] = []

    @Flag(help: "One JSON object per URL: {\"url\",\"host\",\"allowed\",\"pattern\",\"file\",\"line\",\"error\"}.")
    var json = false

    @Argument(help: "http(s) URLs or bare hosts.")
    var urls: [String]

    func run() async throws {
        let paths = goodlist.isEmpty ? GoodlistFiles.defaultReferences : goodlist
        let list = try orInputError { () throws(ConfigError) in try GoodlistFiles.load(paths) }
        let results = GoodlistCheck.check(urls, against: list)
        for r in results {
            if json {
                printOut(
                    JSONWriter.line(
                        .object([
                            ("url", .string(r.input)), ("host", .string(orNull: r.host)), ("allowed", .bool(r.allowed)),
                            ("pattern", .string(orNull: r.entry?.pattern)), ("file", .string(orNull: r.entry?.file)),
                            ("line", .int(orNull: r.entry?.line)), ("error", .string(orNull: r.error)),
                        ])))
            } else if let entry = r.entry {
                printOut("allowed: \(r.input) (host \(r.host ?? "")) by '\(entry.pattern)' at \(entry.location ?? "?")")
            } else if let error = r.error {
                printOut("not allowed: \(r.input): \(error)")
            } else {
                printOut("not allowed: \(r.input) (host \(r.host ?? "")): no goodlist entry admits it")
            }
        }
        if results.contains(where: { !$0.allowed }) { throw Exit.expectationFailed }
    }
}
