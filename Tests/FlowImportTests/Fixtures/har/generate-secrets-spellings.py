# Writes secrets_spellings.har (issue 29): secrets in the spellings an adversarial review found leaking, each
# in the places it occurs (query, form body, JSON body, HTML, Set-Cookie attributes, URL path), beside
# ordinary data that must stay as it is. SecretsSpellingsTests lists every planted secret.
#   python3 generate-secrets-spellings.py > secrets_spellings.har
import base64, hashlib, json

def b64u(data): return base64.urlsafe_b64encode(data).decode().rstrip("=")
def pseudo(label, n): return hashlib.sha256(label.encode()).digest() * (n // 32 + 1)

def jwe(label, alg):
    # header.encryptedKey.iv.ciphertext.tag; `dir` has an empty encrypted key.
    header = b64u(json.dumps({"alg": alg, "enc": "A256GCM"}, separators=(",", ":")).encode())
    key = "" if alg == "dir" else b64u(pseudo(label + "-key", 40)[:40])
    return ".".join([header, key, b64u(pseudo(label + "-iv", 12)[:12]), b64u(pseudo(label + "-ct", 48)[:48]),
                     b64u(pseudo(label + "-tag", 16)[:16])])

JWE_RSA, JWE_DIR = jwe("rsa", "RSA-OAEP"), jwe("dir", "dir")
SIG_PAGE = hashlib.sha256(b"presigned-page").hexdigest()
SIG_JSON = hashlib.sha256(b"presigned-json").hexdigest()
AMZ_TOKEN = base64.b64encode(pseudo("security-token", 72)[:72]).decode()
JSESSION = "1A2B3C4D5E6F7A8B9C0D1E2F3A4B5C6D"
HEX_SESSION = "3f2a9c8e7d6b5a4c3f2e1d0c9b8a7f6e"
UUID = "9b2e4c1a-7f3d-4e8b-a6c5-2d1f0e9b8a7c"
def pct(s): return "".join(c if c.isalnum() or c in "-._~" else "%%%02X" % b for c in s for b in c.encode())

presigned_page = ("https://bucket.s3.amazonaws.com/receipt.pdf?X-Amz-Algorithm=AWS4-HMAC-SHA256"
                  "&amp;X-Amz-Credential=AKIAJ3EXAMPLEKEY7Q2Z%2F20261120%2Feu-north-1%2Fs3%2Faws4_request"
                  "&amp;X-Amz-Date=20261120T100000Z&amp;X-Amz-Expires=900&amp;X-Amz-SignedHeaders=host"
                  "&amp;X-Amz-Signature=" + SIG_PAGE)
page1 = """<!doctype html><html><head><title>Kassa</title>
<script src="/static/app.3f2a9c8e.js"></script>
</head><body>
<p>Kort: 3714/496353/98431</p>
<p>Kort: 4556\t7011\t2093\t3869</p>
<p>Kort: 3530\u20091184\u20093092\u20091778</p>
<p>Kort: 2223&thinsp;0048&thinsp;1726&thinsp;5399</p>
<p>Ref 4012_8837_7106_5429</p>
<form method="post" action="/pay">
<input type="hidden" name="säkerhetskod" value="529">
<input type="text" name="Prüfziffer" value="3816">
</form>
<a href="%s">Kvitto</a>
<a href="/session/%s/pay">Betala</a>
<a href="/s/%s/receipt">Status</a>
<script>var ctx = "%s";</script>
<p>Order 20261120001, 12500 kr, 2026-11-20, 2026/11/20</p>
<a href="/products/blue-shirt-xl-2024">Skjorta</a>
<a href="/orders/ORD2026112000042">Order</a>
<a href="/checkout/shipping-address/confirm">Adress</a>
</body></html>""" % (presigned_page, HEX_SESSION, UUID, JWE_RSA)

page2 = """<!doctype html><html><head><title>Betala</title></head><body>
<p>Sammanfattning %s</p>
<form method="post" action="/pay"><button>Betala</button></form>
</body></html>""" % JWE_DIR

receipt = ('{"order": 20261120001, "amount": 12500, "date": "2026-11-20", "cvc2": "9264", "säkerhetskod": 731, '
           '"kontrollsiffror": "385", "Prüfziffer": "842", "pr\\u00fcfziffer": "147", '
           '"kortnummer": "4165+9800+2733+8710", "card": "5522/4561/3098/2749", "blob": "%s", '
           '"link": "https://bucket.s3.amazonaws.com/r.pdf?X-Amz-Credential=AKIAIOSFODNN7EXAMPLE%%2F20130524%%2Fus-east-1%%2Fs3%%2Faws4_request'
           '&X-Amz-Security-Token=%s&X-Amz-Signature=%s"}' % (JWE_RSA, pct(AMZ_TOKEN), SIG_JSON))

def entry(method, url, status, resp_headers, mime, text, post=None):
    e = {"_resourceType": "document", "startedDateTime": "2026-11-20T10:00:00.000Z",
         "request": {"method": method, "url": url, "httpVersion": "h2", "headers": [], "queryString": [], "cookies": []},
         "response": {"status": status, "statusText": "", "httpVersion": "h2", "headers": resp_headers, "cookies": [],
                      "content": {"size": len(text), "mimeType": mime, "text": text}, "redirectURL": ""},
         "cache": {}, "timings": {}}
    if post: e["request"]["postData"] = post
    return e

html = [{"name": "Content-Type", "value": "text/html; charset=utf-8"}]
entries = [
    entry("GET", "https://shop.example.com/checkout;jsessionid=%s/pay?card=5200+1076+6513+0878&cvc2=4417"
          "&s%%C3%%A4kerhetskod=618&kortnummer=6011+8427+5509+3415&amount=12500&order=20261120001&date=2026-11-20&id=42"
          % JSESSION,
          200, html + [
              {"name": "Set-Cookie", "value": "SESSION=Zx81Yy72Qq99Ab; Path=/; HttpOnly"},
              {"name": "Set-Cookie", "value": "tk=1; Path=/t/eyJzZXNzIjoiY29va2llLXBhdGgtMSJ9; Secure"},
              {"name": "Set-Cookie", "value": "sp=1; Path=/session/Zk9xQ2h1bmtUb2tlbjQ4Mjc1OTE; HttpOnly"},
              {"name": "Set-Cookie", "value": "lang=sv; Path=/; Max-Age=86400"}], "text/html", page1),
    entry("GET", "https://shop.example.com/session/%s/pay?card=4929%%2B1736%%2B0048%%2B5317"
          "&n=6011%%095521%%090038%%099125&t=4716%%E2%%80%%899832%%E2%%80%%895501%%E2%%80%%894627&ctx=%s" % (HEX_SESSION, JWE_DIR),
          200, html, "text/html", page2),
    entry("POST", "https://shop.example.com/pay", 302, [{"name": "Location", "value": "/s/%s/receipt" % UUID}], "text/html", "",
          post={"mimeType": "application/x-www-form-urlencoded", "params": [],
                "text": "kontrollsiffror=0427&Pr%C3%BCfziffer=5093&s%C3%A4kerhetskod=719&kortnummer=5300+6271+9484+1058"
                        "&ref=4012_8837_7106_5429&amount=12500"}),
    entry("GET", "https://shop.example.com/s/%s/receipt" % UUID, 200,
          [{"name": "Content-Type", "value": "application/json"}], "application/json", receipt),
    entry("GET", "https://bucket.s3.amazonaws.com/receipt.html?X-Amz-Algorithm=AWS4-HMAC-SHA256"
          "&X-Amz-Credential=AKIAIOSFODNN7EXAMPLE%%2F20130524%%2Fus-east-1%%2Fs3%%2Faws4_request"
          "&X-Amz-Date=20130524T000000Z&X-Amz-Expires=86400&X-Amz-SignedHeaders=host"
          "&X-Amz-Security-Token=%s&X-Amz-Signature=%s" % (pct(AMZ_TOKEN), SIG_JSON),
          200, html, "text/html", "<!doctype html><title>Kvitto</title><p>Tack!</p>"),
]
print(json.dumps({"log": {"version": "1.2", "creator": {"name": "generate-secrets-spellings.py", "version": "1"},
                          "pages": [], "entries": entries}}, indent=1, ensure_ascii=False))
