#!/usr/bin/env python3
"""Validates config documents against Plainview's JSON Schemas (draft 2020-12) with the `jsonschema` package.

Reads one JSON object on stdin: {"schemas": DIR, "documents": [{"name": N, "schema": "flow.schema.json",
"value": …}, …]} (the test converts each YAML file to JSON with Plainview's own config reader). Prints one line
per problem, `NAME: PATH: MESSAGE`, and exits 1 when there is any; 0 when every document is valid.
Relative `$ref`s between the schemas resolve as an editor resolves them: against the schema file's location.
"""
import json
import os
import sys

from jsonschema import Draft202012Validator
from referencing import Registry, Resource


def main():
    request = json.load(sys.stdin)
    folder = os.path.abspath(request["schemas"])
    resources = []
    for name in sorted(os.listdir(folder)):
        if name.endswith(".schema.json"):
            with open(os.path.join(folder, name), encoding="utf-8") as f:
                schema = json.load(f)
            Draft202012Validator.check_schema(schema)
            schema["$id"] = "file://" + os.path.join(folder, name)
            resources.append((schema["$id"], Resource.from_contents(schema)))
    registry = Registry().with_resources(resources)
    problems = 0
    for doc in request["documents"]:
        schema = registry["file://" + os.path.join(folder, doc["schema"])].contents
        validator = Draft202012Validator(schema, registry=registry)
        for error in sorted(validator.iter_errors(doc["value"]), key=lambda e: list(e.absolute_path)):
            path = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in error.absolute_path).lstrip(".")
            print(f"{doc['name']}: {path or '(root)'}: {error.message[:300]}")
            problems += 1
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
