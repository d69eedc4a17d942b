import ArgumentParser

struct Simulate: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "simulate",
        abstract: "Replay recorded flows through the policy on a simulated device."
    )

    func run() async throws {
        throw inputError("'simulate' is not implemented yet")
    }
}
