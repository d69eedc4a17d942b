import Testing
import PageScan

/// The page's automatic actions in the order a browser starts them: inline scripts and the form submissions
/// they make run while the page parses, in document order; `onload` code, `DOMContentLoaded` and jQuery ready
/// listeners and module scripts run after parsing; timers last. (WebKitGTK and Chromium both report the
/// parse-time form POST before an `onload` navigation on such pages.)
@Suite struct RunOrderTests {
    /// "nav PATH" / "form PATH" per automatic action, by run order.
    static func order(_ html: String) throws -> [String] {
        let r = try PageScanner.scan(Array(html.utf8), documentURL: "https://shop.example/pay")
        var items: [(Int, String)] = []
        for n in r.scriptNavigations where n.onLoad {
            items.append((try #require(n.runOrder), "nav " + n.url.replacingOccurrences(of: "https://shop.example", with: "")))
        }
        for f in r.forms where f.autoSubmit {
            items.append(
                (try #require(f.autoSubmitOrder), "form " + f.action.replacingOccurrences(of: "https://shop.example", with: "")))
        }
        #expect(Set(items.map(\.0)).count == items.count, "run orders are distinct")
        return items.sorted { $0.0 < $1.0 }.map(\.1)
    }

    static let rows: [(String, String, [String])] = [
        (
            "an inline submit runs before the body's onload navigation",
            "<body onload=\"location='/load'\"><form action=/acs method=post></form><script>document.forms[0].submit()</script>",
            ["form /acs", "nav /load"]
        ),
        (
            "inline scripts run in document order",
            "<script>location.href='/first'</script><form action=/acs></form><script>document.forms[0].submit()</script>",
            ["nav /first", "form /acs"]
        ),
        (
            "window.onload = function runs after a later inline script",
            "<script>window.onload = function() { location = '/load' }</script><form action=/acs></form><script>document.forms[0].submit()</script>",
            ["form /acs", "nav /load"]
        ),
        (
            "an arrow load listener too",
            "<script>addEventListener('load', () => { location.replace('/load') })</script><script>location = '/parse'</script>",
            ["nav /parse", "nav /load"]
        ),
        (
            "DOMContentLoaded counts as after parsing",
            "<script>document.addEventListener('DOMContentLoaded', function () { location = '/ready' })</script><script>location = '/parse'</script>",
            ["nav /parse", "nav /ready"]
        ),
        (
            "jQuery ready",
            "<script src=/jquery.js></script><script>$(function () { location = '/ready' })</script><script>location = '/parse'</script>",
            ["nav /parse", "nav /ready"]
        ),
        (
            "onload = NAME runs the function at load",
            "<script>function go() { location = '/load' } window.onload = go</script><script>location = '/parse'</script>",
            ["nav /parse", "nav /load"]
        ),
        (
            "a function called at parse time runs at parse time",
            "<body onload=\"location='/load'\"><script>function go() { location = '/parse' } go()</script>",
            ["nav /parse", "nav /load"]
        ),
        (
            "a module script runs after the classic ones",
            "<script type=module>location = '/module'</script><script>location = '/classic'</script>",
            ["nav /classic", "nav /module"]
        ),
        (
            "a timer comes after load-time code",
            "<script>setTimeout(function(){ location = '/timer' }, 0)</script><body onload=\"location='/load'\">",
            ["nav /load", "nav /timer"]
        ),
    ]

    @Test(arguments: rows.indices)
    func runOrder(_ i: Int) throws {
        let (name, html, expected) = Self.rows[i]
        #expect(try Self.order(html) == expected, "\(name)")
    }
}
