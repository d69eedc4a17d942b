import ArgumentParser

struct GoodlistLearnCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "learn",
        abstract: "From simulator traces, the hosts that made a flow leave the web view or get stuck, as candidate entries."
    )

    @Argument(help: "Trace files (JSON Lines).")
    var traces: [String]

    func run() async throws {
        throw inputError("'goodlist learn' is not implemented yet")
    }
}
