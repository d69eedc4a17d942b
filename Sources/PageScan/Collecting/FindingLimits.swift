// The per-page cap on findings: a page keeps its first `PageScanner.maxFindingsPerKind` of each kind, in document
// order, and only counts the rest, so what a scan holds is bounded however dense the page is.

extension PageScanner {
    /// Findings of one kind (links, forms, fields, frames, buttons, script navigations, hooks, `.submit()` calls,
    /// refresh declarations) a scan keeps per page; later ones are counted and reported in `truncations`.
    ///
    /// A checkout page holds tens of each; large catalogue pages a few thousand links (the bench's generated
    /// 5 MB page, 16,000 products, about 16,000 each of links, buttons and navigations, stays whole). A browser
    /// runs only the first automatic navigation, and no user weighs thousands of choices, so findings past
    /// 25,000 tell nothing more, while each costs about 200 bytes to report: without the cap a page made of
    /// nothing but findings costs 5 to 15 times its size.
    public static let maxFindingsPerKind = 25_000
}

/// The kinds of finding the cap counts, each reported under its own truncation kind.
enum Finding: Int, CaseIterable {
    case link, form, field, frame, button, scriptNavigation, hook, formSubmission, refresh

    var truncationKind: PageScanResult.Truncation.Kind {
        switch self {
        case .link: .links
        case .form: .forms
        case .field: .fields
        case .frame: .frames
        case .button: .buttons
        case .scriptNavigation: .scriptNavigations
        case .hook: .hooks
        case .formSubmission: .formSubmissions
        case .refresh: .refreshes
        }
    }
}

/// Counts a page's findings per kind and tells which to keep.
struct FindingCounts {
    private var found = [Int](repeating: 0, count: Finding.allCases.count)

    /// Counts one finding of `kind`; true when it is among the first `maxFindingsPerKind` (keep it).
    @inline(__always)
    mutating func admit(_ kind: Finding) -> Bool {
        found[kind.rawValue] += 1
        return found[kind.rawValue] <= PageScanner.maxFindingsPerKind
    }

    /// Adds findings of `kind` counted elsewhere (the script scanner counts its own).
    mutating func add(_ kind: Finding, _ count: Int) { found[kind.rawValue] += count }

    /// One truncation per kind past the limit, in the order of `Finding`.
    var truncations: [PageScanResult.Truncation] {
        let limit = PageScanner.maxFindingsPerKind
        return Finding.allCases.compactMap { k in
            found[k.rawValue] > limit
                ? .init(kind: k.truncationKind, count: found[k.rawValue], limit: limit, dropped: found[k.rawValue] - limit)
                : nil
        }
    }
}
