// What a simulated app does next, resolved against the URL it was launched with: the simulator's reading of an
// app's `behaviour` (the value is PlainviewConfig's AppBehaviour).
import PlainviewURL
import AppSwitch
import NavigationPolicy
import PlainviewConfig
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension AppBehaviour {
    /// What an app does next, resolved against its launch URL.
    public enum Resolution: Sendable, Hashable {
        case previousApp
        case open(url: String)
        /// The app cannot return: the reason says why (e.g. the parameter is missing).
        case stuck(reason: String)
        /// The app failed or waits: nothing happens.
        case stays(reason: String)
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
                return nullMeansPrevious
                    ? .previousApp
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
    public static func queryValue(_ name: String, in url: String) -> String? { URLTools.queryValue(name, in: url) }
}
