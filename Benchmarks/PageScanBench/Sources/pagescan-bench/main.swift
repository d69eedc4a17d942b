// Generates a checkout-page corpus (a 417-byte 3DS page up to 5 MB), writes it to the folder given, and
// reports median CPU time per page: PageScanner.parseOnly (libxml2 tree parse + free) vs PageScanner.scan.
import Foundation
import PageScan

// Deterministic corpus: small 3DS pages up to a 5 MB checkout page.
func checkoutPage(targetBytes: Int, seed: Int) -> String {
    var s = """
    <!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Checkout</title>
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <link rel="stylesheet" href="/static/css/app.\(seed).css"><link rel="preload" href="/static/fonts/a.woff2" as="font">
    <style>body{font-family:system-ui}.row{display:flex}.btn{padding:8px 12px;border-radius:4px}</style>
    <script>window.__CONFIG__ = {"api":"/api/v1","locale":"en-US","features":["a","b","c"],"trace":"\(seed)"};</script>
    <script src="/static/js/vendor.js"></script>
    </head><body class="checkout">
    <header><nav><ul>
    """
    for i in 0..<20 { s += "<li><a href=\"/category/\(i)?ref=nav\" class=\"nav-link\">Category \(i) &amp; more</a></li>" }
    s += "</ul></nav></header><main><form id=\"checkout\" action=\"/checkout/submit\" method=\"post\">"
    s += "<input type=\"hidden\" name=\"csrf\" value=\"tok\(seed)\"><input type=\"hidden\" name=\"cart\" value=\"c-\(seed)\">"
    var i = 0
    while s.utf8.count < targetBytes - 3000 {
        s += """
        <div class="row item" data-sku="SKU-\(i)"><div class="img"><img src="/img/p\(i).jpg" alt="Product \(i)" loading="lazy" width="64" height="64"></div>
        <div class="desc"><h3><a href="/product/\(i)" title="Product \(i)">Product \(i) — Comfortable cotton shirt</a></h3>
        <p class="muted">Size <span>M</span>, colour <span>blue</span>. Ships in 2&ndash;3 days. <a href="/help/shipping#p\(i)">Shipping info</a></p>
        <label>Qty <select name="qty-\(i)"><option value="1" selected>1</option><option value="2">2</option><option value="3">3</option></select></label>
        <label><input type="checkbox" name="gift-\(i)" value="1"> Gift wrap</label>
        <span class="price">\(i % 90 + 10).00&nbsp;SEK</span></div></div>

        """
        if i % 50 == 0 {
            s += "<script>(function(){var e=document.querySelectorAll('.item');for(var k=0;k<e.length;k++){e[k].classList.add('ready')}})();</script>\n"
        }
        i += 1
    }
    s += """
    <input type="text" name="email" value=""><textarea name="note">Leave at door</textarea>
    <button type="submit" class="btn">Pay now</button></form>
    <iframe src="https://payments.example/widget?order=\(seed)" name="psp" title="Payment"></iframe>
    <a href="bankid:///?autostarttoken=abc&amp;redirect=null">Open BankID</a>
    <a href="swish://paymentrequest?token=xyz&amp;callbackurl=https%3A%2F%2Fshop.example%2Fdone">Open Swish</a>
    </main><footer><a href="/terms">Terms</a> <a href="/privacy">Privacy</a></footer>
    <script>function cancel(){ window.location.href = "/checkout/cancel"; } document.getElementById('x') && void 0;</script>
    </body></html>
    """
    return s
}

func threeDSPage(seed: Int) -> String {
    """
    <!DOCTYPE html><html><head><title>3-D Secure</title></head>
    <body onload="document.forms[0].submit()">
    <form name="downloadForm" action="https://acs.bank.example/challenge" method="POST">
    <input type="hidden" name="creq" value="eyJ0aHJlZURTU2VydmVyVHJhbnNJRCI6I\(seed)In0">
    <input type="hidden" name="threeDSSessionData" value="c2Vzc2lvbi\(seed)">
    <noscript><input type="submit" value="Continue"></noscript>
    </form></body></html>
    """
}

let outDir = CommandLine.arguments.count > 1 ? CommandLine.arguments[1] : "/tmp/ps/corpus"
try? FileManager.default.createDirectory(atPath: outDir, withIntermediateDirectories: true)
var corpus: [(String, [UInt8])] = []
corpus.append(("3ds-small", Array(threeDSPage(seed: 1).utf8)))
if ProcessInfo.processInfo.environment["EXTRA"] != nil {
    corpus.append(("tiny", Array("<html><body><p>hello</p></body></html>".utf8)))
    corpus.append(("3ds-noonload", Array(threeDSPage(seed: 1).replacingOccurrences(of: " onload=", with: " x=").utf8)))
    corpus.append(("3ds-noform", Array(threeDSPage(seed: 1).replacingOccurrences(of: "form", with: "div").replacingOccurrences(of: "input", with: "span").utf8)))
}
for (name, size) in [("checkout-20k", 20_000), ("checkout-200k", 200_000), ("checkout-1m", 1_000_000), ("checkout-5m", 5_000_000)] {
    corpus.append((name, Array(checkoutPage(targetBytes: size, seed: size).utf8)))
}
for (name, bytes) in corpus {
    FileManager.default.createFile(atPath: "\(outDir)/\(name).html", contents: Data(bytes))
}

/// Process CPU time in seconds (less sensitive to other processes sharing the cores than wall time).
func cpuNow() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

func measure(_ bytes: [UInt8], _ body: () -> Void) -> Double {
    // Repeat until ~1.5 s of work or 2000 runs; report the median of per-run times.
    var times: [Double] = []
    let budget = 1.5
    var total = 0.0
    while total < budget && times.count < 2000 {
        let t0 = cpuNow()
        body()
        let dt = cpuNow() - t0
        times.append(dt); total += dt
    }
    times.sort()
    return times[times.count / 2]
}

if let loop = ProcessInfo.processInfo.environment["LOOP"] {
    let bytes = corpus.first { $0.0 == loop }!.1
    for _ in 0..<(Int(ProcessInfo.processInfo.environment["N"] ?? "20000") ?? 20000) {
        _ = try? PageScanner.scan(bytes, contentType: nil, documentURL: "https://shop.example/checkout")
    }
    exit(0)
}
let ct = ProcessInfo.processInfo.environment["CT"]
print("page            bytes      parse-only  scan       ratio   scan MB/s")
var sumParse = 0.0, sumScan = 0.0, sumBytes = 0
for (name, bytes) in corpus {
    let base = "https://shop.example/checkout"
    let r = try PageScanner.scan(bytes, contentType: "text/html; charset=utf-8", documentURL: base)
    _ = r
    let p = measure(bytes) { PageScanner.parseOnly(bytes) }
    let s = measure(bytes) { _ = try? PageScanner.scan(bytes, contentType: ct, documentURL: base) }
    sumParse += p; sumScan += s; sumBytes += bytes.count
    let mbps = Double(bytes.count) / 1e6 / s
    print(String(format: "%-15@ %-10d %-11.3f %-10.3f %-7.2f %.1f", name as NSString, bytes.count, p * 1000, s * 1000, s / p, mbps) + "  (ms)")
}
print(String(format: "corpus total: parse-only %.1f MB/s, scan %.1f MB/s, ratio %.2f", Double(sumBytes) / 1e6 / sumParse, Double(sumBytes) / 1e6 / sumScan, sumScan / sumParse))
