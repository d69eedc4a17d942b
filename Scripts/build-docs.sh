#!/usr/bin/env bash
# Builds the reference documentation (DocC) of the two products an app embeds, NavigationPolicy and
# PlainviewConfig, into .build/docs/NAME.doccarchive, from their public symbols and their catalogues
# (Sources/NAME/NAME.docc). A broken symbol link or any other DocC warning fails the build.
#   Scripts/build-docs.sh            (then open .build/docs/NAME.doccarchive with `docc preview` or Xcode)
set -euo pipefail
cd "$(dirname "$0")/.."
docc=$(command -v docc || true)
if [ -z "$docc" ]; then
    docc=$(dirname "$(readlink -f "$(command -v swift)")")/docc
fi
[ -x "$docc" ] || { echo "build-docs: docc not found (it ships with the Swift toolchain)" >&2; exit 1; }
# The symbol graphs of every module (a debug build first, as `swift build` makes it).
mkdir -p .build/docs
# It also tries the test modules, which a build without tests lacks ("Couldn't load module
# 'PlainviewPackageTests'"): its status is not this script's; the two graphs it must write are checked below.
touch .build/symbol-graph.start
swift package dump-symbol-graph --minimum-access-level public > .build/symbol-graph.log 2>&1 || true
graphs=$(sed -n 's/^Files written to //p' .build/symbol-graph.log | tail -1)
for module in NavigationPolicy PlainviewConfig; do
    if [ ! -f "$graphs/$module.symbols.json" ] || [ "$graphs/$module.symbols.json" -ot .build/symbol-graph.start ]; then
        cat .build/symbol-graph.log >&2
        echo "build-docs: no fresh symbol graph for $module (see above)" >&2
        exit 1
    fi
done
for module in NavigationPolicy PlainviewConfig; do
    only=$(mktemp -d)
    cp "$graphs/$module".symbols.json "$graphs/$module"@*.symbols.json "$only"/ 2>/dev/null || cp "$graphs/$module".symbols.json "$only"/
    rm -rf ".build/docs/$module.doccarchive"
    "$docc" convert "Sources/$module/$module.docc" --additional-symbol-graph-dir "$only" \
        --output-path ".build/docs/$module.doccarchive" --fallback-display-name "$module" \
        --fallback-bundle-identifier "org.plainview.$module" --warnings-as-errors
    rm -rf "$only"
    echo "build-docs: .build/docs/$module.doccarchive"
done
