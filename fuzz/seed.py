#!/usr/bin/env python3
"""Seeds the fuzz corpora (fuzz/corpus/<target>/) from the vector files.

Reads every vector file under vectors/ (whatever files are there; see
vectors/README.md for the format) and writes one corpus file per distinct input,
named by the SHA-1 of its content as libFuzzer names them:

- msgpack_decode: each `msgpack` / `input_msgpack`, after a selector giving the case's
  type inline (fuzz/src/lib.rs, `select`), or asking for the implied type;
- json_decode: each `json` / `input_json`, the same way;
- roundtrip: both of the above, with the case's type (not implied ones);
- type_json: each `type_json`, and the type JSON of each case's type;
- type_expr: each `type_expr`.

Inputs longer than MAX_INPUT bytes (the 65,536-element boundary cases) are left out:
the fuzzer's own mutations are capped well below that. Existing corpus files are kept,
so this can run again after a fuzzing session without losing what the fuzzer found.

Usage: python3 fuzz/seed.py [--max-input N]
"""

import argparse
import hashlib
import json
import pathlib

ROOT = pathlib.Path(__file__).resolve().parent.parent
VECTORS = ROOT / "vectors"
CORPUS = ROOT / "fuzz" / "corpus"
TARGETS = ["msgpack_decode", "json_decode", "type_json", "type_expr", "roundtrip"]

IMPLIED = b"\xfe"


def inline_selector(ty):
    """The selector for a type given inline: 0x80, the length, the type JSON."""
    text = json.dumps(ty, separators=(",", ":"), ensure_ascii=False).encode()
    if len(text) > 255:
        return None
    return bytes([0x80, len(text)]) + text


def vector_files():
    for path in sorted(VECTORS.rglob("*.json")):
        try:
            doc = json.loads(path.read_text())
        except (ValueError, UnicodeDecodeError):
            continue
        if isinstance(doc, dict) and isinstance(doc.get("cases"), list):
            yield path, doc["cases"]


def seeds(max_input):
    out = {t: set() for t in TARGETS}
    for _path, cases in vector_files():
        for case in cases:
            if not isinstance(case, dict) or "skip" in case:
                continue
            ty = case.get("type")
            selector = inline_selector(ty) if ty is not None else None
            implied = "implied_type" in case or "implied_type_error" in case
            inputs = []
            for field in ("msgpack", "input_msgpack"):
                if field in case:
                    inputs.append(("msgpack", bytes.fromhex("".join(case[field].split()))))
            for field in ("json", "input_json"):
                if field in case:
                    inputs.append(("json", case[field].encode()))
            for kind, data in inputs:
                if len(data) > max_input:
                    continue
                target = kind + "_decode"
                if implied:
                    out[target].add(IMPLIED + data)
                if selector is not None:
                    out[target].add(selector + data)
                    out["roundtrip"].add(selector + data)
            if "type_json" in case and len(case["type_json"].encode()) <= max_input:
                out["type_json"].add(case["type_json"].encode())
            if ty is not None:
                out["type_json"].add(json.dumps(ty, separators=(",", ":")).encode())
            if "type_expr" in case and len(case["type_expr"].encode()) <= max_input:
                out["type_expr"].add(case["type_expr"].encode())
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--max-input", type=int, default=1024)
    args = parser.parse_args()
    for target, inputs in seeds(args.max_input).items():
        directory = CORPUS / target
        directory.mkdir(parents=True, exist_ok=True)
        new = 0
        for data in sorted(inputs):
            path = directory / hashlib.sha1(data).hexdigest()
            if not path.exists():
                path.write_bytes(data)
                new += 1
        total = sum(1 for p in directory.iterdir() if p.is_file())
        print(f"{target}: {len(inputs)} seeds, {new} new, {total} files")


if __name__ == "__main__":
    main()
