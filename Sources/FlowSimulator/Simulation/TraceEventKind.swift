import Foundation
import NavigationPolicy

/// What kind of thing happened.
public enum TraceEventKind: String, Sendable, Hashable, Codable, CaseIterable {
    /// The run started (the host app loads `url` in its web view).
    case start
    /// A navigation was asked: in the web view (to the policy) or in the browser.
    case navigate
    /// The policy's decision for the preceding web-view navigation (`action`, `target`, `via`, `rule`, `reason`).
    case decide
    /// The network answered (`status`; `target` = Location for a redirect).
    case response
    /// A page was shown (`reason` summarises what it will do by itself).
    case load
    /// The front app changed (`context` = the new front).
    case `switch`
    /// The OS launched an app with `url` (`app`, `via`).
    case launch
    /// The host app received `url` from the OS.
    case receive
    /// An app returned (`action`: `previous` or `open`, `url`).
    case `return`
    /// The browser asks "Open in APP?" (`app`).
    case prompt
    /// The prompt's answer (`action`: `accept` / `decline`).
    case answer
    /// A user step (`reason` = the step).
    case user
    /// A branch choice the world made (`action` = the choice label).
    case choice
    /// Something worth knowing that changes nothing by itself (a blocked navigation in the browser, a cookie miss).
    case note
    /// The run ended (`action` = outcome kind, `reason`).
    case outcome
}
