import AppSwitch
import Foundation
import NavigationPolicy

/// Which browsing context a recorded page is served to.
public enum PageContext: String, Sendable, Hashable, Codable, CaseIterable {
    /// The host app's web view.
    case webview
    /// The system browser (Safari / Chrome).
    case browser
}
