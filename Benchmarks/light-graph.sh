#!/usr/bin/env bash
# What an app pays for depending on NavigationPolicy and PlainviewConfig: packages checked out, wall time of
# `swift package resolve` and of `swift build` (debug), and the size of the app's .build folder.
#   Benchmarks/light-graph.sh URL VERSION [TRAITS]
# URL is how the app names Plainview (a git URL with a tag VERSION, e.g. file:///tmp/clone/Plainview with
# `git tag 0.5.0` in it); TRAITS is the `traits:` argument of the app's .package line, e.g. '[]' (the light graph),
# or nothing for the default traits. The app package lives in a new temporary folder, with no dependency or
# manifest cache shared with other builds (--disable-dependency-cache, --manifest-cache local).
set -euo pipefail
url=$1 version=$2 traits=${3:-}
app=$(mktemp -d /tmp/plainview-app.XXXXXX)
mkdir -p "$app/Sources/Checkout"
cat >"$app/Package.swift" <<MANIFEST
// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "Checkout",
    platforms: [.macOS(.v15), .iOS(.v18)],
    dependencies: [.package(url: "$url", from: "$version"${traits:+, traits: $traits})],
    targets: [
        .executableTarget(
            name: "Checkout",
            dependencies: [
                .product(name: "NavigationPolicy", package: "Plainview"),
                .product(name: "PlainviewConfig", package: "Plainview"),
            ]
        )
    ]
)
MANIFEST
cat >"$app/Sources/Checkout/main.swift" <<'SOURCE'
import NavigationPolicy
import PlainviewConfig

let policy = try PolicyFile.parse(
    """
    paymentUrl: https://pay.example.com/checkout
    completeUrl: https://shop.example.com/done
    cancelUrl: https://shop.example.com/cancel
    """)
print(NavigationPolicyEngine(policy: policy).decide(Navigation(url: "https://shop.example.com/done")).action)
SOURCE
cd "$app"
opts=(--disable-dependency-cache --manifest-cache local)
t0=$(date +%s.%N)
swift package "${opts[@]}" resolve >resolve.log 2>&1
t1=$(date +%s.%N)
swift build "${opts[@]}" >build.log 2>&1
t2=$(date +%s.%N)
echo "app:         $app (.package(url: \"$url\", from: \"$version\"${traits:+, traits: $traits}))"
echo "checked out: $(ls .build/checkouts | wc -l) ($(ls .build/checkouts | tr '\n' ' '))"
printf 'resolve:     %.1f s\nbuild:       %.1f s\n' "$(echo "$t1 - $t0" | bc)" "$(echo "$t2 - $t1" | bc)"
size() { du -sh "$1" | cut -f1; }
echo ".build:      $(size .build) (checkouts $(size .build/checkouts), repositories $(size .build/repositories))"
echo "modules:     $(ls .build/debug/Modules | sed -n 's/\.swiftmodule$//p' | tr '\n' ' ')"
echo "runs:        $(.build/debug/Checkout)"
