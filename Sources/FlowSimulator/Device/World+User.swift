// The user: flow steps (taps, prompt answers, actions in other apps, switching back) and, when nothing
// happens any more, where the run stands.
import NavigationPolicy
import PageScan
import PlainviewURL

extension World {
    // MARK: the user

    func answerPrompt() {
        guard let p = prompt else { return }
        prompt = nil
        var accept = true
        var answered = false
        if stepIndex < flow.steps.count, flow.steps[stepIndex] == .accept || flow.steps[stepIndex] == .decline {
            accept = flow.steps[stepIndex] == .accept
            emit(.user, context: "browser", reason: flow.steps[stepIndex].description)
            stepIndex += 1
            answered = true
        }
        // Explore tries both answers whatever the steps say; a normal run takes the step's answer, else accepts.
        if oracle.exploring || !answered {
            accept = oracle.choose("prompt \(p.app) \(p.url)", ["prompt-accepted:\(p.app)", "prompt-declined:\(p.app)"]) == 0
        }
        emit(.answer, context: "browser", url: p.url, action: accept ? "accept" : "decline", app: p.app)
        if accept {
            launch(p.app, url: p.url, via: .customScheme, from: .browser)
        } else {
            lastProblem = "the user declined to open \(p.app) from the browser"
        }
    }

    /// True when `step` can act on what is in front now.
    func applies(_ step: FlowStep) -> Bool {
        switch step {
        case .tap(let text, let url):
            guard front == .host || front == .browser else { return false }
            return findTap(front == .host ? web : browser, text: text, url: url) != nil
        case .accept, .decline: return prompt != nil
        case .app(let name, _): return front == .app(name)
        case .switchToApp: return front != .host
        case .type(let field, _):
            guard front == .host || front == .browser else { return false }
            return !pagesWithField(front == .host ? web : browser, field).isEmpty
        }
    }

    func performStep() {
        // Explore: a branch may skip screens the default path shows; a step that does not apply is skipped
        // when a later one does.
        if oracle.exploring, !applies(flow.steps[stepIndex]) {
            guard let later = flow.steps[stepIndex...].firstIndex(where: { applies($0) }) else {
                // This branch is a dead end for the steps: say where it stands, not which step is missing.
                stepIndex = flow.steps.count
                finishIdle()
                return
            }
            stepIndex = later
        }
        let step = flow.steps[stepIndex]
        stepIndex += 1
        autoLoads.removeAll()
        emit(.user, context: front.name, reason: step.description)
        let n = stepIndex
        switch step {
        case .tap(let text, let url):
            guard let (tab, page) = pageInFront(for: step, n) else { return }
            guard let hit = findTap(tab, text: text, url: url) else {
                let choices = tappable(tab)
                // What went wrong before the step could not be taken is the likelier cause: say it first.
                finish(
                    .stuck,
                    reason: (lastProblem.map { "\($0); then " } ?? "")
                        + "step \(n) (\(step)): nothing on \(page.url) matches; "
                        + (choices.isEmpty
                            ? "nothing there can be tapped" : "what can be tapped: " + choices.joined(separator: ", ")))
                return
            }
            if front == .host, let engine {
                if !engineTap(engine, hit, text: text) {
                    finish(.stuck, reason: "step \(n) (\(step)): \(engineName) has nothing on \(page.url) that matches")
                }
                return
            }
            if front == .host, let i = hit.frameIndex { framesWithActivation.insert(i) }
            switch hit {
            case .link(let link, let frameIndex):
                guard holds(link.condition, front, url: link.url) else { break }
                let (frame, index) = targetFrame(link.target, from: frameIndex, in: front)
                // A `javascript:` link whose code navigates: a script navigation (one that submits a form is found
                // as that form: `findTap`).
                let trigger: NavigationTrigger = link.script == .navigates ? .script : .link
                navigate(front, link.url, frame: frame, frameIndex: index, trigger: trigger, gesture: true, method: "GET")
            case .form(let form, let frameIndex):
                submit(front, form, frameIndex: frameIndex, gesture: true)
            case .button(let button, let form, let frameIndex):
                guard holds(button.condition, front, url: button.onclickURL ?? form?.action ?? "")
                else { break }
                if let form, button.kind == .submit || button.kind == .image {
                    // The submitter goes with the form as a browser sends it: its name and value, or for an image
                    // button the point tapped (NAME.x, NAME.y; x and y without a name).
                    var sent = form
                    let name = button.name ?? ""
                    if button.kind == .image {
                        let prefix = name.isEmpty ? "" : name + "."
                        sent.fields += [.init(name: prefix + "x", value: "0"), .init(name: prefix + "y", value: "0")]
                    } else if !name.isEmpty {
                        sent.fields.append(.init(name: name, value: button.value ?? ""))
                    }
                    submit(front, sent, frameIndex: frameIndex, gesture: true)
                } else if let url = button.onclickURL {
                    // `onclick="window.open(…)"` opens a new window (with the tap's gesture), not the button's own.
                    let scripts = (frameIndex.flatMap { tab.frames[$0] } ?? page).scan.scriptNavigations
                    let opens = scripts.contains { !$0.onLoad && $0.kind == .windowOpen && $0.url == url }
                    navigate(
                        front, url, frame: opens ? .newWindow : frameIndex == nil ? .main : .sub,
                        frameIndex: opens ? nil : frameIndex, trigger: .script, gesture: true, method: "GET")
                } else {
                    finish(
                        .stuck,
                        reason:
                            "step \(n) (\(step)): the button '\(button.label)' on \(page.url) submits no form and its onclick navigates nowhere Plainview can see"
                    )
                }
            case .script(let s, let frameIndex) where s.delay != nil || s.condition == .networkAnswer:
                // The handler navigates later: after its timer, or once its request is answered (the model takes the
                // answer to be the one that navigates).
                let network = s.condition == .networkAnswer
                schedule(
                    front, generation: tab.generation, frame: frameIndex,
                    delay: (s.delay ?? 0) + (network ? Self.networkTime : 0),
                    .tapped(s, tappedAt: clock, afterNetworkWait: network))
            case .script(let s, let frameIndex):
                let (frame, index) =
                    s.kind == .windowOpen ? (.newWindow, nil) : targetFrame(s.target, from: frameIndex, in: front)
                navigate(
                    front, s.url, frame: frame, frameIndex: index, trigger: s.kind == .click ? .link : .script, gesture: true,
                    method: "GET")
            }
        case .accept, .decline:
            finish(.stuck, reason: "step \(n) (\(step)): no prompt is shown")
        case .app(let name, let o):
            guard front == .app(name) else {
                finish(.stuck, reason: "step \(n) (\(step)): \(name) is not in front (\(front.name) is)")
                return
            }
            appAct(name, o)
        case .switchToApp:
            switchTo(.host)
        case .type(let field, let text):
            typeInto(field, text, step: n)
        }
    }

    /// The tab and the page in front, for step `n`; nil, with the run ended `stuck` saying why, when no web page is
    /// in front.
    func pageInFront(for step: FlowStep, _ n: Int) -> (Tab, LoadedPage)? {
        guard front == .host || front == .browser else {
            finish(.stuck, reason: "step \(n) (\(step)) needs a web page in front, but \(front.name) is in front")
            return nil
        }
        let tab = front == .host ? web : browser
        guard let page = tab.page else {
            finish(.stuck, reason: "step \(n) (\(step)): no page is shown")
            return nil
        }
        return (tab, page)
    }

    enum TapHit {
        case link(PageScanResult.Link, Int?)
        case form(PageScanResult.Form, Int?)
        /// A button, with the form it belongs to (nil: none).
        case button(PageScanResult.Button, PageScanResult.Form?, Int?)
        case script(PageScanResult.ScriptNavigation, Int?)

        /// The sub-frame tapped in; nil for the main frame.
        var frameIndex: Int? {
            switch self {
            case .link(_, let i), .form(_, let i), .button(_, _, let i), .script(_, let i): i
            }
        }
    }

    /// The main page, then its frames in order.
    func tappablePages(_ tab: Tab) -> [(LoadedPage, Int?)] {
        var pages: [(LoadedPage, Int?)] = []
        if let p = tab.page { pages.append((p, nil)) }
        for i in tab.frames.keys.sorted() { if let p = tab.frames[i] { pages.append((p, i)) } }
        return pages
    }

    /// True when a button's label, value or aria-label reads as `want` (already loose): label and aria-label
    /// contain it, as link texts do; the value must equal it.
    static func buttonMatches(_ b: PageScanResult.Button, _ want: String) -> Bool {
        LooseText.of(b.label).contains(want) || b.ariaLabel.map { LooseText.of($0).contains(want) } == true
            || b.value.map { LooseText.of($0) == want } == true
    }

    /// What a user could tap on the tab's pages, for a tap that matched nothing: link texts (or URLs), button
    /// labels, and the targets of forms and script handlers. At most 20.
    func tappable(_ tab: Tab) -> [String] {
        var out: [String] = []
        for (page, _) in tappablePages(tab) {
            for l in page.scan.links where !l.url.isEmpty { out.append(l.text.isEmpty ? "link \(l.url)" : "link '\(l.text)'") }
            for f in page.scan.forms where !f.autoSubmit {
                for b in f.buttons { out.append("button '\(b.label.isEmpty ? b.ariaLabel ?? b.value ?? "" : b.label)'") }
                if f.buttons.isEmpty { out.append("form \(f.action)") }
            }
            for b in page.scan.buttons { out.append("button '\(b.label.isEmpty ? b.ariaLabel ?? b.value ?? "" : b.label)'") }
            for s in page.scan.scriptNavigations where !s.onLoad { out.append("script handler \(s.url)") }
        }
        return out.count > 20 ? Array(out.prefix(20)) + ["…"] : out
    }

    func findTap(_ tab: Tab, text: String?, url: String?) -> TapHit? {
        let pages = tappablePages(tab)
        let wantURL = url.map { URLTools.pageKey($0) }
        let wantText = text.map { LooseText.of($0) }
        for (page, fi) in pages {
            for l in page.scan.links {
                let hit =
                    (wantURL.map { URLTools.pageKey(l.url) == $0 } ?? false)
                    || (wantText.map { !$0.isEmpty && LooseText.of(l.text).contains($0) } ?? false)
                guard hit else { continue }
                // `href="javascript:document.forms[0].submit()"`: tapping it submits that form.
                if case .submits(let n) = l.script, n < page.scan.forms.count { return .form(page.scan.forms[n], fi) }
                return .link(l, fi)
            }
            if let wantText, !wantText.isEmpty {
                for f in page.scan.forms where !f.autoSubmit {
                    if let b = f.buttons.first(where: { Self.buttonMatches($0, wantText) }) { return .button(b, f, fi) }
                }
                if let b = page.scan.buttons.first(where: { Self.buttonMatches($0, wantText) }) {
                    // A button with no handler of its own on a page with one tap listener
                    // (`addEventListener("click", …)` on it by id): that listener is the button's.
                    let listeners = page.scan.scriptNavigations.filter { !$0.onLoad }
                    if b.onclickURL == nil, listeners.count == 1 { return .script(listeners[0], fi) }
                    return .button(b, nil, fi)
                }
            }
            for f in page.scan.forms where !f.autoSubmit || wantURL != nil {
                if let wantURL, URLTools.pageKey(f.action) == wantURL { return .form(f, fi) }
                if let wantText, !wantText.isEmpty,
                    f.fields.contains(where: { LooseText.of($0.value) == wantText })
                {
                    return .form(f, fi)
                }
            }
            for s in page.scan.scriptNavigations where !s.onLoad {
                if let wantURL, URLTools.pageKey(s.url) == wantURL { return .script(s, fi) }
            }
        }
        // A page whose only user action is a script handler (a "tap anywhere" trampoline): a text tap takes it.
        if text != nil, let page = tab.page, page.scan.links.allSatisfy({ $0.url.isEmpty }), page.scan.buttons.isEmpty,
            page.scan.forms.allSatisfy({ $0.autoSubmit || $0.buttons.isEmpty })
        {
            if let s = page.scan.scriptNavigations.first(where: { !$0.onLoad }) { return .script(s, nil) }
        }
        return nil
    }

    func finishIdle() {
        var reason: String
        switch front {
        case .host:
            reason = "the web view shows \(web.page?.url ?? "nothing"); nothing happens by itself and no user step applies"
            if let page = web.page?.url, waitsOnNetwork == page {
                reason += " (its scripts navigate only after a network answer, which the model does not run: try --engine)"
            }
        case .browser:
            reason = "the browser shows \(browser.page?.url ?? "nothing"); nothing leads back to the app and no user step applies"
        case .app(let n):
            reason = "\(n) waits for the user and no step says what they do"
        }
        if let lastProblem { reason = lastProblem }
        finish(.stuck, reason: reason)
    }
}
