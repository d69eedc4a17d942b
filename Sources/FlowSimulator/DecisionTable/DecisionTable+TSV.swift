// The decision table as text: tab-separated, so that a JVM unit test reads it with the JDK alone (the JDK has no
// JSON reader). docs/cli.md ("plainview decision-table") is the reference; Examples/android-decision-table reads it.
//
//   line 1   plainview-decision-table<TAB>1          the format and its version
//   line 2   the column names, tab-separated          (columns are found by name; new ones are added at the end)
//   then     one row per navigation
//
// A field's `\`, tab, line feed and carriage return are written `\\`, `\t`, `\n`, `\r`; nothing else is escaped.
// An empty field is "none" (no current page, no target, no via).
import NavigationPolicy

extension DecisionTable {
    /// The first line: the format's name and version. A change to a column's meaning bumps the version.
    public static let formatLine = "plainview-decision-table\t1"

    /// The column names, in order.
    public static let columns = [
        "url", "current", "frame", "trigger", "gesture", "method",
        "action", "target", "via", "rule",
        "override", "then", "launch", "then_url",
        "reason", "source",
    ]

    /// The whole table as text, ending in a line feed.
    public var tsv: String {
        var out = Self.formatLine + "\n" + Self.columns.joined(separator: "\t") + "\n"
        for row in rows { out += Self.fields(row).map(Self.escape).joined(separator: "\t") + "\n" }
        return out
    }

    /// A row's fields, in the order of `columns`.
    static func fields(_ row: DecisionTableRow) -> [String] {
        let n = row.navigation, d = row.decision
        let (then, launch, thenURL) = Self.then(row.command.then)
        return [
            n.url, n.currentURL ?? "", n.frame.rawValue, n.trigger.rawValue, String(n.userGesture), n.method,
            d.action.name, d.action.target ?? "", d.action.via?.rawValue ?? "", d.rule.rawValue,
            String(row.command.overrideUrlLoading), then, launch, thenURL,
            d.reason, row.source,
        ]
    }

    /// What the app does next, as the `then`, `launch` and `then_url` columns.
    static func then(_ then: AndroidWebViewCommand.Then) -> (String, String, String) {
        switch then {
        case .nothing: ("nothing", "", "")
        case .startActivity(let url, let launch): ("start-activity", launch.rawValue, url)
        case .openInBrowser(let url): ("open-browser", "", url)
        case .finish(let end): ("finish-\(end.rawValue)", "", "")
        case .showTerms(let url): ("show-terms", "", url)
        case .loadPaymentPage(let url): ("load-payment-page", "", url)
        case .load(let url): ("load", "", url)
        }
    }

    /// `\` → `\\`, tab → `\t`, line feed → `\n`, carriage return → `\r`.
    static func escape(_ field: String) -> String {
        guard field.unicodeScalars.contains(where: { "\\\t\n\r".unicodeScalars.contains($0) }) else { return field }
        var out = ""
        for scalar in field.unicodeScalars {
            switch scalar {
            case "\\": out += "\\\\"
            case "\t": out += "\\t"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
