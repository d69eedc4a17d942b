import ArgumentParser

struct Extract: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "extract",
        abstract: "Print where a served page sends the user next, as JSON."
    )

    func run() async throws {
        throw inputError("'extract' is not implemented yet")
    }
}
