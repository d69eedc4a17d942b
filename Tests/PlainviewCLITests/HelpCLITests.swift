import Testing
import TestSupport

@Suite struct HelpCLITests {
    @Test func helpListsEverySubcommand() throws {
        let r = try CLI.run(["--help"])
        #expect(r.status == 0, "\(r)")
        for sub in ["simulate", "decide", "extract", "goodlist", "serve", "check-backend", "app", "import"] {
            #expect(r.stdout.contains(sub), "help does not mention \(sub)")
        }
    }

    @Test func unknownSubcommandIsAUsageError() throws {
        let r = try CLI.run(["no-such-command"])
        #expect(r.status == 64, "\(r)")
        #expect(!r.stderr.isEmpty)
    }
}
