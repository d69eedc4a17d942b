import ArgumentParser
import Foundation

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
