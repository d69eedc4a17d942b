import ArgumentParser

struct Import: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Turn a HAR recording into a redacted flow folder."
    )

    func run() async throws {
        throw inputError("'import' is not implemented yet")
    }
}
