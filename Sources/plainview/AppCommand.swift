import ArgumentParser

struct AppCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "app",
        abstract: "Build and validate app-switch URLs (Swish, BankID, ROAMpay X) and decode return URLs.",
        subcommands: []
    )
}
