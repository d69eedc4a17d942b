import Foundation
import NavigationPolicy
import Testing

@testable import FlowSimulator

/// User activation on the simulated clock: a tapped handler's later navigation (after its `setTimeout`, after an
/// awaited request) is the user's only while the tap's activation lasts (`UserActivation`).
@Suite struct UserActivationTests {
    /// A page whose button opens completeUrl in a new window from its click listener, `wait` later (`network`:
    /// after an awaited request instead of a timer). A window that no user opened is blocked by the popup blocker.
    static func run(platform: String, wait: Int, network: Bool = false, rule: String? = nil) throws -> SimulationReport {
        let open = "window.open('https://shop.example.com/complete')"
        let handler =
            network
            ? "async () => { await fetch('/state'); \(open) }" : "() => { setTimeout(() => { \(open) }, \(wait)) }"
        let flow = try ShopFlow.load(
            platform: platform,
            """
            environment:
              webView: {\(rule.map { "userActivation: \($0)" } ?? "")}
            pages:
              - url: https://shop.example.com/pay
                body: "<button>Go</button><script>document.querySelector('button').addEventListener('click', \(handler))</script>"
            steps:
              - tap: Go
            """)
        return Simulator.run(flow).branches[0]
    }

    @Test(
        arguments: [
            // platform, milliseconds, after a network answer, environment rule, the window opens
            ("ios", 0, false, nil, true),
            ("ios", 1_000, false, nil, true),
            ("ios", 1_001, false, nil, false),
            ("ios", 0, true, nil, false),
            ("android", 4_000, false, nil, true),
            ("android", 5_000, false, nil, true),
            ("android", 6_000, false, nil, false),
            ("android", 0, true, nil, true),
            // The environment changes the rule; a value it leaves out stays the platform's.
            ("ios", 2_500, false, "{lifespanMs: 3000}", true),
            ("ios", 0, true, "{survivesNetworkWait: true}", true),
            ("android", 0, true, "{survivesNetworkWait: false}", false),
            ("android", 1_500, false, "{lifespanMs: 1000}", false),
        ] as [(String, Int, Bool, String?, Bool)])
    func aLaterNavigationIsTheUsersOnlyWhileTheActivationLasts(
        platform: String, wait: Int, network: Bool, rule: String?, opens: Bool
    ) throws {
        let r = try Self.run(platform: platform, wait: wait, network: network, rule: rule)
        #expect((r.outcome.kind == .complete) == opens, "\(r.outcome)")
        if !opens {
            #expect(r.outcome.reason.contains("without the user's activation"), "\(r.outcome)")
            #expect(r.events.contains { ($0.reason ?? "").contains("popup blocked") })
        }
    }

    @Test func theReasonSaysWhichRuleEndedIt() throws {
        let late = try Self.run(platform: "ios", wait: 2_000)
        #expect(
            late.outcome.reason.contains("2000 ms after the tap, past WebKit's user activation of 1000 ms"), "\(late.outcome)")
        let fetched = try Self.run(platform: "ios", wait: 0, network: true)
        #expect(
            fetched.outcome.reason.contains("it waited on a network answer, and WebKit's user activation does not survive one"),
            "\(fetched.outcome)")
        let android = try Self.run(platform: "android", wait: 7_000)
        #expect(android.outcome.reason.contains("past Chromium's user activation of 5000 ms"), "\(android.outcome)")
    }

    /// A same-window web navigation in the web view does not need the activation: its loss is a note in the trace,
    /// not the reason a later stop is given.
    @Test func aLostActivationThatChangesNothingIsOnlyANote() throws {
        let flow = try ShopFlow.load(
            """
            pages:
              - url: https://shop.example.com/pay
                body: "<button>Go</button><script>document.querySelector('button').addEventListener('click', () => { setTimeout(() => { location.href = 'https://shop.example.com/next' }, 2000) })</script>"
              - url: https://shop.example.com/next
                body: "nothing to do here"
            steps:
              - tap: Go
            """)
        let r = Simulator.run(flow).branches[0]
        #expect(r.outcome.kind == .stuck, "\(r.outcome)")
        #expect(!r.outcome.reason.contains("without the user's activation"), "\(r.outcome)")
        #expect(r.events.contains { $0.event == .note && ($0.reason ?? "").contains("without the user's activation") })
    }

    @Test func aNegativeLifespanIsAnErrorNamingTheKey() throws {
        do {
            _ = try Self.run(platform: "ios", wait: 0, rule: "{lifespanMs: -5}")
            Issue.record("expected an error")
        } catch {
            #expect("\(error)".contains("lifespanMs"), "\(error)")
            #expect("\(error)".contains("expected milliseconds"), "\(error)")
        }
    }

    @Test func platformDefaults() {
        #expect(UserActivation.platformDefault(.ios) == UserActivation(lifespanMs: 1_000, survivesNetworkWait: false))
        #expect(UserActivation.platformDefault(.android) == UserActivation(lifespanMs: 5_000, survivesNetworkWait: true))
        #expect(
            UserActivation(lifespanMs: 200).resolved(for: .android) == UserActivation(lifespanMs: 200, survivesNetworkWait: true))
    }
}
