// What the collector holds while a page is parsed and the events that fill it (see `PageCollector`), with the
// C-string and text helpers its hot paths call (kept in this file so a release build inlines them here).
import PlainviewURL
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

struct PageCollectorState {
    private struct PendingForm {
        var action: String?; var method: String; var target: String?; var name: String?; var id: String?
    }
    private struct PendingField { var owner: Int?; var ownerID: String?; var name: String; var value: String }
    /// What a button needs besides its result fields until the page is read: its form and the script unit of its
    /// `onclick` handler.
    private struct ButtonParts {
        var owner: Int?; var ownerID: String?
        /// The script unit of its `onclick` handler (analysed with the page's other handlers).
        var onclickUnit: Int?
    }
    private struct PendingSelect {
        typealias Option = (value: String?, text: [UInt8], selected: Bool, disabled: Bool)
        var owner: Int?; var ownerID: String?; var name: String?; var multiple: Bool; var disabled: Bool
        /// The open option (its text still growing). Options are kept only as far as they can be chosen, so a
        /// select of a million options costs no more than the page.
        var option: Option?
        /// A multiple select: its usable selected options, up to the cap (`overflow` counts the rest).
        var chosen: [Option] = []
        var overflow = 0
        /// A single select: its last usable selected option, and its first usable option.
        var lastSelected: Option?
        var firstUsable: Option?

        /// The open option is complete: keep it if it can be chosen.
        mutating func closeOption() {
            guard let o = option, !o.disabled else { option = nil; return }
            option = nil
            if multiple {
                guard o.selected else { return }
                if chosen.count < PageScanner.maxFindingsPerKind { chosen.append(o) } else { overflow += 1 }
            } else {
                if o.selected { lastSelected = o }
                if firstUsable == nil { firstUsable = o }
            }
        }
    }

    private var baseHref: String?
    private var baseTarget: String?
    private var refreshes: [RefreshContent] = []
    /// Links as found: `url` is empty until `result` resolves the raw href in place; `text` is final once the
    /// link's element closes.
    private var links: [PageScanResult.Link] = []
    /// The links' raw hrefs, end to end (one buffer, not a String per link); link i's ends at `hrefEnds[i]`.
    var hrefs: [UInt8] = []
    private var hrefEnds: [Int] = []
    /// The open `<a>` elements, innermost last: a kept link's index and where its text starts in `linkText`, or
    /// index -n for n open in a row that are not kept (no href, or past the cap): libxml2 nests `<a>` millions deep
    /// where a browser would close each. Text goes to the innermost link only, so each open link's text is the tail
    /// of `linkText` from its start (an inner link's text is taken off when it closes).
    private var openLinks: [(index: Int, textStart: Int)] = []
    /// Elements a script may `.click()` by id (the first element with an id, as `getElementById` finds it): a
    /// link's raw href and target, or a submit button's form. At most `PageScanner.maxFindingsPerKind` ids.
    enum Clickable { case link(href: String, target: String?), submit(owner: Int?, ownerID: String?) }
    var clickables: [String: Clickable] = [:]

    private var linkText: [UInt8] = []
    private var forms: [PendingForm] = []
    private var openForm: Int?
    private var ignoredNestedForms = 0
    private var fields: [PendingField] = []
    private var frames: [(src: String, name: String?)] = []
    var scripts: ScriptAnalysis
    /// Buttons as found (`label` and `onclickURL` are filled in by `result`), and the rest of what they need.
    private var buttons: [PageScanResult.Button] = []
    private var buttonParts: [ButtonParts] = []
    /// The open `<button>` (its index in `buttons`), collecting its text in `openButtonText` (one buffer, reused).
    private var openButton: Int?
    private var openButtonText: [UInt8] = []
    /// Button text kept (a label, not a document).
    private static let maxButtonText = 512

    /// Findings per kind: past `PageScanner.maxFindingsPerKind` they are counted, not kept.
    private var counts = FindingCounts()
    /// The open `<form>` was past the cap: what it holds is not kept either.
    private static let droppedForm = Int.max

    private var skipDepth = 0
    private var fieldsets: [Bool] = []
    private var disabledFieldsets = 0
    private var script: [UInt8]?
    /// The length of `script` at which to look for statements to analyse on their own.
    private var scriptCheckAt = ScriptUnit.segmentBytes
    /// Statements cut because they were longer than `ScriptUnit.maxBytes`.
    private var splitStatements = 0
    /// Elements opened past the parser's depth limit (`PageScanner.maxElementDepth`).
    var deepElements = 0
    /// The charset the page declares in its first `<meta charset>` or `<meta http-equiv=content-type>`.
    private(set) var declaredCharset: String?
    /// The open script is a module script (it runs after parsing, not where it stands).
    private var scriptIsModule = false
    /// External scripts met so far (`<script src>` of a JavaScript type): one may have loaded jQuery.
    private var externalScripts = 0
    private var inRawText = false
    private var textarea: (owner: Int?, ownerID: String?, name: String, text: [UInt8])?
    private var select: PendingSelect?
    private var inOption = false

    /// Element names seen, by address (see `TagCache`).
    private var tags = TagCache()

    init(androidInterfaces: Set<String>) {
        scripts = ScriptAnalysis(ScriptScanner(androidInterfaces: androidInterfaces))
    }

    /// Link text kept per link (enough for any label; a 100 MB `<a>` must not be copied whole).
    private static let maxLinkText = 4096

    // MARK: events

    mutating func startElement(_ name: UnsafePointer<UInt8>, _ attributes: AttributeList) {
        let tag = tags.tag(name)
        if skipDepth > 0 {
            if tag.isInert { skipDepth += 1 }
            return
        }
        if tag.isInert { skipDepth = 1; return }

        // Event handlers on any element: `onload`/`onpageshow`/`onerror` fire without the user. A button's
        // `onclick` is found here too: its unit's first navigation is the button's `onclickURL`.
        var onclickUnit: Int?, onclickCondition: PageScanResult.ScriptCondition?
        attributes.forEach { n, v in
            guard n[0] == UInt8(ascii: "o"), n[1] == UInt8(ascii: "n"), n[2] != 0, let v else { return }
            let onLoad = cEqual(n, "onload") || cEqual(n, "onpageshow") || cEqual(n, "onerror")
            let unit = scripts.addHandler(cBytes(v), onLoad: onLoad, formsBefore: forms.count)
            if cEqual(n, "onclick") {
                onclickUnit = unit
                onclickCondition = Self.confirmGuard(Array(cBytes(v).prefix(64)))
            }
        }

        switch tag {
        case .a, .area:
            // The href is copied as bytes; a bare `href` is the empty reference.
            var href: UnsafePointer<UInt8>?, hasHref = false, target: String?, alt: UnsafePointer<UInt8>?, id: String?
            attributes.forEach { n, v in
                if cEqual(n, "href") {
                    href = v; hasHref = true
                } else if cEqual(n, "id") {
                    id = string(v)
                } else if cEqual(n, "target") {
                    target = string(v)
                } else if tag == .area && cEqual(n, "alt") {
                    alt = v
                }
            }
            let kept = hasHref && counts.admit(.link)
            if tag == .a {
                if kept {
                    openLinks.append((links.count, linkText.count))
                } else if let last = openLinks.last, last.index < 0 {
                    openLinks[openLinks.count - 1].index = last.index - 1
                } else {
                    openLinks.append((-1, linkText.count))
                }
            }
            if hasHref, tag == .a {
                addClickable(id, .link(href: href.map { String(decoding: cBytes($0), as: UTF8.self) } ?? "", target: target))
            }
            guard kept else { return }
            let start = hrefs.count
            if let href { hrefs.append(contentsOf: cBytes(href)) }
            hrefEnds.append(hrefs.count)
            let text = alt.map { collapseWhitespace(cBytes($0)) } ?? ""
            links.append(.init(url: "", text: text, target: target, condition: onclickCondition))
            addJavaScriptURL(start, formsBefore: forms.count)
        case .base:
            // The first <base> with href sets the base URL; the first with target sets the default target.
            attributes.forEach { n, v in
                if cEqual(n, "href"), baseHref == nil {
                    baseHref = string(v)
                } else if cEqual(n, "target"), baseTarget == nil {
                    baseTarget = string(v)
                }
            }
        case .meta:
            var isRefresh = false, isContentType = false
            var content: String?, charset: String?
            attributes.forEach { n, v in
                if cEqual(n, "http-equiv"), let v {
                    isRefresh = cEqualIgnoringCase(v, "refresh")
                    isContentType = cEqualIgnoringCase(v, "content-type")
                } else if cEqual(n, "content") {
                    content = string(v)
                } else if cEqual(n, "charset") {
                    charset = string(v)
                }
            }
            if isRefresh, let content, let parsed = RefreshContent(content), counts.admit(.refresh) { refreshes.append(parsed) }
            // The page's own encoding declaration: the first `<meta charset>` or content-type `<meta>`.
            if declaredCharset == nil {
                if let charset {
                    declaredCharset = charset
                } else if isContentType, let content {
                    declaredCharset = PageScanner.charset(fromContentType: content)
                }
            }
        case .form:
            if openForm != nil { ignoredNestedForms += 1; return } // browsers ignore a nested <form>
            var f = PendingForm(action: nil, method: "GET", target: nil, name: nil, id: nil)
            attributes.forEach { n, v in
                if cEqual(n, "action") {
                    f.action = string(v)
                } else if cEqual(n, "method"), let v {
                    f.method = cEqualIgnoringCase(v, "post") ? "POST" : "GET"
                } else if cEqual(n, "target") {
                    f.target = string(v)
                } else if cEqual(n, "name") {
                    f.name = string(v)
                } else if cEqual(n, "id") {
                    f.id = string(v)
                }
            }
            guard counts.admit(.form) else { openForm = Self.droppedForm; return }
            openForm = forms.count
            forms.append(f)
        case .button:
            var kind = PageScanResult.Button.Kind.submit, name: String?, value: String?, formID: String?, ariaLabel: String?
            var disabled = false, id: String?
            attributes.forEach { n, v in
                if cEqual(n, "id") {
                    id = string(v)
                } else if cEqual(n, "type") {
                    kind = Self.buttonKind(string(v)) ?? .submit
                } else if cEqual(n, "name") {
                    name = string(v)
                } else if cEqual(n, "value") {
                    value = string(v)
                } else if cEqual(n, "form") {
                    formID = string(v)
                } else if cEqual(n, "aria-label") {
                    ariaLabel = string(v)
                } else if cEqual(n, "disabled") {
                    disabled = true
                }
            }
            if kind == .image { kind = .submit }
            if kind == .submit, !disabled, disabledFieldsets == 0 { addClickable(id, .submit(owner: openForm, ownerID: formID)) }
            guard !disabled, disabledFieldsets == 0, keeps(owner: openForm, ownerID: formID), counts.admit(.button) else {
                return
            }
            closeButton()
            openButton = buttons.count
            buttons.append(
                PageScanResult.Button(
                    kind: kind, label: "", ariaLabel: ariaLabel, name: name, value: value, condition: onclickCondition))
            buttonParts.append(ButtonParts(owner: openForm, ownerID: formID, onclickUnit: onclickUnit))
        case .input:
            var name: String?, value: String?, type = "text", checked = false, disabled = false, formID: String?
            var alt: String?, ariaLabel: String?, id: String?
            attributes.forEach { n, v in
                if cEqual(n, "id") {
                    id = string(v)
                } else if cEqual(n, "name") {
                    name = string(v)
                } else if cEqual(n, "value") {
                    value = string(v)
                } else if cEqual(n, "type") {
                    type = string(v).lowercased()
                } else if cEqual(n, "checked") {
                    checked = true
                } else if cEqual(n, "disabled") {
                    disabled = true
                } else if cEqual(n, "form") {
                    formID = string(v)
                } else if cEqual(n, "alt") {
                    alt = string(v)
                } else if cEqual(n, "aria-label") {
                    ariaLabel = string(v)
                }
            }
            if Self.buttonKind(type) == .submit || Self.buttonKind(type) == .image, !disabled, disabledFieldsets == 0 {
                addClickable(id, .submit(owner: openForm, ownerID: formID))
            }
            if let kind = Self.buttonKind(type), kind != .reset || value != nil, !disabled, disabledFieldsets == 0,
                keeps(owner: openForm, ownerID: formID), counts.admit(.button)
            {
                // What the button shows: its value, an image's alt, else the browser's default caption.
                let shown =
                    kind == .image
                    ? (alt ?? value ?? "") : (value ?? (kind == .submit ? "Submit" : kind == .reset ? "Reset" : ""))
                buttons.append(
                    PageScanResult.Button(
                        kind: kind, label: collapseWhitespace(Array(shown.utf8)), ariaLabel: ariaLabel,
                        name: name, value: kind == .image ? nil : value, condition: onclickCondition))
                buttonParts.append(ButtonParts(owner: openForm, ownerID: formID, onclickUnit: onclickUnit))
            }
            guard let name, !name.isEmpty, !disabled, disabledFieldsets == 0 else { return }
            switch type {
            case "checkbox", "radio":
                guard checked else { return }
                value = value ?? "on"
            case "submit", "reset", "button", "image", "file":
                return // only a submitter or a chosen file would be sent; an automatic submit has neither
            default:
                break
            }
            addField(PendingField(owner: openForm, ownerID: formID, name: name, value: value ?? ""))
        case .textarea:
            var name: String?, disabled = false, formID: String?
            attributes.forEach { n, v in
                if cEqual(n, "name") {
                    name = string(v)
                } else if cEqual(n, "disabled") {
                    disabled = true
                } else if cEqual(n, "form") {
                    formID = string(v)
                }
            }
            if let name, !name.isEmpty, !disabled, disabledFieldsets == 0 {
                textarea = (openForm, formID, name, [])
            }
        case .select:
            var s = PendingSelect(owner: openForm, ownerID: nil, name: nil, multiple: false, disabled: disabledFieldsets > 0)
            attributes.forEach { n, v in
                if cEqual(n, "name") {
                    s.name = string(v)
                } else if cEqual(n, "multiple") {
                    s.multiple = true
                } else if cEqual(n, "disabled") {
                    s.disabled = true
                } else if cEqual(n, "form") {
                    s.ownerID = string(v)
                }
            }
            select = s
        case .option:
            guard select != nil else { return }
            var value: String?, selected = false, disabled = false
            attributes.forEach { n, v in
                if cEqual(n, "value") {
                    value = string(v)
                } else if cEqual(n, "selected") {
                    selected = true
                } else if cEqual(n, "disabled") {
                    disabled = true
                }
            }
            select?.closeOption()
            select?.option = (value, [], selected, disabled)
            inOption = true
        case .fieldset:
            var disabled = false
            attributes.forEach { n, _ in if cEqual(n, "disabled") { disabled = true } }
            fieldsets.append(disabled)
            if disabled { disabledFieldsets += 1 }
        case .iframe, .frame:
            var src: String?, frameName: String?, srcdoc = false
            attributes.forEach { n, v in
                if cEqual(n, "src") {
                    src = string(v)
                } else if cEqual(n, "name") {
                    frameName = string(v)
                } else if cEqual(n, "srcdoc") {
                    srcdoc = true
                }
            }
            // Every frame is listed, so that indices are `window.frames`' and a form or link can target a frame by
            // name: one with `srcdoc` holds about:srcdoc (HTML: srcdoc wins over src), one without a src (or an
            // empty one) about:blank. Neither is loaded from the network.
            let url = srcdoc ? "about:srcdoc" : src.flatMap { $0.trimmingASCIIWhitespace().isEmpty ? nil : $0 } ?? "about:blank"
            if counts.admit(.frame) { frames.append((url, frameName)) }
        case .script:
            var external = false, runs = true, module = false
            attributes.forEach { n, v in
                if cEqual(n, "src") {
                    external = true
                } else if cEqual(n, "type") {
                    let type = string(v)
                    runs = Self.isJavaScriptType(type)
                    module = type.trimmingASCIIWhitespace().lowercased() == "module"
                }
            }
            scriptIsModule = module
            if external && runs { externalScripts += 1 }
            inRawText = true
            script = (external || !runs) ? nil : []
            scriptCheckAt = ScriptUnit.segmentBytes
        case .style:
            inRawText = true
        case .other, .noscript, .template, .noembed, .noframes:
            break
        }
    }

    mutating func endElement(_ name: UnsafePointer<UInt8>) {
        let tag = tags.tag(name)
        if skipDepth > 0 {
            if tag.isInert { skipDepth -= 1 }
            return
        }
        switch tag {
        case .a:
            if let last = openLinks.last, last.index < -1 {
                openLinks[openLinks.count - 1].index = last.index + 1
            } else if let open = openLinks.popLast() {
                closeLink(open)
            }
        case .form:
            if ignoredNestedForms > 0 { ignoredNestedForms -= 1 } else { openForm = nil }
        case .button:
            closeButton()
        case .textarea:
            guard var t = textarea else { return }
            // The parser drops one newline right after <textarea>; browsers normalise CRLF to LF.
            if t.text.first == 0x0A { t.text.removeFirst() }
            let value = String(decoding: t.text, as: UTF8.self).replacingCRLF()
            addField(PendingField(owner: t.owner, ownerID: t.ownerID, name: t.name, value: value))
            textarea = nil
        case .option:
            inOption = false
        case .select:
            guard var s = select else { return }
            select = nil
            s.closeOption()
            guard let name = s.name, !name.isEmpty, !s.disabled else { return }
            // A single select always has one selection: the last `selected`, else the first usable option.
            let chosen = s.multiple ? s.chosen : (s.lastSelected ?? s.firstUsable).map { [$0] } ?? []
            for o in chosen {
                let value = o.value ?? collapseWhitespace(o.text)
                addField(PendingField(owner: s.owner, ownerID: s.ownerID, name: name, value: value))
            }
            if keeps(owner: s.owner, ownerID: s.ownerID) { counts.add(.field, s.overflow) }
        case .fieldset:
            if let d = fieldsets.popLast(), d { disabledFieldsets -= 1 }
        case .script:
            if let source = script, !source.isEmpty {
                var unit = ScriptUnit(source: source, onLoad: true, formsBefore: forms.count, runsAfterParsing: scriptIsModule)
                // A module runs once the page has parsed, after every classic external script.
                unit.librariesLoaded = scriptIsModule || externalScripts > 0
                scripts.add(unit)
            }
            script = nil
            inRawText = false
        case .style:
            inRawText = false
        default:
            break
        }
    }

    mutating func characters(_ text: UnsafeBufferPointer<UInt8>) {
        if inRawText {
            guard script != nil else { return }
            script!.append(contentsOf: text)
            if script!.count >= scriptCheckAt { analyseLeadingStatements() }
            return
        }
        if skipDepth > 0 { return }
        // Text goes to the innermost open link only: browsers never nest links (a new <a> closes the open one).
        if let last = openLinks.last, last.index >= 0, linkText.count - last.textStart < Self.maxLinkText {
            linkText.append(contentsOf: text.prefix(Self.maxLinkText - (linkText.count - last.textStart)))
        }
        textarea?.text.append(contentsOf: text)
        if openButton != nil, openButtonText.count < Self.maxButtonText {
            openButtonText.append(contentsOf: text.prefix(Self.maxButtonText - openButtonText.count))
        }
        if inOption, select?.option != nil {
            select?.option?.text.append(contentsOf: text)
        }
    }

    /// A long inline script is analysed a top-level statement run at a time, so neither its bytes nor its
    /// tokens are ever held whole (a 60 MB script would otherwise cost about 5 times its size). The run ends
    /// after the last `;` or `}` outside any bracket. A single statement longer than `ScriptUnit.maxBytes` (a
    /// bundled library wrapped in one call) is cut after its shallowest `;`, `,` or `}` in the second half of
    /// the run, else before its last token, and the cut is reported (`splitStatements`). Text may arrive in
    /// pieces of any size: runs are cut off the front until what is left is short enough to wait.
    private mutating func analyseLeadingStatements() {
        guard let source = script else { return }
        var start = 0
        while source.count - start >= scriptCheckAt {
            // Only the first `maxBytes` are looked at: no run is longer.
            let window = Array(source[start..<min(source.count, start + ScriptUnit.maxBytes)])
            var cut = 0
            var depth = 0
            // The latest separator at the least depth, past the first half segment: where a long statement is cut.
            var shallow = (depth: Int.max, end: 0)
            var lastStart = 0
            for t in Tokenizer(window).tokens() {
                lastStart = t.start
                guard t.kind == .punct, t.end - t.start == 1 else { continue }
                switch window[t.start] {
                case UInt8(ascii: "("), UInt8(ascii: "["), UInt8(ascii: "{"): depth += 1; continue
                case UInt8(ascii: ")"), UInt8(ascii: "]"): depth = max(0, depth - 1); continue
                case UInt8(ascii: "}"): depth = max(0, depth - 1)
                case UInt8(ascii: ";"), UInt8(ascii: ","): break
                default: continue
                }
                if depth == 0 && window[t.start] != UInt8(ascii: ",") { cut = t.end }
                if t.end >= ScriptUnit.segmentBytes / 2, depth <= shallow.depth { shallow = (depth, t.end) }
            }
            if cut < ScriptUnit.segmentBytes / 2 {
                // Too little to cut off yet: look again when the script has grown by another segment.
                guard source.count - start >= ScriptUnit.maxBytes else {
                    scriptCheckAt = source.count - start + ScriptUnit.segmentBytes
                    break
                }
                cut = shallow.end > 0 ? shallow.end : lastStart > 0 ? lastStart : window.count
                splitStatements += 1
            }
            var unit = ScriptUnit(source: Array(window[..<cut]), onLoad: true, formsBefore: forms.count)
            unit.librariesLoaded = scriptIsModule || externalScripts > 0
            scripts.add(unit)
            start += cut
            scriptCheckAt = ScriptUnit.segmentBytes
        }
        if start > 0 { script = Array(source[start...]) }
    }

    // MARK: result

    /// The open `<button>` closed (or another opened): its text is its label.
    private mutating func closeButton() {
        guard let b = openButton else { return }
        buttons[b].label = collapseWhitespace(openButtonText)
        openButtonText.removeAll(keepingCapacity: true)
        openButton = nil
    }

    /// A link's element closed: its text is final.
    private mutating func closeLink(_ open: (index: Int, textStart: Int)) {
        if open.index >= 0 {
            links[open.index].text = linkText.withUnsafeBufferPointer {
                collapseWhitespace(UnsafeBufferPointer(rebasing: $0[open.textStart...]))
            }
        }
        if open.textStart == 0 {
            linkText.removeAll(keepingCapacity: true)
        } else {
            linkText.removeLast(linkText.count - open.textStart)
        }
    }


    /// The page's findings, every URL resolved. Call once, after the parse: it hands over what it collected.
    mutating func result(document: WebURL) -> PageScanResult {
        var base = document
        if let baseHref, let resolved = WebURL(baseHref, relativeTo: document), !resolved.hasOpaquePath {
            base = resolved
        }
        let documentURL = document.href
        let resolver = WebURL.Resolver(base: base)
        var out = PageScanResult()

        // The first refresh is scheduled; a later one whose delay is equal or shorter replaces it (what WebKit
        // and Chromium both do with two `<meta http-equiv=refresh>`); a longer one never fires first.
        for r in refreshes {
            if let pending = out.refresh, r.delay > pending.delay { continue }
            if let raw = r.url {
                guard let url = resolver.href(raw) else { continue }
                out.refresh = .init(delay: r.delay, url: url)
            } else {
                out.refresh = .init(delay: r.delay, url: documentURL)
            }
        }
        while let open = openLinks.popLast() { closeLink(open) }
        let resolve = { (raw: String) in resolver.href(raw) }
        out.links = links
        links = []
        Self.resolveLinks(&out.links, hrefs: hrefs, ends: hrefEnds, resolver, defaultTarget: baseTarget)
        hrefs = []
        hrefEnds = []
        for f in frames {
            // A src that does not parse leaves the frame at about:blank (it still counts in `window.frames`).
            out.frames.append(.init(url: resolver.href(f.src) ?? "about:blank", name: f.name))
        }

        var findings = scripts.finish()
        applyClicks(&findings, baseTarget: baseTarget)
        for change in findings.actions { if let i = formIndex(change.form) { forms[i].action = change.url } }
        findings.actions = []
        // A button's `onclickURL` is the first navigation of its handler's unit, resolved (nil when that one
        // does not resolve): the handler was analysed with the others, so it is looked up, not analysed again.
        // Units sorted, each with its first navigation's URL once seen (binary search: no hashing per navigation).
        let onclickUnits = buttonParts.compactMap(\.onclickUnit).sorted()
        var onclickURLs = [(seen: Bool, url: String?)](repeating: (false, nil), count: onclickUnits.count)
        // Every navigation's URL resolved first, in order, before any is moved (plain assignments' from their bytes).
        var resolvedURLs = [String?](repeating: nil, count: findings.navigations.count)
        findings.forEachNavigationURL { i, bytes in
            if let bytes {
                resolvedURLs[i] = resolver.href(utf8: bytes)
            } else {
                resolvedURLs[i] = resolve(findings.navigations[i].url)
            }
        }
        findings.plainURLBytes = []
        findings.plainURLs = []
        // Then set in place; a navigation whose URL does not resolve goes, with its run key.
        var resolved = 0
        for i in findings.navigations.indices {
            let url = resolvedURLs[i]
            if !onclickUnits.isEmpty, let k = Self.index(of: findings.navigationKeys[i].unit, in: onclickUnits),
                !onclickURLs[k].seen
            {
                onclickURLs[k] = (true, url)
            }
            guard let url else { continue }
            findings.navigations[i].url = url
            if resolved != i {
                findings.navigations.swapAt(resolved, i)
                findings.navigationKeys.swapAt(resolved, i)
            }
            resolved += 1
        }
        findings.navigations.removeLast(findings.navigations.count - resolved)
        findings.navigationKeys.removeLast(findings.navigationKeys.count - resolved)
        out.hooks = findings.hooks
        counts.add(.scriptNavigation, findings.navigationsFound)
        counts.add(.hook, findings.hooksFound)
        counts.add(.formSubmission, findings.submitsFound)

        let linkActions = javascriptLinkActions(findings)
        // The automatic actions (navigations and form submissions) in the order a browser starts them.
        var automatic: [(key: RunKey, navigation: Int?, form: Int?)] = []
        for i in findings.navigations.indices where findings.navigations[i].onLoad { // by index: no copy of each
            automatic.append((findings.navigationKeys[i], i, nil))
        }
        findings.navigationKeys = []
        var autoSubmitted = Set<Int>()
        // A form submitted by itself waits on a condition only when each of its submissions does (the first's).
        var conditions: [Int: PageScanResult.ScriptCondition] = [:]
        var unconditional = Set<Int>()
        for s in findings.submits where s.onLoad {
            guard let i = formIndex(s.form) else { continue }
            autoSubmitted.insert(i)
            automatic.append((s.key, nil, i))
            if let c = s.condition { conditions[i] = conditions[i] ?? c } else { unconditional.insert(i) }
        }
        for i in unconditional { conditions[i] = nil }
        automatic.sort { $0.key < $1.key }
        var formOrder: [Int: Int] = [:]
        out.scriptNavigations = findings.navigations
        findings.navigations = []
        for (order, a) in automatic.enumerated() {
            if let n = a.navigation { out.scriptNavigations[n].runOrder = order }
            if let f = a.form, formOrder[f] == nil { formOrder[f] = order }
        }

        // Forms: owners, fields, auto-submission.
        var formFields = [[PageScanResult.Form.Field]](repeating: [], count: forms.count)
        for f in fields {
            let owner: Int?
            if let id = f.ownerID { owner = formsByID[id] } else { owner = f.owner }
            if let owner, owner < formFields.count { formFields[owner].append(.init(name: f.name, value: f.value)) }
        }
        // Buttons: to their form (its own, or the one `form=` names), else the page; onclick navigations resolved.
        var formButtons = [[PageScanResult.Button]](repeating: [], count: forms.count)
        // Completed in place; a form's button is taken out (swapped with an empty one) and the page's buttons closed
        // up, so no button is copied.
        closeButton()
        var pageButtons = 0
        for i in buttons.indices {
            buttons[i].onclickURL = buttonParts[i].onclickUnit.flatMap { Self.index(of: $0, in: onclickUnits) }
                .flatMap { onclickURLs[$0].url }
            let owner = buttonParts[i].ownerID.map { formsByID[$0] } ?? buttonParts[i].owner
            if let owner, owner < formButtons.count {
                var button = PageScanResult.Button(kind: .submit, label: "")
                swap(&button, &buttons[i])
                formButtons[owner].append(button)
            } else {
                if pageButtons != i { buttons.swapAt(pageButtons, i) }
                pageButtons += 1
            }
        }
        buttons.removeLast(buttons.count - pageButtons)
        buttonParts = []
        out.buttons = buttons
        buttons = []
        var formPosition = [Int?](repeating: nil, count: forms.count)
        for (i, f) in forms.enumerated() {
            // No or empty action: the document's own URL (not the base URL), as the HTML standard says.
            let action: String
            if let a = f.action, !a.trimmingASCIIWhitespace().isEmpty {
                guard let url = resolver.href(a) else { continue }
                action = url
            } else {
                action = documentURL
            }
            formPosition[i] = out.forms.count
            out.forms.append(
                .init(
                    action: action, method: f.method, fields: formFields[i],
                    autoSubmit: autoSubmitted.contains(i), target: f.target ?? baseTarget,
                    autoSubmitOrder: formOrder[i], autoSubmitCondition: conditions[i], buttons: formButtons[i]))
        }
        applyJavaScriptLinks(&out, linkActions, formPosition: formPosition)
        out.truncations = counts.truncations
        if deepElements > 0 {
            out.truncations.append(.init(kind: .depth, count: deepElements, limit: PageScanner.maxElementDepth, dropped: 0))
        }
        if splitStatements > 0 {
            out.truncations.append(.init(kind: .scriptStatement, count: splitStatements, limit: ScriptUnit.maxBytes, dropped: 0))
        }
        return out
    }

    /// The index of `value` in the sorted `sorted`, if it is there.
    private static func index(of value: Int, in sorted: [Int]) -> Int? {
        var low = 0, high = sorted.count
        while low < high {
            let mid = (low + high) / 2
            if sorted[mid] < value { low = mid + 1 } else { high = mid }
        }
        return low < sorted.count && sorted[low] == value ? low : nil
    }

    /// First form per name and per id (built once: pages may hold thousands of forms and submit calls).
    private lazy var formsByName: [String: Int] = firstIndexes(\.name)
    lazy var formsByID: [String: Int] = firstIndexes(\.id)

    private func firstIndexes(_ key: KeyPath<PendingForm, String?>) -> [String: Int] {
        var map: [String: Int] = [:]
        for (i, f) in forms.enumerated() { if let k = f[keyPath: key], map[k] == nil { map[k] = i } }
        return map
    }

    mutating func formIndex(_ ref: FormReference) -> Int? {
        switch ref {
        case .index(let n): return n >= 0 && n < forms.count ? n : nil
        case .name(let n): return formsByName[n] ?? formsByID[n]
        case .id(let id): return formsByID[id]
        case .first: return forms.isEmpty ? nil : 0
        case .unknown(let before):
            if forms.count == 1 { return 0 }
            return before > 0 && before <= forms.count ? before - 1 : nil
        }
    }

    // MARK: helpers


    /// False for a field or button of a form past the cap (its own, not one it names with `form=`).
    private func keeps(owner: Int?, ownerID: String?) -> Bool { ownerID != nil || owner != Self.droppedForm }

    private mutating func addField(_ field: PendingField) {
        guard keeps(owner: field.owner, ownerID: field.ownerID), counts.admit(.field) else { return }
        fields.append(field)
    }

    /// `javascript:` links run their code when tapped: scan it like a click handler. The href is the last one in
    /// `hrefs`, from `start`.
    /// The script unit of each `javascript:` link with code, in document order.
    var javascriptUnits: [Int] = []


}

/// True when the NUL-terminated `c` equals the ASCII literal.
func cEqual(_ c: UnsafePointer<UInt8>, _ literal: StaticString) -> Bool {
    let l = literal.utf8Start
    var i = 0
    while i < literal.utf8CodeUnitCount {
        if c[i] != l[i] { return false }
        i += 1
    }
    return c[i] == 0
}

/// Like `cEqual`, ASCII case-insensitive (for attribute values such as `http-equiv`), ignoring surrounding spaces.
func cEqualIgnoringCase(_ c: UnsafePointer<UInt8>, _ literal: StaticString) -> Bool {
    let value = String(cString: c).trimmingASCIIWhitespace().lowercased()
    return value == literal.description
}

private func string(_ v: UnsafePointer<UInt8>?) -> String {
    guard let v else { return "" }
    return String(cString: v)
}

/// The bytes of a NUL-terminated string, in place.
private func cBytes(_ v: UnsafePointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
    UnsafeBufferPointer(start: v, count: strlen(UnsafeRawPointer(v).assumingMemoryBound(to: CChar.self)))
}

/// Text as a user reads it: runs of ASCII whitespace become one space, ends trimmed.
func collapseWhitespace(_ text: [UInt8]) -> String {
    text.withUnsafeBufferPointer { collapseWhitespace($0) }
}

/// The same over bytes in place, written straight into the String's storage.
func collapseWhitespace(_ text: UnsafeBufferPointer<UInt8>) -> String {
    guard !text.isEmpty else { return "" }
    return String(unsafeUninitializedCapacity: text.count) { out in
        var n = 0
        var pendingSpace = false
        for b in text {
            if b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0C || b == 0x0D {
                pendingSpace = n > 0
            } else {
                if pendingSpace { out[n] = 0x20; n += 1; pendingSpace = false }
                out[n] = b
                n += 1
            }
        }
        return n
    }
}

extension String {
    fileprivate func replacingCRLF() -> String {
        guard utf8.contains(0x0D) else { return self }
        var out: [UInt8] = []
        let u = Array(utf8)
        var i = 0
        while i < u.count {
            if u[i] == 0x0D { out.append(0x0A); if i + 1 < u.count, u[i + 1] == 0x0A { i += 1 } } else { out.append(u[i]) }
            i += 1
        }
        return String(decoding: out, as: UTF8.self)
    }
}
