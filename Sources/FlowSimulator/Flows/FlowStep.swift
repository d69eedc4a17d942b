import AppSwitch
import Foundation
import NavigationPolicy
import PlainviewConfig

/// What the user does, in order, when nothing happens by itself.
public enum FlowStep: Sendable, Hashable, CustomStringConvertible {
    /// Tap a link, button or form on the front page (web view or browser), found by its text or URL.
    case tap(text: String?, url: String?)
    /// Answer the browser's "Open in …?" prompt.
    case accept
    case decline
    /// The user, in app NAME, completes / cancels / …
    case app(name: String, outcome: AppBehaviour.Outcome)
    /// The user switches back to the host app (the app switcher), without any URL.
    case switchToApp
    /// The user types `text` into the form field named `field` (its `name` attribute) on the front page or one of
    /// its frames.
    case type(field: String, text: String)

    public var description: String {
        switch self {
        case .tap(let text, let url):
            if let text { return "tap '\(text)'" }
            return "tap \(url ?? "?")"
        case .accept: return "accept the prompt"
        case .decline: return "decline the prompt"
        case .app(let name, let outcome): return "\(name): \(outcome.rawValue)"
        case .switchToApp: return "switch back to the app"
        // What is typed may be a secret (a card number, a one-time code): the trace names the field only.
        case .type(let field, _): return "type into '\(field)'"
        }
    }
}
