import ArgumentParser
import Foundation
import NavigationPolicy
import PlainviewConfig
import PlainviewSupport
import GoodlistTools

struct GoodlistDiffCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: "Show which hosts a list change allows or stops allowing (on the patterns' languages, not lines).",
        discussion: """
            One line per pattern that widens (from NEW) or narrows (from OLD); reordering, moving entries between \
            files, provenance and case changes are no change. Exit 0, or 1 with --fail-on-widen when something \
            widens; 64 when a list cannot be read or has an invalid line.
            """
    )

    @Argument(help: "The old list (file or folder, or plainview:3ds for the built-in list).")
    var old: String

    @Argument(help: "The new list (file or folder, or plainview:3ds for the built-in list).")
    var new: String

    @Flag(name: .customLong("fail-on-widen"), help: "Exit 1 when the new list allows a host the old one did not.")
    var failOnWiden = false

    @Flag(help: "One JSON object per change: {\"change\",\"pattern\",\"file\",\"line\",\"hosts\",\"overlapping\"}.")
    var json = false

    func run() async throws {
        let oldList = try orInputError { () throws(ConfigError) in try GoodlistFiles.load([old]) }
        let newList = try orInputError { () throws(ConfigError) in try GoodlistFiles.load([new]) }
        let diff = GoodlistDiff(old: oldList, new: newList)
        for c in diff.changes {
            if json {
                let overlapping = JSONValue.array(
                    c.overlapping.map { e in
                        .object([
                            ("pattern", .string(e.pattern)), ("file", .string(orNull: e.file)), ("line", .int(orNull: e.line)),
                        ])
                    })
                printOut(
                    JSONWriter.line(
                        .object([
                            ("change", .string(c.direction.rawValue)), ("pattern", .string(c.pattern.description)),
                            ("file", .string(orNull: c.entry.file)), ("line", .int(orNull: c.entry.line)),
                            ("hosts", .string(c.hosts)), ("overlapping", overlapping),
                        ])))
            } else {
                var line = "\(c.direction == .widens ? "+ widens " : "- narrows") \(c.pattern) (\(c.entry.location ?? "?")): "
                line += c.direction == .widens ? "newly allows \(c.hosts)" : "no longer allows \(c.hosts)"
                if !c.overlapping.isEmpty {
                    let list = c.overlapping.map { "'\($0.pattern)' at \($0.location ?? "?")" }.joined(separator: ", ")
                    line += c.direction == .widens ? "; already allowed in part by \(list)" : "; still allowed in part by \(list)"
                }
                printOut(line)
            }
        }
        let widens = diff.changes.filter { $0.direction == .widens }.count
        let narrows = diff.changes.count - widens
        printError(
            diff.changes.isEmpty
                ? "no change in allowed hosts"
                : "\(widens) pattern\(widens == 1 ? "" : "s") widen\(widens == 1 ? "s" : ""), \(narrows) narrow\(narrows == 1 ? "s" : "")"
        )
        if failOnWiden && widens > 0 { throw Exit.expectationFailed }
    }
}
