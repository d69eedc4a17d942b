import ArgumentParser
import Foundation
import NavigationPolicy
import PlainviewConfig
import GoodlistTools

struct GoodlistLintCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lint",
        abstract:
            "Check goodlist files: invalid patterns, public-suffix wildcards, case/IDN, duplicates, shadowing, provenance, age.",
        discussion: """
            Prints one line per problem, 'file:line: error|warning: message [code]'. Exit 1 when there is an error, \
            0 with warnings only, 64 when a file cannot be read. --fix rewrites what needs no judgement (case, \
            trailing dot, IDN to punycode, exact duplicates that add nothing) atomically, then reports what is left.
            """
    )

    @Argument(help: "List files or folders, or plainview:3ds (default: the built-in list, plainview:3ds).")
    var files: [String] = []

    @Option(name: .customLong("max-age"), help: "Warn about entries not verified for more than this many days.")
    var maxAge: Int = 365

    @Flag(help: "Rewrite normalisable problems in place (atomically: temporary file + rename).")
    var fix = false

    @Option(
        name: .customLong("public-suffix-list"),
        help: "The Public Suffix List .dat file (default: Debian's publicsuffix package).")
    var publicSuffixList: String?

    @Option(help: ArgumentHelp("Today's date (YYYY-MM-DD) for the age check (default: today, UTC).", visibility: .hidden))
    var today: String?

    func validate() throws {
        if fix, files.isEmpty || files.contains(where: DefaultGoodlist.isNamed) {
            throw ValidationError(
                "--fix rewrites files: name the files to fix (the built-in list \(DefaultGoodlist.name) is compiled into plainview and cannot be rewritten)"
            )
        }
        if maxAge < 0 { throw ValidationError("--max-age must be 0 or more days") }
        if let today, GoodlistDate(today) == nil { throw ValidationError("--today must be a date YYYY-MM-DD, not '\(today)'") }
    }

    func run() async throws {
        let paths = files.isEmpty ? GoodlistFiles.defaultReferences : files
        let suffixes = try orInputError { () throws(ConfigError) in try PublicSuffixList.load(path: publicSuffixList) }
        let linter = GoodlistLinter(
            suffixes: suffixes, maxAgeDays: maxAge,
            today: today.flatMap(GoodlistDate.init) ?? .today())
        var sources = try orInputError { () throws(ConfigError) in try GoodlistFiles.readSources(paths) }
        if fix {
            for (i, source) in sources.enumerated() {
                let result = try orInputError { () throws(ConfigError) in try GoodlistFixer.fixFile(source, path: source.file) }
                for change in result.changes {
                    printOut(change.replacingOccurrences(of: ": ", with: ": fixed: ", options: [], range: change.range(of: ": ")))
                }
                if result.changed {
                    sources[i] = try orInputError { () throws(ConfigError) in try GoodlistFiles.readSource(source.file) }
                }
            }
        }
        let problems = linter.lint(sources)
        for p in problems { printOut(p.description) }
        let errors = problems.filter { $0.severity == .error }.count
        let warnings = problems.count - errors
        let entries = sources.reduce(0) { $0 + $1.entries.count }
        printError(
            "\(sources.count) file\(sources.count == 1 ? "" : "s"), \(entries) entr\(entries == 1 ? "y" : "ies"): \(errors) error\(errors == 1 ? "" : "s"), \(warnings) warning\(warnings == 1 ? "" : "s")"
        )
        if errors > 0 { throw Exit.expectationFailed }
    }
}
