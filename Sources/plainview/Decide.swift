import PlainviewURL
import ArgumentParser
import Foundation
import NavigationPolicy
import PlainviewConfig
import PlainviewSupport

struct Decide: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "decide",
        abstract: "Decide what the web view must do with each URL.",
        discussion: """
            Prints one JSON object per URL: {"url","action","target","via","rule","reason"}.
            Without a `goodlist` key in the policy file, the shipped goodlist (built in) is used.
            A single `-` reads the URLs from standard input, one per line (for many URLs).
            """
    )

    @Option(name: .long, help: "The policy file (YAML or JSON).")
    var policy: String

    @Option(name: .long, help: "The environment file: the apps installed on the device (YAML or JSON).")
    var env: String?

    @Option(name: .long, help: "ios or android (overrides the policy file).")
    var platform: Platform?

    @Option(name: .long, help: "The URL of the page currently shown in the main frame.")
    var current: String?

    @Option(name: .long, help: "main, sub or new-window.")
    var frame: NavigationFrame = .main

    @Flag(name: .long, help: "The navigation carries a user gesture (a tap).")
    var gesture = false

    @Flag(name: .long, help: "The navigation is a server redirect.")
    var redirect = false

    @Argument(help: "The URLs to decide (also after --).")
    var urls: [String] = []

    func validate() throws {
        if urls.isEmpty { throw ValidationError("give at least one URL to decide (or - to read them from standard input)") }
        if let current, WebURL(current) == nil {
            throw ValidationError(
                "--current: expected an absolute URL (like https://acs.bank.example/challenge), found '\(current)'")
        }
    }

    func run() async throws {
        let (loadedPolicy, system) = try loadPolicyAndPhone(policy: policy, platform: platform, env: env)
        let engine = NavigationPolicyEngine(policy: loadedPolicy, system: system)
        var inputs = urls
        if urls == ["-"] {
            let data = FileHandle.standardInput.readDataToEndOfFile()
            // Split on bytes: "\r\n" is one Character in Swift.
            inputs = data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map { line in
                String(decoding: line.last == UInt8(ascii: "\r") ? line.dropLast() : line, as: UTF8.self)
            }
            if inputs.last == "" { inputs.removeLast() }
        }
        var out = ""
        for url in inputs {
            let navigation = Navigation(
                url: url, currentURL: current, frame: frame,
                trigger: redirect ? .serverRedirect : .link, userGesture: gesture)
            out += DecisionJSON.line(url: url, engine.decide(navigation)) + "\n"
        }
        FileHandle.standardOutput.write(Data(out.utf8))
    }
}

/// One decision as a JSON object with the contract's keys, in the contract's order.
enum DecisionJSON {
    static func line(url: String, _ d: Decision) -> String {
        JSONWriter.line(
            .object([
                ("url", .string(url)), ("action", .string(d.action.name)), ("target", .string(orNull: d.action.target)),
                ("via", .string(orNull: d.action.via?.rawValue)), ("rule", .string(d.rule.rawValue)),
                ("reason", .string(d.reason)),
            ]))
    }
}
