// Decisions per second of NavigationPolicyEngine, compiled with -O by ./run (not part of the package build).
import Foundation

@main struct PolicyBench {
    static func main() {
        let kinds = [
            "https://shop.example.com/pay?order=42&fallback=true", "https://acs#.bank.example/challenge?id=#",
            "https://shop.example.com/checkout/#", "bankid:///?autostarttoken=#", "javascript:alert(#)",
            "https://b\u{FC}cher#.example/", "https://shop.example.com@evil#.example/",
            "intent://x#/#Intent;scheme=https;package=com.none;S.browser_fallback_url=https%3A%2F%2Fok.example%2F;end",
        ]
        let urls = (0..<20_000).map { i in kinds[i % kinds.count].replacingOccurrences(of: "#", with: "\(i)") }
        let policy = Policy(platform: .ios, paymentURL: "https://shop.example.com/pay?order=42",
                            completeURL: "https://shop.example.com/complete", cancelURL: "https://shop.example.com/cancel",
                            callbackScheme: "shopapp")
        let engine = NavigationPolicyEngine(policy: policy)
        var count = 0
        let start = Date()
        for _ in 0..<10 {
            for u in urls where !engine.decide(Navigation(url: u, currentURL: "https://acs.bank.example/x")).reason.isEmpty {
                count += 1
            }
        }
        let t = Date().timeIntervalSince(start)
        print("mixed URLs: \(count) decisions in \(String(format: "%.2f", t)) s = \(Int(Double(count) / t)) decisions/s")
        let big = "https://shop.example.com/" + String(repeating: "a", count: 100_000)
        let s2 = Date()
        for _ in 0..<100 { _ = engine.decide(Navigation(url: big)) }
        print("100 kB URL: \(String(format: "%.2f", Date().timeIntervalSince(s2) * 10)) ms per decision")
    }
}
