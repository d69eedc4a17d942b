import AppSwitch
import ArgumentParser
import Foundation
import NavigationPolicy

struct AppCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "app",
        abstract: "Build and validate app-switch URLs (Swish, BankID, ROAMpay X) and decode return URLs.",
        discussion: "Builders print the launch URL (or, with --json, the URL and its decoded parts). "
            + "An input that breaks a protocol rule exits 64 with a message naming the field and the rule.",
        subcommands: [AppSwish.self, AppBankID.self, AppROAMpay.self, AppROAMpayResponse.self, AppParse.self]
    )
}

/// `--json` for the app subcommands.
struct AppOutputOptions: ParsableArguments {
    @Flag(name: .long, help: "Print a JSON object instead of the bare URL.")
    var json = false
}

enum AppOutput {
    /// Pretty, sorted JSON without escaped slashes, one object.
    static func json(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    /// Runs a library call; an `AppSwitchError` becomes exit 64 with its sentence on stderr.
    static func run<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as AppSwitchError {
            throw inputError(error.description)
        }
    }
}
