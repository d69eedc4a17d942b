import Foundation
import Testing
import TestSupport

@Suite struct HelpCLITests {
    @Test func helpListsEverySubcommand() throws {
        let r = try CLI.run(["--help"])
        #expect(r.status == 0, "\(r)")
        for sub in [
            "simulate", "merge-results", "decide", "extract", "goodlist", "serve", "check-backend", "app", "import",
            "decision-table",
        ] {
            #expect(r.stdout.contains(sub), "help does not mention \(sub)")
        }
    }

    @Test func versionPrintsTheReleaseAndExitsZero() throws {
        let r = try CLI.run(["--version"])
        #expect(r.status == 0, "\(r)")
        let version = r.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let parts = version.split(separator: ".")
        #expect(parts.count == 3 && parts.allSatisfy { Int($0) != nil }, "not a semantic version: '\(version)'")
    }

    @Test(arguments: ["bash", "zsh", "fish"])
    func completionScriptsAreGeneratedAndDocumentedInHelp(_ shell: String) throws {
        let r = try CLI.run(["--generate-completion-script", shell])
        #expect(r.status == 0, "\(r)")
        #expect(r.stdout.contains("simulate"), "\(r)")
        #expect(try CLI.run(["--help"]).stdout.contains("--generate-completion-script"))
    }

    @Test func unknownSubcommandIsAUsageError() throws {
        let r = try CLI.run(["no-such-command"])
        #expect(r.status == 64, "\(r)")
        #expect(!r.stderr.isEmpty)
    }
}
