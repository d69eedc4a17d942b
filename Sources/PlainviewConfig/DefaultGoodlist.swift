// The goodlist a policy gets when it names none: the shipped Goodlist/3ds.goodlist, compiled into the binary
// (DefaultGoodlist+Embedded.swift) so that `decide` and `simulate` answer the same in every working directory
// and on a machine that has only the binary.
import NavigationPolicy

public enum DefaultGoodlist {
    /// How entries and errors name the built-in list (`Goodlist/3ds.goodlist:12` in reasons).
    public static let displayName = "Goodlist/3ds.goodlist"

    /// The built-in list's entries, in file order.
    public static let entries: [GoodlistEntry] = {
        // The text is checked by a test against the file and by lint in CI: it always parses.
        (try? Goodlist(source: GoodlistSource.parse(Array((text + "\n").utf8), file: displayName)).entries) ?? []
    }()
}
