import ArgumentParser

/// `plainview`: the thin command line over the libraries. Every subcommand is a few lines over a library call.
@main
struct Plainview: AsyncParsableCommand {
    /// The release, printed by `plainview --version` (semantic versioning; bump with every tagged release).
    static let version = "0.5.0"

    static let configuration = CommandConfiguration(
        commandName: "plainview",
        abstract: "Know before shipping whether a web checkout works inside your app's web view.",
        discussion: """
            Shell completion: plainview --generate-completion-script bash|zsh|fish prints a script to source \
            (for example: plainview --generate-completion-script zsh > ~/.zfunc/_plainview).
            """,
        version: version,
        subcommands: [
            Simulate.self, MergeResults.self, Decide.self, Extract.self, GoodlistCommand.self,
            Serve.self, CheckBackend.self, CheckApp.self, AppCommand.self, Import.self, Record.self, DecisionTableCommand.self,
        ],
        defaultSubcommand: nil
    )

    /// ArgumentParser's own entry point, after setting how memory goes back to the system (`ProcessMemory`).
    static func main() async {
        ProcessMemory.returnBigBuffersWhenFreed()
        do {
            var command = try parseAsRoot()
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            exit(withError: error)
        }
    }
}
