// What a page's scripts do to its elements, resolved once the page is read: a script's `.click()` on a link or
// a submit button, and what a `javascript:` link's code does when tapped; and the `onclick="return confirm(…)"`
// guard of a link or button.
import PlainviewURL

extension PageCollectorState {
    mutating func addClickable(_ id: String?, _ c: Clickable) {
        guard let id, !id.isEmpty, clickables[id] == nil, clickables.count < PageScanner.maxFindingsPerKind else { return }
        clickables[id] = c
    }

    /// A script's `.click()` on a link follows it (a navigation of kind `click`, into the link's target); on a
    /// submit button, submits its form. An id that names neither does nothing.
    mutating func applyClicks(_ findings: inout ScriptFindings, baseTarget: String?) {
        for c in findings.clicks {
            switch clickables[c.id] {
            case .link(let href, let target):
                guard findings.navigations.count < PageScanner.maxFindingsPerKind else { continue }
                findings.navigations.append(
                    .init(url: href, kind: .click, onLoad: c.onLoad, target: target ?? baseTarget, condition: c.condition))
                findings.navigationKeys.append(c.key)
            case .submit(let owner, let ownerID):
                // A submit button outside any form submits nothing.
                guard let form: FormReference = ownerID.map({ .id($0) }) ?? owner.map({ .index($0) }) else { continue }
                findings.submits.append(.init(form: form, onLoad: c.onLoad, key: c.key, condition: c.condition))
            case nil:
                continue
            }
        }
        findings.clicks = []
        clickables = [:]
    }

    /// What each `javascript:` link's code does first, by its unit: a navigation (resolved) or a form it submits.
    mutating func javascriptLinkActions(_ findings: ScriptFindings) -> [Int: (url: String?, form: Int?)] {
        var linkActions: [Int: (url: String?, form: Int?)] = [:]
        if !javascriptUnits.isEmpty {
            let units = Set(javascriptUnits)
            for (i, key) in findings.navigationKeys.enumerated() where units.contains(key.unit) && linkActions[key.unit] == nil {
                linkActions[key.unit] = (findings.navigations[i].url, nil)
            }
            for s in findings.submits where units.contains(s.key.unit) && linkActions[s.key.unit] == nil {
                if let f = formIndex(s.form) { linkActions[s.key.unit] = (nil, f) }
            }
        }
        return linkActions
    }

    /// `javascript:` links, in order, each with the unit its code became: tapping one does what its code does.
    /// `formPosition` maps a form of the page to its place in `out.forms`.
    mutating func applyJavaScriptLinks(
        _ out: inout PageScanResult, _ linkActions: [Int: (url: String?, form: Int?)], formPosition: [Int?]
    ) {
        if !javascriptUnits.isEmpty {
            var k = 0
            for i in out.links.indices where Self.isJavaScriptURL(out.links[i].url) {
                guard k < javascriptUnits.count else { break }
                let unit = javascriptUnits[k]
                k += 1
                guard let action = linkActions[unit] else { continue }
                if let url = action.url {
                    out.links[i].url = url
                    out.links[i].script = .navigates
                } else if let f = action.form, f < formPosition.count, let position = formPosition[f], position < out.forms.count
                {
                    out.links[i].url = out.forms[position].action
                    out.links[i].script = .submits(form: position)
                }
            }
            javascriptUnits = []
        }
    }

    /// True for a `javascript:` URL with code after the colon (what `addJavaScriptURL` makes a unit of).
    static func isJavaScriptURL(_ url: String) -> Bool {
        let trimmed = WebURL.stripped(url)
        return trimmed.utf8.count > 11 && trimmed.utf8.prefix(11).lazy.map({ $0 | 0x20 }).elementsEqual("javascript:".utf8)
    }

    /// `confirm-accepted` for an `onclick` that is `return confirm(…)` (or `return window.confirm(…)`): the
    /// element does what it does only when the dialog answers OK (returning false cancels the click).
    static func confirmGuard(_ handler: [UInt8]) -> PageScanResult.ScriptCondition? {
        var text = Substring(String(decoding: handler.prefix(64), as: UTF8.self))
        text = text.drop { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        guard text.hasPrefix("return") else { return nil }
        text = text.dropFirst(6).drop { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        if text.hasPrefix("window.") { text = text.dropFirst(7) }
        return text.hasPrefix("confirm(") || text.hasPrefix("confirm (") ? .confirmAccepted : nil
    }

    /// A `javascript:` link's code, as a script unit of its own that runs on a tap.
    mutating func addJavaScriptURL(_ start: Int, formsBefore: Int) {
        // Most links are not `javascript:`: tell by the first bytes, before any String work.
        guard let first = hrefs[start...].first(where: { $0 > 0x20 }), first | 0x20 == UInt8(ascii: "j") else { return }
        let trimmed = WebURL.stripped(String(decoding: hrefs[start...], as: UTF8.self))
        guard trimmed.utf8.count > 11,
            trimmed.utf8.prefix(11).lazy.map({ $0 | 0x20 }).elementsEqual("javascript:".utf8)
        else { return }
        let code = PercentEncoding.decode(trimmed.dropFirst(11))
        javascriptUnits.append(scripts.add(ScriptUnit(source: Array(code.utf8), onLoad: false, formsBefore: formsBefore)))
    }
}
