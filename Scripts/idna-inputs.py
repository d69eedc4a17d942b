#!/usr/bin/env python3
"""Host inputs for Tests/Vectors/IdnaTestNode.json, in the spirit of Unicode's IdnaTestV2: mapping (mapped,
deviation, ignored, disallowed, full stops), NFC, Punycode (valid, invalid, non-canonical), leading marks,
CheckJoiners (ContextJ), CheckBidi (RFC 5893), and seeded random mixes of all of them. Writes a JSON array.

    python3 Scripts/idna-inputs.py | node Scripts/idna-vectors.js cases > Tests/Vectors/IdnaTestNode.json

The committed file was made with idna 3.13 (uts46data 17.0.0) and unicodedata2 17.0.0 installed, node 20.20.2;
the inputs are seeded, so the same versions give the same file. The expected hosts are node's whatever the versions.
"""
import json
import random
import sys

import idna.idnadata as idnadata
import idna.uts46data as uts46data
import unicodedata2 as ud

rng = random.Random(46)
inputs = []


def add(*xs):
    inputs.extend(xs)


def punycode(label):
    return "xn--" + label.encode("punycode").decode("ascii")


# Cases from Unicode's IdnaTestV2 and the issue.
add("fass.de", "faß.de", "Faß.de", "xn--fa-hia.de", "à.א̈", "a\u0300.\u05d0\u0308", "xn--0ca.xn--ssa73l",
    "a\u200cb", "xn--ab-j1t", "a\u094d\u200cb", "xn--ab-fsf604u", "a\u200db", "xn--ab-m1t", "a\u094d\u200db",
    "xn--ab-fsf014u", "¡", "xn--7a", "\u19da", "\u3002", ".", "\uab60", "www.eXample.cOm", "Bücher.de",
    "βόλος.com", "ΒΌΛΟΣ.COM", "xn--nxasmm1c", "www.\u0dc1\u0dca\u200d\u0dbb\u0dd3.com", "www.xn--10cl1a0b660p.com",
    "\u0646\u0627\u0645\u0647\u200c\u0627\u06cc", "xn--mgba3gch31f060k.com", "a.b\uff0ec\u3002d\uff61",
    "U\u0308.xn--tda", "xn--u-ccb", "a\u2488com", "xn--acom-0w1b", "xn--a-ecp.ru", "xn--0.pt", "xn--a.pt",
    "xn--a-Ä.pt", "XN--A-Ä.PT", "xn--xn--a--gua.pt", "日本語。ＪＰ", "\u2615", "xn--53h", "xn--a", "xn--",
    "xn--.example", "XN--FA-HIA.de", "xn--fa-HIA.de", "xn--ab-", "xn---tda", "xn--tda-", "xn--99999999999",
    "xn--ls8h", "xn--abc", "xn--zca", "x\u0d4e.payex.com", "acs.STRA\u1e9eE.de", "a\u180eb", "a\u206ab",
    "a\u00adb", "a\ufe0fb", "\u0301a", "a.\u0301b", "a.b\u0301", "xn--5ca", "ab\u034f", "a\u200bb",
    "1.xn--mgba3gch31f", "xn--mgba3gch31f.1", "a.xn--4db", "\u05d0.com", "\u05d01", "1\u05d0", "\u05d0a",
    "\u0627\u0661", "\u0627\u0661\u06f1", "\u0627\u06f1", "\u0627\u0661 1", "\u0627\u0300", "\u0300\u0627",
    "\u05d0\u05b0", "\u05d0-\u05d1", "\u05d0.-", "a.\u05d0", "a-.\u05d0", "\u0661", "\u0661.a", "a\u0661",
    "\ufdfa", "\u2474", "\u2100", "\u33c2", "\u1e9e", "\u03c2", "\u03a3", "\u0130", "K", "\u212a", "\u00bd",
    "%41.com", "%e2%98%95", "%zz.com", "a%2Eb", "xn--a%2Eb", "１２７．０．０．１", "0x7f.0.0.1", "\uff10x7f.1",
    "a\u3002\u3002b", "a..b", "a.", "a..", "\u3002a", "a\uff0e", "a\uff61\uff61", "\u2024", "a\u2024b",
    "\ufe52", "a\ufe52b", "\u2488", "\u2474.com", "\u00a0", "a\u00a0b", "a\u3000b", "a\u2028b", "a\ufffdb",
    "a\ufffcb", "a\U000e0001b", "a\U000e0100b", "a\U0001f4a9b", "\U00010fff", "a\u2F00b", "a\u2ff0b",
    "\u1100\u1161\u11a8", "\uac00", "a\u0338", "<\u0338", "=\u0338", ">\u0338", "a<b", "a>b", "a^b", "a|b",
    "a_b", "a*b", "a!b", "a$b", "a&b", "a'b", "a(b", "a+b", "a,b", "a;b", "a=b", "a`b", "a{b", "a}b", "a~b",
    "a\"b", "\u2a74", "\u2a75", "a\ufe6bb", "a\uff03b", "a\uff05b", "a\uff0fb", "a\uff1ab", "a\uff1fb",
    "a\uff20b", "a\uff3bb", "a\uff3cb", "a\uff3db", "a\uff3eb", "a\uff5cb", "a\u2100b", "a\u2101b")

# Every mapped, deviation, ignored and STD3 entry of the table, one code point each (first of its range).
for e in uts46data.uts46data:
    cp, st = e[0], e[1]
    if 0xD800 <= cp <= 0xDFFF or cp < 0x80:
        continue
    if st in ("M", "D", "I", "3") or (st == "X" and rng.random() < 0.2):
        add("x" + chr(cp) + "y.example")
        if st == "M" and rng.random() < 0.05:
            add(chr(cp) + ".example", "x." + chr(cp))

# Valid code points: their xn-- forms round trip; upper-cased or altered xn-- forms do not.
valid = [cp for cp in range(0x80, 0x30000) if ud.category(chr(cp)) not in ("Cn", "Cs", "Co")]
lookup = {}
entries = uts46data.uts46data
starts = [e[0] for e in entries]
import bisect


def status(cp):
    return entries[bisect.bisect_right(starts, cp) - 1][1]


valid = [cp for cp in valid if status(cp) == "V"]
for _ in range(1500):
    label = "".join(chr(rng.choice(valid)) for _ in range(rng.randint(1, 5)))
    if rng.random() < 0.5:
        label = "ab" + label
    add(label + ".test")
    try:
        p = punycode(label)
    except Exception:
        continue
    add(p + ".test")
    if rng.random() < 0.3:
        add(p.upper() + ".test", p[:-1] + ".test", p + "a.test", p.replace("xn--", "xn--a") + ".test")

# Leading and trailing marks, marks after dots.
marks = [cp for cp in valid if ud.category(chr(cp)) in ("Mn", "Mc", "Me")]
for _ in range(300):
    m = chr(rng.choice(marks))
    add(m + "a.test", "a" + m + ".test", "a." + m + "b", "x" + "." + m)
    try:
        add(punycode(m + "a") + ".test")
    except Exception:
        pass

# CheckJoiners.
jt = idnadata.joining_types
jt = jt() if callable(jt) else jt
by_type = {}
for cp, t in jt.items():
    if status(cp) == "V":
        by_type.setdefault(chr(t), []).append(cp)
viramas = [cp for cp in valid if ud.combining(chr(cp)) == 9]
for _ in range(400):
    l = chr(rng.choice(by_type["L"] + by_type["D"] + by_type["R"] + by_type["U"] if "U" in by_type else by_type["L"] + by_type["D"] + by_type["R"]))
    r = chr(rng.choice(by_type["R"] + by_type["D"] + by_type["L"]))
    t = "".join(chr(rng.choice(by_type["T"])) for _ in range(rng.randint(0, 2)))
    j = rng.choice(["\u200c", "\u200d"])
    add(l + t + j + t + r, l + j, j + r, "a" + chr(rng.choice(viramas)) + j + "b", chr(rng.choice(viramas)) + j)
    try:
        add(punycode(l + t + j + t + r))
    except Exception:
        pass

# CheckBidi.
bidi = {}
for cp in valid:
    bidi.setdefault(ud.bidirectional(chr(cp)), []).append(cp)
pieces = [p for p in ["R", "AL", "AN", "EN", "L", "NSM", "ES", "CS", "ET", "ON", "BN"] if p in bidi]
for _ in range(1500):
    label = "".join(chr(rng.choice(bidi[rng.choice(pieces)])) for _ in range(rng.randint(1, 4)))
    other = rng.choice(["a", "1", "a1", "1a", "\u05d0", "\u0627", "\u0661", "xn--4db", "", "-", "a-", "\u05d01"])
    add(label + "." + other, other + "." + label, label)

# Random mixes.
pool = [0x2e, 0x3002, 0xff0e, 0xff61, 0x200c, 0x200d, 0xad, 0x180e, 0x34f, 0xdf, 0x3c2, 0x1e9e, 0x41, 0x2d, 0x30]
pool += [e[0] for e in entries if 0x80 <= e[0] < 0x30000 and not (0xD800 <= e[0] <= 0xDFFF)]
for _ in range(1500):
    add("".join(chr(rng.choice(pool)) for _ in range(rng.randint(1, 6))) + rng.choice(["", ".com", ".xn--tda"]))

seen = set()
unique = []
for s in inputs:
    if s not in seen and "\x00" not in s:
        seen.add(s)
        unique.append(s)
json.dump(unique, sys.stdout, ensure_ascii=True)
