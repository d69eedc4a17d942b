// Payment providers whose documentation forbids showing their pages in an embedded web view (WKWebView, Android's
// WebView). A flow that loads one in the host app's web view works in Plainview and may still break the
// provider's terms or fail on the phone; the simulator says so in the trace.
import PlainviewURL

/// A provider that forbids embedded web views, the hosts of its pages, and where it says so.
public struct EmbeddingRestriction: Sendable {
    public let provider: String
    public let hosts: [HostPattern]
    /// The provider's documentation, named.
    public let source: String

    /// The providers Plainview knows of.
    public static let known: [EmbeddingRestriction] = [
        EmbeddingRestriction(
            provider: "Klarna", hosts: [HostPattern(kind: .anyDepth, base: "klarna.com")].compactMap { $0 },
            source:
                "Klarna's mobile documentation (\"standalone or hybrid\"): embedded web views are strictly prohibited; SFSafariViewController, ASWebAuthenticationSession or Custom Tabs are the accepted alternative"
        )
    ]

    /// The restriction that covers `host` (normalised or not), if any.
    public static func covering(host: String) -> EmbeddingRestriction? {
        known.first { r in r.hosts.contains { $0.matches(host: host) } }
    }
}
