@testable import NavigationPolicy
import Testing
@testable import FlowSimulator
import PlainviewConfig

/// A decider for world-only tests: web pages load, completeUrl completes, everything else as the table says.
/// (Flows always run on NavigationPolicyEngine; these tests check the world's own mechanics.)
struct TableDecider: NavigationDeciding {
    /// The table answers the host app's receiving too.
    func decideReceived(_ navigation: Navigation) -> Decision? { decide(navigation) }

    var table: [String: NavigationAction] = [:]
    func decide(_ n: Navigation) -> Decision {
        if let a = table[n.url] { return Decision(a, rule: RuleID("table"), reason: "test table") }
        if n.url.hasSuffix("/complete") { return Decision(.complete, rule: RuleID("table"), reason: "complete") }
        if n.url.hasSuffix("/cancel") { return Decision(.canceled, rule: RuleID("table"), reason: "cancel") }
        return Decision(.allow, rule: RuleID("table"), reason: "web")
    }
}

/// The environment of these tests: a host app and a bank app with a custom scheme.
struct TestApps: SystemServices {
    func universalLinkApp(for url: String) -> String? { url.hasPrefix("https://app.bank.example/") ? "Bank" : nil }
    func appLinkApp(for url: String) -> String? { nil }
    func customSchemeApp(for scheme: String) -> String? { scheme == "bankapp" ? "Bank" : (scheme == "shopapp" ? "Shop" : nil) }
    func intentApp(for intent: AndroidIntent) -> String? { intent.package == "com.example.shop" ? "Shop" : nil }
}

func testFlow(
    _ pages: [RecordedPage], steps: [FlowStep] = [], platform: Platform = .ios, apps: [String: AppBehaviour] = [:],
    limits: Limits = Limits(), assumptions: Assumptions = Assumptions()
) -> Flow {
    let policy = Policy(
        platform: platform, paymentURL: "https://shop.example.com/pay", completeURL: "https://shop.example.com/complete",
        cancelURL: "https://shop.example.com/cancel", callbackScheme: "shopapp")
    return Flow(
        name: "t", policy: policy, system: TestApps(), apps: apps, hostApp: "Shop", start: "https://shop.example.com/start",
        pages: pages, steps: steps, assumptions: assumptions, limits: limits)
}

func redirect(
    _ from: String, _ to: String, status: Int = 302, method: String? = nil, in context: PageContext? = nil,
    setCookie: String? = nil
) -> RecordedPage {
    var headers = [RecordedResponse.Header("Location", to)]
    if let setCookie { headers.append(.init("Set-Cookie", setCookie)) }
    return RecordedPage(
        url: from, method: method, context: context, responses: [RecordedResponse(status: status, headers: headers)])
}

func page(_ url: String, headers: [RecordedResponse.Header] = [], in context: PageContext? = nil, requireCookie: String? = nil)
    -> RecordedPage
{
    RecordedPage(
        url: url, context: context,
        responses: [RecordedResponse(status: 200, headers: headers, html: "<html><body>ok</body></html>")],
        requireCookie: requireCookie)
}

func runWorld(_ flow: Flow, table: [String: NavigationAction] = [:], script: [ChoiceKey: Int] = [:], exploring: Bool = false)
    -> (SimulationReport, [ChoicePoint])
{
    Simulator.runBranchWithPoints(flow, script: script, exploring: exploring, decider: { _ in TableDecider(table: table) })
}

@Suite struct WorldTests {
    @Test func redirectsAreFollowedAndEachIsAskedToThePolicy() {
        let flow = testFlow([
            redirect("https://shop.example.com/start", "/a"),
            redirect("https://shop.example.com/a", "https://shop.example.com/complete"),
        ])
        let (r, _) = runWorld(flow)
        #expect(r.outcome.kind == .complete)
        let asked = r.events.filter { $0.event == .navigate }.map { $0.trigger }
        #expect(asked == ["app-load", "redirect", "redirect"])
        #expect(r.navigationCount == 3)
    }

    @Test func a303TurnsPostIntoGetAnd307KeepsIt() {
        var flow = testFlow([
            redirect("https://shop.example.com/start", "https://shop.example.com/form", status: 307),
            redirect("https://shop.example.com/form", "https://shop.example.com/complete", method: "GET"),
        ])
        // The start is a GET; the 307 keeps GET, so the GET-only page matches.
        #expect(runWorld(flow).0.outcome.kind == .complete)
        flow.pages[1].method = "POST"
        let (r, _) = runWorld(flow)
        #expect(r.outcome.kind == .error)
        #expect(r.outcome.reason.contains("no recorded response for GET https://shop.example.com/form"))
    }

    @Test func anUnrecordedURLIsAnErrorNamingIt() {
        let (r, _) = runWorld(testFlow([redirect("https://shop.example.com/start", "https://nowhere.example/x")]))
        #expect(r.outcome.kind == .error)
        #expect(r.outcome.place == "webview")
        #expect(r.outcome.reason == "no recorded response for GET https://nowhere.example/x (in the web view)")
    }

    @Test func aRedirectCycleIsALoop() {
        let flow = testFlow([
            redirect("https://shop.example.com/start", "https://shop.example.com/a"),
            redirect("https://shop.example.com/a", "https://shop.example.com/b"),
            redirect("https://shop.example.com/b", "https://shop.example.com/a"),
        ])
        let (r, _) = runWorld(flow)
        #expect(r.outcome.kind == .loop)
    }

    @Test func aRefreshToItselfIsStoppedByTheRepeatBound() {
        let flow = testFlow(
            [page("https://shop.example.com/start", headers: [.init("Refresh", "1")])], limits: Limits(repeats: 4))
        let (r, _) = runWorld(flow)
        #expect(r.outcome.kind == .loop)
        #expect(r.outcome.reason.contains("loaded 5 times by itself"))
        // Virtual time advanced one second per refresh; no real clock was used.
        #expect(r.virtualTime >= 4000)
    }

    @Test func theStepBoundStopsARunThatNeverEnds() {
        let flow = testFlow(
            [page("https://shop.example.com/start", headers: [.init("Refresh", "0")])], limits: Limits(steps: 30, repeats: 10_000)
        )
        let (r, _) = runWorld(flow)
        #expect(r.outcome.kind == .loop)
        #expect(r.outcome.reason.contains("step bound"))
    }

    @Test func responsesAreServedInOrderAndTheLastRepeats() {
        var network = Network(pages: [
            RecordedPage(
                url: "https://a.example/",
                responses: [
                    RecordedResponse(status: 200), RecordedResponse(status: 201),
                ])
        ])
        let statuses = (0..<3).map { _ -> Int in
            if case .response(let r, _) = network.fetch(
                "https://A.example:443", method: "GET", context: .webview, jar: CookieJar())
            {
                return r.status
            }
            return 0
        }
        #expect(statuses == [200, 201, 201])
    }

    @Test func theMostSpecificRecordedPageWins() {
        let network = Network(pages: [
            RecordedPage(url: "https://a.example/p", responses: [RecordedResponse(status: 200)]),
            RecordedPage(url: "https://a.example/p", context: .browser, responses: [RecordedResponse(status: 301)]),
            RecordedPage(url: "https://a.example/p", method: "POST", responses: [RecordedResponse(status: 303)]),
        ])
        #expect(network.index(for: "https://a.example/p", method: "GET", context: .webview) == 0)
        #expect(network.index(for: "https://a.example/p", method: "GET", context: .browser) == 1)
        #expect(network.index(for: "https://a.example/p", method: "POST", context: .webview) == 2)
        #expect(network.index(for: "https://a.example/p?x=1", method: "GET", context: .webview) == nil)
    }

    @Test func cookieJarsMatchDomainsOnLabelBoundaries() {
        var jar = CookieJar()
        jar.set("sid=1; Domain=.bank.example; Path=/", from: "https://acs.bank.example/x")
        #expect(jar.satisfies("sid", for: "https://www.bank.example/"))
        #expect(jar.satisfies("sid=1", for: "https://bank.example/"))
        #expect(!jar.satisfies("sid=2", for: "https://bank.example/"))
        #expect(!jar.satisfies("sid", for: "https://evilbank.example/"))
        // A server cannot set a cookie for a domain it is not in.
        jar.set("x=1; Domain=other.example", from: "https://acs.bank.example/")
        #expect(!jar.satisfies("x", for: "https://other.example/"))
        #expect(jar.satisfies("x", for: "https://acs.bank.example/"))
    }

    @Test func aCookieSetInTheWebViewIsMissingInTheBrowser() {
        // The web view gets the cookie; the policy sends the next page to the browser, which lacks it.
        let flow = testFlow([
            redirect("https://shop.example.com/start", "https://acs.bank.example/session"),
            redirect("https://acs.bank.example/session", "https://acs.bank.example/next", setCookie: "sid=1; Path=/"),
            page("https://acs.bank.example/next", requireCookie: "sid"),
        ])
        let (r, _) = runWorld(
            flow, table: ["https://acs.bank.example/next": .openBrowser(target: "https://acs.bank.example/next")])
        #expect(r.outcome.kind == .stuck)
        #expect(r.outcome.place == "browser")
        #expect(r.outcome.reason.contains("cookie 'sid' was set in the web view"))
    }

    @Test func anAppReturnsThroughItsCallbackAndTheHostReloads() {
        let apps = ["Bank": AppBehaviour(returnTo: .queryParameter("return", nullMeansPrevious: false))]
        let flow = testFlow(
            [
                RecordedPage(
                    url: "https://shop.example.com/start",
                    responses: [
                        RecordedResponse(
                            status: 302,
                            headers: [.init("Location", "bankapp://pay?return=shopapp%3A%2F%2Fshop.example.com%2Fpay")]),
                        RecordedResponse(status: 302, headers: [.init("Location", "https://shop.example.com/complete")]),
                    ])
            ], apps: apps)
        let table: [String: NavigationAction] = [
            "bankapp://pay?return=shopapp%3A%2F%2Fshop.example.com%2Fpay": .openApp(
                target: "bankapp://pay?return=shopapp%3A%2F%2Fshop.example.com%2Fpay", via: .customScheme),
            "shopapp://shop.example.com/pay": .reload(target: "https://shop.example.com/start"),
        ]
        let (r, _) = runWorld(flow, table: table)
        #expect(r.outcome.kind == .complete, "\(r.outcome)")
        #expect(r.appsOpened == ["Bank", "Shop"])
        let kinds = r.events.map(\.event)
        #expect(kinds.contains(.launch) && kinds.contains(.return) && kinds.contains(.receive))
    }

    @Test func anAppStepOverridesTheBehaviour() {
        let apps = ["Bank": AppBehaviour(returnTo: .previousApp)]
        let flow = testFlow(
            [redirect("https://shop.example.com/start", "bankapp://pay")], steps: [.app(name: "Bank", outcome: .fail)], apps: apps
        )
        let (r, _) = runWorld(flow, table: ["bankapp://pay": .openApp(target: "bankapp://pay", via: .customScheme)])
        #expect(r.outcome == Outcome(.stuck, place: "app Bank", reason: "Bank failed"))
    }

    @Test func aBlockedNavigationLeavesTheFlowStuckWithTheRule() {
        let flow = testFlow([redirect("https://shop.example.com/start", "javascript:alert(1)")])
        let (r, _) = runWorld(flow, table: ["javascript:alert(1)": .block])
        #expect(r.outcome.kind == .stuck)
        #expect(r.outcome.reason.contains("blocked javascript:alert(1)"))
    }

    @Test func exploreBranchesOnInstalledAppsAndUniversalLinks() {
        // The host hands the bank's page to the OS, which tries the universal link: Bank installed or not, link works or not.
        let apps = ["Bank": AppBehaviour(returnTo: .previousApp)]
        let flow = testFlow(
            [
                redirect("https://shop.example.com/start", "https://app.bank.example/x"),
                page("https://app.bank.example/x", in: .browser),
            ], apps: apps)
        let table: [String: NavigationAction] = ["https://app.bank.example/x": .openBrowser(target: "https://app.bank.example/x")]
        let result = Simulator.explore(flow, decider: { _ in TableDecider(table: table) })
        #expect(
            result.branches.map(\.branch).sorted() == [
                "app-missing:Bank", "default", "host-killed", "universal-link-fails:app.bank.example",
            ])
    }

    @Test func theExploreBoundCutsTheTreeAndSaysSo() {
        var flow = testFlow(
            [
                redirect("https://shop.example.com/start", "https://app.bank.example/x"),
                page("https://app.bank.example/x", in: .browser),
            ], apps: ["Bank": AppBehaviour()])
        flow.limits.branches = 1
        flow.expect.everyBranch = .stuck
        let table: [String: NavigationAction] = ["https://app.bank.example/x": .openBrowser(target: "https://app.bank.example/x")]
        let result = Simulator.explore(flow, decider: { _ in TableDecider(table: table) })
        #expect(result.truncated)
        #expect(result.branches.count == 1)
        #expect(!result.passed)
    }

    @Test func theRunIsDeterministic() {
        let flow = testFlow([
            redirect("https://shop.example.com/start", "https://shop.example.com/a"),
            page("https://shop.example.com/a", headers: [.init("Refresh", "2; url=/complete")]),
        ])
        let a = runWorld(flow).0, b = runWorld(flow).0
        #expect(a.events == b.events)
        #expect(a.outcome.kind == .complete)
        #expect(a.virtualTime >= 2000)
    }
}

@Suite struct BranchMatchingTests {
    @Test(arguments: [
        (["prompt-declined"], ["prompt-declined:Shop"], true),
        (["prompt-declined:Shop"], ["prompt-declined:Shop"], true),
        (["prompt-declined:Bank"], ["prompt-declined:Shop"], false),
        (["universal-link-fails", "universal-link-fails"], ["universal-link-fails:a.example"], false),
        (
            ["universal-link-fails", "universal-link-fails"],
            ["universal-link-fails:a.example", "universal-link-fails:a.example"], true
        ),
        (["app-missing"], [], false),
    ])
    func allowancesNeedADistinctChoicePerLabel(_ when: [String], _ choices: [String], _ expected: Bool) {
        #expect(Simulator.matches(when, choices) == expected)
    }
}
