# Writes secrets_corpus.har: one checkout holding cards, Nordic personal and organisation numbers, JWTs,
# session values and e-mail addresses in the spellings real pages use (percent-encoded, HTML references,
# JavaScript and JSON escapes, odd separators). SecretsCorpusTests lists every secret and checks that none
# survives `plainview import` in any spelling and that nothing else was changed.
#   python3 generate-secrets-corpus.py > secrets_corpus.har
import base64, json

def b64(s): return base64.urlsafe_b64encode(s.encode()).decode().rstrip("=")
def jwt(sub): return b64('{"alg":"HS256","typ":"JWT"}') + "." + b64('{"sub":"%s","iat":1732420000}' % sub) + "." + b64("signature-of-" + sub)

JWT1, JWT2, JWT3, JWT4 = jwt("header-user"), jwt("script-user"), jwt("escaped-user"), jwt("json-user")
h1, p3, s3 = JWT3.split(".")
page1 = """<!doctype html><html><head><title>Checkout</title>
<meta name="viewport" content="width=device-width">
<meta name="api-bearer" content="public-config">
</head><body>
<form><input type="hidden" name="token_type" value="bearer"></form>
<p>Card: 5555&nbsp;5555&nbsp;5555&nbsp;4444</p>
<p>Card: 4012\u00a08888\u00a08888\u00a01881</p>
<p>Amex: 3782.822463.10005</p>
<p>Personnummer: 811218 9876</p>
<p>Kund: SE199001011239</p>
<p>Mail: kalle&#64;example.se, &#x6C;isa&#x40;example.se, nils&commat;example.se</p>
<p>Org: 556036-0793, Y-tunnus 0112038-9, orgnr 923 663 355</p>
<p>Fødselsnummer: 150385 49682, CPR 311299-1234, henkilötunnus 131052-308T</p>
<script>
fetch('/api/pay', {headers: {Authorization: 'Bearer %s'}});
document.cookie = "session=c2Vzc2lvbi12YWx1ZS0xMjM0NTY3OA; path=/";
var contact = "eva\\u0040example.se";
var card = '3530\\x201113\\x203330\\x200000';
var t = '%s\\u002e%s\\u002e%s';
var pnr = "640227\\u002D1230";
</script>
<a href="/pay">Pay</a>
</body></html>""" % (JWT2, h1, p3, s3)

receipt = ('{"order": 1234, "amount": 100.5, "pan": 5105105105105100, "ref": 4000056655665556, "holder": "Eva", '
           '"mail": "olle\\u0040example.se", "card": "4111\\u00201111\\u00201111\\u00201111", "id_token": "%s", '
           '"ts": 1732420000000, "pnr": "8507099805"}' % JWT4)

def entry(method, url, req_headers, status, resp_headers, mime, text, post=None):
    e = {"_resourceType": "document", "startedDateTime": "2026-11-20T10:00:00.000Z",
         "request": {"method": method, "url": url, "httpVersion": "h2", "headers": req_headers, "queryString": [], "cookies": []},
         "response": {"status": status, "statusText": "", "httpVersion": "h2", "headers": resp_headers, "cookies": [],
                      "content": {"size": len(text), "mimeType": mime, "text": text}, "redirectURL": ""},
         "cache": {}, "timings": {}}
    if post: e["request"]["postData"] = post
    return e

entries = [
    entry("GET", "https://shop.example.com/checkout?email=anna%40example.se&note=4111%201111%201111%201111"
          "&ref=%61%6E%6E%61%2E%62%40%65%78%61%6D%70%6C%65%2E%73%65&pnr=19811218%2D9876"
          "&returnUrl=https%3A%2F%2Fshop.example.com%2Fdone%3Fsession%3DQm9va2luZ1Nlc3Npb24xMjM0NTY",
          [{"name": "Cookie", "value": "SESSIONID=sess-7f3a9c21e5d4b6a8"}, {"name": "Authorization", "value": "Bearer " + JWT1}],
          200, [{"name": "Content-Type", "value": "text/html; charset=utf-8"},
                {"name": "Set-Cookie", "value": "SESSIONID=sess-7f3a9c21e5d4b6a8; Path=/; HttpOnly"}], "text/html", page1),
    entry("POST", "https://shop.example.com/pay",
          [{"name": "Cookie", "value": "SESSIONID=sess-7f3a9c21e5d4b6a8"}, {"name": "Referer", "value": "https://shop.example.com/checkout"}],
          302, [{"name": "Location", "value": "/receipt"}], "text/html", "",
          post={"mimeType": "application/x-www-form-urlencoded",
                "text": "note=6011-1111-1111-1117&email=erik%40example.se&holder=Erik&pnr=750315%2B2386", "params": []}),
    entry("GET", "https://shop.example.com/receipt", [{"name": "Cookie", "value": "SESSIONID=sess-7f3a9c21e5d4b6a8"}],
          200, [{"name": "Content-Type", "value": "application/json"}], "application/json", receipt),
]
print(json.dumps({"log": {"version": "1.2", "creator": {"name": "generate-secrets-corpus.py", "version": "1"},
                          "pages": [], "entries": entries}}, indent=1, ensure_ascii=False))
