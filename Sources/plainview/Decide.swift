import ArgumentParser

struct Decide: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "decide",
        abstract: "Decide what the web view must do with each URL."
    )

    func run() async throws {
        throw inputError("'decide' is not implemented yet")
    }
}
