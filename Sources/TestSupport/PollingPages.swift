import Foundation

/// A BankID page as the app-switch guides have it: it asks its server for the order's status by `fetch`, launches
/// BankID, and goes on asking until the status says done, then goes to the shop's complete URL. The user approves in
/// BankID, which returns to the app (the environment says so with `returnTo: previous`: BankID itself stays with
/// `redirect=null` on iOS, and the user goes back by hand); the page must then still be polling. The status server is
/// the flow's recording sequence: pending at first, done from the second answer on. The model does not run code
/// after a network answer (`modelOutcome: stuck`); both engines must complete, hop for hop alike
/// (SimulateEngineCLITests+Polling).
///
/// `tapFlow` is a page that starts polling on load and goes on: its only activity from then on is the poll, so it
/// has settled and the user's `tap:` step happens, in both engines; `lateFlow` one whose poll is done after many
/// answers, which is not settled before (SimulateEngineCLITests+PollingSettles).
public enum PollingPages {
    /// How the page polls: `poll` asks once and comes back by itself as long as the status is not done.
    public static let polls: [(name: String, script: String)] = [
        (
            "interval",
            "function poll() { fetch('/status').then(function (r) { return r.json(); }).then(function (s) { if (s.done) { location.href = '/done'; } }); } poll(); setInterval(poll, 2000);"
        ),
        (
            "timeout",
            "function poll() { fetch('/status').then(function (r) { return r.json(); }).then(function (s) { if (s.done) { location.href = '/done'; } else { setTimeout(poll, 2000); } }); } poll();"
        ),
        (
            "await",
            "async function poll() { var r = await fetch('/status'); var s = await r.json(); if (s.done) { location.href = '/done'; } else { setTimeout(poll, 2000); } } poll();"
        ),
    ]

    /// How it launches BankID: its universal link (an https navigation the app's delegate cancels) or its scheme.
    public static let launches: [(name: String, url: String)] = [
        ("universal-link", "https://app.bankid.com/?autostarttoken=7c40b5c9-fa74-49cf-b98c-bfe651f9a7c6&redirect=null"),
        ("scheme", "bankid:///?autostarttoken=7c40b5c9-fa74-49cf-b98c-bfe651f9a7c6&redirect=null"),
    ]

    /// The apps of the flows with an app: the shop embeds the web view, and BankID returns to it (as the user who
    /// switches back by hand does).
    static let environment = """
        environment:
          apps:
            - {name: Shop, schemes: [shopapp], behaviour: {host: true}}
            - {name: BankID, behaviour: {model: bankid, returnTo: previous}}
        """

    /// The flow (for `TestFlow.folder`, on iOS): the page polls, then launches BankID while its first request may
    /// still be on its way.
    /// `afterApp`: the done status waits for the user to complete in BankID (`afterApp: BankID`), so where BankID is
    /// missing or the user cancels the status stays pending.
    public static func flow(poll: String, launch: String, afterApp: Bool = false) -> String {
        """
        \(environment)
        pages:
          - url: https://shop.example.com/pay
            body: "<p>Open BankID to sign</p><script>\(poll) location.href = '\(launch)';</script>"
          - url: https://shop.example.com/status
            responses:
              - body: '{"done": false}'
              - body: '{"done": true}'\(afterApp ? "\n        afterApp: BankID" : "")
        expect: {outcome: complete, hops: 3, appsOpened: [BankID], modelOutcome: stuck}
        """
    }

    /// What the user taps on a page that polls while it waits (its label, and the page's HTML for it): a link to the
    /// complete URL, or a button launching BankID by its scheme (BankID returns to the app, `returnTo: previous`, and the
    /// page goes on polling), and what the run must end in.
    public static let taps: [(name: String, label: String, html: String, expect: String)] = [
        ("link", "Back to shop", "<a href='/done'>Back to shop</a>", "{outcome: complete, hops: 2}"),
        (
            "app", "Open BankID", "<button onclick=\\\"location.href='\(launches[1].url)'\\\">Open BankID</button>",
            "{outcome: stuck, hops: 2, appsOpened: [BankID]}"
        ),
    ]

    /// The flow (for `TestFlow.folder`, on iOS): the page polls from load and the status never says done, so the
    /// page never goes anywhere by itself; the user taps (`tap`: one of `taps`).
    public static func tapFlow(poll: String, tap: (name: String, label: String, html: String, expect: String)) -> String {
        """
        \(environment)
        pages:
          - url: https://shop.example.com/pay
            body: "<p>Waiting for your bank</p>\(tap.html)<script>\(poll)</script>"
          - url: https://shop.example.com/status
            body: '{"done": false}'
        steps:
          - tap: \(tap.label)
        expect: \(tap.expect)
        """
    }

    /// The flow (for `TestFlow.folder`, on iOS): the page polls from load and the status is done after `pending`
    /// answers that are not: a poll is quiet only while its answer stays the same, so the page reaches the complete
    /// URL by itself in both engines. The model does not run code after a network answer (`modelOutcome: stuck`).
    public static func lateFlow(poll: String, pending: Int) -> String {
        """
        pages:
          - url: https://shop.example.com/pay
            body: "<p>Waiting for your bank</p><script>\(poll)</script>"
          - url: https://shop.example.com/status
            responses:
        \(String(repeating: "      - body: '{\"done\": false}'\n", count: pending))      - body: '{"done": true}'
        expect: {outcome: complete, hops: 2, modelOutcome: stuck}
        """
    }
}
