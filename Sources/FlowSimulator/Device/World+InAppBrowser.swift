// In-app browsers (`webView.openBrowser`): the host app shows a page the policy sends out of its web view in
// SFSafariViewController, a Custom Tab or ASWebAuthenticationSession instead of handing it to the OS. They are the
// browser surface with their own rules: docs/environment.md ("In-app browsers") names the sources.
import NavigationPolicy
import PlainviewURL

extension World {
    /// The host app presents its in-app browser with `url`: no OS routing (a universal link loaded this way is
    /// rendered, never handed to an app), the in-app browser's cookies, a chain another app began (Chrome's rules
    /// for a Custom Tab the app opened).
    func openInApp(_ url: String) {
        let kind = flow.webView.openBrowser
        showBrowser(kind)
        browser.page = nil
        browser.frames = [:]
        browser.generation += 1
        emit(.note, context: "browser", url: url, reason: "\(flow.hostApp) opens the page in \(kind.displayName)")
        switchTo(.browser)
        browserChain = BrowserChain(startedAt: clock, userStarted: true, origin: nil)
        browserNavigate(url, frame: .main, frameIndex: nil, trigger: .initialLoad, gesture: false, method: "GET", redirects: 0)
    }

    /// Makes the browser surface show `kind` (for the system browser: `app`, nil for the default browser). Each
    /// browser app and SFSafariViewController keeps its own cookie jar (a Custom Tab and ASWebAuthenticationSession
    /// use Chrome's and Safari's); the page of the one no longer shown is gone from the surface.
    func showBrowser(_ kind: InAppBrowser, app: SystemBrowser? = nil) {
        let app = kind == .system ? app : nil
        if kind == .system, app == nil, let b = settledDefaultBrowser { noteDefaultBrowser(b) }
        let old = (browserKind, browserApp)
        defer {
            browserKind = kind
            browserApp = app
            browserShown = true
        }
        guard browserShown else {
            // Nothing was in a browser yet: its jar is empty, and becomes this browser's.
            browserJarKey = jarKey(kind, app: app)
            return
        }
        if settledDefaultBrowser == nil, defaultBrowserMatters(old, (kind, app)) { _ = defaultBrowser() }
        let same = { (k: InAppBrowser, a: SystemBrowser?) in
            k == .system ? (a ?? self.settledDefaultBrowser)?.rawValue : k.rawValue
        }
        guard kind != old.0 || same(kind, app) != same(old.0, old.1) else { return }
        swapJar(to: jarKey(kind, app: app))
        browser.page = nil
        browser.frames = [:]
        browser.generation += 1
    }

    /// Puts the shown jar away and takes out the one of `key` (empty the first time).
    private func swapJar(to key: String) {
        guard key != browserJarKey else { return }
        browserJars[browserJarKey] = browser.jar
        browser.jar = browserJars.removeValue(forKey: key) ?? CookieJar()
        browserJarKey = key
    }

    /// ASWebAuthenticationSession: a navigation to the app's callback scheme ends the session and hands the URL
    /// to the app, without a prompt. True when it did.
    func authSessionCallback(_ url: String) -> Bool {
        guard browserKind == .authSession, let scheme = flow.policy.callbackScheme, URLTools.scheme(url) == scheme else {
            return false
        }
        emit(
            .note, context: "browser", url: url,
            reason: "ASWebAuthenticationSession ends on the callback scheme \(scheme): and hands the URL to \(flow.hostApp)")
        hostReceive(url)
        return true
    }
}
