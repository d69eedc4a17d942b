// A browsing context (the web view or the browser tab) loading pages over the simulated network: redirects,
// cookies, what a loaded page does by itself (scripts, auto-submitted forms, refreshes, frames).
import NavigationPolicy
import PageScan
import PlainviewURL

extension World {
    // MARK: navigation

    func navigate(
        _ surface: Surface, _ url: String, frame: NavigationFrame, frameIndex: Int?,
        trigger: NavigationTrigger, gesture: Bool, method: String, redirects: Int = 0
    ) {
        switch surface {
        case .host:
            webViewNavigate(
                url, frame: frame, frameIndex: frameIndex, trigger: trigger, gesture: gesture, method: method,
                redirects: redirects)
        case .browser:
            browserNavigate(
                url, frame: frame, frameIndex: frameIndex, trigger: trigger, gesture: gesture, method: method,
                redirects: redirects)
        case .app: break
        }
    }

    func submit(_ surface: Surface, _ form: PageScanResult.Form, frameIndex: Int?, gesture: Bool) {
        let method = form.method.uppercased() == "POST" ? "POST" : "GET"
        // A browser encodes the fields in the encoding of the page holding the form.
        let tab = surface == .host ? web : browser
        let page = frameIndex.flatMap { tab.frames[$0] } ?? tab.page
        let encoding = page?.scan.charset.flatMap { TextEncoding(label: $0) } ?? .utf8
        let url =
            method == "GET"
            ? URLTools.formGetURL(action: form.action, fields: form.fields.map { ($0.name, $0.value) }, encoding: encoding)
            : form.action
        let (frame, index) = targetFrame(form.target, from: frameIndex, in: surface)
        let guardSite = thirdPartyFrameGuard(surface, from: frameIndex, to: frame, gesture: gesture)
        guard passesThirdPartyFrameGuard(guardSite, url, redirect: false) else { return }
        // A live network (`plainview record`) sends what the form posts; the model's own browser has no engine to say.
        postedForm =
            method == "POST"
            ? (form.action, Array(URLTools.formEncoded(form.fields.map { ($0.name, $0.value) }, encoding: encoding).utf8))
            : nil
        frameNavigationGuard = guardSite
        navigate(surface, url, frame: frame, frameIndex: index, trigger: .form, gesture: gesture, method: method)
        frameNavigationGuard = nil
    }

    /// Where a link or form with `target` navigates, from the frame holding it (main frame: nil), as HTML chooses a
    /// navigable: none or `_self` that frame, `_top` and `_parent` the main frame (frames are one level deep here),
    /// `_blank` a new window, and a name the frame of that name (an `<iframe name=…>` of the page: a 3-D Secure
    /// method or challenge form posted into its hidden iframe loads there), or else a new window of that name.
    func targetFrame(_ target: String?, from frameIndex: Int?, in surface: Surface) -> (NavigationFrame, Int?) {
        let name = target ?? ""
        switch name.lowercased() {
        case "", "_self": return frameIndex.map { (.sub, $0) } ?? (.main, nil)
        case "_top", "_parent": return (.main, nil)
        case "_blank": return (.newWindow, nil)
        default:
            let page = surface == .host ? web.page : browser.page
            if let i = page?.scan.frames.firstIndex(where: { $0.name == name }) { return (.sub, i) }
            return (.newWindow, nil)
        }
    }

    /// Counts automatic loads of the same URL in one context; too many is a loop.
    func countAutomatic(_ surface: Surface, _ url: String, trigger: NavigationTrigger, gesture: Bool) -> Bool {
        guard !gesture, trigger != .initialLoad, trigger != .appLoad, trigger != .link else { return true }
        let key = surface.name + " " + URLTools.pageKey(url)
        let n = autoLoads[key, default: 0] + 1
        autoLoads[key] = n
        if n > flow.limits.repeats {
            finish(.loop, place: surface, reason: "\(url) loaded \(n) times by itself (a redirect/refresh/reload cycle)")
            return false
        }
        return true
    }

    /// Fetches a URL in a context and shows it: follows redirects, stores cookies, schedules what the page does.
    func fetchAndShow(
        _ surface: Surface, _ url: String, frame: NavigationFrame, frameIndex: Int?,
        trigger: NavigationTrigger, gesture: Bool, method: String, redirects: Int
    ) {
        if surface == .host, let engine {
            engineFetchAndShow(
                engine, url, frame: frame, frameIndex: frameIndex, trigger: trigger, gesture: gesture,
                method: method, redirects: redirects)
            return
        }
        let context: PageContext = surface == .host ? .webview : .browser
        let blockedBy = blockedThirdPartySite(surface, url, frame: frame)
        clock += Self.networkTime
        var detail = FetchDetail(kind: .document(frame: frame, trigger: trigger, gesture: gesture))
        if method == "POST", let posted = postedForm, posted.url == url {
            detail.headers = [.init("Content-Type", "application/x-www-form-urlencoded")]
            detail.body = posted.body
        }
        postedForm = nil
        switch network.fetch(
            url, method: method, context: context, jar: requestJar(surface, blockedBy: blockedBy), detail: detail)
        {
        case .failed(let why):
            finish(
                .error, place: surface,
                reason: "the server did not answer \(why) (in the \(context == .webview ? "web view" : "browser"))")
        case .unrecorded:
            if surface == .browser {
                // The browser knows nothing of completeUrl/cancelUrl: reaching them there leaves the app uninformed.
                let d = received(Navigation(url: url, currentURL: nil, frame: .main, trigger: .link, userGesture: false))
                if d.action == .complete || d.action == .canceled {
                    finish(
                        .stuck, place: .browser,
                        reason:
                            "\(d.action == .complete ? "completeUrl" : "cancelUrl") \(url) was reached in the browser, not in the app: the app never learns the outcome"
                    )
                    return
                }
                // A page the web view got by POST, handed to the browser: the browser asks for it again with GET and
                // without the form data. That is how it fails on a phone, not a gap in the recording (recording a GET
                // answer would hide it).
                if method == "GET", network.index(for: url, method: "POST", context: .webview) != nil {
                    finish(
                        .stuck, place: .browser,
                        reason:
                            "the browser asks for \(url) with GET: the web view got that page by POST, and a page handed to the browser is requested again without its form data"
                    )
                    return
                }
            }
            finish(
                .error, place: surface,
                reason: "no recorded response for \(method) \(url) (in the \(context == .webview ? "web view" : "browser"))")
        case .response(let r, let missingCookie):
            let location = receive(surface, url, response: r, missingCookie: missingCookie, thirdPartyOf: blockedBy)
            if (300..<400).contains(r.status), let location {
                if frame == .main, URLTools.isWeb(location),
                    !passesThirdPartyFrameGuard(frameNavigationGuard, location, redirect: true)
                {
                    return
                }
                guard redirects < Self.redirectLimit else {
                    finish(.loop, place: surface, reason: "more than \(Self.redirectLimit) redirects from \(url)")
                    return
                }
                let keep = r.status == 307 || r.status == 308
                navigate(
                    surface, location, frame: frame, frameIndex: frameIndex, trigger: .serverRedirect, gesture: false,
                    method: keep ? method : "GET", redirects: redirects + 1)
                return
            }
            show(surface, url, response: r, frame: frame, frameIndex: frameIndex, missingCookie: missingCookie)
        }
    }

    /// A response arrives in a context: its cookies are stored (not those of a blocked third-party frame,
    /// `thirdPartyOf` the page's site), the trace records it, a missing cookie is a problem. Returns the redirect
    /// target (Location resolved against `url`), if any.
    func receive(
        _ surface: Surface, _ url: String, response r: RecordedResponse, missingCookie: String?, thirdPartyOf site: String? = nil
    ) -> String? {
        let setCookies = r.headers("Set-Cookie")
        if site == nil {
            var newJar = surface == .host ? web.jar : browser.jar
            for c in setCookies { newJar.set(c, from: url) }
            if surface == .host { web.jar = newJar } else { browser.jar = newJar }
        }
        let location = r.header("Location").flatMap { URLTools.resolve($0, against: url) }
        emit(
            .response, context: surface.name, url: url, target: (300..<400).contains(r.status) ? location : nil, status: r.status)
        let names = setCookies.compactMap(CookieJar.name(of:))
        if let site, !names.isEmpty {
            emit(
                .note, context: surface.name, url: url,
                reason: "cookie \(names.map { "'\($0)'" }.joined(separator: ", ")) not kept: \(thirdPartyRule(site: site))")
        }
        if let missingCookie, let site {
            problem(
                "the web view sent no cookie '\(CookieJar.split(missingCookie).0)' to \(url), which requires it: \(thirdPartyRule(site: site))",
                context: surface, url: url)
        } else if let missingCookie {
            let other = surface == .host ? browser.jar : web.jar
            let here = surface == .host ? "web view" : "browser", there = surface == .host ? "browser" : "web view"
            var text = "the \(here) has no cookie '\(CookieJar.split(missingCookie).0)' for \(url), which requires it"
            if other.satisfies(missingCookie, for: url) {
                text =
                    "cookie '\(CookieJar.split(missingCookie).0)' was set in the \(there), but \(url) opened in the \(here) without it (cookies do not move with the page)"
            }
            problem(text, context: surface, url: url)
        }
        return location
    }

    func show(
        _ surface: Surface, _ url: String, response r: RecordedResponse, frame: NavigationFrame, frameIndex: Int?,
        missingCookie: String?
    ) {
        let contentType = r.header("Content-Type")
        var scan = PageScanResult()
        if contentType.map({ $0.lowercased().contains("html") }) ?? true {
            do {
                scan = try PageScanner.scan(r.body, contentType: contentType, documentURL: url)
            } catch {
                finish(.error, place: surface, reason: "bad page \(url): \(error)")
                return
            }
        }
        if scan.refresh == nil, let header = r.header("Refresh") {
            scan.refresh = RefreshHeader.parse(header, documentURL: url)
        }
        let page = LoadedPage(url: url, status: r.status, scan: scan, missingCookie: missingCookie)
        var tab = surface == .host ? web : browser
        let isFrame = frame == .sub && frameIndex != nil
        if isFrame, let i = frameIndex {
            tab.frames[i] = page
        } else {
            tab.generation += 1
            tab.page = page
            tab.frames = [:]
            if surface == .host { framesWithActivation = [] }
            tab.history.append(url)
        }
        if surface == .host { web = tab } else { browser = tab }
        emit(.load, context: surface.name, url: url, frame: isFrame ? .sub : .main, status: r.status)
        if surface == .host, let host = URLTools.host(url), let restriction = EmbeddingRestriction.covering(host: host),
            warnedProviders.insert(restriction.provider).inserted
        {
            emit(
                .note, context: surface.name, url: url,
                reason:
                    "warning: \(restriction.provider) forbids showing its pages in an embedded web view (\(restriction.source)); open them with webView.openBrowser"
            )
        }
        // Engine mode: the engine runs the page (scripts, forms, refreshes, frames); the scan serves taps only.
        if surface == .host, engine != nil { return }
        scheduleAutomatic(surface, page, generation: tab.generation, frame: isFrame ? frameIndex : nil)
        if !isFrame {
            for (i, f) in scan.frames.prefix(Self.frameLimit).enumerated() {
                // about:blank, about:srcdoc and javascript: frames are made by the engine itself: nothing is
                // fetched and the app is not asked (WebKit and Chromium load them without the navigation delegate).
                let scheme = URLTools.scheme(f.url)?.lowercased()
                if scheme == "about" || scheme == "javascript" {
                    var t = surface == .host ? web : browser
                    t.frames[i] = LoadedPage(url: f.url, status: 200, scan: PageScanResult(), missingCookie: nil)
                    if surface == .host { web = t } else { browser = t }
                    continue
                }
                navigate(surface, f.url, frame: .sub, frameIndex: i, trigger: .initialLoad, gesture: false, method: "GET")
                if outcome != nil { return }
            }
        }
    }

    /// Whether a script's navigation or submission to `url` waiting on `condition` happens, noted in the trace
    /// when it does not. A `confirm()` answers as the surface's dialogs do: the web view's as the environment says
    /// (`webView.dialogs`; by default it shows none, so Cancel), the browser's as the user does (OK). What
    /// waits on a network answer the model does not run (an engine does).
    func holds(_ condition: PageScanResult.ScriptCondition?, _ surface: Surface, url: String) -> Bool {
        guard let condition else { return true }
        let context = surface == .host ? "webview" : "browser"
        switch condition {
        case .networkAnswer:
            // The page the surface shows (a frame's wait is its page's): what a `stuck` verdict there names.
            waitsOnNetwork = (surface == .host ? web.page : browser.page)?.url
            emit(
                .note, context: context, url: url,
                reason: "a script goes here only after a network answer (fetch(…).then, await): the model does not run it")
            return false
        case .confirmAccepted, .confirmDismissed:
            let confirms = surface == .host ? flow.webView.dialogs.confirms : true
            if confirms == (condition == .confirmAccepted) { return true }
            let why: String
            switch surface == .host ? flow.webView.dialogs : .accept {
            case .none:
                why =
                    "the app shows no JavaScript dialogs (webView.dialogs: none; a WKWebView without a WKUIDelegate panel method, "
                    + "an Android WebView without a WebChromeClient), so confirm() answers Cancel"
            case .dismiss: why = "the user answers Cancel to confirm() (webView.dialogs: dismiss)"
            case .accept: why = "the user answers OK to confirm()"
            }
            emit(.note, context: context, url: url, reason: "a script goes here only if confirm() answers the other way: \(why)")
            return false
        }
    }

    func scheduleAutomatic(_ surface: Surface, _ page: LoadedPage, generation: Int, frame: Int?) {
        // Only the host app's web view has the app's JavaScript hooks; the browser has none.
        if surface == .host {
            for h in page.scan.hooks where h.onLoad {
                if let kind = flow.hooks[h.name] {
                    schedule(surface, generation: generation, frame: frame, delay: 0, .hook(h.name, kind))
                }
            }
        }
        // Script navigations and auto-submitted forms start in the order the page runs them: what runs while it
        // parses (in document order) before load-time code, then timers; a `setTimeout(…, N)` navigation waits
        // its N ms on the simulated clock (ordered against refreshes).
        var actions: [(order: Int, delay: Int, kind: TimerKind)] = []
        for s in page.scan.scriptNavigations where s.onLoad && holds(s.condition, surface, url: s.url) {
            actions.append((s.runOrder ?? .max, s.delay ?? 0, .script(s)))
        }
        for f in page.scan.forms where f.autoSubmit && holds(f.autoSubmitCondition, surface, url: f.action) {
            actions.append((f.autoSubmitOrder ?? .max, 0, .form(f)))
        }
        for a in actions.enumerated().sorted(by: { ($0.element.order, $0.offset) < ($1.element.order, $1.offset) }) {
            schedule(surface, generation: generation, frame: frame, delay: a.element.delay, a.element.kind)
        }
        if let r = page.scan.refresh {
            schedule(surface, generation: generation, frame: frame, delay: r.delay * 1000, .refresh(r.url))
        }
    }
}
