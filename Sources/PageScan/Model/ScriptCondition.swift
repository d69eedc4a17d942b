extension PageScanResult {
    /// What a script's navigation or form submission waits on, besides running: a `confirm()` dialog's answer, or
    /// a network answer the page asks for at run time. A static reading knows the first (the dialog's answer is
    /// the web view's, see `Environment.WebView.dialogs`) and cannot know the second.
    public enum ScriptCondition: String, Sendable, Hashable, Codable {
        /// `if (confirm(…)) …`: runs when the dialog answers OK.
        case confirmAccepted = "confirm-accepted"
        /// `if (!confirm(…)) …`, or the `else` of `if (confirm(…))`: runs when it answers Cancel.
        case confirmDismissed = "confirm-dismissed"
        /// In a promise callback of a request (`fetch(…).then(…)`, `$.ajax(…).done(…)`, code after
        /// `await fetch(…)`): runs, if at all, once the network answers, with what the answer says.
        case networkAnswer = "network-answer"
    }
}
