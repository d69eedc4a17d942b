import AppSwitch
import Foundation
import NavigationPolicy

/// Fixed answers to the world's uncertain points for a normal (non-explore) run. `--explore` ignores them
/// and tries every answer.
public struct Assumptions: Sendable, Hashable {
    /// Per host (normalised, lower case): universal-link / app-link attempts in order; `true` = the link opens
    /// the app. After the list, links work. The key `*` applies to every host.
    public var universalLinks: [String: [Bool]]
    /// Apps (by name) that are not installed.
    public var missingApps: Set<String>
    /// The browser blocks automatic (non-gesture) redirects to an app (intent: / custom scheme).
    public var blockAutomaticAppRedirects: Bool
    /// The phone ends the host app while the user is away (the first time it comes back; `host-killed`).
    public var hostKilled = false

    public init(universalLinks: [String: [Bool]] = [:], missingApps: Set<String> = [], blockAutomaticAppRedirects: Bool = false) {
        self.universalLinks = universalLinks
        self.missingApps = missingApps
        self.blockAutomaticAppRedirects = blockAutomaticAppRedirects
    }
}
