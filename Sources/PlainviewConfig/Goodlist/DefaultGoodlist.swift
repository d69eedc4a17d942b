// The goodlist compiled into Plainview: the shipped Goodlist/3ds.goodlist (DefaultGoodlist+Embedded.swift), so that
// `decide`, `simulate` and the goodlist tools answer the same in every working directory and on a machine that has
// only the binary. A policy without a `goodlist` key gets it; a policy or a goodlist command names it `plainview:3ds`
// (to extend it with its own files or patterns, or to check, lint or diff against it).
import NavigationPolicy

public enum DefaultGoodlist {
    /// The name a policy's `goodlist` list and the goodlist commands use for the built-in list.
    public static let name = "plainview:3ds"

    /// How entries and errors name the built-in list (`Goodlist/3ds.goodlist:12` in reasons): the file it was
    /// compiled from, as it stands in Plainview's repository.
    public static let displayName = "Goodlist/3ds.goodlist"

    /// The built-in list as a parsed file (for lint and diff).
    public static let source: GoodlistSource = {
        // The text is checked by a test against the file and by lint in CI: it always parses.
        (try? GoodlistSource.parse(Array((text + "\n").utf8), file: displayName))
            ?? GoodlistSource(file: displayName, lines: [], hasByteOrderMark: false)
    }()

    /// The built-in list's entries, in file order.
    public static let entries: [GoodlistEntry] = patternEntries.map(\.1)

    /// The built-in list's parsed patterns with their entries, in file order.
    public static let patternEntries: [(HostPattern, GoodlistEntry)] = { (try? source.patternEntries()) ?? [] }()

    /// True when a goodlist reference (a policy's `goodlist` item, a command's list argument) names the built-in list.
    public static func isNamed(_ reference: String) -> Bool { reference == name }
}
