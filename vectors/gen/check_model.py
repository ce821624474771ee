#!/usr/bin/env python3
"""Run every vector file through the executable model (ctymodel.py), performing the same
checks the Rust runner performs (see ../README.md). A failure means the model and the
case disagree: one of them is wrong.

Usage: python3 vectors/gen/check_model.py [FILE...]
"""

import os
import sys
import traceback

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import ctymodel as m  # noqa: E402
import vecio  # noqa: E402


class Fail(Exception):
    pass


def expect(cond, msg):
    if not cond:
        raise Fail(msg)


def check_error(err, exp):
    expect(err.kind == exp["kind"], f"error kind {err.kind} (model: {err.message}), expected {exp['kind']}")
    if "path" in exp:
        expect(m.fmt_path(err.path) == exp["path"], f"error path {m.fmt_path(err.path)!r}, expected {exp['path']!r}")
    if "offset" in exp:
        expect(err.offset == exp["offset"], f"error offset {err.offset}, expected {exp['offset']}")


def check_outputs(c, v, ty, from_json):
    if "msgpack" in c or (from_json and "msgpack_from_json" in c):
        want = c.get("msgpack_from_json") if from_json and "msgpack_from_json" in c else c["msgpack"]
        got = m.msgpack_encode(v, ty).hex()
        expect(got == want, f"msgpack {got[:200]} expected {want[:200]}")
    if "json" in c:
        got = m.json_encode(v, ty)
        expect(got == c["json"], f"json {got[:200]!r} expected {c['json'][:200]!r}")
    if "json_encode_error" in c:
        try:
            got = m.json_encode(v, ty)
        except m.EncodeError as e:
            expect(e.message == c["json_encode_error"]["message"], f"json error {e.message!r}")
            expect(m.fmt_path(e.path) == c["json_encode_error"]["path"], f"json error path {m.fmt_path(e.path)!r}")
        else:
            raise Fail(f"json encoding succeeded: {got!r}")


def decode_expect_error(fn, c):
    try:
        v = fn()
    except m.CtyError as e:
        check_error(e, c["error"])
        return
    raise Fail(f"decoding succeeded, expected {c['error']}")


def check_case(c):
    if "skip" in c:
        return
    if "type_json" in c:
        if "type_json_error" in c:
            try:
                t = m.parse_type_json(c["type_json"])
            except m.CtyError as e:
                expect(e.kind == c["type_json_error"]["kind"], f"kind {e.kind}")
                return
            raise Fail(f"type JSON parsed: {m.type_json(t)}")
        t = m.parse_type_json(c["type_json"])
        printed = m.type_json(t)
        expect(printed == c.get("type_json_canonical", c["type_json"]), f"type json printed {printed}")
        if "type" in c:
            expect(t == m.type_from_case(c["type"]), "type mismatch")
        return
    if "type_json_error" in c:
        raise Fail("type_json_error without type_json")
    if "type_expr" in c:
        if "type_expr_error" in c:
            try:
                t = m.parse_type_expr(c["type_expr"])
            except m.CtyError as e:
                expect(e.kind == c["type_expr_error"]["kind"], f"kind {e.kind}")
                return
            raise Fail(f"type expression parsed: {m.type_json(t)}")
        t = m.parse_type_expr(c["type_expr"])
        expect(t == m.type_from_case(c["type"]), f"type expr gave {m.type_json(t)}")
        return
    if "implied_type" in c or "implied_type_error" in c:
        if "input_msgpack" in c:
            fn = lambda: m.msgpack_implied_type(bytes.fromhex(c["input_msgpack"]))  # noqa: E731
        else:
            fn = lambda: m.json_implied_type(c["input_json"])  # noqa: E731
        if "implied_type_error" in c:
            try:
                t = fn()
            except m.CtyError as e:
                expect(e.kind == c["implied_type_error"]["kind"], f"kind {e.kind}")
                return
            raise Fail(f"implied {t}")
        t = fn()
        expect(t == m.type_from_case(c["implied_type"]), f"implied {m.type_json(t)}")
        if "json" in c or "msgpack" in c:
            if "input_msgpack" in c:
                v = m.msgpack_decode(bytes.fromhex(c["input_msgpack"]), t)
                check_outputs(c, v, t, False)
            else:
                v = m.json_decode(c["input_json"], t)
                check_outputs(c, v, t, True)
        return
    ty = m.type_from_case(c["type"])
    if "input_msgpack" in c:
        fn = lambda: m.msgpack_decode(bytes.fromhex(c["input_msgpack"]), ty)  # noqa: E731
        if "error" in c:
            decode_expect_error(fn, c)
            return
        check_outputs(c, fn(), ty, False)
    if "input_json" in c:
        fn = lambda: m.json_decode(c["input_json"], ty)  # noqa: E731
        if "error" in c:
            decode_expect_error(fn, c)
            return
        check_outputs(c, fn(), ty, True)
    if "msgpack" in c:
        v = m.msgpack_decode(bytes.fromhex(c["msgpack"]), ty)
        expect(m.msgpack_encode(v, ty).hex() == c["msgpack"], "msgpack does not round-trip")
        if "json" in c:
            got = m.json_encode(v, ty)
            expect(got == c["json"], f"msgpack->json {got[:200]!r} expected {c['json'][:200]!r}")
        if "json_encode_error" in c:
            check_outputs({"json_encode_error": c["json_encode_error"]}, v, ty, False)
    if "json" in c:
        v = m.json_decode(c["json"], ty)
        expect(m.json_encode(v, ty) == c["json"], "json does not round-trip")
        if "msgpack" in c or "msgpack_from_json" in c:
            want = c.get("msgpack_from_json", c.get("msgpack"))
            got = m.msgpack_encode(v, ty).hex()
            expect(got == want, f"json->msgpack {got[:200]} expected {want[:200]}")


def main(files):
    bad = 0
    total = 0
    for f in files:
        doc = vecio.load(f)
        n = 0
        for c in doc["cases"]:
            total += 1
            n += 1
            try:
                check_case(c)
            except Fail as e:
                bad += 1
                print(f"FAIL {os.path.relpath(f, vecio.VECTORS)} {c['name']}: {e}")
            except Exception as e:  # model crash
                bad += 1
                print(f"CRASH {os.path.relpath(f, vecio.VECTORS)} {c['name']}: {e!r}")
                traceback.print_exc(limit=3)
        print(f"{os.path.relpath(f, vecio.VECTORS)}: {n} cases")
    print(f"{total - bad} passed, {bad} failed")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:] or vecio.all_files()))
