@testable import AppSwitch
import Foundation
@testable import NavigationPolicy
@testable import PlainviewConfig
import Testing
import TestSupport
@testable import FlowSimulator

/// The built-in app models (`behaviour: {model: swish|bankid|roampay-x}`): what they register and how each
/// documented outcome returns through the protocol's own callback.
@Suite struct AppModelTests {
    static let paymentURL =
        "https://shop.example.com/swedbank-pay-mobile/sdk-callback/ios-universal-link?scheme=shopapp&language=en-US&id=7f3e9a&app=Shop"
    static func roampayLaunch(hostURL: String = paymentURL) throws -> String {
        try ROAMpayRequest(amount: "24900", authToken: "a1b2c3d4e5f6", hostURL: hostURL).url()
    }

    // MARK: the environment file

    @Test func aModelFillsInSchemesUniversalLinksAndPackage() throws {
        let loaded = try EnvironmentFile.parse(
            """
            apps:
              - {name: Swish, behaviour: {model: swish}}
              - {name: BankID, behaviour: {model: bankid, then: cancel}}
              - {name: RPX, behaviour: {model: roampay, failure: "6010"}}
              - {name: Custom, schemes: [myswish], behaviour: {model: swish}}
            """, behaviour: AppBehaviour.decode)
        let env = loaded.environment
        let apps = Dictionary(uniqueKeysWithValues: env.apps.map { ($0.name, $0) })
        #expect(apps["Swish"]?.schemes == ["swish"])
        #expect(apps["Swish"]?.package == "se.bankgirot.swish")
        #expect(loaded.behaviours["Swish"]?.returnTo == .appSwitchProtocol)
        #expect(apps["BankID"]?.schemes == ["bankid"])
        #expect(apps["BankID"]?.universalLinks.map(\.host) == ["app.bankid.com"])
        #expect(loaded.behaviours["BankID"]?.then == .cancel)
        #expect(apps["RPX"]?.universalLinks.map(\.host) == ["assets.roamdata.com"])
        #expect(apps["RPX"]?.appLinks.isEmpty == true) // iOS only
        #expect(loaded.behaviours["RPX"]?.failure == .readerBatteryLow)
        #expect(apps["Custom"]?.schemes == ["myswish"]) // what the file says wins
        // The OS routes the protocols' URLs to the models.
        let system = EnvironmentSystem(env)
        #expect(system.customSchemeApp(for: "swish") == "Swish")
        #expect(system.universalLinkApp(for: try Self.roampayLaunch()) == "RPX")
        #expect(system.universalLinkApp(for: "https://assets.roamdata.com/other") == nil)
    }

    @Test func decideReadsTheSameBehaviourAsSimulate() throws {
        let dir = try Project.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("env.yaml").path
        try "apps: [{name: RPX, behaviour: {model: roampay-x, failure: invalid-session}}]".write(
            toFile: path, atomically: true, encoding: .utf8)
        let env = try EnvironmentFile.device(path: path)
        #expect(env.apps.first?.model == .roampayX)
        #expect(env.apps.first?.universalLinks.first?.host == "assets.roamdata.com")
        try "apps: [{name: RPX, behaviour: {model: roampay-x, failur: invalid-session}}]".write(
            toFile: path, atomically: true, encoding: .utf8)
        #expect(throws: ConfigError.self) { _ = try EnvironmentFile.device(path: path) }
    }

    @Test(arguments: [
        ("{model: venmo}", "expected swish, bankid, roampay-x or vipps-mobilepay"),
        ("{model: roampay-x, failure: approved}", "expected reader-battery-low"),
        ("{model: swish, outcome: complete}", "unknown key 'outcome'"),
    ])
    func badModelsAreInputErrorsNamingTheKey(_ behaviour: String, _ message: String) {
        do {
            do {
                _ = try EnvironmentFile.parse(
                    "apps:\n  - name: X\n    behaviour: \(behaviour)\n", file: "env.yaml",
                    behaviour: AppBehaviour.decode)
                Issue.record("accepted \(behaviour)")
            } catch {
                #expect("\(error)".contains(message), "\(error)")
                #expect("\(error)".contains("env.yaml"), "\(error)")
            }
        }
    }

    // MARK: returning through the protocol

    @Test func swishReturnsToItsCallbackURLOnCompleteAndCancel() throws {
        let launch = try SwishLaunch(token: "c28a4061470f4af48973bd2a4642b4fa", callbackURL: Self.paymentURL).url
        let swish = AppBehaviour.builtIn(.swish)
        #expect(swish.resolve(.complete, launchURL: launch) == .open(url: Self.paymentURL))
        #expect(swish.resolve(.cancel, launchURL: launch) == .open(url: Self.paymentURL))
        #expect(swish.resolve(.fail, launchURL: launch) == .stays(reason: "the app failed"))
    }

    @Test func bankIDFollowsRedirectAndNullMeansThePreviousApp() throws {
        let bankID = AppBehaviour.builtIn(.bankID)
        #expect(
            bankID.resolve(.complete, launchURL: "bankid:///?autostarttoken=7c40b5c9-fa74-49cf-b98c-bfe651f9a7c6&redirect=null")
                == .previousApp)
        let launch = try BankIDLaunch(autoStartToken: "7c40b5c9-fa74-49cf-b98c-bfe651f9a7c6", redirect: .url(Self.paymentURL)).url
        #expect(bankID.resolve(.complete, launchURL: launch) == .open(url: Self.paymentURL))
    }

    /// Every documented ROAMpay X outcome returns `hostURL?transactionResponse=<base64 JSON>` that decodes to it.
    @Test(arguments: [
        (AppBehaviour.Outcome.complete, ROAMpayOutcome?.none, ROAMpayOutcome.approved, String?.none),
        (.cancel, nil, .cancelledByUser, "4945"),
        (.fail, .readerBatteryLow, .readerBatteryLow, "6010"),
        (.fail, .invalidSession, .invalidSession, "4995"),
        (.fail, nil, .unknownError, "4999"),
        (.fail, .invalidTenderType, .invalidTenderType, "4993"),
    ])
    func roampayReturnsEachOutcomeToHostURL(
        _ then: AppBehaviour.Outcome, _ failure: ROAMpayOutcome?,
        _ expected: ROAMpayOutcome, _ code: String?
    ) throws {
        for hostURL in [Self.paymentURL, "shopapp://"] {
            let rpx = AppBehaviour.builtIn(.roampayX, failure: failure)
            guard case .open(let url) = rpx.resolve(then, launchURL: try Self.roampayLaunch(hostURL: hostURL)) else {
                Issue.record("ROAMpay X did not return for \(then)")
                return
            }
            #expect(url.hasPrefix(hostURL))
            let response = try ROAMpayResponse.parse(url: url)
            #expect(response.outcome == expected)
            #expect(response.transactions.first?.responseCode == code)
        }
    }

    @Test func roampayWithABadLaunchURLIsStuckNotACrash() {
        let rpx = AppBehaviour.builtIn(.roampayX)
        guard
            case .stuck(let reason) = rpx.resolve(
                .complete, launchURL: "https://assets.roamdata.com/transaction/?amount=0&authToken=x&hostURL=shopapp://")
        else {
            Issue.record("expected stuck")
            return
        }
        #expect(reason.contains("amount"), "\(reason)")
    }

    // MARK: simulated flows, one per outcome

    static let rpxOutcomes: [(AppBehaviour.Outcome, ROAMpayOutcome?, ROAMpayOutcome)] = [
        (.complete, nil, .approved), (.cancel, nil, .cancelledByUser), (.fail, .readerBatteryLow, .readerBatteryLow),
        (.fail, .invalidSession, .invalidSession), (.fail, .unknownError, .unknownError),
        (.fail, .invalidTenderType, .invalidTenderType),
    ]

    @Test(arguments: rpxOutcomes.indices)
    func theRoampayFlowCarriesEachOutcomeBackToTheApp(_ i: Int) throws {
        let (then, failure, expected) = Self.rpxOutcomes[i]
        var flow = try FlowLoader.load(file: Project.path("Pages/10-ios-roampay-card-reader/flow.yaml").path)
        flow.apps["ROAMpay"] = AppBehaviour.builtIn(.roampayX, then: then, failure: failure)
        // The merchant's server learned the outcome: the reloaded payment page completes only when approved.
        if expected != .approved, let p = flow.pages.firstIndex(where: { $0.url == Self.paymentURL && $0.context == .webview }),
            let cancelled = try FlowLoader.load(file: Project.path("Pages/10-ios-roampay-cancelled/flow.yaml").path)
                .pages.first(where: { $0.url == Self.paymentURL && $0.context == .webview })
        {
            flow.pages[p] = cancelled
        }
        let r = Simulator.runBranch(flow)
        let back = r.events.first { $0.event == .return && $0.app == "ROAMpay" }
        let url = try #require(back?.url)
        #expect(url.hasPrefix(Self.paymentURL + "&transactionResponse="))
        #expect(try ROAMpayResponse.parse(url: url).outcome == expected)
        #expect(r.events.contains { $0.event == .decide && $0.url == url && $0.rule == "intercept.payment" })
        #expect(r.outcome.kind == (expected == .approved ? .complete : .canceled), "\(r.outcome)")
        #expect(r.appsOpened == ["ROAMpay", "Shop"])
    }

    @Test func aMissingRoampayOpensTheLinkInSafariAndIsStuck() throws {
        var flow = try FlowLoader.load(file: Project.path("Pages/10-ios-roampay-card-reader/flow.yaml").path)
        flow.assumptions.missingApps = ["ROAMpay"]
        let r = Simulator.runBranch(flow)
        #expect(r.outcome.kind == .stuck)
        #expect(r.appsOpened.isEmpty)
    }

    @Test func swishNotInstalledIsNamedInTheDecision() throws {
        let flow = try FlowLoader.load(file: Project.path("Pages/06-ios-swish-not-installed/flow.yaml").path)
        let r = Simulator.runBranch(flow)
        #expect(
            r.events.contains {
                $0.event == .decide && $0.rule == "custom-scheme.no-app"
                    && $0.reason == "Swish is not installed (no app handles swish:)"
            })
        #expect(r.outcome.kind == .canceled)
    }

    @Test func swishReturnsThroughTheDecodedCallbackURL() throws {
        let flow = try FlowLoader.load(file: Project.path("Pages/06-ios-swish-app-switch/flow.yaml").path)
        let r = Simulator.runBranch(flow)
        #expect(r.events.contains { $0.event == .return && $0.app == "Swish" && $0.url == Self.paymentURL })
        #expect(r.outcome.kind == .complete)
    }
}
