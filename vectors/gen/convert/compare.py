#!/usr/bin/env python3
"""Lists where two runs of the convert generator differ (by case, by field).

    python3 compare.py ../../convert/gocty.json /tmp/convert-1.12.1.json

Cases only one run has (go-cty 1.12.1 has no refinements, so it runs none of the
refined.go cases) are counted, not listed.
"""

import json
import sys

FIELDS = ["safe", "unsafe", "want", "want_json", "want_type", "error", "error_path", "panic", "marshal", "marshal_json"]


def main(a_path, b_path):
    a = json.load(open(a_path))
    b = json.load(open(b_path))
    print("A:", a["generator"])
    print("B:", b["generator"])
    b_cases = {c["name"]: c for c in b["cases"]}
    same = differ = 0
    for c in a["cases"]:
        other = b_cases.get(c["name"])
        if other is None:
            continue
        fields = [f for f in FIELDS if c.get(f) != other.get(f)]
        if fields:
            differ += 1
            print(f"{c['name']}:")
            for f in fields:
                print(f"  {f}: {json.dumps(c.get(f))}")
                print(f"  {' ' * len(f)}  {json.dumps(other.get(f))}")
        else:
            same += 1
    only = len(a["cases"]) - same - differ
    b_unify = {u["name"]: u for u in b["unify"]}
    unify_same = sum(1 for u in a["unify"] if b_unify.get(u["name"]) == u)
    print(f"conversion cases: {same} agree, {differ} differ, {only} only in A")
    print(f"unify cases: {unify_same} of {len(a['unify'])} agree")


if __name__ == "__main__":
    main(*sys.argv[1:3])
