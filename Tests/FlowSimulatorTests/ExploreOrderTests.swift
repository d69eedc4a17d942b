@testable import NavigationPolicy
import Testing
@testable import FlowSimulator
import PlainviewConfig

/// Two apps that may be missing, Bank (`bankapp:`) and Wallet (`walletapp:`).
struct TwoApps: SystemServices {
    func universalLinkApp(for url: String) -> String? { nil }
    func appLinkApp(for url: String) -> String? { nil }
    func customSchemeApp(for scheme: String) -> String? { ["bankapp": "Bank", "walletapp": "Wallet"][scheme] }
    func intentApp(for intent: AndroidIntent) -> String? { nil }
}

/// A decider that asks about both apps on the first page, in the given order, then prefers Bank, then Wallet,
/// else loads the page (which leads to completeUrl).
struct TwoQuestionDecider: NavigationDeciding {
    var system: any SystemServices
    var schemes: [String]
    func decide(_ n: Navigation) -> Decision {
        if n.url.hasSuffix("/complete") { return Decision(.complete, rule: RuleID("table"), reason: "complete") }
        guard n.url == "https://shop.example.com/start" else { return Decision(.allow, rule: RuleID("table"), reason: "web") }
        let apps = Dictionary(uniqueKeysWithValues: schemes.map { ($0, system.customSchemeApp(for: $0)) })
        for scheme in ["bankapp", "walletapp"] where apps[scheme]! != nil {
            return Decision(.openApp(target: "\(scheme)://pay", via: .customScheme), rule: RuleID("table"), reason: "app")
        }
        return Decision(.allow, rule: RuleID("table"), reason: "no app")
    }
}

@Suite struct ExploreOrderTests {
    static func flow() -> Flow {
        let policy = Policy(
            platform: .ios, paymentURL: "https://shop.example.com/pay", completeURL: "https://shop.example.com/complete",
            cancelURL: "https://shop.example.com/cancel")
        return Flow(
            name: "two-apps", policy: policy, system: TwoApps(),
            apps: ["Bank": AppBehaviour(then: .fail), "Wallet": AppBehaviour(then: .fail)], hostApp: "Shop",
            start: "https://shop.example.com/start",
            pages: [redirect("https://shop.example.com/start", "https://shop.example.com/complete")])
    }

    static func explore(asking schemes: [String]) -> [String] {
        Simulator.explore(flow(), decider: { TwoQuestionDecider(system: $0, schemes: schemes) }).branches.map {
            "\($0.branch) → \($0.outcome.kind.rawValue) in \($0.outcome.place)"
        }
    }

    @Test func theBranchesDoNotDependOnTheOrderOfTheQuestions() {
        let bankFirst = Self.explore(asking: ["bankapp", "walletapp"])
        let walletFirst = Self.explore(asking: ["walletapp", "bankapp"])
        #expect(
            bankFirst == [
                "default → stuck in app Bank",
                "app-missing:Bank → stuck in app Wallet",
                "app-missing:Wallet → stuck in app Bank",
                "app-missing:Bank, app-missing:Wallet → complete in webview",
            ])
        // Same branches, same names, same outcomes, listed in the same canonical order.
        #expect(walletFirst == bankFirst)
    }

    @Test func aChoicePointIsNamedByWhatItAsksNotWhenItIsAsked() {
        let a = ChoiceOracle(script: [ChoiceKey("app-installed Wallet"): 1], exploring: true, depth: 16)
        #expect(a.choose("app-installed Bank", ["installed", "missing"]) == 0)
        #expect(a.choose("app-installed Wallet", ["installed", "missing"]) == 1)
        let b = ChoiceOracle(script: [ChoiceKey("app-installed Wallet"): 1], exploring: true, depth: 16)
        #expect(b.choose("app-installed Wallet", ["installed", "missing"]) == 1)
        #expect(b.choose("app-installed Bank", ["installed", "missing"]) == 0)
        // The same question asked again is another point (a universal link fails per attempt).
        #expect(b.choose("app-installed Wallet", ["installed", "missing"]) == 0)
        #expect(
            b.points.map(\.key) == [
                ChoiceKey("app-installed Wallet"), ChoiceKey("app-installed Bank"),
                ChoiceKey("app-installed Wallet", occurrence: 1),
            ])
    }
}
