import ArgumentParser
import Foundation
import NavigationPolicy
import PlainviewConfig

struct GoodlistCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "goodlist",
        abstract: "Maintain the known-good 3-D Secure host list: lint, check, diff, learn.",
        discussion: """
            List files: the SDK's good_redirects format (one host pattern a line) or Plainview's .goodlist format \
            (pattern then key=value provenance; see Goodlist/README.md). A folder stands for its *.goodlist and \
            good_redirects files, and plainview:3ds names the list built into plainview (the shipped \
            Goodlist/3ds.goodlist). A command given no list uses the built-in one, as decide and simulate do.
            """,
        subcommands: [GoodlistLintCommand.self, GoodlistCheckCommand.self, GoodlistDiffCommand.self, GoodlistLearnCommand.self]
    )
}

/// Writes one line to standard output (unbuffered with respect to stderr ordering).
func printOut(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

/// Runs a throwing library call, turning a ConfigError into exit 64 with its message.
func orInputError<T>(_ body: () throws(ConfigError) -> T) throws -> T {
    do {
        return try body()
    } catch {
        throw inputError(error.description)
    }
}
