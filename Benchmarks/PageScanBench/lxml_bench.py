# The same extraction as PageScanner.scan, done with lxml (same libxml2), timed per page in CPU time.
import sys, time, re, glob, os
from urllib.parse import urljoin
import lxml.html, lxml.etree as etree
print("lxml", lxml.__version__ if hasattr(lxml, "__version__") else "?", "libxml2", etree.LIBXML_VERSION, file=sys.stderr)

NAV = re.compile(r"""(?:window\.|document\.|top\.|self\.)?location(?:\.href)?\s*=\s*(['"])(.*?)\1|location\.(?:assign|replace)\(\s*(['"])(.*?)\3|window\.open\(\s*(['"])(.*?)\5""")
SUBMIT = re.compile(r"\.submit\(\)")

def extract(data, base):
    doc = lxml.html.document_fromstring(data)
    b = doc.xpath("//base[@href]/@href")
    if b: base = urljoin(base, b[0])
    refresh = None
    for m in doc.xpath("//meta[@http-equiv]"):
        if m.get("http-equiv").lower() == "refresh" and not m.xpath("ancestor::noscript"):
            refresh = m.get("content"); break
    links = [(urljoin(base, a.get("href")), " ".join(a.text_content().split()), a.get("target")) for a in doc.xpath("//a[@href]|//area[@href]")]
    forms = []
    for f in doc.forms:
        forms.append((urljoin(base, f.get("action") or ""), (f.get("method") or "GET").upper(), f.form_values(), f.get("target")))
    frames = [(urljoin(base, f.get("src")), f.get("name")) for f in doc.xpath("//iframe[@src]|//frame[@src]")]
    navs = []
    submits = 0
    for s in doc.xpath("//script[not(@src)]/text()") + doc.xpath("//@*[starts-with(name(), 'on')]"):
        for m in NAV.finditer(s):
            navs.append(urljoin(base, m.group(2) or m.group(4) or m.group(6) or ""))
        submits += len(SUBMIT.findall(s))
    return refresh, links, forms, frames, navs, submits

def measure(fn):
    times = []; total = 0.0
    while total < 1.5 and len(times) < 2000:
        t0 = time.process_time(); fn(); dt = time.process_time() - t0
        times.append(dt); total += dt
    times.sort(); return times[len(times)//2]

tot_b = 0; tot_t = 0.0
for path in sorted(glob.glob(sys.argv[1] + "/*.html"), key=os.path.getsize):
    data = open(path, "rb").read()
    t = measure(lambda: extract(data, "https://shop.example/checkout"))
    tot_b += len(data); tot_t += t
    print("%-15s %-10d lxml-extract %.3f ms  %.1f MB/s" % (os.path.basename(path)[:-5], len(data), t * 1000, len(data) / 1e6 / t))
print("corpus total: lxml %.1f MB/s" % (tot_b / 1e6 / tot_t))
