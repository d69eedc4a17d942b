# Generates a large HAR (default 200 MiB) for the memory measurement of `plainview import`:
#   python3 generate-large-har.py 200 /tmp/big.har
#   /usr/bin/time -v .build/debug/plainview import /tmp/big.har --out /tmp/big-flow
# Every 50th entry is a document (with a token link and an e-mail), the rest scripts and base64 images.
import json, base64, random, sys
random.seed(1)
target = int(sys.argv[1]) * 1024 * 1024
out = open(sys.argv[2], "w")
out.write('{"log": {"version": "1.2", "creator": {"name": "WebInspector", "version": "537.36"}, "pages": [], "entries": [\n')
size = 0; i = 0
blob = base64.b64encode(bytes(random.getrandbits(8) for _ in range(300_000))).decode()
js = "var x = 1;\n" * 20000
while size < target:
    t = "2026-11-20T10:%02d:%02d.%03dZ" % ((i // 60000) % 60, (i // 1000) % 60, i % 1000)
    if i % 50 == 0:
        rt, mime, text, enc = "document", "text/html", "<html><body><a href='/next%d?token=tok%08d'>next</a><p>mail me: user%d@example.com</p></body></html>" % (i, i, i) * 20, None
    elif i % 3 == 0:
        rt, mime, text, enc = "image", "image/png", blob, "base64"
    else:
        rt, mime, text, enc = "script", "text/javascript", js, None
    content = {"size": len(text), "mimeType": mime, "text": text}
    if enc: content["encoding"] = enc
    e = {"_resourceType": rt, "startedDateTime": t, "request": {"method": "GET", "url": "https://shop.example.com/r/%d?session=abc%d" % (i, i), "httpVersion": "http/2.0", "headers": [{"name": "Cookie", "value": "SESSION=s%010d" % i}], "queryString": [], "cookies": []},
         "response": {"status": 200, "statusText": "OK", "httpVersion": "http/2.0", "headers": [{"name": "Content-Type", "value": mime}], "cookies": [], "content": content, "redirectURL": ""}, "cache": {}, "timings": {}}
    s = ("," if i else "") + json.dumps(e) + "\n"
    out.write(s); size += len(s); i += 1
out.write("]}}\n"); out.close()
print(i, "entries")
