#!/usr/bin/env python3
"""The Python peer of `plainview extract` for plainview-bench.

Runs the same extraction as PageScan (first declarative refresh, links, forms with fields and auto-submit,
frames, script navigations and app hooks, every URL resolved against <base href>) over the same corpus
files with lxml (libxml2's HTML parser), and prints its throughput as one JSON object. Time is this thread's CPU time, as in plainview-bench.

It installs nothing by itself. Requires: `pip install lxml`.
Usage: python3 Benchmarks/lxml_peer.py CORPUS_DIR [--seconds S]
"""
import json
import os
import re
import sys
import time
from urllib.parse import urljoin

from lxml import etree

DOCUMENT_URL = "https://acs.3dsecure.no/3ds/challenge"
NAV = re.compile(
    r"""(?:(?:window|document)\.)?location(?:\.href)?\s*=\s*(?:decodeURIComponent\(\s*)?(['"])(.*?)\1"""
    r"""|location\.(?:assign|replace)\(\s*(?:decodeURIComponent\(\s*)?(['"])(.*?)\3"""
    r"""|window\.open\(\s*(['"])(.*?)\5""")
HOOK = re.compile(r"window\.webkit\.messageHandlers\.(\w+)\.postMessage")
SUBMIT = re.compile(r"\.submit\(\s*\)")


def parse_refresh(content, base):
    # The HTML standard's shared declarative refresh steps, as PageScan follows them.
    s = content.lstrip(" \t\n\f\r")
    i = 0
    while i < len(s) and s[i].isdigit():
        i += 1
    if i == 0 and not s.startswith("."):
        return None
    delay = int(s[:i]) if i else 0
    s = s[i:]
    s = s.lstrip("0123456789.")
    if not s:
        return {"delay": delay, "url": base}
    if s[0] not in ";, \t\n\f\r":
        return None
    s = s.lstrip(" \t\n\f\r").lstrip(";,").lstrip(" \t\n\f\r")
    if not s:
        return {"delay": delay, "url": base}
    if s[:3].lower() == "url":
        t = s[3:].lstrip(" \t\n\f\r")
        if t.startswith("="):
            s = t[1:].lstrip(" \t\n\f\r")
    if s[:1] in "'\"":
        q = s[0]
        s = s[1:]
        end = s.find(q)
        if end >= 0:
            s = s[:end]
    return {"delay": delay, "url": urljoin(base, s.strip())}


def scripted(text, on_load, base, navs, hooks):
    for m in NAV.finditer(text):
        url = m.group(2) or m.group(4) or m.group(6) or ""
        navs.append({"url": urljoin(base, url), "onLoad": on_load})
    for m in HOOK.finditer(text):
        hooks.append({"name": m.group(1), "onLoad": on_load})


def extract(data):
    root = etree.fromstring(data, etree.HTMLParser(recover=True, no_network=True))
    result = {"refresh": None, "links": [], "forms": [], "frames": [], "scriptNavigations": [], "hooks": []}
    if root is None:
        return result
    base = DOCUMENT_URL
    for el in root.iter("base"):
        if el.get("href") is not None:
            base = urljoin(DOCUMENT_URL, el.get("href"))
            break
    auto_submit = False
    for el in root.iter():
        tag = el.tag
        if not isinstance(tag, str):
            continue
        for name, value in el.attrib.items():
            if name.startswith("on"):
                scripted(value, name == "onload", base, result["scriptNavigations"], result["hooks"])
                if name == "onload" and SUBMIT.search(value):
                    auto_submit = True
        if tag in ("a", "area"):
            href = el.get("href")
            if href is not None:
                result["links"].append({"url": urljoin(base, href), "text": " ".join("".join(el.itertext()).split()),
                                        "target": el.get("target")})
        elif tag == "meta":
            if result["refresh"] is None and (el.get("http-equiv") or "").lower() == "refresh" \
                    and not any(a.tag == "noscript" for a in el.iterancestors()):
                result["refresh"] = parse_refresh(el.get("content") or "", base)
        elif tag == "form":
            fields = []
            for f in el.iter("input", "textarea", "select"):
                name = f.get("name")
                if not name or f.get("disabled") is not None:
                    continue
                kind = (f.get("type") or "text").lower()
                if kind in ("checkbox", "radio") and f.get("checked") is None:
                    continue
                if kind in ("submit", "button", "image", "reset", "file"):
                    continue
                value = f.text or "" if f.tag == "textarea" else f.get("value") or ""
                fields.append({"name": name, "value": value})
            result["forms"].append({"action": urljoin(base, el.get("action") or DOCUMENT_URL),
                                    "method": (el.get("method") or "GET").upper(), "fields": fields})
        elif tag in ("iframe", "frame"):
            if el.get("src") is not None:
                result["frames"].append({"url": urljoin(base, el.get("src")), "name": el.get("name")})
        elif tag == "script":
            if el.get("src") is None and el.text:
                scripted(el.text, True, base, result["scriptNavigations"], result["hooks"])
                if SUBMIT.search(el.text):
                    auto_submit = True
    for form in result["forms"]:
        form["autoSubmit"] = auto_submit
    return result


def main():
    args = sys.argv[1:]
    if not args:
        print(__doc__, file=sys.stderr)
        sys.exit(64)
    seconds = 1.0
    if "--seconds" in args:
        seconds = float(args[args.index("--seconds") + 1])
    corpus = args[0]
    pages = []
    for name in sorted(os.listdir(corpus)):
        # The pages only: --write-corpus also writes the generated flows (a flows/ folder) beside them.
        if not name.endswith(".html") or not os.path.isfile(os.path.join(corpus, name)):
            continue
        with open(os.path.join(corpus, name), "rb") as f:
            pages.append(f.read())
    total = sum(len(p) for p in pages)
    best = 0.0
    for _ in range(3):
        start = time.thread_time()
        rounds = 0
        while True:
            for p in pages:
                extract(p)
            rounds += 1
            elapsed = time.thread_time() - start
            if elapsed >= seconds:
                break
        best = max(best, rounds * total / elapsed / 1e6)
    print(json.dumps({"mb_per_s": best, "bytes": total, "pages": len(pages),
                      "lxml": ".".join(map(str, etree.LXML_VERSION)),
                      "libxml2": ".".join(map(str, etree.LIBXML_VERSION))}))


if __name__ == "__main__":
    main()
