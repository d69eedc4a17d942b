// Who started a recorded navigation, as far as the recording says.
//
// Evidence, strongest first:
// 1. `Sec-Fetch-User: ?1`. Browsers send it only on a navigation request made with user activation: a tap, a
//    click, a key, or a script that ran inside one (Fetch Metadata Request Headers, W3C; Chrome, Firefox and
//    Safari send it). A redirect hop keeps the header of the request it continues.
// 2. A navigation request that carries Fetch Metadata (`Sec-Fetch-Mode: navigate` or `nested-navigate`) but no
//    `Sec-Fetch-User`: the browser says nobody activated it, so the page went there by itself.
// 3. Chrome's `_initiator.type`: `script` (a script navigated or submitted a form) and `parser` (an `<iframe
//    src>`, a meta refresh) are the page's own; `other` (the address bar, the app's load, a click) says nothing.
// A recording with none of these (hand-made, or from a proxy that keeps no request headers) falls back to
// reading the pages (`HARFlowBuilder.leadsByItself`).
import Foundation

/// What a recorded navigation says about who started it.
public enum HARNavigationCause: Sendable, Hashable {
    /// The user did (a tap, click or key): the flow needs a step for it. `evidence` names the field.
    case user(evidence: String)
    /// The page did (its parser or a script, without user activation): no step.
    case page(evidence: String)
    /// The recording does not say.
    case unknown
}

extension HAREntry {
    /// Who started this navigation, from the request's Fetch Metadata and the recorder's initiator.
    public var cause: HARNavigationCause {
        let headers = request.headers
        if let user = headers.first(named: "Sec-Fetch-User"), user.trimmingCharacters(in: .whitespaces) == "?1" {
            return .user(evidence: "Sec-Fetch-User: ?1")
        }
        if let mode = headers.first(named: "Sec-Fetch-Mode")?.lowercased(), mode == "navigate" || mode == "nested-navigate" {
            return .page(evidence: "Sec-Fetch-Mode: \(mode) without Sec-Fetch-User")
        }
        switch initiatorType?.lowercased() {
        case "script": return .page(evidence: "_initiator: script")
        case "parser": return .page(evidence: "_initiator: parser")
        default: return .unknown
        }
    }
}
