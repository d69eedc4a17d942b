#!/usr/bin/env python3
"""Generates Sources/PlainviewURL/Host/UTS46Table.swift: the UTS #46 mapping table and the character properties
IDNA validity needs (Bidi_Class, Joining_Type, General_Category=Mark, Canonical_Combining_Class=Virama).

Data (all from PyPI, no downloads of its own):
  * idna (uts46data.py: the UTS #46 IDNA Mapping Table; idnadata.py: Joining_Type)
  * unicodedata2 (Bidi_Class, General_Category, Canonical_Combining_Class) at the same Unicode version

The version is the one browsers' URL parsers implement, not the newest: node 20's WHATWG URL parser (what the
project checks against, Tests/Vectors/idna-codepoints.txt) follows UTS #46 15.0 — ẞ maps to `ss`, U+180E and
the Georgian capitals U+10A0… are disallowed, scripts of Unicode 15.1+ are refused — and UTS #46 15.1 changed
exactly those. So, with idna 3.4 (Unicode 15.0.0 data) and unicodedata2 15.0.0 kept apart from the installed ones:

    pip install --no-deps --target /tmp/idna-15 idna==3.4 && pip install --target /tmp/idna-15 unicodedata2==15.0.0
    PYTHONPATH=/tmp/idna-15 python3 Scripts/generate-uts46.py > Sources/PlainviewURL/Host/UTS46Table.swift

Processing is the URL Standard's: non-transitional (deviations are valid), UseSTD3ASCIIRules=false
(disallowed_STD3_valid is valid, disallowed_STD3_mapped is mapped).

Bidi_Class and Joining_Type, which CheckBidi and CheckJoiners read, are those of Unicode 13 in node's parser:
code points assigned later (Arabic letters U+0870…, Old Uyghur, …) have no right-to-left class and no joining
type there. So the generator asks a Python whose built-in unicodedata is 13.0.0 (CPython 3.9 or 3.10, named by
UNICODE13_PYTHON, default `python3.10`) which code points Unicode 13 assigned; the others get a Bidi_Class of
their own ("unknown": neither left-to-right nor right-to-left, allowed by no Bidi rule), Joining_Type U, and are
neither marks nor viramas.
"""
import os
import subprocess
import sys

import idna
import idna.idnadata as idnadata
import idna.uts46data as uts46data
import unicodedata2 as ud

VERSION = uts46data.__version__
if ud.unidata_version != VERSION:
    sys.exit(f"unicodedata2 is Unicode {ud.unidata_version}, uts46data is {VERSION}: install matching versions")

MAX = 0x110000

# --- Mapping table -------------------------------------------------------------------------------------------
# Per code point: ('V',), ('I',), ('X',), ('M', mapping string).
status = [None] * MAX
entries = list(uts46data.uts46data)
for i, e in enumerate(entries):
    start = e[0]
    end = entries[i + 1][0] if i + 1 < len(entries) else MAX
    code = e[1]
    mapping = e[2] if len(e) > 2 else None
    if code == 'V' or code == 'D':            # deviation: valid when not transitional
        st = ('V',)
    elif code == '3':                        # disallowed_STD3_*: UseSTD3ASCIIRules=false
        st = ('M', mapping) if mapping is not None else ('V',)
    elif code == 'M':
        st = ('M', mapping)
    elif code == 'I':
        st = ('I',)
    elif code == 'X':
        st = ('X',)
    else:
        sys.exit(f"unknown status {code!r} at {start:X}")
    for cp in range(start, end):
        status[cp] = st
for cp in range(0xD800, 0xE000):
    status[cp] = ('X',)

KIND_VALID, KIND_IGNORED, KIND_DISALLOWED, KIND_DELTA, KIND_POOL = 0, 1, 2, 3, 4
pool = []
pool_index = {}


def encode(cp):
    st = status[cp]
    if st[0] == 'V':
        return (KIND_VALID, 0)
    if st[0] == 'I':
        return (KIND_IGNORED, 0)
    if st[0] == 'X':
        return (KIND_DISALLOWED, 0)
    m = [ord(c) for c in st[1]]
    if len(m) == 1:
        return (KIND_DELTA, m[0] - cp)
    key = tuple(m)
    if key not in pool_index:
        pool_index[key] = len(pool)
        pool.extend(m)
    return (KIND_POOL, (pool_index[key] << 8) | len(m))


map_ranges = []  # (start, kind, payload)
for cp in range(MAX):
    k = encode(cp)
    if map_ranges and map_ranges[-1][1:] == k:
        continue
    map_ranges.append((cp, *k))


def info(kind, payload):
    if kind == KIND_DELTA:
        assert -0x200000 < payload < 0x200000
        payload += 0x200000
    assert payload < (1 << 29)
    return (kind << 29) | payload


# --- Properties ----------------------------------------------------------------------------------------------
BIDI = ['L', 'R', 'AL', 'EN', 'ES', 'ET', 'AN', 'CS', 'NSM', 'BN', 'B', 'S', 'WS', 'ON',
        'LRE', 'LRO', 'RLE', 'RLO', 'PDF', 'LRI', 'RLI', 'FSI', 'PDI', 'unknown']
JT = {None: 0, ord('L'): 1, ord('R'): 2, ord('D'): 3, ord('T'): 4, ord('C'): 5, ord('U'): 0}
jt = idnadata.joining_types
jt = jt() if callable(jt) else jt


ucd13_python = os.environ.get("UNICODE13_PYTHON", "python3.10")
ucd13 = subprocess.run(
    [ucd13_python, "-c", "import sys, unicodedata as u\n"
     "assert u.unidata_version == '13.0.0', u.unidata_version\n"
     "sys.stdout.write(''.join('1' if u.category(chr(c)) != 'Cn' else '0' for c in range(0x110000)))"],
    check=True, capture_output=True, text=True).stdout
assert len(ucd13) == MAX


def props(cp):
    c = chr(cp)
    known = ucd13[cp] == '1'
    if not known:
        return BIDI.index('unknown')
    value = BIDI.index(ud.bidirectional(c) or 'L')
    value |= JT[jt.get(cp)] << 5
    if ud.category(c) in ('Mn', 'Mc', 'Me'):
        value |= 1 << 8
    if ud.combining(c) == 9:
        value |= 1 << 9
    return value


# Properties are read only for code points whose status is valid (anything else has failed the label
# already), so every other code point takes its predecessor's value and runs stay long.
prop_ranges = []
current = None
for cp in range(MAX):
    if status[cp][0] != 'V':
        continue
    v = props(cp)
    if v != current:
        prop_ranges.append((cp, v))
        current = v
if prop_ranges[0][0] != 0:
    prop_ranges[0] = (0, prop_ranges[0][1])


def rows(values, per_line, fmt):
    out = []
    for i in range(0, len(values), per_line):
        out.append("        " + ", ".join(fmt(v) for v in values[i:i + per_line]) + ",")
    return "\n".join(out)


w = sys.stdout.write
w(f"""// GENERATED by Scripts/generate-uts46.py — do not edit.
// UTS #46 IDNA Mapping Table, Unicode {VERSION} (idna {idna.__version__} uts46data), non-transitional,
// UseSTD3ASCIIRules=false; properties from unicodedata2 {ud.unidata_version} and idna's Joining_Type data, Bidi_Class
// only for code points Unicode 13.0 assigned (as node's URL parser has them; later ones are "unknown").
// {len(map_ranges)} mapping ranges, {len(pool)} pooled mapping code points, {len(prop_ranges)} property ranges.

enum UTS46Table {{
    static let unicodeVersion = "{VERSION}"

    // Mapping: range i covers mapStarts[i] ..< mapStarts[i + 1]. mapInfo: bits 29...31 kind
    // (0 valid, 1 ignored, 2 disallowed, 3 mapped to code point + (payload - 0x200000),
    // 4 mapped to mapPool[payload >> 8 ..< +(payload & 0xFF)]), bits 0...28 payload.
    static let mapStarts: [UInt32] = [
{rows([r[0] for r in map_ranges], 12, lambda v: f"0x{v:X}")}
    ]
    static let mapInfo: [UInt32] = [
{rows([info(r[1], r[2]) for r in map_ranges], 10, lambda v: f"0x{v:X}")}
    ]
    static let mapPool: [UInt32] = [
{rows(pool, 12, lambda v: f"0x{v:X}")}
    ]

    // Properties of valid code points: range i covers propStarts[i] ..< propStarts[i + 1]. propInfo: bits 0...4
    // Bidi_Class (index into IDNA.BidiClass), bits 5...7 Joining_Type (0 U, 1 L, 2 R, 3 D, 4 T, 5 C),
    // bit 8 General_Category Mark, bit 9 Canonical_Combining_Class Virama.
    static let propStarts: [UInt32] = [
{rows([r[0] for r in prop_ranges], 12, lambda v: f"0x{v:X}")}
    ]
    static let propInfo: [UInt16] = [
{rows([r[1] for r in prop_ranges], 14, lambda v: f"0x{v:X}")}
    ]
}}
""")
