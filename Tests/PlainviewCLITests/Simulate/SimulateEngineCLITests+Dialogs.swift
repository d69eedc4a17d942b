import Foundation
import Testing
import TestSupport

/// JavaScript dialogs as the app handles them (`webView.dialogs`), navigations that wait on a network answer, and
/// jQuery on a page that loads none: the model, Chromium and WebKit say the same.
extension SimulateEngineCLITests {
    /// A payment page asking `confirm('Pay now?')`: OK completes, Cancel cancels.
    static func confirmFlow(_ dialogs: String?) throws -> URL {
        let expected = dialogs == "accept" ? "complete" : "canceled"
        return try Self.flow(
            "confirm-\(dialogs ?? "default")",
            """
            \(dialogs.map { "environment: {webView: {dialogs: \($0)}}" } ?? "")
            pages:
              - url: https://shop.example.com/pay
                body: "<script>if (confirm('Pay now?')) { location.href = 'https://shop.example.com/done'; } else { location.href = 'https://shop.example.com/cancel'; }</script>"
            expect: {outcome: \(expected)}
            """)
    }

    static func networkAndLibraryFlows() throws -> [URL] {
        [
            try Self.flow(
                "submit-after-fetch", platform: "android",
                """
                pages:
                  - url: https://shop.example.com/pay
                    body: "<form id=f method=post action='https://shop.example.com/done'></form><script>fetch('https://shop.example.com/status').then(function () { document.getElementById('f').submit(); });</script>"
                expect: {outcome: stuck}
                """),
            try Self.flow(
                "ready-without-jquery", platform: "android",
                """
                pages:
                  - url: https://shop.example.com/pay
                    body: "<script>$(document).ready(function () { location.href = 'https://shop.example.com/done'; }); location.href = 'https://shop.example.com/done';</script>"
                expect: {outcome: stuck}
                """),
        ]
    }

    @Test func theModelAnswersConfirmAsTheAppDoesAndSaysWhy() async throws {
        let flows = try [nil, "none", "accept", "dismiss"].map { try Self.confirmFlow($0) }
        let r = try await Self.cli(
            ["simulate", "--verbose"] + flows.map(\.path) + (try Self.networkAndLibraryFlows()).map(\.path))
        #expect(r.status == 0, "\(r)")
        #expect(r.stdout.contains("6 flows: 6 passed"), "\(r)")
        #expect(r.stdout.contains("the app shows no JavaScript dialogs (webView.dialogs: none"), "\(r)")
        #expect(r.stdout.contains("the user answers Cancel to confirm() (webView.dialogs: dismiss)"), "\(r)")
        #expect(r.stdout.contains("a script goes here only after a network answer"), "\(r)")
        #expect(r.stdout.contains("its scripts navigate only after a network answer, which the model does not run"), "\(r)")
    }

    @Test func anUnknownDialogsValueIsAnInputErrorNamingTheKey() async throws {
        let flow = try Self.confirmFlow("maybe")
        let r = try await Self.cli(["simulate", flow.path])
        #expect(r.status == 64, "\(r)")
        #expect(r.stderr.contains("flow.yaml:3"), "\(r)")
        #expect(r.stderr.contains("expected one of none, accept, dismiss, found 'maybe'"), "\(r)")
    }

    /// A Cancel link guarded by `onclick="return confirm(…)"`: followed only when the dialog answers OK.
    static func confirmLinkFlow(_ dialogs: String) throws -> URL {
        try Self.flow(
            "confirm-link-\(dialogs)",
            """
            environment: {webView: {dialogs: \(dialogs)}}
            pages:
              - url: https://shop.example.com/pay
                body: "<a href='https://shop.example.com/cancel' onclick=\\"return confirm('Cancel the payment?')\\">Cancel</a>"
            steps:
              - tap: Cancel
            expect: {outcome: \(dialogs == "accept" ? "canceled" : "stuck")}
            """)
    }

    @Test func bothEnginesAnswerDialogsAndWaitOnTheNetworkAsTheModelDoes() async throws {
        guard Self.present("chromium"), Self.present("webkit") else { return }
        let flows =
            try [nil, "accept", "dismiss"].map { try Self.confirmFlow($0) } + (try Self.networkAndLibraryFlows())
            + [try Self.confirmLinkFlow("none"), try Self.confirmLinkFlow("accept")]
        let started = Date()
        let r = try await Self.cli(["simulate", "--engine", "compare"] + flows.map(\.path), timeout: 300)
        #expect(r.status == 0, "\(r)")
        #expect(r.stdout.contains("compare: 7 flows, 0 differ (0 differences)"), "\(r)")
        for mode in ["model:", "chromium:", "webkit:"] { #expect(r.stdoutLines.contains(mode), "\(r)") }
        #expect(r.stdoutLines.filter { $0 == "7 flows: 7 passed, 0 failed" }.count == 3, "\(r)")
        // A tap whose dialog Chromium waits on is answered at once, not at the run's 60 s bound.
        #expect(Date().timeIntervalSince(started) < 60, "\(r)")
    }

    /// A page that clicks a link or a submit button from its scripts navigates without a gesture, as engines do:
    /// a link as a link, a button's form as a form, a `target=_blank` link into the popup blocker; a timer given
    /// code as a string runs it; a tapped `javascript:` link does what its code does.
    @Test func scriptClicksNavigateInEveryModeAlike() async throws {
        guard Self.present("chromium"), Self.present("webkit") else { return }
        let flows = [
            try Self.flow(
                "click-link-on-load",
                """
                pages:
                  - url: https://shop.example.com/pay
                    body: "<a id=go href='https://shop.example.com/next'>Continue</a><script>window.onload = function () { document.getElementById('go').click(); };</script>"
                  - url: https://shop.example.com/next
                    body: "<a id=fin href='/done'>Finish</a><script>document.querySelector('#fin').click()</script>"
                expect: {outcome: complete, hops: 3}
                """),
            try Self.flow(
                "click-submit-button", platform: "android",
                """
                pages:
                  - url: https://shop.example.com/pay
                    body: "<form method=post action='https://acs.bank.example/creq'><input type=hidden name=creq value=abc><button id=send>Send</button></form><script>document.getElementById('send').click();</script>"
                  - url: https://acs.bank.example/creq
                    method: POST
                    body: "<a href='https://shop.example.com/done'>Back</a>"
                steps:
                  - tap: Back
                expect: {outcome: complete}
                """),
            try Self.flow(
                "submit-in-timer-string", platform: "android",
                """
                pages:
                  - url: https://shop.example.com/pay
                    body: "<form id=f method=post action='https://acs.bank.example/creq'></form><script>window.setTimeout(\\"document.getElementById('f').submit()\\", 100);</script>"
                  - url: https://acs.bank.example/creq
                    method: POST
                    body: "<a href='https://shop.example.com/done'>Done</a>"
                steps:
                  - tap: Done
                expect: {outcome: complete}
                """),
            try Self.flow(
                "javascript-links",
                """
                pages:
                  - url: https://shop.example.com/pay
                    body: "<form method=post action='https://shop.example.com/next'></form><a href='javascript:void(0)'>Help</a><a href='javascript:document.forms[0].submit()'>Continue</a>"
                  - url: https://shop.example.com/next
                    method: POST
                    body: "<a href=\\"javascript:location.href='https://shop.example.com/done'\\">Finish</a>"
                steps:
                  - tap: Continue
                  - tap: Finish
                expect: {outcome: complete}
                """),
            try Self.flow(
                "click-blank-link",
                """
                pages:
                  - url: https://shop.example.com/pay
                    body: "<a id=go href='https://help.example.org/x' target=_blank>Help</a><script>document.getElementById('go').click();</script>"
                expect: {outcome: stuck}
                """),
        ]
        let r = try await Self.cli(["simulate", "--engine", "compare", "--verbose"] + flows.map(\.path), timeout: 300)
        #expect(r.status == 0, "\(r)")
        #expect(r.stdout.contains("compare: 5 flows, 0 differ (0 differences)"), "\(r)")
        #expect(r.stdout.components(separatedBy: "GET https://shop.example.com/next  [main, link]\n").count - 1 == 3, "\(r)")
        #expect(r.stdout.contains("popup blocked: https://help.example.org/x"), "\(r)")
    }
}
