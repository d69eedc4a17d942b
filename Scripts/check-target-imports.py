#!/usr/bin/env python3
"""Checks that every target of Package.swift declares each package target it imports.

A target that imports a module it does not list still builds where that module happens to be built first, and
fails in a fresh build where it is not (the build order is free). Reads Package.swift and the Swift files of each
target's folder (Sources/NAME or Tests/NAME); prints each missing dependency and exits 1, or exits 0.
    python3 Scripts/check-target-imports.py
"""
import glob
import os
import re
import sys

root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
manifest = open(os.path.join(root, "Package.swift"), encoding="utf-8").read()
# One chunk per target declaration: `.target(`, `.testTarget(`, `.executableTarget(`, `.systemLibrary(`.
chunks = re.split(r"\n\s*\.(?=testTarget\(|target\(|executableTarget\(|systemLibrary\()", manifest)
targets = {}
for chunk in chunks[1:]:
    m = re.search(r'name:\s*"([^"]+)"', chunk)
    if m:
        targets[m.group(1)] = set(re.findall(r'"([A-Za-z0-9_-]+)"', chunk[m.end():]))
if not targets:
    sys.exit("check-target-imports: no targets found in Package.swift")
modules = {name.replace("-", "_") for name in targets}
problems = []
for name, dependencies in sorted(targets.items()):
    folder = os.path.join(root, "Tests" if name.endswith("Tests") else "Sources", name)
    imported = set()
    for path in glob.glob(os.path.join(folder, "**", "*.swift"), recursive=True):
        text = open(path, encoding="utf-8").read()
        imported |= set(re.findall(r"^(?:@testable |internal |package |public )?import (\w+)", text, re.M))
    for module in sorted(imported & modules - dependencies - {name.replace("-", "_")}):
        problems.append(f"Package.swift: target {name} imports {module} but does not list it in its dependencies")
for p in problems:
    print(p)
print(f"check-target-imports: {len(targets)} targets, {len(problems)} missing dependencies", file=sys.stderr)
sys.exit(1 if problems else 0)
