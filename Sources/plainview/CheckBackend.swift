import ArgumentParser

struct CheckBackend: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check-backend",
        abstract: "Probe a running backend's payment-url helper endpoints."
    )

    func run() async throws {
        throw inputError("'check-backend' is not implemented yet")
    }
}
