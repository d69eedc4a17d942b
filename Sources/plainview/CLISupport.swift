import ArgumentParser
import Foundation
import NavigationPolicy
import PlainviewConfig

/// Exit codes of the contract: 0 success, 1 expectations failed, 64 usage or input error.
enum Exit {
    static let expectationFailed = ExitCode(1)
    static let inputError = ExitCode(64)
}

/// Writes one line to standard error.
func printError(_ message: String) {
    var line = message
    if !line.hasSuffix("\n") { line += "\n" }
    FileHandle.standardError.write(Data(line.utf8))
}

/// Reports a usage/input error (file, key or line, and what was expected) and exits 64.
func inputError(_ message: String) -> ExitCode {
    printError("error: \(message)")
    return Exit.inputError
}

/// The policy file and, when given, the environment file's phone, as `decide` and `decision-table` ask the
/// engine with them; a file that does not read is exit 64 with its message.
func loadPolicyAndPhone(policy: String, platform: Platform?, env: String?) throws -> (Policy, any SystemServices) {
    do throws(ConfigError) {
        let loaded = try PolicyFile.load(path: policy, platform: platform)
        var system: any SystemServices = NoApps()
        if let env { system = EnvironmentSystem(try EnvironmentFile.device(path: env)) }
        return (loaded, system)
    } catch {
        throw inputError(error.description)
    }
}
