import PageScan
import Testing

/// What a script's navigation or submission waits on: a `confirm()` answer (its `if`, its `else`, a negation,
/// a braceless `if`), a network answer (a request's promise callback, code after `await fetch`); and jQuery on a
/// page that cannot have loaded it (its first use throws, so the rest of that script never runs).
@Suite struct ScriptConditionTests {
    /// "PATH CONDITION" per automatic action (navigation or form), in document order; "-" for none.
    static func actions(_ html: String) throws -> [String] {
        let r = try PageScanner.scan(Array(html.utf8), documentURL: "https://shop.example/pay")
        let short = { (url: String) in url.replacingOccurrences(of: "https://shop.example", with: "") }
        return r.scriptNavigations.filter(\.onLoad).map { "\(short($0.url)) \($0.condition?.rawValue ?? "-")" }
            + r.forms.filter(\.autoSubmit).map { "form \(short($0.action)) \($0.autoSubmitCondition?.rawValue ?? "-")" }
    }

    static let rows: [(String, String, [String])] = [
        ("no condition", "<script>location.href = '/a'</script>", ["/a -"]),
        (
            "an if on confirm, and its else",
            "<script>if (confirm('Pay?')) { location.href = '/ok' } else { location.href = '/no' }</script>",
            ["/ok confirm-accepted", "/no confirm-dismissed"]
        ),
        (
            "a negated window.confirm in a braceless if",
            "<script>if (!window.confirm('Leave?')) location.replace('/stay')</script>",
            ["/stay confirm-dismissed"]
        ),
        (
            "a braceless if on confirm with window.location",
            "<script>if (confirm('x')) window.location.href = '/ok'; location.href = '/after'</script>",
            ["/ok confirm-accepted", "/after -"]
        ),
        (
            "an if on something else is no condition",
            "<script>var ok = 1; if (ok) { location.href = '/a' }</script>",
            ["/a -"]
        ),
        (
            "a member named confirm is not the dialog",
            "<script>if (order.confirm('x')) { location.href = '/a' }</script>",
            ["/a -"]
        ),
        (
            "a submit in fetch().then() waits on the network",
            "<form id=f action=/acs method=post></form><script>fetch('/status').then(r => r.json()).then(function (j) { document.getElementById('f').submit() })</script>",
            ["form /acs network-answer"]
        ),
        (
            "a navigation after await fetch waits on the network; one before it does not",
            "<script>(async function () { location.hash = 'x'; location.href = '/before'; const r = await fetch('/s'); location.href = '/after' })()</script>",
            ["/before -", "/after network-answer"]
        ),
        (
            "a navigation after await (await fetch(…)).json() waits on the network too",
            "<script>(async () => { const s = await (await fetch('/status')).json(); if (s.done) location.href = '/done' })()</script>",
            ["/done network-answer"]
        ),
        (
            "a parenthesised await of something that is no request is no condition",
            "<script>(async () => { const s = await (await caches.open('x')).keys(); location.href = '/next' })()</script>",
            ["/next -"]
        ),
        (
            "jQuery's ajax done callback waits on the network",
            "<script src=/jquery.js></script><script>$.ajax({url: '/s'}).done(function () { location.href = '/done' })</script>",
            ["/done network-answer"]
        ),
        (
            "a then on something that is no request is no condition",
            "<script>Promise.resolve().then(function () { location.href = '/a' })</script>",
            ["/a -"]
        ),
        (
            "a form submitted both under a condition and without one: none",
            "<form id=f action=/acs method=post></form><script>if (confirm('x')) document.forms[0].submit(); document.forms[0].submit()</script>",
            ["form /acs -"]
        ),
        (
            "jQuery ready with no script that could load jQuery: nothing from it on runs",
            "<script>location.href = '/first'; $(document).ready(function () { location.href = '/ready' }); location.href = '/after'</script>",
            ["/first -"]
        ),
        (
            "jQuery ready after an external script: it may be jQuery",
            "<script src='https://code.jquery.com/jquery-3.7.1.min.js'></script><script>$(function () { location.href = '/ready' })</script>",
            ["/ready -"]
        ),
        (
            "a page's own $ is no library",
            "<script>function $(id) { return document.getElementById(id) }</script><script>$('x'); location.href = '/a'</script>",
            ["/a -"]
        ),
        (
            "a jQuery failure ends only its own script",
            "<script>jQuery('#x').hide(); location.href = '/dead'</script><script>location.href = '/next'</script>",
            ["/next -"]
        ),
        (
            "a named function declared after the failure is hoisted and still runs when called",
            "<script>$(document).ready(go); function go() { location.href = '/dead' }</script><script>go2(); function go2() { location.href = '/live' }</script>",
            ["/live -"]
        ),
    ]

    @Test(arguments: rows) func conditions(row: (String, String, [String])) throws {
        #expect(try Self.actions(row.1) == row.2, "\(row.0)")
    }

    /// A script's `.click()` on a link found by id follows it (kind `click`, the link's target); on a submit
    /// button, submits its form; on anything else, does nothing.
    static let clicks: [(String, String, [String])] = [
        (
            "getElementById on a link, in a load listener",
            "<a id=go href='/next' target=_top>Go</a><script>window.onload = function () { document.getElementById('go').click() }</script>",
            ["/next click _top"]
        ),
        (
            "querySelector by id", "<a id=fin href=/done>Finish</a><script>document.querySelector('#fin').click()</script>",
            ["/done click -"]
        ),
        (
            "a submit button submits its form",
            "<form action=/acs method=post><button id=send>Send</button></form><script>document.getElementById('send').click()</script>",
            ["form /acs"]
        ),
        ("an id no link or submit button has", "<div id=x></div><script>document.getElementById('x').click()</script>", []),
        (
            "a click in a tap handler is no automatic action",
            "<a id=go href=/next>Go</a><button onclick=\"document.getElementById('go').click()\">B</button>", []
        ),
    ]

    @Test(arguments: clicks) func scriptClicks(row: (String, String, [String])) throws {
        let r = try PageScanner.scan(Array(row.1.utf8), documentURL: "https://shop.example/pay")
        let short = { (url: String) in url.replacingOccurrences(of: "https://shop.example", with: "") }
        let found =
            r.scriptNavigations.filter(\.onLoad).map { "\(short($0.url)) \($0.kind.rawValue) \($0.target ?? "-")" }
            + r.forms.filter(\.autoSubmit).map { "form \(short($0.action))" }
        #expect(found == row.2, "\(row.0): \(r.scriptNavigations)")
    }

    @Test func aLinkOrButtonWhoseOnclickReturnsConfirmWaitsOnIt() throws {
        let r = try PageScanner.scan(
            Array(
                """
                <a href=/cancel onclick="return confirm('Sure?')">Cancel</a><a href=/help onclick="track()">Help</a>
                <form action=/pay><button onclick=" return window.confirm('Pay?')">Pay</button></form>
                """.utf8), documentURL: "https://shop.example/pay")
        #expect(r.links.map(\.condition) == [.confirmAccepted, nil])
        #expect(r.forms.first?.buttons.map(\.condition) == [.confirmAccepted])
    }

    /// `setTimeout("code", N)`: the string is compiled and run as a timer, as old 3-D Secure pages rely on.
    @Test func aTimerGivenCodeAsAStringRunsThatCode() throws {
        let r = try PageScanner.scan(
            Array(
                """
                <form id=f method=post action=/acs></form>
                <script>window.setTimeout("document.getElementById('f').submit()", 100); setTimeout('location.href = "/later"', 2500);</script>
                <button onclick="setTimeout('location.href = \\'/tapped\\'', 10)">B</button>
                """.utf8), documentURL: "https://shop.example/pay")
        #expect(r.forms.map(\.autoSubmit) == [true])
        let automatic = r.scriptNavigations.filter(\.onLoad)
        #expect(automatic.map(\.url) == ["https://shop.example/later"])
        #expect(automatic.map(\.delay) == [2500])
    }

    /// `form.action = "…"` before the page submits it: the form posts where the script says.
    @Test func aScriptThatSetsAFormsActionMovesIt() throws {
        let r = try PageScanner.scan(
            Array(
                """
                <form id=f method=post><input type=hidden name=PaReq value=x></form><form name=other action=/stay></form>
                <script>var f = document.getElementById('f'); f.action = 'https://acs.bank.example/pareq'; f.submit();</script>
                <button onclick="document.forms.other.action = '/tapped'">B</button>
                """.utf8), documentURL: "https://shop.example/pay")
        #expect(r.forms.map(\.action) == ["https://acs.bank.example/pareq", "https://shop.example/stay"])
        #expect(r.forms.map(\.autoSubmit) == [true, false])
    }

    /// A `javascript:` link does what its code does: navigate (its `url` is then the target) or submit a form.
    @Test func aJavaScriptLinkIsWhatItsCodeDoes() throws {
        let r = try PageScanner.scan(
            Array(
                """
                <a href=/plain>Plain</a><form action=/unresolvable method=post></form>
                <form method=post action=/acs></form>
                <a href="javascript:location.href='/next'">Go</a><a href="javascript:document.forms[1].submit()">Send</a>
                <a href="javascript:void(0)">Nothing</a><a href="javascript:">Empty</a>
                """.utf8), documentURL: "https://shop.example/pay")
        #expect(
            r.links.map(\.url) == [
                "https://shop.example/plain", "https://shop.example/next", "https://shop.example/acs", "javascript:void(0)",
                "javascript:",
            ])
        #expect(r.links.map(\.script) == [nil, .navigates, .submits(form: 1), nil, nil])
    }
}
