import ArgumentParser
import Foundation
import NavigationPolicy
import PlainviewConfig
import PlainviewSupport
import GoodlistTools

struct GoodlistLearnCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "learn",
        abstract: "From simulator traces, the hosts whose picky-page rule got a flow stuck in the browser, as candidate entries.",
        discussion: """
            Reads JSON Lines traces (plainview simulate --trace FILE): 'decide' events whose rule is web.picky-page \
            or web.picky-page-from-payment (the flow left the web view at that host) and the run's outcome. A host \
            is a candidate when a run that left there got stuck in the browser on the default branch (an explored \
            branch's own choices may be why it got stuck); it is kept out when a run that left there completed or \
            was canceled through the browser, or switched to an app from it (its cookies must stay where the return \
            lands). Prints candidate entries in the .goodlist format with the evidence as comments; hosts the \
            current list already admits are left out. \
            Candidates carry no issuer/vendor on purpose: lint fails until a person has checked them. Exit 0; 64 \
            when a trace cannot be read.
            """
    )

    @Argument(help: "Trace files (JSON Lines).")
    var traces: [String]

    @Option(
        name: .customLong("goodlist"),
        help: "The current list (files or folders, or plainview:3ds; default: the built-in list, plainview:3ds).")
    var goodlist: [String] = []

    @Flag(help: "One JSON object per candidate: {\"host\",\"pattern\",\"left\",\"stuck\",\"evidence\":[…]}.")
    var json = false

    @Option(help: ArgumentHelp("Date for added= (YYYY-MM-DD; default: today, UTC).", visibility: .hidden))
    var today: String?

    func validate() throws {
        if let today, GoodlistDate(today) == nil { throw ValidationError("--today must be a date YYYY-MM-DD, not '\(today)'") }
    }

    func run() async throws {
        var learner = GoodlistLearner()
        for trace in traces {
            try orInputError { () throws(ConfigError) in
                try learner.read(try GoodlistIO.readBytes(trace, what: "a JSON Lines trace"), file: trace)
            }
        }
        let paths = goodlist.isEmpty ? GoodlistFiles.defaultReferences : goodlist
        let known = try orInputError { () throws(ConfigError) in try GoodlistFiles.load(paths) }
        let candidates = learner.candidates(excluding: known)
        let date = today.flatMap(GoodlistDate.init) ?? .today()
        for c in candidates {
            if json {
                let evidence = JSONValue.array(
                    c.evidence.map { e in
                        .object([
                            ("kind", .string(e.kind.rawValue)), ("flow", .string(e.flow)), ("branch", .string(orNull: e.branch)),
                            ("step", .int(orNull: e.step)), ("detail", .string(e.detail)), ("file", .string(e.file)),
                            ("line", .int(e.line)),
                        ])
                    })
                printOut(
                    JSONWriter.line(
                        .object([
                            ("host", .string(c.host)), ("pattern", .string(c.host)), ("left", .int(c.leftCount)),
                            ("stuck", .int(c.stuckCount)), ("evidence", evidence),
                        ])))
            } else {
                for line in c.goodlistLines(today: date, sources: traces) { printOut(line) }
            }
        }
        let allowed = learner.alreadyAllowed(by: known)
        var summary = "\(candidates.count) candidate\(candidates.count == 1 ? "" : "s") from \(learner.eventCount) events"
        if !allowed.isEmpty { summary += "; already allowed: \(allowed.joined(separator: ", "))" }
        for k in learner.keptOut { printError("kept out \(k.host): \(k.why)") }
        if !learner.keptOut.isEmpty {
            summary += "; kept out (listed above): \(learner.keptOut.map(\.host).joined(separator: ", "))"
        }
        for line in learner.skipped { printError("skipped \(line)") }
        if learner.skippedEvents > 0 {
            summary += "; \(learner.skippedEvents) event\(learner.skippedEvents == 1 ? "" : "s") skipped (listed above)"
        }
        printError(summary)
    }
}
