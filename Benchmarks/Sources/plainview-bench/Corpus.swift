// The benchmark corpus: generated from a fixed seed, so every run measures the same bytes.
// Nothing here is committed as data; `plainview-bench --write-corpus DIR` writes it for the Python peer.

/// SplitMix64: small, fast, deterministic.
struct SeededRandom {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func below(_ n: Int) -> Int { Int(next() % UInt64(max(n, 1))) }
    mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }
    mutating func word() -> String {
        let syllables = ["ka", "to", "ri", "me", "su", "lo", "pa", "ne", "vi", "da", "ko", "ra"]
        var w = ""
        for _ in 0..<(2 + below(3)) { w += pick(syllables) }
        return w
    }
}

enum Corpus {
    static let seed: UInt64 = 0x504C_4149_4E56_4945 // "PLAINVIE"

    static let merchant = "https://shop.example.com"
    static let paymentURL = "https://shop.example.com/pay?order=42"
    static let completeURL = "https://shop.example.com/complete"
    static let cancelURL = "https://shop.example.com/cancel"

    /// The 12 patterns of the reference SDK list (Tests/Vectors/reference), as facts.
    static let referencePatterns = [
        "**.payex.com", "acs4.sparebank1.no", "*.3dsecure.no", "*.3ds.modirum.com",
        "idcheck.acs.touchtechpayments.com", "verifiedbyvisa.acs.touchtechpayments.com", "*.wlp-acs.com",
        "*.op.fi", "acs1.luottokunta.fi", "online.s-pankki.fi", "identify.nordea.com", "verifiedbyvisa.skandia.se",
    ]

    /// A goodlist of `count` patterns: the reference 12, then generated exact, `*.` and `**.` entries.
    static func goodlistPatterns(count: Int) -> [String] {
        var rng = SeededRandom(seed: seed ^ UInt64(count))
        var out = Array(referencePatterns.prefix(count))
        let tlds = ["com", "se", "no", "fi", "dk", "net", "eu"]
        var i = 0
        while out.count < count {
            let host = "acs\(i).\(rng.word())-bank\(i % 977).\(rng.pick(tlds))"
            switch rng.below(3) {
            case 0: out.append(host)
            case 1: out.append("*.\(host)")
            default: out.append("**.\(host)")
            }
            i += 1
        }
        return out
    }

    /// The URL mix a checkout web view sees: own pages, goodlisted and unknown 3DS hosts, apps, tricks, junk.
    static func urlMix(count: Int) -> [String] {
        var rng = SeededRandom(seed: seed &+ 1)
        let fixed = [
            paymentURL, completeURL, cancelURL, "https://shop.example.com/pay?order=42&fallback=true",
            "https://shop.example.com/cart/items?sku=1234&qty=2", "https://ecom.payex.com/checkout/abc",
            "https://acs.3dsecure.no/challenge?creq=eyJhbGciOi", "https://acs4.sparebank1.no/3ds/method",
            "https://ACS1.LUOTTOKUNTA.FI./auth", "https://unknown-acs.example.net/challenge",
            "https://evilpayex.com/phish", "https://shop.example.com@evil.example/", "https://evil.example\\@shop.example.com/",
            "bankid:///?autostarttoken=7c40b5c9-fa74-49cf-b98c-bfe651f9a7c6&redirect=null",
            "swish://paymentrequest?token=abc123&callbackurl=https%3A%2F%2Fshop.example.com%2Fpay%3Forder%3D42",
            "intent://shop.example.com/pay?order=42#Intent;scheme=https;action=com.swedbankpay.mobilesdk.VIEW_PAYMENTORDER;package=com.example.app;end;",
            "intent://scan/#Intent;scheme=zxing;package=com.google.zxing.client.android;S.browser_fallback_url=https%3A%2F%2Fexample.com%2Fscan;end",
            "javascript:alert(1)", "file:///etc/passwd", "data:text/html,<script>alert(1)</script>",
            "https://app.bankid.com/?autostarttoken=7c40b5c9-fa74-49cf-b98c-bfe651f9a7c6&redirect=null",
            "http://[::1", "https://xn--bcher-kva.example/", "https://bücher.example/", "about:blank",
        ]
        var out: [String] = []
        out.reserveCapacity(count)
        while out.count < count {
            var u = rng.pick(fixed)
            if rng.below(4) == 0 { u += (u.contains("?") ? "&" : "?") + "t=\(rng.next() % 100_000)" }
            out.append(u)
        }
        return out
    }

    /// A realistic checkout / 3-D Secure page of about `bytes` bytes: chrome, a product list, a hidden-field form
    /// that submits itself (the creq pattern), an iframe, links and inline scripts.
    static func checkoutPage(bytes: Int, variant: Int = 0) -> [UInt8] {
        var rng = SeededRandom(seed: seed &+ UInt64(bytes) &+ UInt64(variant))
        var s = """
            <!DOCTYPE html>
            <html lang="sv"><head><meta charset="utf-8">
            <title>Betalning – \(rng.word())</title>
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <base href="https://acs.3dsecure.no/3ds/">
            <link rel="stylesheet" href="/static/app.css"><script src="/static/app.js"></script>
            <style>body{font-family:sans-serif}.item{margin:4px}</style>
            </head><body onload="init()">
            <header><nav><a href="/">Hem</a> <a href="/help?lang=sv">Hjälp</a> <a href="https://shop.example.com/cancel">Avbryt</a></nav></header>
            <main>
            <iframe src="https://acs.3dsecure.no/3ds/method?id=\(rng.next() % 1_000_000)" name="threeDSMethod" style="display:none"></iframe>
            <form id="challenge" method="POST" action="https://acs.3dsecure.no/3ds/challenge">
            <input type="hidden" name="creq" value="eyJ0aHJlZURTU2VydmVyVHJhbnNJRCI6\(rng.next())">
            <input type="hidden" name="threeDSSessionData" value="\(rng.next())">
            <noscript><input type="submit" value="Fortsätt"></noscript>
            </form>
            <script>function init(){} document.getElementById('challenge').submit();</script>

            """
        var i = 0
        while s.utf8.count < bytes - 400 {
            let w1 = rng.word(), w2 = rng.word()
            s += """
                <div class="item" id="p\(i)"><h3>\(w1.capitalized) \(w2)</h3><p>Art.nr \(rng.next() % 100_000) &ndash; \
                <span class="price">\(rng.below(2000)),\(rng.below(100)) kr</span> &amp; fri frakt.</p>\
                <a href="/product/\(i)?ref=\(w2)" class="more">Visa \(w1)</a>\
                <img src="/img/\(i).png" alt="\(w2)"><button onclick="location.href='/cart/add?id=\(i)'">Köp</button></div>

                """
            if i % 50 == 49 {
                s +=
                    "<script>var t\(i) = \(rng.next() % 1000); if (t\(i) > 2000) { window.location.href = \"https://shop.example.com/timeout\"; }</script>\n"
            }
            i += 1
        }
        s += """
            </main><footer><a href="https://shop.example.com/terms">Villkor</a></footer>
            </body></html>

            """
        return Array(s.utf8)
    }

    /// Page sizes of the extraction corpus, 2 kB to 5 MB.
    static let pageSizes = [2_000, 20_000, 200_000, 1_000_000, 5_000_000]
}

private extension String {
    var capitalized: String { prefix(1).uppercased() + dropFirst() }
}
