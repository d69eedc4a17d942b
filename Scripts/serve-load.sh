#!/bin/bash
# The load figures of docs/helper-endpoints.md: wrk (2 threads, 64 keep-alive connections, 30 s) against a
# release build of `plainview serve` on 127.0.0.1, for a served page, a flood of refused requests, and the
# served page with every request line logged. Prints wrk's report and the bytes `serve` wrote to stderr.
#
#   apt-get install -y wrk && swift build -c release --product plainview && Scripts/serve-load.sh
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
bin="$root/.build/release/plainview"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

run() {
  local name=$1 path=$2; shift 2
  "$bin" serve --port 0 --root /swedbank-pay-mobile/ --public-url https://shop.example.com --app-scheme shop "$@" \
    > "$out/$name.out" 2> "$out/$name.err" &
  local pid=$!
  for _ in $(seq 1 100); do grep -q "listening on" "$out/$name.out" && break; sleep 0.1; done
  local url
  url=$(sed -n 's/^listening on \(http:[^ ]*\).*/\1/p' "$out/$name.out")
  local before after
  before=$(stat -c %s "$out/$name.err")
  wrk -t2 -c64 -d30s --latency "$url$path"
  after=$(stat -c %s "$out/$name.err")
  kill -TERM "$pid"
  wait "$pid" || true
  echo "== $name: $((after - before)) bytes written to stderr during the run"
  echo
}

run served "/swedbank-pay-mobile/sdk-callback/android-intent?package=com.example.shop&id=42"
run refused "/swedbank-pay-mobile/sdk-callback/ios-universal-link?scheme=itms-services&language=en-US&fallback=true"
run access-log "/swedbank-pay-mobile/sdk-callback/android-intent?package=com.example.shop&id=42" --log-level debug
