#!/usr/bin/env bash
# Coverage-guided fuzzing of the URL core, the policy and the app-switch parsers with libFuzzer
# (`swiftc -sanitize=fuzzer`). Compiles Sources/PlainviewSupport, Sources/PlainviewURL, Sources/NavigationPolicy and
# Sources/AppSwitch (their imports of each other removed) with NavigationPolicyFuzz.swift into one binary (not a
# package target), seeds each target from the conformance vectors (Tests/Vectors/conformance) and the
# committed seeds in Benchmarks/fuzz/seeds/TARGET/, and runs each target for a bounded time.
#
#   Benchmarks/fuzz/run.sh [SECONDS_PER_TARGET] [TARGET...]
#   (default: 60 s each; targets intent aasa appswitch url engine goodlist)
#   FUZZ_SKIP_COMPILE=1 reuses an existing binary (two runs side by side on two cores, same FUZZ_OUT).
#
# Work files go to .build/fuzz (corpus/, crashes/). Exit status 1 when any target found a crash; each crash
# input is in .build/fuzz/crashes/TARGET/crash-*; reproduce with
#   PLAINVIEW_FUZZ_TARGET=TARGET .build/fuzz/navigation-policy-fuzz .build/fuzz/crashes/TARGET/crash-…
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
seconds=${1:-60}
shift || true
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=(intent aasa appswitch url engine goodlist)
out=${FUZZ_OUT:-$root/.build/fuzz}
bin=$out/navigation-policy-fuzz
mkdir -p "$out"

if [ -n "${FUZZ_SKIP_COMPILE:-}" ] && [ -x "$bin" ]; then
    echo "using $bin (FUZZ_SKIP_COMPILE)"
else
echo "compiling $bin"
# One module: the four targets' sources (in their folders) without their imports of each other.
src=$out/src
rm -rf "$src" && mkdir -p "$src"
for module in PlainviewSupport PlainviewURL NavigationPolicy AppSwitch; do
    find "$root/Sources/$module" -name '*.swift' | while read -r f; do
        sed -E '/^(@testable )?import (PlainviewSupport|PlainviewURL|NavigationPolicy|AppSwitch)$/d' "$f" > "$src/${module}_$(basename "$f")"
    done
done
swiftc -sanitize=fuzzer -O -parse-as-library -module-name NavigationPolicyFuzz -package-name plainview \
    "$src"/*.swift "$root/Benchmarks/fuzz/NavigationPolicyFuzz.swift" -o "$bin"
fi

# Seed corpora from the conformance vectors (one input per file).
ROOT=$root python3 - "$root/Tests/Vectors/conformance" "$out/seeds" <<'PY'
import hashlib, json, os, sys
src, dst = sys.argv[1], sys.argv[2]
def write(target, data):
    d = os.path.join(dst, target); os.makedirs(d, exist_ok=True)
    b = data.encode() if isinstance(data, str) else data
    open(os.path.join(d, hashlib.sha1(b).hexdigest()), "wb").write(b)
def strings(v):
    if isinstance(v, str): yield v
    elif isinstance(v, list):
        for x in v: yield from strings(x)
    elif isinstance(v, dict):
        for x in v.values(): yield from strings(x)
def load(name): return json.load(open(os.path.join(src, name)))
for name in ["android_intent_uri_aosp_cts.json", "geckoview_intentutils_safe_uri.json", "android_external_navigation_chromium.json"]:
    for s in strings(load(name)["cases"]):
        if ":" in s or "#Intent;" in s: write("intent", s)
for name in ["aasa_blazingly_conformance.json", "aasa_blazingly_swcutil_gap_probes.json"]:
    for c in load(name)["cases"]:
        if "aasa" in c and "url" in c:
            write("aasa", json.dumps(c["aasa"], sort_keys=True).encode() + b"\0" + c["url"].encode())
for name in ["url_whatwg_urltestdata_subset.json", "url_whatwg_toascii.json", "react_native_webview_origin_whitelist.json"]:
    for s in strings(load(name)["cases"]):
        write("url", s)
        if ":" in s: write("engine", s)
for name in ["android_external_navigation_chromium.json", "geckoview_intentutils_safe_uri.json", "firefox_applinks_usecases.json"]:
    for s in strings(load(name)["cases"]):
        if ":" in s and " " not in s: write("engine", s)
for path in [os.path.join(os.environ.get("ROOT", "."), "Goodlist", "3ds.goodlist")]:
    if os.path.exists(path):
        text = open(path, "rb").read()
        for host in [b"a.payex.com", b"evilpayex.com", b"payex.com.evil.example", b"user@payex.com"]:
            write("goodlist", text + b"\0" + host)
write("goodlist", b"**.payex.com\n*.3dsecure.no source=x\nacs1.luottokunta.fi why=\"q \\\" v\"\n\0a.b.payex.com")
# Committed seeds: inputs that once found a bug stay in every run.
seeds = os.path.join(os.environ.get("ROOT", "."), "Benchmarks", "fuzz", "seeds")
if os.path.isdir(seeds):
    for target in os.listdir(seeds):
        for name in os.listdir(os.path.join(seeds, target)):
            write(target, open(os.path.join(seeds, target, name), "rb").read())
for s in [
    "swish://paymentrequest?token=c28a4061470f4af48973bd2a4642b4fa&callbackurl=merchant%3A%2F%2F",
    "swish://paymentrequest?token=T1&callbackurl=merchant%253A%252F%252F",
    "bankid:///?autostarttoken=7c40b5c9-fa74-49cf-b98c-bfe651f9a7c6&redirect=null",
    "https://app.bankid.com/?autostarttoken=7c40b5c9-fa74-49cf-b98c-bfe651f9a7c6&redirect=https%3A%2F%2Fshop.example%2Fdone",
    "https://assets.roamdata.com/transaction/?amount=1000&tip=100&tax=8.25&authToken=abc&invoiceID=INV1&hostURL=shopapp://&tenderType=card",
    "shopapp://?transactionResponse=eyJ0cmFuc2FjdGlvbnMiOlt7InJlc3BvbnNlQ29kZSI6IjQ5OTMifV19",
    "merchant://done?id=7&status=PAID",
    '{"transactions": [{"responseCode": 4993, "clerkDisplay": "DECLINED", "emvData": {"a": [1, 2.5, null, true]}}]}',
]:
    write("appswitch", s)
PY

status=0
for t in "${targets[@]}"; do
    mkdir -p "$out/corpus/$t" "$out/crashes/$t"
    echo "== $t: ${seconds}s"
    if ! PLAINVIEW_FUZZ_TARGET=$t SWIFT_BACKTRACE=enable=no "$bin" \
        -max_total_time="$seconds" -max_len=4096 -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
        -dict="$root/Benchmarks/fuzz/$t.dict" -artifact_prefix="$out/crashes/$t/" \
        "$out/corpus/$t" "$out/seeds/$t" 2>"$out/$t.log"; then
        echo "   CRASH — see $out/$t.log and $out/crashes/$t/"
        status=1
    fi
    grep -E "^stat::(number_of_executed_units|peak_rss_mb)|Done [0-9]+ runs" "$out/$t.log" | sed 's/^/   /' || true
    grep -E "^#[0-9]+.*(DONE|cov:)" "$out/$t.log" | tail -1 | sed 's/^/   /' || true
done
exit $status
