// The phone's default browser (docs/environment.md, "The default browser"): the browser app the OS opens web URLs
// in, which may not be Safari on iOS. Each browser app keeps its own cookies; only Safari hands a tapped universal
// link to its app; another app can send the user back to a browser by the browser's own scheme. Which browser is
// the default is asked only where it changes what happens, so `--explore` branches there and nowhere else.
import NavigationPolicy
import PlainviewURL

extension World {
    /// The jar of the default browser while nobody has asked which browser it is.
    static let unresolvedDefaultJar = "default"

    /// The default browser: the environment's, else the platform's. On iOS, when the environment does not say,
    /// `--explore` also tries Chrome (asked once per run, the first time it matters).
    func defaultBrowser() -> SystemBrowser {
        if let b = resolvedDefaultBrowser { return b }
        let platform = flow.policy.platform
        var b = flow.defaultBrowser ?? .platformDefault(platform)
        if flow.defaultBrowser == nil, platform == .ios,
            oracle.choose("default-browser", ["default-browser:safari", "default-browser:chrome"]) == 1
        {
            b = .chrome
        }
        resolvedDefaultBrowser = b
        // The jar used so far as "the default browser's" is that browser's.
        if browserJarKey == Self.unresolvedDefaultJar { browserJarKey = b.rawValue }
        if let jar = browserJars.removeValue(forKey: Self.unresolvedDefaultJar) { browserJars[b.rawValue] = jar }
        noteDefaultBrowser(b)
        return b
    }

    /// Says once per run, when the default browser first matters or shows, that it is not the platform's.
    func noteDefaultBrowser(_ b: SystemBrowser) {
        guard !defaultBrowserNoted, b != .platformDefault(flow.policy.platform) else { return }
        defaultBrowserNoted = true
        emit(
            .note, context: "os",
            reason:
                "the default browser is \(b.displayName): the OS opens web pages in it, with its own cookies (iOS 14 and later: Settings, Default Browser App)"
        )
    }

    /// The name of the browser the surface shows, without asking which the default is (until something asks, the
    /// platform's).
    var browserName: String {
        let platform = flow.policy.platform
        guard browserKind == .system else { return SystemBrowser.platformDefault(platform).displayName }
        return (browserApp ?? settledDefaultBrowser ?? .platformDefault(platform)).displayName
    }

    /// The default browser when nothing needs asking: one already asked, the environment's, or Android's Chrome.
    var settledDefaultBrowser: SystemBrowser? {
        resolvedDefaultBrowser ?? flow.defaultBrowser ?? (flow.policy.platform == .android ? .chrome : nil)
    }

    /// The browser app the browser surface is while it shows the system browser.
    func systemBrowserApp() -> SystemBrowser { browserApp ?? defaultBrowser() }

    /// The cookie jar a browser surface uses: SFSafariViewController its own, a Custom Tab Chrome's,
    /// ASWebAuthenticationSession Safari's, the system browser that of the browser app it is.
    func jarKey(_ kind: InAppBrowser, app: SystemBrowser?) -> String {
        switch kind {
        case .safariViewController: "safari-view-controller"
        case .customTabs: SystemBrowser.chrome.rawValue
        case .authSession: SystemBrowser.safari.rawValue
        case .system: (app ?? settledDefaultBrowser)?.rawValue ?? Self.unresolvedDefaultJar
        }
    }

    /// Whether going between these two surfaces depends on which browser is the default: one is the default
    /// browser and the other Safari by name (BankID's return, ASWebAuthenticationSession).
    func defaultBrowserMatters(_ a: (InAppBrowser, SystemBrowser?), _ b: (InAppBrowser, SystemBrowser?)) -> Bool {
        let isDefault = { (s: (InAppBrowser, SystemBrowser?)) in s.0 == .system && s.1 == nil }
        let isSafari = { (s: (InAppBrowser, SystemBrowser?)) in s.0 == .authSession || (s.0 == .system && s.1 == .safari) }
        return (isDefault(a) && isSafari(b)) || (isSafari(a) && isDefault(b))
    }

    /// iOS: a browser app's own scheme (`googlechromes://…`) asks the OS for that browser. Installed (Safari, or the
    /// default browser), it comes to the front: with a URL it loads it (in a new tab, which the model shows as the
    /// tab); bare, it shows the tab it had, where the page that launched the other app still is
    /// (swedenconnect/bankid-saml-idp #166).
    func openNamedBrowser(_ named: SystemBrowser, opens target: String?, url: String, from: Surface) {
        let installed = named == .safari || named == defaultBrowser()
        guard installed else {
            problem(
                "no app handles \(URLTools.scheme(url) ?? "its"): URLs: \(named.displayName) is not installed (the default browser is \(defaultBrowser().displayName))",
                context: from, url: url)
            return
        }
        showBrowser(.system, app: named == defaultBrowser() ? nil : named)
        switchTo(.browser)
        guard let target else {
            emit(
                .note, context: "browser", url: browser.page?.url,
                reason: browser.page == nil
                    ? "\(named.displayName) comes to the front with an empty tab"
                    : "\(named.displayName) comes to the front with the tab it showed")
            return
        }
        browserChain = BrowserChain(startedAt: clock, userStarted: true, origin: browser.page)
        browserNavigate(target, frame: .main, frameIndex: nil, trigger: .initialLoad, gesture: false, method: "GET", redirects: 0)
    }
}
