import NavigationPolicy

/// A URL that must reach the host app from outside its web view: from the browser, another app or the OS.
public struct AppReturn: Sendable, Hashable {
    public enum Need: String, Sendable, Hashable {
        /// The payment depends on it: a failure fails the check.
        case required
        /// Worth having; the flows do not rely on it: a miss is a warning.
        case recommended
    }

    public var url: String
    /// What relies on it: `paymentUrl`, `callbackScheme`, `--return`, or a flow and branch.
    public var why: String
    public var need: Need
    /// The platform whose app it must reach; nil: both.
    public var platform: Platform?
    /// Android: required after all when the app's manifest claims https links (an intent filter with
    /// `autoVerify`): the app then relies on App Links for it.
    public var requiredWithAppLinks = false

    /// What decides whether it reaches the app: the URL without its query and fragment (an AASA rule may read
    /// the query, so each distinct query of a path that only an AASA with components decides is still one URL
    /// here: returns are checked once per scheme, host and path). An `intent:` URL is kept whole but for its query.
    var key: String {
        var cut = url
        if url.lowercased().hasPrefix("intent:") {
            if let q = cut.firstIndex(of: "?"), let hash = cut.firstIndex(of: "#"), q < hash { cut.removeSubrange(q..<hash) }
        } else if let q = cut.firstIndex(where: { $0 == "?" || $0 == "#" }) {
            cut = String(cut[..<q])
        }
        return "\(platform?.rawValue ?? "") \(cut)"
    }

    public init(url: String, why: String, need: Need, platform: Platform? = nil) {
        self.url = url
        self.why = why
        self.need = need
        self.platform = platform
    }
}
