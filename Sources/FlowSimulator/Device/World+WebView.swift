// The host app's web view: every navigation is asked to the policy, and the decision is carried out; the
// host app receiving a URL from the OS (its paymentUrl, completeUrl or cancelUrl) and reloading the payment page.
import NavigationPolicy
import PlainviewURL

extension World {
    /// A navigation in the host app's web view: the policy decides it, the world carries the decision out.
    func webViewNavigate(
        _ url: String, frame: NavigationFrame, frameIndex: Int?, trigger: NavigationTrigger,
        gesture: Bool, method: String, redirects: Int
    ) {
        var frame = frame, frameIndex = frameIndex
        let eventsBefore = events.count
        defer { if frame == .sub { frameEvents += events.count - eventsBefore } }
        if frame == .newWindow && flow.policy.platform == .android && !flow.webView.supportMultipleWindows
            && (gesture || flow.webView.javaScriptCanOpenWindowsAutomatically)
        {
            // Android's WebView without multiple-window support loads a new window in itself.
            emit(
                .note, context: "webview", url: url,
                reason:
                    "the web view has no multiple-window support (supportMultipleWindows false): the new window loads in the web view itself"
            )
            frame = .main
            frameIndex = nil
        }
        guard
            beginNavigation(
                .host, context: "webview", url, frame: frame, trigger: trigger, gesture: gesture,
                method: method)
        else { return }
        let nav = Navigation(
            url: url, currentURL: web.page?.url, frame: frame, trigger: trigger, userGesture: gesture, method: method)
        let d = decider.decide(nav)
        let a = d.action
        emit(
            .decide, context: "webview", url: url, action: a.name, target: a.target, via: a.via?.rawValue,
            rule: d.rule.rawValue, reason: d.reason)
        // Engine mode: only a load of this very URL answers the engine's paused request; anything else cancels it
        // (`decisionHandler(.cancel)`) before the world acts.
        switch a {
        case .allow: break
        default: refuseEngineRequest()
        }
        if case .allow = a, let refusal = appBoundRefusal(url, frame: frame) {
            emit(.note, context: "webview", url: url, reason: refusal)
            lastProblem = refusal
            return
        }
        switch a {
        case .allow:
            fetchAndShow(
                .host, url, frame: frame, frameIndex: frameIndex, trigger: trigger, gesture: gesture, method: method,
                redirects: redirects)
        case .complete:
            finish(.complete, place: .host, reason: "completeUrl reached (\(d.rule))")
        case .canceled:
            finish(.canceled, place: .host, reason: "cancelUrl reached (\(d.rule))")
        case .reload(let target):
            // The host app runs what the delegate does: it reloads the payment page, as its own load
            // (`app-load`, which the policy lets through). A policy that answered `reload` to that load too would
            // reload forever here, as it would in the app.
            guard trigger != .appLoad else {
                finish(
                    .loop, place: .host,
                    reason: "the policy answered reload to the host app's own load of \(url): the app would reload forever")
                return
            }
            hostReload(target)
        case .terms:
            emit(.note, context: "webview", url: url, reason: "the host app shows the terms of service; the payment page stays")
        case .openApp(let target, let via):
            follow(router.route(target, from: .webView(via: via)), url: target, from: .host)
        case .openBrowser(let target):
            if flow.webView.openBrowser == .system { osOpen(target, from: .host) } else { openInApp(target) }
        case .load(let target):
            guard redirects < Self.redirectLimit else {
                finish(.loop, place: .host, reason: "more than \(Self.redirectLimit) load/redirect hops from \(url)")
                return
            }
            webViewNavigate(
                target, frame: frame, frameIndex: frameIndex, trigger: trigger, gesture: false, method: "GET",
                redirects: redirects + 1)
        case .block:
            lastProblem = "the web view blocked \(url) (\(d.rule): \(d.reason))"
        }
    }

    /// The web view hands an app URL to the OS (the policy decided open-app).
    /// recognises its paymentUrl (reload), completeUrl or cancelUrl; anything else is ignored.
    func hostReceive(_ url: String) {
        arrivingURL = url
        switchTo(.host)
        arrivingURL = nil
        guard outcome == nil else { return }
        emit(.receive, context: "webview", url: url, app: flow.hostApp)
        system.beginAttempt()
        let d = received(Navigation(url: url, currentURL: web.page?.url, frame: .main, trigger: .link, userGesture: false))
        emit(
            .decide, context: "webview", url: url, action: d.action.name, target: d.action.target,
            via: d.action.via?.rawValue, rule: d.rule.rawValue, reason: d.reason)
        switch d.action {
        case .reload(let target): hostReload(target)
        case .complete: finish(.complete, place: .host, reason: "completeUrl delivered to the app (\(d.rule))")
        case .canceled: finish(.canceled, place: .host, reason: "cancelUrl delivered to the app (\(d.rule))")
        default:
            problem("the host app ignores \(url): the policy does not recognise it as its paymentUrl", context: .host, url: url)
        }
    }

    func hostReload(_ target: String) {
        switchTo(.host)
        emit(.note, context: "webview", url: target, reason: "the host app reloads the payment page")
        webViewNavigate(target, frame: .main, frameIndex: nil, trigger: .appLoad, gesture: false, method: "GET", redirects: 0)
    }

    /// What every navigation of the web view or the browser starts with: nothing once the run has ended,
    /// the bound on automatic loads, the count, the trace event and a new OS attempt. False: stop here.
    func beginNavigation(
        _ surface: Surface, context: String, _ url: String, frame: NavigationFrame,
        trigger: NavigationTrigger, gesture: Bool, method: String
    ) -> Bool {
        guard outcome == nil else { return false }
        if frame == .newWindow && !gesture && !(surface == .host && flow.webView.javaScriptCanOpenWindowsAutomatically) {
            // The popup blocker: a window no user gesture opened never opens and is never asked about.
            let setting =
                surface == .host ? "the web view's javaScriptCanOpenWindowsAutomatically is false" : "browsers block popups"
            emit(
                .note, context: context, url: url,
                reason: "popup blocked: \(url) would open a new window without a user gesture (\(setting))")
            return false
        }
        guard countAutomatic(surface, url, trigger: trigger, gesture: gesture) else { return false }
        navigationCount += 1
        emit(.navigate, context: context, url: url, frame: frame, trigger: trigger, gesture: gesture, method: method)
        system.beginAttempt()
        return true
    }

    /// iOS App-Bound Domains (WebKit's "App-Bound Domains", webkit.org/blog/10882): with
    /// `limitsNavigationsToAppBoundDomains`, a main-frame load of a domain the Info.plist's `WKAppBoundDomains`
    /// does not list fails with `WKError.navigationAppBoundDomain`. Nil: the load goes ahead.
    func appBoundRefusal(_ url: String, frame: NavigationFrame) -> String? {
        guard flow.policy.platform == .ios, flow.webView.limitsNavigationsToAppBoundDomains, frame != .sub,
            let u = WebURL(url), SchemeKind(scheme: u.scheme) == .web, let host = u.comparableHost,
            !flow.webView.isAppBound(host: host)
        else { return nil }
        return
            "iOS: \(host) is not an app-bound domain (WKAppBoundDomains), and the web view limits navigations to them: the load fails with WKError.navigationAppBoundDomain (WebKit's App-Bound Domains)"
    }

    /// The page calls one of the app's JavaScript hooks (a script message handler). iOS gives message handlers
    /// only to app-bound domains once the Info.plist declares `WKAppBoundDomains`: elsewhere the call reaches
    /// nothing (WebKit's App-Bound Domains).
    func callHook(_ name: String, _ kind: Outcome.Kind) {
        if flow.policy.platform == .ios, flow.webView.appBoundDomains != nil,
            let host = web.page.flatMap({ WebURL($0.url) })?.comparableHost, !flow.webView.isAppBound(host: host)
        {
            let reason =
                "iOS: the page on \(host) called the app's JavaScript hook '\(name)', but \(host) is not an app-bound domain (WKAppBoundDomains): its message handlers are not there (WebKit's App-Bound Domains)"
            emit(.note, context: "webview", url: web.page?.url, reason: reason)
            lastProblem = reason
            return
        }
        finish(kind, place: .host, reason: "the page called the app's JavaScript hook '\(name)'")
    }
}
