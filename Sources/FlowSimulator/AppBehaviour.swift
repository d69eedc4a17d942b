// What a simulated app does when the OS opens it with a URL: the simulator's part of an environment file,
// decoded from each app's `behaviour` key. Pure value type; the simulator executes it.
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
//     model: roampay-x                    # a built-in app (swish | bankid | roampay-x): fills in its schemes,
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

    /// What an app does next, resolved against its launch URL.
    public enum Resolution: Sendable, Hashable {
        case previousApp
        case open(url: String)
        /// The app cannot return: the reason says why (e.g. the parameter is missing).
        case stuck(reason: String)
        /// The app failed or waits: nothing happens.
        case stays(reason: String)
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

    public init(host: Bool = false, then: Outcome = .complete, returnTo: Return = .previousApp,
                cancelReturnTo: Return? = nil, model: KnownApp? = nil, failure: ROAMpayOutcome? = nil) {
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

    /// Reads a `model:` value: `swish`, `bankid`, `roampay-x` (or `roampay`), any case.
    public static func knownApp(_ text: String) -> KnownApp? {
        let t = text.lowercased()
        return t == "roampay" ? .roampayX : KnownApp(rawValue: t)
    }

    /// What the app does after the user's `outcome`, for an app launched with `launchURL`.
    public func resolve(_ outcome: Outcome, launchURL: String) -> Resolution {
        // ROAMpay X reports every outcome, failures included, through hostURL (the ROAMpay X universal link guide response codes).
        if outcome != .wait, let r = roampayReturn(outcome, launchURL: launchURL) { return r }
        switch outcome {
        case .fail: return .stays(reason: "the app failed")
        case .wait: return .stays(reason: "the app waits for the user")
        case .complete: return Self.resolve(returnTo, launchURL: launchURL)
        case .cancel: return Self.resolve(cancelReturnTo ?? returnTo, launchURL: launchURL)
        }
    }

    /// For a ROAMpay X app returning through its protocol: `hostURL?transactionResponse=<base64 JSON>` made by
    /// `ROAMpayResponse.make` for the outcome. nil when this app does not return the ROAMpay X way.
    private func roampayReturn(_ outcome: Outcome, launchURL: String) -> Resolution? {
        let route = outcome == .cancel ? (cancelReturnTo ?? returnTo) : returnTo
        guard route == .appSwitchProtocol, let rpx = roampayOutcome(for: outcome) else { return nil }
        let request: ROAMpayRequest
        do {
            request = try ROAMpayRequest.parse(launchURL)
        } catch {
            // Only the ROAMpay X model insists on its own launch URL; a generic `returnTo: protocol` app falls
            // back to the other protocols.
            return model == .roampayX ? .stuck(reason: "the launch URL is not a valid ROAMpay X request: \(error)") : nil
        }
        do {
            return .open(url: try ROAMpayResponse.make(hostURL: request.hostURL, outcome: rpx))
        } catch {
            return .stuck(reason: "cannot return to hostURL '\(request.hostURL)': \(error)")
        }
    }

    static func resolve(_ r: Return, launchURL: String) -> Resolution {
        switch r {
        case .previousApp: return .previousApp
        case .url(let u): return .open(url: u)
        case .queryParameter(let name, let nullMeansPrevious):
            guard let value = Self.queryValue(name, in: launchURL) else {
                return .stuck(reason: "the launch URL has no '\(name)' query parameter to return to")
            }
            if value.isEmpty || value == "null" {
                return nullMeansPrevious ? .previousApp
                    : .stuck(reason: "the launch URL's '\(name)' parameter is empty")
            }
            return .open(url: value)
        case .appSwitchProtocol:
            let message: AppSwitchMessage
            do {
                message = try AppSwitchMessage.parse(launchURL)
            } catch {
                return .stuck(reason: "the launch URL is not a valid app-switch request: \(error)")
            }
            switch message.whenDone {
            case .url(let u)?: return .open(url: u)
            case .previousApp?: return .previousApp
            case .none?, nil: return .stuck(reason: "the launch URL gives no address to return to")
            }
        }
    }

    /// The percent-decoded value of the first query item `name` of `url` (nil when absent or undecodable).
    public static func queryValue(_ name: String, in url: String) -> String? {
        guard let query = WebURL(url)?.query else { return nil }
        for item in query.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let key = percentDecode(parts[0]), key == name else { continue }
            return parts.count > 1 ? percentDecode(parts[1]) : ""
        }
        return nil
    }

    /// Decodes `%XX` escapes (UTF-8); nil on a malformed escape or invalid UTF-8.
    static func percentDecode(_ s: Substring) -> String? { PercentEncoding.decodeComponent(s) }
}
