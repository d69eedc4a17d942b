import Testing
import TestSupport
@testable import FlowSimulator

/// A `setTimeout(…, N)` navigation waits N ms on the simulated clock, so a sooner refresh wins (as in a browser).
@Suite struct TimerOrderTests {
    static func run(_ body: String) throws -> String {
        try ShopFlow.outcome(
            """
            pages:
              - url: https://shop.example.com/pay
                body: "\(body)"
            """)
    }

    @Test func aRefreshSoonerThanTheTimerWins() throws {
        #expect(
            try Self.run(
                "<meta http-equiv=refresh content='2;url=/complete'><script>setTimeout(function(){ location = '/cancel' }, 8000)</script>"
            ) == "complete")
    }

    @Test func aTimerSoonerThanTheRefreshWins() throws {
        #expect(
            try Self.run(
                "<meta http-equiv=refresh content='9;url=/complete'><script>setTimeout(function(){ location = '/cancel' }, 500)</script>"
            ) == "canceled")
    }
}

/// Inline scripts and the forms they submit run while the page parses, before `onload`: the first automatic
/// navigation is the parse-time one (what WebKit and Chromium start first).
@Suite struct ParseOrderTests {
    @Test func aFormSubmittedByAnInlineScriptGoesBeforeTheOnloadNavigation() throws {
        #expect(
            try TimerOrderTests.run(
                "<body onload=\\\"location='/cancel'\\\"><form action=/complete></form><script>document.forms[0].submit()</script>"
            ) == "complete")
    }

    @Test func anOnloadSubmitStillWaitsForAnInlineNavigation() throws {
        #expect(
            try TimerOrderTests.run(
                "<body onload=\\\"document.forms[0].submit()\\\"><form action=/complete></form><script>location = '/cancel'</script>"
            ) == "canceled")
    }
}
