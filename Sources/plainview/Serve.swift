import ArgumentParser

struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the payment-url helper endpoints (and the recorded Pages) over HTTP."
    )

    func run() async throws {
        throw inputError("'serve' is not implemented yet")
    }
}
