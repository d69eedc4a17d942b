/// One piece of JavaScript: an inline `<script>` or an event-handler attribute.
struct ScriptUnit {
    var source: [UInt8]
    /// True for inline scripts and `<body onload>`; false for handlers that need the user.
    var onLoad: Bool
    /// Forms that precede this script in document order (to resolve `form.submit()` with an unknown receiver).
    var formsBefore: Int

    /// An inline script longer than this is analysed in runs of whole top-level statements (see
    /// `PageCollector`), and no run is longer than `maxBytes`: a unit's tokens cost several times its size.
    static let segmentBytes = 1 << 17
    static let maxBytes = 1 << 18
    /// True for code that runs once the page has parsed: a load-time handler attribute (`<body onload>`,
    /// `onpageshow`, `onerror`) or a module script. A classic inline script runs where the parser meets it.
    var runsAfterParsing = false
    /// False for a classic inline script with no external script before it and no definition of `$` or
    /// `jQuery` in any script so far: jQuery cannot have been loaded, so its first use throws a ReferenceError.
    var librariesLoaded = true
    /// The code string of a `setTimeout("…", N)` (or `setInterval`): it runs N ms after the code that set it,
    /// as a timer (phase 2 of the run order).
    var timerDelay: Int?
    /// Position among the page's script units (set when the unit is added), for document order.
    var index = 0
}
