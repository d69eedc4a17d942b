// Generated flows for the simulator benchmark: checkout chains of 5 to 40 hops through PSP and 3-D Secure
// hosts, each hop moved on by one of the mechanisms real pages use (a self-submitting form, a meta refresh,
// a server redirect, a script navigation on load, a link the user taps), ending at completeUrl. flow.yaml is
// written by the YAML emitter, as `plainview import` writes it.
import PlainviewConfig

extension Corpus {
    /// One generated flow: its folder name and files (`flow.yaml` and the pages), deterministic for `index`.
    static func generatedFlow(_ index: Int) -> (name: String, files: [String: String]) {
        var rng = SeededRandom(seed: seed &+ 100 &+ UInt64(index))
        let hops = 5 + rng.below(36)
        let payment = "\(merchant)/pay?order=\(index)"
        func url(_ k: Int) -> String {
            k == 0
                ? payment
                : k > hops
                    ? completeURL
                    : "https://\(rng.pick(["acs", "acs2", "secure"])).\(rng.pick(["bank", "card"]))\(k % 7).acs.example/3ds/step\(k)"
        }
        let urls = (0...(hops + 1)).map(url)
        var files: [String: String] = [:]
        var pages: [(url: String, fields: [YAMLEmitter.Pair])] = []
        var taps = ["Pay"]
        for k in 0...hops {
            let next = urls[k + 1]
            if k == 0 {
                files["p0.html"] = page("Checkout \(index)", "<a href=\"\(next)\">Pay</a>")
                pages.append((urls[k], [.init("in", .string("webview")), .init("file", .string("p0.html"))]))
                continue
            }
            let file = YAMLEmitter.Pair("file", .string("p\(k).html"))
            switch rng.below(5) {
            case 0:
                pages.append((urls[k], [.init("status", .int(302)), .init("location", .string(next))]))
            case 1:
                files["p\(k).html"] = page(
                    "Step \(k)",
                    "<form method=\"post\" action=\"\(next)\"><input type=\"hidden\" name=\"creq\" value=\"\(rng.next())\"></form><script>document.forms[0].submit()</script>"
                )
                pages.append((urls[k], [file]))
            case 2:
                files["p\(k).html"] = page(
                    "Step \(k)", "<p>Please wait…</p>", head: "<meta http-equiv=\"refresh\" content=\"0; url=\(next)\">")
                pages.append((urls[k], [file]))
            case 3:
                files["p\(k).html"] = page("Step \(k)", "<script>window.location.replace(\"\(next)\")</script>")
                pages.append((urls[k], [file]))
            default:
                files["p\(k).html"] = page(
                    "Step \(k)", "<p>Confirm the code sent to your phone.</p><a href=\"\(next)\">Confirm</a>")
                pages.append((urls[k], [file]))
                taps.append("Confirm")
            }
        }
        var y = YAMLEmitter()
        y.pair("name", .string("generated-\(index)"))
        y.pair("description", .string("generated checkout chain of \(hops) hops (plainview-bench corpus)"))
        y.pair("policy", nil)
        for (key, value) in [
            ("platform", "ios"), ("paymentUrl", payment), ("completeUrl", completeURL), ("cancelUrl", cancelURL),
            ("callbackScheme", "shopapp"), ("redirectPolicy", "goodlist"),
        ] {
            y.pair(key, .string(value), indent: 1)
        }
        y.pair("goodlist", .flowSequence([.string("**.acs.example")]), indent: 1)
        y.pair("environment", nil)
        y.pair("apps", nil, indent: 1)
        y.item(
            .flowMap([
                .init("name", .string("Shop")), .init("schemes", .flowSequence([.string("shopapp")])),
                .init("behaviour", .flowMap([.init("host", .bool(true))])),
            ]), indent: 2)
        y.pair("pages", nil)
        for p in pages {
            y.pair("url", .string(p.url), indent: 2, item: true)
            for f in p.fields { y.pair(f.key, f.value, indent: 2) }
        }
        y.pair("steps", nil)
        for t in taps { y.pair("tap", .string(t), indent: 2, item: true) }
        y.pair("expect", nil)
        y.pair("outcome", .string("complete"), indent: 1)
        y.pair("endsIn", .string("webview"), indent: 1)
        files["flow.yaml"] = y.text
        return ("generated-\(index)", files)
    }

    private static func page(_ title: String, _ body: String, head: String = "") -> String {
        "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>\(title)</title>\(head)</head><body>\(body)</body></html>\n"
    }

    /// How many flows the simulator benchmark generates.
    static let generatedFlowCount = 40
}
