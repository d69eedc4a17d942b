// Third-party cookies in the host app's web view: a sub-frame on another site than the page (the bank's ACS or
// 3DS Method frame inside the merchant's page) neither keeps nor sends cookies unless the web view accepts them.
//
// Sources: Android's `CookieManager.setAcceptThirdPartyCookies` reference (apps targeting Lollipop or later start
// with third-party cookies off); WebKit's "Full Third-Party Cookie Blocking and More" (March 2020: every
// WKWebView on iOS 13.4 and later blocks cross-site cookies; the user can allow an app cross-website tracking in
// Settings when it declares `NSCrossWebsiteTrackingUsageDescription`). The system browser keeps its own rules
// and is not modelled here.
import NavigationPolicy
import PlainviewConfig
import PlainviewURL

extension World {
    /// The Public Suffix List the sites are compared by (Debian's `publicsuffix`), read once per process; without
    /// it a site is the host's last two labels (the list's default rule alone).
    static let siteRules: PublicSuffixRules = (try? PublicSuffixList.loadRemembered()) ?? PublicSuffixRules(text: "")

    /// The page's site when a request of the host's web view to `url` in a sub-frame is cross-site and the web
    /// view does not accept third-party cookies (its cookies are then neither sent nor kept); nil otherwise.
    func blockedThirdPartySite(_ surface: Surface, _ url: String, frame: NavigationFrame) -> String? {
        guard surface == .host, frame == .sub, !flow.webView.acceptThirdPartyCookies,
            let top = web.page.flatMap({ URLTools.host($0.url) }), let host = URLTools.host(url)
        else { return nil }
        let topSite = Self.siteRules.site(of: top)
        guard Self.siteRules.site(of: host) != topSite else { return nil }
        return userAllowedCrossWebsiteTracking() ? nil : topSite
    }

    /// iOS: whether the user allowed the host app cross-website tracking in Settings, which lets its WKWebView keep
    /// third-party cookies. Only an app whose Info.plist declares `NSCrossWebsiteTrackingUsageDescription` is
    /// offered the switch, and it is off until the user turns it on: an uncertain point (`--explore`).
    func userAllowedCrossWebsiteTracking() -> Bool {
        guard flow.policy.platform == .ios, flow.webView.mayAllowCrossWebsiteTracking else { return false }
        if let known = crossWebsiteTrackingAllowed { return known }
        let allowed =
            oracle.choose("third-party-cookies \(flow.hostApp)", ["third-party-cookies-blocked", "third-party-cookies-allowed"])
            == 1
        crossWebsiteTrackingAllowed = allowed
        return allowed
    }

    /// The jar a request carries: none for a blocked third-party request.
    func requestJar(_ surface: Surface, blockedBy site: String?) -> CookieJar {
        site != nil ? CookieJar() : surface == .host ? web.jar : browser.jar
    }

    /// Why the web view kept no cookie of a frame on another site, with the rule's source for the platform.
    func thirdPartyRule(site: String) -> String {
        let rule =
            flow.policy.platform == .ios
            ? "WKWebView blocks third-party cookies (WebKit's full third-party cookie blocking, iOS 13.4)"
            : "Android's WebView accepts no third-party cookies unless the app calls CookieManager.setAcceptThirdPartyCookies(webView, true)"
        return "a frame inside a page of \(site) is on another site, and \(rule)"
    }
}
