// What a simulated app does when the OS opens it with a URL: the simulator's part of an environment file,
// decoded from each app's `behaviour` key (AppBehaviour+Config.swift). A pure value type, read here so that every
// command reads an environment file alike; the simulator executes it (FlowSimulator's AppBehaviour+Resolution.swift).
//
//   behaviour:
//     then: complete                      # complete | cancel | fail | wait (what the user does in the app)
//     returnTo: {queryParameter: callbackurl}   # Swish: return via the launch URL's `callbackurl`
//     # returnTo: {queryParameter: redirect, nullMeansPrevious: true}   # BankID: `redirect=null` = previous app
//     # returnTo: {url: "https://shop.example.com/pay?order=1"}          # a fixed URL
//     # returnTo: previous                                               # back to the app that opened it
//     # returnTo: protocol                  # as the launch URL's app-switch protocol says (Swish, BankID, ROAMpay X)
//     cancelReturnTo: previous            # optional: where a cancel returns (default: returnTo)
//     host: true                          # this is the app that embeds the web view (the merchant app)
//     model: roampay-x                    # a built-in app (swish | bankid | roampay-x | vipps-mobilepay): fills in its schemes,
//                                         # universal links and package, and returns through its protocol
//     failure: reader-battery-low         # ROAMpay X: the documented failure `then: fail` reports (default unknown-error)
import PlainviewURL
import AppSwitch
import NavigationPolicy
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// How an installed app behaves when opened, in the simulated world.
public struct AppBehaviour: Sendable, Hashable {
    /// What the user does in the app when nothing else is said (a flow step `app: NAME …` overrides it).
    public enum Outcome: String, Sendable, Hashable, CaseIterable {
        /// The user finishes (signs, pays); the app returns.
        case complete
        /// The user cancels in the app; the app returns (to `cancelReturnTo`, else `returnTo`).
        case cancel
        /// The app shows an error and stays: the flow is stuck in it.
        case fail
        /// The app waits for a flow step to say what the user does.
        case wait
    }

    /// Where the app goes when it is done.
    public enum Return: Sendable, Hashable {
        /// Back to the app that opened it (the OS "back" to the previous app).
        case previousApp
        /// Opens a fixed URL through the OS.
        case url(String)
        /// Opens the URL found in this query parameter of the launch URL (percent-decoded), e.g. Swish's
        /// `callbackurl` or BankID's `redirect`. With `nullMeansPrevious`, the value `null` (or an empty value)
        /// means "back to the previous app", as BankID documents it.
        case queryParameter(String, nullMeansPrevious: Bool)
        /// Where the app-switch protocol of the launch URL says (Swish `callbackurl`, BankID `redirect`,
        /// ROAMpay X `hostURL`), read by `AppSwitchMessage.parse(_:).whenDone`.
        case appSwitchProtocol
    }

    /// True for the merchant app that embeds the web view: a URL it receives is checked by the policy
    /// and the payment page is reloaded.
    public var host: Bool
    public var then: Outcome
    public var returnTo: Return
    public var cancelReturnTo: Return?
    /// A built-in model of an app-switch app (Swish, BankID, ROAMpay X): it returns through its protocol's own
    /// callback (Swish `callbackurl`, BankID `redirect`, ROAMpay X `hostURL?transactionResponse=…`), and the
    /// environment fills in its schemes, universal links and package (`Environment.App.withModelDefaults()`).
    public var model: KnownApp?
    /// ROAMpay X: the documented failure `fail` reports through `hostURL` (default `unknown-error`, 4999).
    public var failure: ROAMpayOutcome?

    public init(
        host: Bool = false, then: Outcome = .complete, returnTo: Return = .previousApp,
        cancelReturnTo: Return? = nil, model: KnownApp? = nil, failure: ROAMpayOutcome? = nil
    ) {
        self.host = host
        self.then = then
        self.returnTo = returnTo
        self.cancelReturnTo = cancelReturnTo
        self.model = model
        self.failure = failure
    }

    /// A built-in app model: returns through its protocol (`returnTo: protocol`), completing by default.
    public static func builtIn(_ model: KnownApp, then: Outcome = .complete, failure: ROAMpayOutcome? = nil) -> AppBehaviour {
        AppBehaviour(then: then, returnTo: .appSwitchProtocol, model: model, failure: failure)
    }

    /// The ROAMpay X outcome an app outcome reports: complete → approved, cancel → 4945 cancelled by user,
    /// fail → `failure` (default 4999 unknown error); nil for `wait`.
    public func roampayOutcome(for outcome: Outcome) -> ROAMpayOutcome? {
        switch outcome {
        case .complete: .approved
        case .cancel: .cancelledByUser
        case .fail: failure ?? .unknownError
        case .wait: nil
        }
    }

    /// The failures `failure:` accepts (the documented non-approved ROAMpay X codes, other than the user cancelling).
    public static let roampayFailures: [ROAMpayOutcome] = [.readerBatteryLow, .invalidSession, .unknownError, .invalidTenderType]

    /// Reads a `failure:` value: an outcome name (`reader-battery-low`) or its response code (`6010`).
    public static func roampayFailure(_ text: String) -> ROAMpayOutcome? {
        let all = roampayFailures + [.cancelledByUser]
        return all.first { $0.rawValue == text || $0.responseCode == text }
    }

    /// Reads a `model:` value: `swish`, `bankid`, `roampay-x` (or `roampay`), `vipps-mobilepay` (or `vipps`,
    /// `mobilepay`), any case.
    public static func knownApp(_ text: String) -> KnownApp? {
        switch text.lowercased() {
        case "roampay": .roampayX
        case "vipps", "mobilepay": .vippsMobilePay
        case let t: KnownApp(rawValue: t)
        }
    }
}
