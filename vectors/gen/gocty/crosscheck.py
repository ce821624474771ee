#!/usr/bin/env python3
"""Cross-check the vector files against go-cty 1.12.1 (Debian) by running main.go.

For every case it asks go-cty to do what the case asks of ctywire (decode the given bytes
or text with the given type and encode again, parse a type, imply a type) and compares.
The result per case is written to report.json beside this file:

  "agrees"             go-cty 1.12.1 produced exactly the case's expectations
                       (for JSON: after turning Go 1.19's \\u0008 / \\u000c into the
                       \\b / \\f that Go >= 1.22 writes, see FORMAT.md §3.1);
  "differs: <reason>"  go-cty 1.12.1 does something else, for the reason given (an
                       expected, explained difference: refinements do not exist in 1.12.1,
                       a deliberate difference of ctywire, 1.12.1's older number rule, ...);
  "UNEXPLAINED: ..."   a disagreement nobody has explained: fix the case or explain it.

Then every case file gets a `checked` field on the cases that agree (see
annotate_files). Run:

  python3 vectors/gen/gocty/crosscheck.py            # needs Go + Debian go-cty
  python3 vectors/gen/gocty/crosscheck.py --annotate-only   # reuse report.json, no Go
"""

import hashlib
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

import vecio  # noqa: E402

REPORT = os.path.join(HERE, "report.json")
CHECKED_VALUE = "go-cty 1.12.1 (vectors/gen/gocty)"


def digest(case):
    c = {k: v for k, v in case.items() if k != "checked"}
    return hashlib.sha256(json.dumps(c, sort_keys=True).encode()).hexdigest()[:16]


def run_go(requests):
    env = dict(os.environ)
    env.setdefault("GOPATH", "/usr/share/gocode")
    env["GO111MODULE"] = "off"
    env.setdefault("GOCACHE", "/tmp/ctywire-gocache")
    binary = "/tmp/ctywire-gocty-probe"
    subprocess.run(["go", "build", "-o", binary, "main.go"], cwd=HERE, env=env, check=True)
    data = "".join(json.dumps(r) + "\n" for r in requests)
    out = subprocess.run([binary], input=data.encode(), capture_output=True, check=True).stdout
    res = {}
    for line in out.decode().split("\n"):
        if not line:
            continue
        r = json.loads(line)
        res[r["id"]] = r
    return res


def go122(text):
    return None if text is None else text.replace("\\u0008", "\\b").replace("\\u000c", "\\f")


# --------------------------------------------------------------------------- explanations

def _big_int_as_float(details):
    """go-cty 1.12.1 wrote a float64 where the case has a decimal integer string."""
    import re
    for d in details:
        for got, want in re.findall(r"msgpack (cb[0-9a-f]{16}) != ((?:a|b|d9)[0-9a-f]+)", d):
            try:
                text = bytes.fromhex(want[2:] if want[0] in "ab" else want[4:]).decode()
            except ValueError:
                continue
            if re.fullmatch(r"-?[0-9]{19,}", text):
                return True
    return False


def explain(fname, case, details=()):
    """Why go-cty 1.12.1 may legitimately differ from this case (None if it should agree)."""
    name = case["name"]
    text = " | ".join(details)
    if '"value":,' in text or "[," in text:
        return ("go-cty < 1.14.4 checks for unknowns after writing the dynamic wrapper and so writes invalid "
                "JSON such as {\"value\":,\"type\":\"string\"} (FORMAT.md §3)")
    if "1.12.1-number-rule" in text or _big_int_as_float(details):
        return ("go-cty <= 1.14.2 (so 1.12.1) writes integers of magnitude >= 2^63 that are exact "
                "float64 values as float64 (FORMAT.md §2.4, history)")
    if (fname, name) in (("json-implied-type-errors.json", "TestImpliedTypeErrors[0]"),
                         ("implied-type.json", "json-duplicate-different-types")):
        return "the duplicate-key check of json.ImpliedType was added in go-cty 1.16.2"
    if "difference" in case:
        return "deliberate difference of ctywire (see the case's `difference`)"
    blobs = " ".join(str(case.get(k, "")) for k in ("msgpack", "input_msgpack", "msgpack_from_json"))
    if fname in ("refinements.json",) or "0c8" in blobs or "msgpack-roundtrip-truncates-prefix" in fname:
        return "refinements (go-cty >= 1.13); 1.12.1 reads every extension as a plain unknown and writes d40000"
    return None


# --------------------------------------------------------------------------- compare

# Cases not sent to go-cty, and why (recorded in the report as "not run").
NOT_RUN = {
    "array32-length-beyond-input": "go-cty allocates from the untrusted length header and dies (out of memory)",
    "map32-length-beyond-input": "go-cty allocates from the untrusted length header and dies (out of memory)",
}


def requests_for(fid, case):
    """(request, checker) pairs for one case."""
    out = []
    if "skip" in case or case["name"] in NOT_RUN:
        return out
    tyj = json.dumps(case["type"], separators=(",", ":"), ensure_ascii=False) if "type" in case else None
    if "type_json" in case:
        def chk(r, c=case):
            if "type_json_error" in c:
                return ("error" in r or "panic" in r), f"go-cty parsed it: {r.get('type_json')}"
            want = c.get("type_json_canonical", c["type_json"])
            return r.get("type_json") == want, f"go-cty: {r}"
        out.append(({"op": "typejson", "text": case["type_json"]}, chk))
        return out
    if "type_expr" in case:
        def chk(r, c=case):
            if "type_expr_error" in c:
                return ("error" in r or "panic" in r), f"go-cty/hcl accepted it: {r.get('type_json')}"
            want = json.dumps(c["type"], separators=(",", ":"), ensure_ascii=False)
            return r.get("type_json") == want, f"go-cty/hcl: {r}"
        out.append(({"op": "typeexpr", "text": case["type_expr"]}, chk))
        return out
    if "implied_type" in case or "implied_type_error" in case:
        if "input_msgpack" in case:
            req = {"op": "implied_msgpack", "hex": case["input_msgpack"]}
        else:
            req = {"op": "implied_json", "text": case["input_json"]}

        def chk(r, c=case):
            if "implied_type_error" in c:
                return ("error" in r or "panic" in r), f"go-cty implied {r.get('type_json')}"
            want = json.dumps(c["implied_type"], separators=(",", ":"), ensure_ascii=False)
            return r.get("type_json") == want, f"go-cty: {r}"
        out.append((req, chk))
        if ("json" in case or "msgpack" in case) and "implied_type" in case:
            ity = json.dumps(case["implied_type"], separators=(",", ":"), ensure_ascii=False)
            if "input_json" in case:
                out.append(({"op": "json", "type": ity, "text": case["input_json"]},
                            lambda r, c=case: outputs_match(r, c, True, tyj)))
            else:
                out.append(({"op": "msgpack", "type": ity, "hex": case["input_msgpack"]},
                            lambda r, c=case: outputs_match(r, c, False, tyj)))
        return out
    if "input_msgpack" in case:
        out.append(({"op": "msgpack", "type": tyj, "hex": case["input_msgpack"]},
                    lambda r, c=case: outputs_match(r, c, False, tyj) if "error" not in c else rejects(r)))
    if "input_json" in case:
        out.append(({"op": "json", "type": tyj, "text": case["input_json"]},
                    lambda r, c=case: outputs_match(r, c, True, tyj) if "error" not in c else rejects(r)))
    if "error" in case:
        return out
    if "msgpack" in case:
        def chk(r, c=case):
            sub = {k: c[k] for k in ("msgpack", "json", "json_encode_error") if k in c}
            return outputs_match(r, sub, False, tyj)
        out.append(({"op": "msgpack", "type": tyj, "hex": case["msgpack"]}, chk))
    if "json" in case:
        def chk(r, c=case):
            sub = {"json": c["json"]}
            if "msgpack_from_json" in c:
                sub["msgpack_from_json"] = c["msgpack_from_json"]
            elif "msgpack" in c:
                sub["msgpack"] = c["msgpack"]
            return outputs_match(r, sub, True, tyj)
        out.append(({"op": "json", "type": tyj, "text": case["json"]}, chk))
    return out


def rejects(r):
    if "panic" in r:
        return True, "go-cty panics"
    if "error" in r:
        return True, "go-cty rejects: " + r["error"]
    if "encode_error" in r:
        return False, f"go-cty 1.12.1 decodes it (re-encoding then fails: {r['encode_error']})"
    return False, f"go-cty 1.12.1 accepts it: msgpack {r.get('msgpack')} json {r.get('json')}"


def _old_rule(hexstr, tyj):
    """hexstr re-encoded with go-cty 1.12.1's number rule (by the model), or None."""
    import ctymodel as m
    if not hexstr or not tyj:
        return None
    try:
        ty = m.parse_type_json(tyj)
        v = m.msgpack_decode(bytes.fromhex(hexstr), ty)
        m.GOCTY_112 = True
        return m.msgpack_encode(v, ty).hex()
    except Exception:
        return None
    finally:
        m.GOCTY_112 = False


def outputs_match(r, c, from_json, tyj=None):
    if "panic" in r:
        return False, "go-cty panics: " + r["panic"]
    if "error" in r:
        return False, "go-cty error: " + r["error"]
    if "encode_error" in r:
        return False, "go-cty " + r["encode_error"]
    problems = []
    want_mp = c.get("msgpack_from_json") if from_json and "msgpack_from_json" in c else c.get("msgpack")
    if want_mp is not None and r.get("msgpack") != want_mp:
        rule = " (1.12.1-number-rule)" if r.get("msgpack") == _old_rule(want_mp, tyj) else ""
        problems.append(f"msgpack {str(r.get('msgpack'))[:120]} != {want_mp[:120]}{rule}")
    if "json" in c and go122(r.get("json")) != c["json"]:
        problems.append(f"json {str(r.get('json'))[:120]!r} != {c['json'][:120]!r}")
    if "json_encode_error" in c:
        je = r.get("json_error")
        if not je or je.get("message") != c["json_encode_error"]["message"] or je.get("path") != c["json_encode_error"]["path"]:
            problems.append(f"json error {je} (json {str(r.get('json'))[:80]!r}) != {c['json_encode_error']}")
    return (not problems), "; ".join(problems)


def main():
    annotate_only = "--annotate-only" in sys.argv
    if not annotate_only:
        files = vecio.all_files()
        reqs = []
        checks = {}
        for f in files:
            fname = os.path.basename(f)
            for i, case in enumerate(vecio.load(f)["cases"]):
                for j, (req, chk) in enumerate(requests_for(f, case)):
                    rid = f"{fname}#{i}#{j}"
                    req["id"] = rid
                    reqs.append(req)
                    checks[rid] = (f, case, chk)
        results = run_go(reqs)
        report = {}
        per_case = {}
        for rid, (f, case, chk) in checks.items():
            ok, detail = chk(results[rid])
            key = (os.path.relpath(f, vecio.VECTORS), case["name"])
            per_case.setdefault(key, []).append((ok, detail, case))
        for f in files:
            rel = os.path.relpath(f, vecio.VECTORS)
            for case in vecio.load(f)["cases"]:
                if case["name"] in NOT_RUN:
                    report.setdefault(rel, {})[case["name"]] = {
                        "status": "not run: " + NOT_RUN[case["name"]], "digest": digest(case)}
        for (rel, name), items in per_case.items():
            case = items[0][2]
            bad = [d for ok, d, _ in items if not ok]
            if not bad:
                status = "agrees"
            else:
                why = explain(os.path.basename(rel), case, bad)
                status = f"differs: {why}" if why else "UNEXPLAINED: " + " | ".join(bad)
                if why:
                    status += " [go-cty: " + " | ".join(bad)[:300] + "]"
            report.setdefault(rel, {})[name] = {"status": status, "digest": digest(case)}
        with open(REPORT, "w") as fh:
            json.dump(report, fh, indent=1, sort_keys=True, ensure_ascii=False)
            fh.write("\n")
    annotate_files()
    summarize()


def load_report():
    if not os.path.exists(REPORT):
        return {}
    with open(REPORT) as fh:
        return json.load(fh)


def annotate_case(rel, case, report):
    """Set or clear the case's `checked` field from the report (digest must match)."""
    case.pop("checked", None)
    entry = report.get(rel, {}).get(case["name"])
    if entry and entry["digest"] == digest(case) and entry["status"] == "agrees":
        case["checked"] = CHECKED_VALUE
    return case


def annotate_files():
    report = load_report()
    for f in vecio.all_files():
        rel = os.path.relpath(f, vecio.VECTORS)
        doc = vecio.load(f)
        cases = [annotate_case(rel, c, report) for c in doc["cases"]]
        vecio.write_file(f, doc["description"], cases)


def summarize():
    report = load_report()
    tot = {"agrees": 0, "differs": 0, "UNEXPLAINED": 0, "not run": 0}
    for rel in sorted(report):
        counts = {"agrees": 0, "differs": 0, "UNEXPLAINED": 0, "not run": 0}
        for name, e in report[rel].items():
            k = e["status"].split(":")[0]
            counts[k] += 1
            tot[k] += 1
            if k == "UNEXPLAINED":
                print(f"  UNEXPLAINED {rel} {name}: {e['status'][:400]}")
        print(f"{rel}: {counts}")
    print("total:", tot)


if __name__ == "__main__":
    main()
