// `plainview simulate --report FILE.html`: one self-contained HTML page (inline CSS, no script, nothing fetched)
// with, per flow and per branch, a sequence diagram across the web view, the browser, the OS and the apps, every
// decision with its rule and reason, the pages loaded and the outcome. Every text goes through HTMLEscaping.
import Foundation
import PaymentURLHelpers
import PlainviewSupport

extension Reporting {
    /// The report as one HTML document. `problems` are the flows that could not be read.
    public static func html(
        _ results: [FlowResult], problems: [FlowInputProblem] = [], title: String = "Plainview simulate report"
    ) -> String {
        var page = HTMLPage()
        page.head(title: title)
        let passed = results.filter(\.passed).count
        let branches = results.reduce(0) { $0 + $1.branches.count }
        page.raw("<header><h1>\(h(title))</h1><p class=\"totals\">")
        page.raw("<span class=\"count\" id=\"flow-count\">\(results.count)</span> flow\(results.count == 1 ? "" : "s"), ")
        page.raw("<span class=\"pass\">\(passed) passed</span>, <span class=\"fail\">\(results.count - passed) failed</span>")
        if !problems.isEmpty {
            page.raw(", <span class=\"fail\">\(problems.count) input error\(problems.count == 1 ? "" : "s")</span>")
        }
        page.raw(" · \(branches) branch\(branches == 1 ? "" : "es")</p></header>\n")

        if !problems.isEmpty {
            page.raw("<section class=\"problems\"><h2>Input errors</h2><ul>\n")
            for p in problems {
                page.raw("<li class=\"input-error\" data-file=\"\(h(p.path))\"><code>\(h(p.message))</code></li>\n")
            }
            page.raw("</ul></section>\n")
        }

        page.raw(
            "<nav><table class=\"index\"><thead><tr><th></th><th>flow</th><th>branches</th><th>outcome</th></tr></thead><tbody>\n"
        )
        for (i, r) in results.enumerated() {
            let mark = r.passed ? "PASS" : "FAIL"
            page.raw(
                "<tr class=\"\(r.passed ? "pass" : "fail")\"><td>\(mark)</td><td><a href=\"#flow-\(i + 1)\">\(h(r.flow.name))</a></td>"
            )
            page.raw("<td>\(r.branches.count)</td><td>\(h(r.branches.first.map { $0.outcome.description } ?? ""))</td></tr>\n")
        }
        page.raw("</tbody></table></nav>\n<main>\n")
        for (i, r) in results.enumerated() { flow(r, index: i + 1, into: &page) }
        page.raw("</main>\n</body>\n</html>\n")
        return page.text
    }

    private static func flow(_ r: FlowResult, index: Int, into page: inout HTMLPage) {
        let state = r.passed ? "pass" : "fail"
        page.raw(
            "<details class=\"flow \(state)\" id=\"flow-\(index)\" data-flow=\"\(h(r.flow.name))\"\(r.passed ? "" : " open")>\n")
        page.raw(
            "<summary><span class=\"mark \(state)\">\(r.passed ? "PASS" : "FAIL")</span> <strong>\(h(r.flow.name))</strong> ")
        page.raw("<span class=\"file\">\(h(r.flow.file))</span> · \(r.branches.count) branch\(r.branches.count == 1 ? "" : "es")")
        if r.truncated { page.raw(" (bound hit)") }
        page.raw("</summary>\n")
        if !r.flow.description.isEmpty { page.raw("<p class=\"description\">\(h(r.flow.description))</p>\n") }
        for b in r.branches { branch(b, into: &page) }
        page.raw("</details>\n")
    }

    private static func branch(_ b: SimulationReport, into page: inout HTMLPage) {
        let lanes = Lanes(b.events)
        page.raw("<section class=\"branch \(b.passed ? "pass" : "fail")\" data-branch=\"\(h(b.branch))\">\n")
        page.raw("<h3>branch: \(h(b.branch))</h3>\n")
        page.raw(
            "<p class=\"outcome \(b.outcome.kind.rawValue)\" data-outcome=\"\(b.outcome.kind.rawValue)\">\(h(b.outcome.description))"
        )
        page.raw(" · \(b.navigationCount) hop\(b.navigationCount == 1 ? "" : "s")")
        if !b.appsOpened.isEmpty { page.raw(" · apps: \(h(b.appsOpened.joined(separator: ", ")))") }
        page.raw(String(format: " · %.2f s simulated", Double(b.virtualTime) / 1000) + "</p>\n")
        if !b.failures.isEmpty {
            page.raw("<ul class=\"failures\">")
            for f in b.failures { page.raw("<li>\(h(f))</li>") }
            page.raw("</ul>\n")
        }

        // The sequence diagram: a grid with a time column and one column per lane; an event whose context differs
        // from the one before spans both lanes as an arrow.
        let rows = b.events.count + 1
        page.raw("<div class=\"seq\" style=\"grid-template-columns:4.5em repeat(\(lanes.names.count),minmax(9em,1fr))\">\n")
        for (i, name) in lanes.names.enumerated() {
            page.raw("<div class=\"lane\" style=\"grid-column:\(i + 2);grid-row:1/span \(rows)\"></div>")
            page.raw(
                "<div class=\"lane-head\" data-lane=\"\(h(name))\" style=\"grid-column:\(i + 2);grid-row:1\">\(h(Lanes.label(name)))</div>\n"
            )
        }
        var previous = b.events.first?.context ?? "webview"
        for (i, e) in b.events.enumerated() {
            let row = i + 2
            let here = lanes.index(e.context), from = lanes.index(previous)
            let (start, end) = (min(here, from), max(here, from))
            let arrow = here == from ? "" : (here > from ? " arrow right" : " arrow left")
            var classes = "ev \(e.event.rawValue)\(arrow)"
            if e.event == .decide, let a = e.action { classes += " action-\(a)" }
            page.raw(String(format: "<div class=\"t\" style=\"grid-row:%d\">%.2fs</div>", row, Double(e.time) / 1000))
            page.raw("<div class=\"\(classes)\" style=\"grid-row:\(row);grid-column:\(start + 2)/\(end + 3)\">")
            eventText(e, into: &page)
            page.raw("</div>\n")
            previous = e.context
        }
        page.raw("</div>\n")

        let loads = b.events.filter { $0.event == .load }
        if !loads.isEmpty {
            page.raw("<h4>Pages loaded</h4><ol class=\"pages\">")
            for e in loads {
                page.raw("<li><span class=\"ctx\">\(h(Lanes.label(e.context)))</span> <code>\(h(e.url ?? ""))</code></li>")
            }
            page.raw("</ol>\n")
        }
        let decisions = b.events.filter { $0.event == .decide }
        if !decisions.isEmpty {
            page.raw(
                "<h4>Decisions</h4><table class=\"decisions\"><thead><tr><th>time</th><th>action</th><th>rule</th><th>reason</th></tr></thead><tbody>"
            )
            for d in decisions {
                page.raw(String(format: "<tr><td>%.2fs</td>", Double(d.time) / 1000))
                page.raw(
                    "<td class=\"action-\(h(d.action ?? ""))\">\(h(d.action ?? ""))\(d.target.map { " <code>\(h($0))</code>" } ?? "")</td>"
                )
                page.raw("<td><code class=\"rule\">\(h(d.rule ?? ""))</code></td><td>\(h(d.reason ?? ""))</td></tr>")
            }
            page.raw("</tbody></table>\n")
        }
        page.raw("</section>\n")
    }

    /// One event's text in the diagram: what happened, and for a decision its action, rule and reason.
    private static func eventText(_ e: TraceEvent, into page: inout HTMLPage) {
        page.raw("<b>\(e.event.rawValue)</b> ")
        switch e.event {
        case .navigate:
            if e.context == "os" {
                page.raw("open <code>\(h(e.url ?? ""))</code>")
            } else {
                page.raw(
                    "\(h(e.method ?? "GET")) <code>\(h(e.url ?? ""))</code> <span class=\"meta\">\(h(e.frame ?? "main")), \(h(e.trigger ?? "?"))\(e.gesture == true ? ", tap" : "")</span>"
                )
            }
        case .decide:
            page.raw("→ <span class=\"action\">\(h(e.action ?? "?"))</span>")
            if let t = e.target { page.raw(" <code>\(h(t))</code>") }
            if let v = e.via { page.raw(" via \(h(v))") }
            page.raw(" <code class=\"rule\">\(h(e.rule ?? ""))</code> <span class=\"reason\">\(h(e.reason ?? ""))</span>")
        case .response:
            page.raw("\(e.status.map(String.init) ?? "?") <code>\(h(e.url ?? ""))</code>")
            if let t = e.target { page.raw(" → <code>\(h(t))</code>") }
        case .launch:
            page.raw("\(h(e.app ?? "?")) with <code>\(h(e.url ?? ""))</code>\(e.via.map { " via \(h($0))" } ?? "")")
        default:
            if let a = e.action { page.raw("\(h(a)) ") }
            if let app = e.app { page.raw("\(h(app)) ") }
            if let u = e.url { page.raw("<code>\(h(u))</code> ") }
            if let r = e.reason { page.raw("<span class=\"reason\">\(h(r))</span>") }
        }
    }

    private static func h(_ s: String) -> String { HTMLEscaping.escape(s) }

    /// The diagram's columns: the web view, the browser, the OS, then each app in order of appearance.
    struct Lanes {
        var names: [String] = ["webview", "browser", "os"]
        private var positions: [String: Int] = ["webview": 0, "browser": 1, "os": 2]

        init(_ events: [TraceEvent]) {
            for e in events where positions[e.context] == nil {
                positions[e.context] = names.count
                names.append(e.context)
            }
        }

        func index(_ context: String) -> Int { positions[context] ?? 0 }

        static func label(_ context: String) -> String {
            switch context {
            case "webview": "web view (host app)"
            case "browser": "system browser"
            case "os": "OS"
            default: context
            }
        }
    }
}

/// The report's text, with its inline style sheet.
private struct HTMLPage {
    var text = ""

    init() { text.reserveCapacity(1 << 20) }

    mutating func raw(_ s: String) { text += s }

    mutating func head(title: String) {
        text += """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(HTMLEscaping.escape(title))</title>
            <style>
            body{font:14px/1.4 system-ui,-apple-system,"Segoe UI",sans-serif;margin:1.5em;color:#1d1d1f;background:#fff}
            h1{font-size:1.5em;margin:0 0 .2em}
            code{font:12px ui-monospace,Menlo,Consolas,monospace;word-break:break-all}
            .pass{color:#17692e}.fail{color:#b3261e}
            table{border-collapse:collapse;margin:.5em 0}td,th{border-bottom:1px solid #ddd;padding:.2em .6em;text-align:left;vertical-align:top}
            details.flow{border:1px solid #ccc;border-radius:6px;margin:.8em 0;padding:.3em .8em}
            details.flow.fail{border-color:#b3261e}
            summary{cursor:pointer;padding:.3em 0}.file{color:#666;font-size:.9em}
            .mark{font-weight:bold}
            .branch{border-top:1px dashed #ccc;margin-top:.6em;padding-top:.4em}
            .outcome{font-weight:bold}.outcome.complete{color:#17692e}.outcome.canceled{color:#8a5a00}
            .outcome.stuck,.outcome.loop,.outcome.error{color:#b3261e}
            .failures{color:#b3261e}
            .seq{display:grid;column-gap:0;row-gap:2px;margin:.6em 0;font-size:12px;overflow-x:auto}
            .lane{border-left:2px solid #d0d7de;margin-left:50%}
            .lane-head{position:sticky;top:0;background:#f6f8fa;border:1px solid #d0d7de;border-radius:4px;text-align:center;font-weight:bold;padding:.2em;z-index:1}
            .t{grid-column:1;color:#666;text-align:right;padding-right:.5em}
            .ev{background:#fff;border:1px solid #d0d7de;border-radius:4px;padding:.1em .4em;margin:0 .3em;z-index:1}
            .ev.arrow{background:#eef4ff;border-color:#7aa2e3}
            .ev.arrow.right::after{content:" ▶";color:#3b6fd1}.ev.arrow.left::before{content:"◀ ";color:#3b6fd1}
            .ev.decide{background:#f3f0ff;border-color:#a78bfa}
            .ev.outcome{font-weight:bold}
            .action-allow .action,td.action-allow{color:#17692e}.action-block .action,td.action-block{color:#b3261e}
            .rule{background:#f6f8fa;border-radius:3px;padding:0 .2em}
            .reason{color:#444}.meta{color:#666}
            .pages li,.decisions td{font-size:12px}.ctx{color:#666}
            </style>
            </head>
            <body>

            """
    }
}
