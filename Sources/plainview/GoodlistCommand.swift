import ArgumentParser

struct GoodlistCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "goodlist",
        abstract: "Maintain the known-good 3-D Secure host list: lint, check, diff, learn.",
        subcommands: []
    )
}
