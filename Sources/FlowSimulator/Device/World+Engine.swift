// Engine mode: the host app's web view is a real engine (`EngineSession`). What the engine does with a page
// comes back as events; each navigation goes through `webViewNavigate` like the model's, so the policy, the OS
// routing, the trace and the bounds are the same code in both modes. Only loading differs: an allowed request is
// answered from the flow's network and the engine renders it at its own URL.
import NavigationPolicy
import PlainviewURL

extension World {
    /// Runs the engine until it hands the world something, and answers it.
    func pumpEngine(_ session: any EngineSession) {
        switch session.next() {
        case .navigation(let n):
            engineRequest = n.request
            webViewNavigate(
                n.url, frame: n.frame, frameIndex: n.frameIndex, trigger: n.trigger, gesture: n.gesture,
                method: n.method, redirects: 0)
            // The run may have ended before the request was answered: the engine must not wait for it.
            refuseEngineRequest()
        case .resource(let id, let method, let url):
            // Scripts, images and styles come from the same recordings; nothing recorded is a network error.
            let sent = session.details(of: id)
            let detail = FetchDetail(kind: .resource, headers: sent?.headers ?? [], body: sent?.body ?? [])
            switch network.fetch(url, method: method, context: .webview, jar: web.jar, detail: detail) {
            case .response(let r, _): session.fulfil(id, with: r)
            case .unrecorded, .failed: session.refuse(id)
            }
        case .hook(let name):
            if let kind = flow.hooks[name] { callHook(name, kind) }
        case .idle:
            engineIdle = true
        case .failed(let reason):
            finish(.error, place: .host, reason: "\(engineName): \(reason)")
        }
    }

    /// Cancels the engine's paused request the current decision came from, if it is still unanswered.
    func refuseEngineRequest() {
        guard let id = engineRequest else { return }
        engineRequest = nil
        engine?.refuse(id)
    }

    /// An allowed web-view navigation in engine mode: the response comes from the network as in the model; an
    /// http(s) redirect and the page itself go to the engine (which follows the redirect and asks again), a
    /// redirect to any other scheme is the world's (the engine cannot load it).
    func engineFetchAndShow(
        _ session: any EngineSession, _ url: String, frame: NavigationFrame, frameIndex: Int?,
        trigger: NavigationTrigger, gesture: Bool, method: String, redirects: Int
    ) {
        var request = engineRequest
        engineRequest = nil
        engineIdle = false
        // A navigation the engine asked about before making its request goes on now; the network answers the request
        // it then makes, with what that carries. None made (the page went elsewhere meanwhile): nothing to load.
        if let asked = request {
            guard let made = session.admit(asked) else { return }
            request = made
        }
        clock += Self.networkTime
        let blockedBy = blockedThirdPartySite(.host, url, frame: frame)
        let sent = request.flatMap { session.details(of: $0) }
        let detail = FetchDetail(
            kind: .document(frame: frame, trigger: trigger, gesture: gesture), headers: sent?.headers ?? [],
            body: sent?.body ?? [])
        switch network.fetch(
            url, method: method, context: .webview, jar: requestJar(.host, blockedBy: blockedBy), detail: detail)
        {
        case .unrecorded:
            if let request { session.refuse(request) }
            finish(.error, place: .host, reason: "no recorded response for \(method) \(url) (in the web view)")
        case .failed(let why):
            if let request { session.refuse(request) }
            finish(.error, place: .host, reason: "the server did not answer \(why) (in the web view)")
        case .response(let r, let missingCookie):
            let location = receive(.host, url, response: r, missingCookie: missingCookie, thirdPartyOf: blockedBy)
            let deliver = {
                if let request { session.fulfil(request, with: r) } else { session.load(url, response: r) }
            }
            if (300..<400).contains(r.status), let location {
                if URLTools.isWeb(location) {
                    deliver()
                } else {
                    if let request { session.refuse(request) }
                    guard redirects < Self.redirectLimit else {
                        finish(.loop, place: .host, reason: "more than \(Self.redirectLimit) redirects from \(url)")
                        return
                    }
                    let keep = r.status == 307 || r.status == 308
                    navigate(
                        .host, location, frame: frame, frameIndex: frameIndex, trigger: .serverRedirect, gesture: false,
                        method: keep ? method : "GET", redirects: redirects + 1)
                }
                return
            }
            show(.host, url, response: r, frame: frame, frameIndex: frameIndex, missingCookie: missingCookie)
            if outcome == nil { deliver() } else if let request { session.refuse(request) }
        }
    }

    /// The user's tap, found on the model's reading of the page, carried out by the engine on its own DOM (a real
    /// click with a user gesture). False: the engine's page has no such element.
    func engineTap(_ session: any EngineSession, _ hit: TapHit, text: String?) -> Bool {
        engineIdle = false
        let target: EngineTap =
            switch hit {
            case .link(let l, let i): EngineTap(kind: .link, url: l.url, text: text, frameIndex: i)
            case .form(let f, let i): EngineTap(kind: .form, url: f.action, text: text, frameIndex: i)
            case .button(let b, let f, let i):
                EngineTap(kind: .button, url: f?.action ?? b.onclickURL ?? "", text: text ?? b.label, frameIndex: i)
            case .script(let s, let i): EngineTap(kind: .script, url: s.url, text: text, frameIndex: i)
            }
        return session.tap(target)
    }
}
