"""Reading and writing vector files in one stable layout."""

import json
import os

VECTORS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# Field order in written cases (unknown fields go last, sorted).
FIELD_ORDER = [
    "name", "source", "note", "skip", "difference", "gocty",
    "type", "type_expr", "type_json", "type_json_canonical", "type_json_error", "type_expr_error",
    "input_msgpack", "input_json", "implied_type", "implied_type_error",
    "msgpack", "json", "msgpack_from_json", "json_encode_error", "error",
    "checked",
]


def order_case(case):
    out = {}
    for k in FIELD_ORDER:
        if k in case:
            out[k] = case[k]
    for k in sorted(case):
        if k not in out:
            out[k] = case[k]
    return out


def dumps(doc):
    text = json.dumps(doc, indent=1, ensure_ascii=False)
    # keep the files readable and safe for line-oriented tools
    for ch, esc in (("\u2028", "\\u2028"), ("\u2029", "\\u2029"), ("\x7f", "\\u007f"),
                    ("\u0085", "\\u0085"), ("\ufeff", "\\ufeff")):
        text = text.replace(ch, esc)
    return text + "\n"


def write_file(path, description, cases):
    names = set()
    for c in cases:
        assert c["name"] not in names, f"duplicate case name {c['name']} in {path}"
        names.add(c["name"])
    doc = {"description": description, "cases": [order_case(c) for c in cases]}
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write(dumps(doc))


def load(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def all_files():
    out = []
    for sub in ("go-cty", "ctywire"):
        d = os.path.join(VECTORS, sub)
        if os.path.isdir(d):
            for n in sorted(os.listdir(d)):
                if n.endswith(".json"):
                    out.append(os.path.join(d, n))
    return out
