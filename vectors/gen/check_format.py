#!/usr/bin/env python3
"""Check the vector files against the format described in ../README.md.

Checks that every file parses, case names are unique within a file, every case has the
fields its kind needs (and no field that contradicts its kind), hex is valid, error kinds
and paths are well-formed, canonical JSON texts are valid JSON, and types are valid type
JSON. It does not run the cases (check_model.py does, against the executable model).

Usage: python3 vectors/gen/check_format.py [FILE...]     exit status 1 on any problem
"""

import json
import os
import re
import sys

VECTORS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

ERROR_KINDS = {"UnexpectedEof", "Syntax", "TypeMismatch", "InvalidValue", "LimitExceeded"}
JSON_ENCODE_MESSAGES = {"value is not known", "cannot serialize infinity as JSON"}
KNOWN_FIELDS = {
    "name", "source", "note", "skip", "difference", "gocty", "checked",
    "type", "type_expr", "type_json", "type_json_canonical", "type_json_error", "type_expr_error",
    "input_msgpack", "input_json", "implied_type", "implied_type_error",
    "msgpack", "json", "msgpack_from_json", "json_encode_error", "error",
}
HEX = re.compile(r"^(?:[0-9a-f]{2})*$")
# Steps as ctywire prints them (Terraform's FormatCtyPath): .name, [0], ["key"], and a set
# element by its value: a number (1.5, -1e+06, +Inf), null, (not yet known), ...
PATH = re.compile(r'^(?:\.[^.\[]+|\[(?:[-+]?[\d.]+(?:e[-+]\d+)?|[-+]Inf|null|\(not yet known\)|\.\.\.|"(?:[^"\\]|\\.)*")\])*$')


class Problems:
    def __init__(self):
        self.items = []

    def add(self, where, msg):
        self.items.append(f"{where}: {msg}")


def strict_json(text):
    def bad(name):
        raise ValueError(f"invalid literal {name}")
    return json.loads(text, parse_constant=bad)


def valid_type(t):
    if isinstance(t, str):
        return t in ("bool", "number", "string", "dynamic")
    if not isinstance(t, list) or not t or not isinstance(t[0], str):
        return False
    kind = t[0]
    if kind in ("list", "set", "map"):
        return len(t) == 2 and valid_type(t[1])
    if kind == "tuple":
        return len(t) == 2 and isinstance(t[1], list) and all(valid_type(e) for e in t[1])
    if kind == "object":
        if len(t) not in (2, 3) or not isinstance(t[1], dict) or not all(valid_type(v) for v in t[1].values()):
            return False
        if len(t) == 3:
            return isinstance(t[2], list) and t[2] and all(isinstance(n, str) and n in t[1] for n in t[2])
        return True
    return False


def check_hex(p, where, field, value):
    if not isinstance(value, str) or not HEX.match(value):
        p.add(where, f"{field} is not lowercase hex with an even number of digits")


def check_case(p, where, c):
    for k in c:
        if k not in KNOWN_FIELDS:
            p.add(where, f"unknown field {k!r} (ignored by the runner; add it to the README if it is meant)")
    for k in ("name", "source"):
        if not isinstance(c.get(k), str) or not c.get(k):
            p.add(where, f"missing or empty {k}")
    for k in ("note", "skip", "difference", "checked"):
        if k in c and not isinstance(c[k], str):
            p.add(where, f"{k} must be a string")
    if ("difference" in c) != ("gocty" in c):
        p.add(where, "difference and gocty go together")
    if "gocty" in c:
        g = c["gocty"]
        if isinstance(g, dict):
            if not set(g) <= {"msgpack", "error", "panics"} or not g:
                p.add(where, "gocty object may hold msgpack, error or panics")
            if "msgpack" in g:
                check_hex(p, where, "gocty.msgpack", g["msgpack"])
        elif not isinstance(g, str):
            p.add(where, "gocty must be a string or an object")
    for k in ("msgpack", "input_msgpack", "msgpack_from_json"):
        if k in c:
            check_hex(p, where, k, c[k])
    for k in ("json", "input_json", "type_json", "type_json_canonical", "type_expr"):
        if k in c and not isinstance(c[k], str):
            p.add(where, f"{k} must be a string holding the text")
    for k in ("json", "type_json_canonical"):
        if isinstance(c.get(k), str):
            try:
                strict_json(c[k])
            except ValueError as e:
                p.add(where, f"{k} is not valid JSON: {e}")
    for k in ("type", "implied_type"):
        if k in c and not valid_type(c[k]):
            p.add(where, f"{k} is not a valid type JSON value: {c[k]!r}")

    kinds = []
    if "type_json" in c:
        kinds.append("type_json")
    if "type_expr" in c:
        kinds.append("type_expr")
    if "implied_type" in c or "implied_type_error" in c:
        kinds.append("implied")
    if not kinds:
        kinds.append("value")
    if len(kinds) > 1:
        p.add(where, f"case mixes kinds {kinds}")
        return
    kind = kinds[0]
    if "skip" in c:
        return

    def only(allowed):
        extra = set(c) - allowed - {"name", "source", "note", "difference", "gocty", "checked"}
        if extra:
            p.add(where, f"fields {sorted(extra)} do not belong in a {kind} case")

    if kind == "type_json":
        if "type_json_error" in c:
            check_error_kind(p, where, c["type_json_error"], "type_json_error")
            only({"type_json", "type_json_error"})
        else:
            if "type" not in c:
                p.add(where, "type_json case without type (the parsed type)")
            only({"type_json", "type_json_canonical", "type"})
        return
    if kind == "type_expr":
        if ("type" in c) == ("type_expr_error" in c):
            p.add(where, "type_expr case needs exactly one of type and type_expr_error")
        if "type_expr_error" in c:
            check_error_kind(p, where, c["type_expr_error"], "type_expr_error")
        only({"type_expr", "type", "type_expr_error"})
        return
    if kind == "implied":
        if ("input_msgpack" in c) == ("input_json" in c):
            p.add(where, "implied-type case needs exactly one of input_msgpack and input_json")
        if ("implied_type" in c) == ("implied_type_error" in c):
            p.add(where, "implied-type case needs exactly one of implied_type and implied_type_error")
        if "implied_type_error" in c:
            check_error_kind(p, where, c["implied_type_error"], "implied_type_error")
            only({"input_msgpack", "input_json", "implied_type_error"})
        else:
            only({"input_msgpack", "input_json", "implied_type", "json", "msgpack", "msgpack_from_json"})
        return
    # value case
    if "type" not in c:
        p.add(where, "value case without type")
    inputs = [k for k in ("input_msgpack", "input_json") if k in c]
    if len(inputs) > 1:
        p.add(where, "at most one of input_msgpack and input_json")
    if "error" in c:
        if not inputs:
            p.add(where, "error needs input_msgpack or input_json")
        e = c["error"]
        check_error_kind(p, where, e, "error")
        if isinstance(e, dict):
            if not isinstance(e.get("path"), str) or not PATH.match(e["path"]):
                p.add(where, f"error.path {e.get('path')!r} is not a path")
            if "offset" in e:
                if "input_msgpack" not in c:
                    p.add(where, "error.offset only for msgpack input")
                elif not isinstance(e["offset"], int) or not 0 <= e["offset"] <= len(c["input_msgpack"]) // 2:
                    p.add(where, "error.offset out of range")
            if set(e) - {"kind", "path", "offset"}:
                p.add(where, "error holds only kind, path, offset")
        only({"type", "input_msgpack", "input_json", "error"})
        return
    outputs = [k for k in ("msgpack", "json", "json_encode_error") if k in c]
    if not outputs:
        p.add(where, "value case without msgpack, json or json_encode_error")
    if "json_encode_error" in c:
        je = c["json_encode_error"]
        if not isinstance(je, dict) or set(je) != {"message", "path"}:
            p.add(where, "json_encode_error needs exactly message and path")
        else:
            if je["message"] not in JSON_ENCODE_MESSAGES:
                p.add(where, f"json_encode_error.message {je['message']!r} is not one of {sorted(JSON_ENCODE_MESSAGES)}")
            if not PATH.match(je["path"]):
                p.add(where, f"json_encode_error.path {je['path']!r} is not a path")
        if "json" in c:
            p.add(where, "json and json_encode_error exclude each other")
        if "msgpack" not in c and "input_msgpack" not in c and "input_json" not in c:
            p.add(where, "json_encode_error needs a value from msgpack or an input")
    if "msgpack_from_json" in c and "json" not in c and "input_json" not in c:
        p.add(where, "msgpack_from_json needs json or input_json")
    if "msgpack_from_json" in c and c.get("msgpack_from_json") == c.get("msgpack"):
        p.add(where, "msgpack_from_json equal to msgpack is redundant")
    only({"type", "input_msgpack", "input_json", "msgpack", "json", "msgpack_from_json", "json_encode_error"})


def check_error_kind(p, where, e, field):
    if not isinstance(e, dict) or e.get("kind") not in ERROR_KINDS:
        p.add(where, f"{field} needs a kind in {sorted(ERROR_KINDS)}")


def check_file(p, path):
    rel = os.path.relpath(path, VECTORS)
    try:
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
    except (OSError, ValueError) as e:
        p.add(rel, f"does not parse: {e}")
        return 0
    if not isinstance(doc, dict) or set(doc) != {"description", "cases"}:
        p.add(rel, "top level must be {\"description\": ..., \"cases\": [...]}")
        return 0
    if not isinstance(doc["description"], str) or not doc["description"]:
        p.add(rel, "empty description")
    names = set()
    for i, c in enumerate(doc["cases"]):
        if not isinstance(c, dict):
            p.add(f"{rel}[{i}]", "case is not an object")
            continue
        where = f"{rel} {c.get('name', f'[{i}]')}"
        if c.get("name") in names:
            p.add(where, "duplicate name")
        names.add(c.get("name"))
        check_case(p, where, c)
    return len(doc["cases"])


def main(args):
    files = args
    if not files:
        for sub in ("go-cty", "ctywire"):
            d = os.path.join(VECTORS, sub)
            files += [os.path.join(d, n) for n in sorted(os.listdir(d)) if n.endswith(".json")]
    p = Problems()
    total = 0
    for f in files:
        n = check_file(p, f)
        total += n
        print(f"{os.path.relpath(f, VECTORS)}: {n} cases")
    for item in p.items:
        print("PROBLEM", item)
    print(f"{len(files)} files, {total} cases, {len(p.items)} problems")
    return 1 if p.items else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
