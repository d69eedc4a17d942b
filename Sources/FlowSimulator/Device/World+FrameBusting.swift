// A frame that is not same-origin with the top document, and has no user activation, cannot send the top window
// to another site (by the registrable domain). Both engines have the rule, and they differ in two ways:
// - WebKit (iOS; its ThirdPartyIframeRedirectBlocking setting, "Block top-level redirects by third-party
//   iframes", on by default in Safari and in every WKWebView):
//   - only interaction with the frame's current document counts; a document the frame loaded after a tap has had
//     none;
//   - when such a navigation stays within the top document's site, each of its redirects to another site is
//     cancelled too. WebKit's log says: "canceling - cross-site redirect of top frame triggered by third-party
//     iframe".
// - Chromium (Android's WebView; its frame-busting intervention, "The frame attempting navigation is targeting its
//   top-level window, but is neither same-origin with its target nor has it received a user gesture"):
//   - the frame's sticky activation counts, which it keeps across its own navigations after the user tapped in it;
//   - redirects are not checked.
// Our runs of both engines show each of these differences (FrameBustingTests, SimulateEngineCLITests+FrameBusting).
// So a 3-D Secure ACS page in the challenge frame that sends the top window straight to the merchant stops on the
// phone, and on an iPhone so does the PSP's redirect to the merchant that such a page starts. Posting the result to
// the PSP's own page in the frame, which then moves the top window, works.
import NavigationPolicy
import PlainviewURL

extension World {
    /// The top document's site when a navigation of the main frame, started without a gesture by the document of
    /// sub-frame `frameIndex`, comes from a frame of another origin than the top document's; nil when the rule does
    /// not apply (the browser, the frame itself, a gesture, a same-origin frame, and on Android a frame the user
    /// has tapped in).
    func thirdPartyFrameGuard(_ surface: Surface, from frameIndex: Int?, to target: NavigationFrame, gesture: Bool)
        -> String?
    {
        guard surface == .host, target == .main, !gesture, let frameIndex,
            flow.policy.platform == .ios || !framesWithActivation.contains(frameIndex),
            let frameURL = web.frames[frameIndex]?.url, let topURL = web.page?.url,
            let frameOrigin = WebURL(frameURL)?.origin, let topOrigin = WebURL(topURL)?.origin, frameOrigin != topOrigin,
            let topHost = URLTools.host(topURL)
        else { return nil }
        return Self.siteRules.site(of: topHost)
    }

    /// Whether a navigation under `guardSite` (see `thirdPartyFrameGuard`) may go to `url`: a URL of the top
    /// document's site may; another site's is refused, with a note and the run's problem saying why.
    func passesThirdPartyFrameGuard(_ guardSite: String?, _ url: String, redirect: Bool) -> Bool {
        // Chromium checks the navigation only, WebKit each redirect too.
        guard let guardSite, !redirect || flow.policy.platform == .ios, let host = URLTools.host(url),
            Self.siteRules.site(of: host) != guardSite
        else { return true }
        let why =
            flow.policy.platform == .android
            ? "Chromium refuses a navigation of the top window to another site by a cross-origin frame without user activation (its frame-busting intervention; Android's WebView is Chromium)"
            : redirect
                ? "WebKit cancels this redirect of the top window to another site: the navigation was started by a third-party frame the user had not interacted with (ThirdPartyIframeRedirectBlocking, on in every WKWebView)"
                : "WebKit refuses a third-party frame's navigation of the top window to another site when the user has not interacted with the frame (ThirdPartyIframeRedirectBlocking, on in every WKWebView)"
        emit(.note, context: "webview", url: url, reason: why)
        lastProblem = "\(url): \(why)"
        return false
    }
}
