import Foundation
import Testing
import TestSupport

@testable import FlowSimulator

/// `type: {field, text}`: the user types into a form field by its name, on the page or in a frame, and the form
/// posts what was typed. SimulateEngineCLITests+Typing runs the same pages in both engines.
@Suite struct TypingTests {
    @Test func whatTheUserTypesIsWhatTheFormSends() throws {
        let flow = try ShopFlow.load(
            """
            pages:
              - url: https://shop.example.com/pay
                body: "<form action='https://shop.example.com/check'><input name='code'><button>Send</button></form>"
              - url: https://shop.example.com/check?code=49+28%2F17
                location: https://shop.example.com/complete
            steps:
              - type: {field: code, text: "49 28/17"}
              - tap: Send
            """)
        let report = Simulator.run(flow).branches[0]
        #expect(report.outcome.kind == .complete, "\(report.outcome)")
        let texts = report.events.map(\.text)
        #expect(texts.contains { $0.contains("GET https://shop.example.com/check?code=49+28%2F17") }, "\(texts)")
        // The trace names the field, not what was typed.
        #expect(texts.contains { $0.contains("type into 'code'") }, "\(texts)")
        #expect(!texts.contains { $0.contains("user") && $0.contains("49 28/17") }, "\(texts)")
    }

    @Test func aFieldInAFrameIsFound() throws {
        let flow = try ShopFlow.load(
            """
            pages:
              - url: https://shop.example.com/pay
                body: "<iframe src='https://acs.bank.example/otp'></iframe>"
              - url: https://acs.bank.example/otp
                body: "<form method='get' action='https://acs.bank.example/check'><input name='otp'><button>Confirm</button></form>"
              - url: https://acs.bank.example/check?otp=492817
                body: "<a href='https://shop.example.com/complete' target='_top'>Back to the shop</a>"
            steps:
              - type: {field: otp, text: "492817"}
              - tap: Confirm
              - tap: Back to the shop
            """)
        let report = Simulator.run(flow).branches[0]
        #expect(report.outcome.kind == .complete, "\(report.outcome)")
    }

    @Test func aFieldThatIsNotThereEndsTheRunNamingTheFieldsThereAre() throws {
        let flow = try ShopFlow.load(
            """
            pages:
              - url: https://shop.example.com/pay
                body: "<form action='/x'><input name='pan'><input name='cvc'></form>"
            steps:
              - type: {field: otp, text: "1"}
            """)
        let report = Simulator.run(flow).branches[0]
        #expect(report.outcome.kind == .stuck)
        #expect(
            report.outcome.reason
                == "step 1 (type into 'otp'): no form field of that name on https://shop.example.com/pay; its fields: pan, cvc",
            "\(report.outcome)")
    }

    @Test(arguments: [
        ("type: {field: otp}", "text"),
        ("type: {text: x}", "field"),
        ("type: {field: '', text: x}", "field: expected the form field's name attribute"),
        ("type: {field: a, text: b, extra: c}", "extra"),
    ])
    func aTypeStepNeedsAFieldAndAText(step: String, message: String) {
        #expect {
            _ = try FlowLoader.step(step, name: "--step 1")
        } throws: { error in
            "\(error)".contains(message)
        }
    }
}
