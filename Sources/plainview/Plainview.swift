import ArgumentParser

/// `plainview`: the thin command line over the libraries. Every subcommand is a few lines over a library call.
@main
struct Plainview: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plainview",
        abstract: "Know before shipping whether a web checkout works inside your app's web view.",
        subcommands: [
            Simulate.self, Decide.self, Extract.self, GoodlistCommand.self,
            Serve.self, CheckBackend.self, AppCommand.self, Import.self,
        ],
        defaultSubcommand: nil
    )
}
