import AppSwitch
import FlowSimulator
import Foundation
import NavigationPolicy
import Testing
import PlainviewConfig

@Suite struct AppBehaviourTests {
    struct Case: Sendable, CustomStringConvertible {
        var returnTo: AppBehaviour.Return
        var launch: String
        var expected: AppBehaviour.Resolution
        var description: String { "\(returnTo) ← \(launch)" }
    }

    static let cases: [Case] = [
        // Swish (Swish's merchant app-switch guide §5.2): the URL-encoded callbackurl is decoded once and opened.
        Case(
            returnTo: .queryParameter("callbackurl", nullMeansPrevious: false),
            launch: "swish://paymentrequest?token=abc&callbackurl=https%3A%2F%2Fshop.example.com%2Fpay%3Fid%3D1",
            expected: .open(url: "https://shop.example.com/pay?id=1")),
        // BankID: redirect=null means "back to the previous app".
        Case(
            returnTo: .queryParameter("redirect", nullMeansPrevious: true),
            launch: "bankid:///?autostarttoken=x&redirect=null", expected: .previousApp),
        Case(
            returnTo: .queryParameter("redirect", nullMeansPrevious: false),
            launch: "bankid:///?autostarttoken=x&redirect=null",
            expected: .stuck(reason: "the launch URL's 'redirect' parameter is empty")),
        Case(
            returnTo: .queryParameter("callbackurl", nullMeansPrevious: false), launch: "swish://paymentrequest?token=abc",
            expected: .stuck(reason: "the launch URL has no 'callbackurl' query parameter to return to")),
        // A malformed escape is not a URL to open.
        Case(
            returnTo: .queryParameter("callbackurl", nullMeansPrevious: false), launch: "swish://p?callbackurl=%zz",
            expected: .stuck(reason: "the launch URL has no 'callbackurl' query parameter to return to")),
        Case(
            returnTo: .url("https://shop.example.com/back"), launch: "bankapp://x",
            expected: .open(url: "https://shop.example.com/back")),
        Case(returnTo: .previousApp, launch: "bankapp://x", expected: .previousApp),
        // The app-switch protocol parsers decide: Swish's callbackurl, BankID's redirect.
        Case(
            returnTo: .appSwitchProtocol,
            launch: "swish://paymentrequest?token=c28a4061470f4af48973bd2a4642b4fa&callbackurl=shopapp%3A%2F%2Fdone",
            expected: .open(url: "shopapp://done")),
        Case(
            returnTo: .appSwitchProtocol,
            launch: "https://app.bankid.com/?autostarttoken=5c2a8e4f-0b7d-4c7e-9d1a-2f6b3e8c9a01&redirect=null",
            expected: .previousApp),
    ]

    @Test(arguments: cases)
    func completeReturnsWhereTheBehaviourSays(_ c: Case) {
        let b = AppBehaviour(then: .complete, returnTo: c.returnTo)
        #expect(b.resolve(.complete, launchURL: c.launch) == c.expected)
    }

    @Test func cancelUsesCancelReturnToWhenGiven() {
        let b = AppBehaviour(returnTo: .url("https://a.example/ok"), cancelReturnTo: .previousApp)
        #expect(b.resolve(.cancel, launchURL: "x://") == .previousApp)
        #expect(b.resolve(.complete, launchURL: "x://") == .open(url: "https://a.example/ok"))
        #expect(
            AppBehaviour(returnTo: .url("https://a.example/ok")).resolve(.cancel, launchURL: "x://")
                == .open(url: "https://a.example/ok"))
    }

    @Test func failAndWaitStay() {
        let b = AppBehaviour()
        #expect(b.resolve(.fail, launchURL: "x://") == .stays(reason: "the app failed"))
        #expect(b.resolve(.wait, launchURL: "x://") == .stays(reason: "the app waits for the user"))
    }

    @Test func protocolReturnOfAnUnknownURLIsStuckNotACrash() {
        guard case .stuck = AppBehaviour(returnTo: .appSwitchProtocol).resolve(.complete, launchURL: "bankapp://whatever") else {
            Issue.record("expected stuck")
            return
        }
    }

    /// The behaviour of app A in a flow whose inline environment gives it `yaml` (indented under `behaviour:`).
    static func behaviour(_ yaml: String) throws(ConfigError) -> AppBehaviour? {
        let indented = yaml.split(separator: "\n").map { "        " + $0 }.joined(separator: "\n")
        let flow = try FlowLoader.parse(
            """
            policy: {paymentUrl: https://s.example/pay, completeUrl: https://s.example/c, cancelUrl: https://s.example/x}
            environment:
              apps:
                - name: A
                  schemes: [aapp]
                  behaviour:
            \(indented)
            """, file: "flow.yaml", folder: "/nonexistent")
        return flow.apps["A"]
    }

    @Test func decodesTheEnvironmentShape() throws {
        let b = try Self.behaviour(
            """
            then: cancel
            returnTo: {queryParameter: redirect, nullMeansPrevious: true}
            cancelReturnTo: previous
            """)
        #expect(
            b
                == AppBehaviour(
                    then: .cancel, returnTo: .queryParameter("redirect", nullMeansPrevious: true), cancelReturnTo: .previousApp))
        let p = try Self.behaviour("returnTo: protocol")
        #expect(p?.returnTo == .appSwitchProtocol && p?.then == .complete)
        let host = try Self.behaviour("host: true")
        #expect(host?.host == true && host?.then == .wait)
    }

    @Test(arguments: [
        ("thn: complete", "environment.apps[0].behaviour.thn", "unknown key 'thn'"),
        ("returnTo: back", "environment.apps[0].behaviour.returnTo", "expected previous, protocol"),
        (
            "returnTo: {url: 'https://x.example/', extra: 1}", "environment.apps[0].behaviour.returnTo.extra",
            "unknown key 'extra'"
        ),
        ("then: maybe", "environment.apps[0].behaviour.then", "expected complete, cancel, fail or wait"),
    ])
    func rejectsUnknownKeysAndValues(_ yaml: String, _ key: String, _ message: String) {
        do {
            _ = try Self.behaviour(yaml)
            Issue.record("accepted \(yaml)")
        } catch {
            #expect(error.file == "flow.yaml")
            #expect(error.line == 7, "\(error)")
            #expect(error.key == key, "\(error)")
            #expect(error.message.contains(message), "\(error)")
        }
    }
}
