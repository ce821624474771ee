#!/usr/bin/env python3
"""Builds the fuzz corpora (fuzz/corpus/<target>/, not committed) from what is.

Copies each target's committed inputs, fuzz/seeds/<target>/ and
fuzz/regressions/<target>/ (under their own names), and adds the inputs the vector
files give: it reads every vector file under vectors/ (whatever files are there; see
vectors/README.md for the format) and writes one corpus file per distinct input,
named by the SHA-1 of its content as libFuzzer names them:

- msgpack_decode: each `msgpack` / `input_msgpack`, after a selector giving the case's
  type inline (fuzz/src/lib.rs, `select`), or asking for the implied type;
- json_decode: each `json` / `input_json`, the same way;
- roundtrip: both of the above, with the case's type (not implied ones);
- type_json: each `type_json`, and the type JSON of each case's type;
- type_expr: each `type_expr`;
- convert: each conversion case's value, typed by its `from` type and by dynamic
  (inline selectors), for its `to` type;
- diff: each `msgpack` / `input_msgpack` of at most 255 bytes paired with itself and
  with the next one of the same type (the case's type inline, then the first payload's
  length, then both);
- schema_json: each `providers schema -json` document in the repository (SCHEMA_FILES:
  the JSON files there whose top level has `format_version` and `provider_schemas`), as
  it is; each provider, resource type and data source schema of those alone in a minimal
  document; each nested block type and nested-type attribute alone in a resource's
  block; and the small documents of EXTRA_SCHEMAS, for what the files do not show.

Inputs longer than MAX_INPUT bytes (the 65,536-element boundary cases) are left out:
the fuzzer's own mutations are capped well below that. The limit does not apply to the
schema documents, which are few. Existing corpus files are kept, so this can run again
after a fuzzing session without losing what the fuzzer found.

- config: each `.tf.json` file of examples/config.

Usage: python3 fuzz/seed.py [--max-input N]
"""

import argparse
import hashlib
import json
import pathlib

ROOT = pathlib.Path(__file__).resolve().parent.parent
VECTORS = ROOT / "vectors"
FUZZ = ROOT / "fuzz"
CORPUS = FUZZ / "corpus"
# Every target of fuzz/Cargo.toml.
TARGETS = [
    "msgpack_decode", "json_decode", "type_json", "type_expr", "roundtrip", "schema_json",
    "decode_as", "convert", "plan_rules", "diff", "config", "document", "capture",
]

# Where schema documents are looked for (glob patterns under the repository root).
SCHEMA_FILES = [
    "examples/schema/*.json",
    "examples/plan/schema.json",
    "vectors/schema/**/*.json",
    "tests/data/**/*.json",
]

# Small schema documents for what the schema files do not show: lookups that match
# several providers or a name with a colon, `null` members, format version 0.x, dynamic
# MAP blocks and GROUP blocks holding dynamic LIST blocks, an attribute shadowing a
# block type, and names that are one name once NFC-normalized.
EXTRA_SCHEMAS = [
    {
        "format_version": "1.0",
        "provider_schemas": {
            "registry.terraform.io/hashicorp/aws": {
                "provider": {"version": 0, "block": {}},
                "resource_schemas": {"shared": {"version": 1, "block": {}}},
            },
            "registry.opentofu.org/hashicorp/aws": {
                "resource_schemas": {"shared": {"version": 2, "block": {}}},
                "data_source_schemas": {"a:b": {"block": None}},
            },
            "localhost:8080/x/aws": {"resource_schemas": {"only": None}},
            "aws": {"provider": None},
        },
    },
    {
        "format_version": "0.2",
        "provider_schemas": {
            "example/dyn": {
                "resource_schemas": {
                    "dyn": {
                        "version": 0,
                        "block": {
                            "attributes": {
                                "\u00e9": {"type": "dynamic", "computed": True, "sensitive": True},
                                "plugin": {"type": "string", "optional": True, "write_only": True},
                            },
                            "block_types": {
                                "plugin": {"nesting_mode": "map", "block": {}},
                                "m": {
                                    "nesting_mode": "map",
                                    "block": {"attributes": {"v": {"type": "dynamic", "optional": True}}},
                                },
                                "g": {
                                    "nesting_mode": "group",
                                    "block": {
                                        "attributes": {"s": {"type": "string", "optional": True, "sensitive": True}},
                                        "block_types": {
                                            "l": {
                                                "nesting_mode": "list",
                                                "min_items": 1,
                                                "block": {
                                                    "attributes": {
                                                        "d": {"type": ["list", "dynamic"], "required": True}
                                                    }
                                                },
                                            }
                                        },
                                    },
                                },
                                "s": {"nesting_mode": "single", "block": None, "min_items": 1, "max_items": 1},
                            },
                            "description": "**dynamic**",
                            "description_kind": "markdown",
                            "deprecated": True,
                        },
                    }
                }
            }
        },
    },
    {
        "format_version": "1.0",
        "provider_schemas": {
            "example/nfc": {
                "resource_schemas": {
                    "nfc": {
                        "block": {
                            "attributes": {
                                "e\u0301": {"type": "string", "optional": True, "sensitive": True},
                                "\u00e9": {"type": "number", "computed": True, "write_only": True},
                            },
                            "block_types": {
                                "K": {"nesting_mode": "group", "block": {}},
                                "\u212a": {"nesting_mode": "list", "block": {}},
                            },
                        }
                    }
                }
            }
        },
    },
]

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


def compact(doc):
    return json.dumps(doc, separators=(",", ":"), ensure_ascii=False).encode()


def schema_files():
    paths = sorted({p for pattern in SCHEMA_FILES for p in ROOT.glob(pattern) if p.is_file()})
    for path in paths:
        try:
            doc = json.loads(path.read_text())
        except (ValueError, UnicodeDecodeError):
            continue
        if isinstance(doc, dict) and "format_version" in doc and "provider_schemas" in doc:
            yield path, doc


def nested_parts(block):
    """Each nested block type and nested-type attribute in `block`, at every depth, as a
    block holding only it."""
    if not isinstance(block, dict):
        return
    for name, attribute in (block.get("attributes") or {}).items():
        if isinstance(attribute, dict) and attribute.get("nested_type"):
            yield {"attributes": {name: attribute}}
    for name, nested in (block.get("block_types") or {}).items():
        if isinstance(nested, dict):
            yield {"block_types": {name: nested}}
            yield from nested_parts(nested.get("block"))


def alone(version, address, member):
    """A document of one provider, `address`, holding only `member` (a dict of one
    key: `provider`, or `resource_schemas` / `data_source_schemas` with one schema)."""
    return compact({"format_version": version, "provider_schemas": {address: member}})


def schema_seeds():
    out = set()
    for path, doc in schema_files():
        out.add(path.read_bytes())
        version = doc["format_version"]
        for address, provider in (doc["provider_schemas"] or {}).items():
            if provider.get("provider") is not None:
                out.add(alone(version, address, {"provider": provider["provider"]}))
            for kind in ("resource_schemas", "data_source_schemas"):
                for name, schema in (provider.get(kind) or {}).items():
                    out.add(alone(version, address, {kind: {name: schema}}))
                    for part in nested_parts((schema or {}).get("block")):
                        member = {"resource_schemas": {name: {"version": 0, "block": part}}}
                        out.add(alone(version, address, member))
    for doc in EXTRA_SCHEMAS:
        out.add(compact(doc))
    return out


def diff_seeds(by_type):
    """Pairs of MessagePack payloads of one type (see the module docstring)."""
    out = set()
    for selector, payloads in by_type.items():
        payloads = sorted(payloads)
        for i, first in enumerate(payloads):
            if len(first) > 255:
                continue
            for second in {first, payloads[(i + 1) % len(payloads)]}:
                out.add(selector + bytes([len(first)]) + first + second)
    return out


def seeds(max_input):
    out = {t: set() for t in TARGETS}
    out["schema_json"] = schema_seeds()
    msgpack_by_type = {}
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
                    if kind == "msgpack":
                        msgpack_by_type.setdefault(selector, set()).add(data)
            if "type_json" in case and len(case["type_json"].encode()) <= max_input:
                out["type_json"].add(case["type_json"].encode())
            if ty is not None:
                out["type_json"].add(json.dumps(ty, separators=(",", ":")).encode())
            if "type_expr" in case and len(case["type_expr"].encode()) <= max_input:
                out["type_expr"].add(case["type_expr"].encode())
            out["convert"].update(convert_seeds(case, max_input))
    out["diff"] = diff_seeds(msgpack_by_type)
    out["config"] = {p.read_bytes() for p in sorted((ROOT / "examples/config").glob("*.tf.json"))}
    return out


def committed(target):
    """The committed inputs of `target`: its seeds and regressions, by name."""
    for kind in ("seeds", "regressions"):
        directory = FUZZ / kind / target
        if directory.is_dir():
            for path in sorted(directory.iterdir()):
                if path.is_file():
                    yield path.name, path.read_bytes()


def convert_seeds(case, max_input):
    """The inputs of a conversion case (vectors/convert/): its value typed by `from`
    and by dynamic, each converted to `to`."""
    if not all(field in case for field in ("from", "to", "value", "value_dynamic")):
        return
    to = inline_selector(case["to"])
    if to is None:
        return
    for ty, field in ((case["from"], "value"), ("dynamic", "value_dynamic")):
        selector = inline_selector(ty)
        data = bytes.fromhex(case[field])
        if selector is not None and len(data) <= max_input:
            yield selector + to + data


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--max-input", type=int, default=1024)
    args = parser.parse_args()
    for target, inputs in seeds(args.max_input).items():
        directory = CORPUS / target
        directory.mkdir(parents=True, exist_ok=True)
        new = 0
        named = dict(committed(target))
        for name, data in named.items():
            path = directory / name
            if not path.exists():
                path.write_bytes(data)
                new += 1
        for data in sorted(inputs - set(named.values())):
            path = directory / hashlib.sha1(data).hexdigest()
            if not path.exists():
                path.write_bytes(data)
                new += 1
        total = sum(1 for p in directory.iterdir() if p.is_file())
        print(f"{target}: {len(inputs)} seeds, {new} new, {total} files")


if __name__ == "__main__":
    main()
