// Generated flows for the simulator benchmark: checkout chains of 5 to 40 hops through PSP and 3-D Secure
// hosts, each hop moved on by one of the mechanisms real pages use (a self-submitting form, a meta refresh,
// a server redirect, a script navigation on load, a link the user taps), ending at completeUrl.

extension Corpus {
    /// One generated flow: its folder name and files (`flow.yaml` and the pages), deterministic for `index`.
    static func generatedFlow(_ index: Int) -> (name: String, files: [String: String]) {
        var rng = SeededRandom(seed: seed &+ 100 &+ UInt64(index))
        let hops = 5 + rng.below(36)
        let payment = "\(merchant)/pay?order=\(index)"
        func url(_ k: Int) -> String {
            k == 0 ? payment : k > hops ? completeURL
                : "https://\(rng.pick(["acs", "acs2", "secure"])).\(rng.pick(["bank", "card"]))\(k % 7).acs.example/3ds/step\(k)"
        }
        let urls = (0...(hops + 1)).map(url)
        var files: [String: String] = [:]
        var pages = ""
        var steps = ["  - tap: Pay\n"]
        for k in 0...hops {
            let next = urls[k + 1]
            let context = k == 0 ? "    in: webview\n" : ""
            if k == 0 {
                files["p0.html"] = page("Checkout \(index)", "<a href=\"\(next)\">Pay</a>")
                pages += "  - url: \(urls[k])\n\(context)    file: p0.html\n"
                continue
            }
            switch rng.below(5) {
            case 0:
                pages += "  - url: \(urls[k])\n    status: 302\n    location: \(next)\n"
            case 1:
                files["p\(k).html"] = page("Step \(k)", "<form method=\"post\" action=\"\(next)\"><input type=\"hidden\" name=\"creq\" value=\"\(rng.next())\"></form><script>document.forms[0].submit()</script>")
                pages += "  - url: \(urls[k])\n    file: p\(k).html\n"
            case 2:
                files["p\(k).html"] = page("Step \(k)", "<p>Please wait…</p>", head: "<meta http-equiv=\"refresh\" content=\"0; url=\(next)\">")
                pages += "  - url: \(urls[k])\n    file: p\(k).html\n"
            case 3:
                files["p\(k).html"] = page("Step \(k)", "<script>window.location.replace(\"\(next)\")</script>")
                pages += "  - url: \(urls[k])\n    file: p\(k).html\n"
            default:
                files["p\(k).html"] = page("Step \(k)", "<p>Confirm the code sent to your phone.</p><a href=\"\(next)\">Confirm</a>")
                pages += "  - url: \(urls[k])\n    file: p\(k).html\n"
                steps.append("  - tap: Confirm\n")
            }
        }
        files["flow.yaml"] = """
            name: generated-\(index)
            description: generated checkout chain of \(hops) hops (plainview-bench corpus)
            policy:
              platform: ios
              paymentUrl: \(payment)
              completeUrl: \(completeURL)
              cancelUrl: \(cancelURL)
              callbackScheme: shopapp
              redirectPolicy: goodlist
              goodlist: ["**.acs.example"]
            environment:
              apps:
                - {name: Shop, schemes: [shopapp], behaviour: {host: true}}
            pages:
            \(pages)steps:
            \(steps.joined())expect:
              outcome: complete
              endsIn: webview

            """
        return ("generated-\(index)", files)
    }

    private static func page(_ title: String, _ body: String, head: String = "") -> String {
        "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>\(title)</title>\(head)</head><body>\(body)</body></html>\n"
    }

    /// How many flows the simulator benchmark generates.
    static let generatedFlowCount = 40
}
