/// The elements the collector cares about, recognised without allocating. Each case but `other` is named as
/// its element.
enum Tag: CaseIterable {
    case a, area, base, button, meta, form, input, textarea, select, option, fieldset, iframe, frame, script, style
    case noscript, template, noembed, noframes
    case other

    /// The names of the elements the collector reads more of than event handlers.
    static let collectedNames: [String] = allCases.filter { $0 != .other }.map { "\($0)" }

    /// The attributes `PageCollectorState.startElement` reads of this element besides event handlers (`on…`,
    /// read of every element); nil for all of them (libxml2 reads `<meta>`'s for its charset). `MarkupLimiter`
    /// drops the others before libxml2 parses them, so a new attribute read there must be named here (the
    /// unread-attribute tests try every attribute of the HTML standard on every element listed).
    var readAttributes: [String]? {
        switch self {
        case .a: ["href", "target", "id"]
        case .base: ["href", "target"]
        case .area: ["href", "target", "alt"]
        case .meta: nil
        case .form: ["action", "method", "target", "name", "id"]
        case .button: ["type", "name", "value", "form", "aria-label", "disabled", "id"]
        case .input: ["name", "value", "type", "checked", "disabled", "form", "alt", "aria-label", "id"]
        case .textarea: ["name", "disabled", "form"]
        case .select: ["name", "multiple", "disabled", "form"]
        case .option: ["value", "selected", "disabled"]
        case .fieldset: ["disabled"]
        case .iframe, .frame: ["src", "name", "srcdoc"]
        case .script: ["src", "type"]
        case .style, .noscript, .template, .noembed, .noframes, .other: []
        }
    }

    /// Elements whose content a scripting browser does not put in the document.
    var isInert: Bool { self == .noscript || self == .template || self == .noembed || self == .noframes }

    init(_ n: UnsafePointer<UInt8>) {
        switch n[0] {
        case UInt8(ascii: "a"):
            self = n[1] == 0 ? .a : cEqual(n, "area") ? .area : .other
        case UInt8(ascii: "b"): self = cEqual(n, "base") ? .base : cEqual(n, "button") ? .button : .other
        case UInt8(ascii: "m"): self = cEqual(n, "meta") ? .meta : .other
        case UInt8(ascii: "f"):
            self = cEqual(n, "form") ? .form : cEqual(n, "frame") ? .frame : cEqual(n, "fieldset") ? .fieldset : .other
        case UInt8(ascii: "i"): self = cEqual(n, "input") ? .input : cEqual(n, "iframe") ? .iframe : .other
        case UInt8(ascii: "t"): self = cEqual(n, "textarea") ? .textarea : cEqual(n, "template") ? .template : .other
        case UInt8(ascii: "s"):
            self = cEqual(n, "select") ? .select : cEqual(n, "script") ? .script : cEqual(n, "style") ? .style : .other
        case UInt8(ascii: "o"): self = cEqual(n, "option") ? .option : .other
        case UInt8(ascii: "n"):
            self =
                cEqual(n, "noscript") ? .noscript : cEqual(n, "noembed") ? .noembed : cEqual(n, "noframes") ? .noframes : .other
        default: self = .other
        }
    }
}
