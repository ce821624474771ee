#!/usr/bin/env python3
"""Generate ctywire's own vector files, vectors/ctywire/*.json.

Every case is written here with its input spelled out; outputs written as AUTO are
computed by the executable model (ctymodel.py); every case is checked against the model
as it is added. Byte strings that wire-format.md gives verbatim are written verbatim.

Usage: python3 vectors/gen/make_cases.py        (then gocty/crosscheck.py, see README)
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import ctymodel as m  # noqa: E402
from casekit import AUTO, CaseFile, h, mbin, mstr, tj  # noqa: E402

WF = "ctywire: wire-format.md"
DESIGN = "ctywire: design.md, Deliberate differences from go-cty"

NUM = "number"
STR = "string"
BOOL = "bool"
DYN = "dynamic"


def L(t):
    return ["list", t]


def S(t):
    return ["set", t]


def M(t):
    return ["map", t]


def T(*ts):
    return ["tuple", list(ts)]


def O(**attrs):
    return ["object", attrs]


def Od(d):
    return ["object", d]


def mint(i):
    return m.mp_int(i).hex()


def mfloat(f):
    import struct
    return "cb" + struct.pack(">d", f).hex()


def dynwrap(ty, value_hex, as_str=False):
    """The dynamic wrapper: 92, type JSON as bin (or str), the value."""
    text = ty if isinstance(ty, str) and ty.startswith(("[", '"')) else tj(ty)
    head = mstr(text) if as_str else mbin(text)
    return "92" + head + value_hex


# --------------------------------------------------------------------------- integers

def msgpack_integers():
    f = CaseFile("msgpack-integers.json",
                 "MessagePack integer forms for type number: every header boundary of the canonical "
                 "(minimal, uint family for non-negative values) encoding, and decode-only inputs in "
                 "non-minimal forms (wire-format.md 2.1, 2.4).",
                 f"{WF} §2.1")
    bounds = [
        ("zero", 0, "00"), ("one", 1, "01"), ("fixint-max-127", 127, "7f"),
        ("uint8-min-128", 128, "cc80"), ("uint8-200", 200, "ccc8"), ("uint8-max-255", 255, "ccff"),
        ("uint16-min-256", 256, "cd0100"), ("uint16-max-65535", 65535, "cdffff"),
        ("uint32-min-65536", 65536, "ce00010000"), ("uint32-max-4294967295", 2**32 - 1, "ceffffffff"),
        ("uint64-min-4294967296", 2**32, "cf0000000100000000"),
        ("int64-max", 2**63 - 1, "cf7fffffffffffffff"),
        ("neg-fixint-minus-1", -1, "ff"), ("neg-fixint-min-minus-32", -32, "e0"),
        ("int8-minus-33", -33, "d0df"), ("int8-min-minus-128", -128, "d080"),
        ("int16-minus-129", -129, "d1ff7f"), ("int16-min-minus-32768", -32768, "d18000"),
        ("int32-minus-32769", -32769, "d2ffff7fff"), ("int32-min-minus-2147483648", -2**31, "d280000000"),
        ("int64-minus-2147483649", -2**31 - 1, "d3ffffffff7fffffff"),
        ("int64-min", -2**63, "d38000000000000000"),
    ]
    for name, i, mp in bounds:
        assert mint(i) == mp, name
        f.rt(name, NUM, mp, str(i), note=f"{i}")
    f.rt("int64-max-plus-1-is-string", NUM, mstr(str(2**63)), str(2**63),
         note="integers above MaxInt64 are written as decimal strings, never as msgpack uint64", source=f"{WF} §2.4")
    f.rt("int64-min-minus-1-is-string", NUM, mstr(str(-2**63 - 1)), str(-2**63 - 1), source=f"{WF} §2.4")
    f.rt("uint64-max-is-string", NUM, mstr(str(2**64 - 1)), str(2**64 - 1), source=f"{WF} §2.4")
    # decode-only inputs
    src = f"{WF} §2.4 (decoder: any int/uint/float code)"
    f.inp("nonminimal-int16-200", NUM, imp="d100c8", mp="ccc8", js="200", note="200 as int16: re-encoded as uint8", source=src)
    f.inp("nonminimal-uint16-1", NUM, imp="cd0001", mp="01", js="1", source=src)
    f.inp("nonminimal-uint8-5", NUM, imp="cc05", mp="05", js="5", source=src)
    f.inp("nonminimal-int8-1", NUM, imp="d001", mp="01", js="1", source=src)
    f.inp("nonminimal-int8-minus-1", NUM, imp="d0ff", mp="ff", js="-1", source=src)
    f.inp("nonminimal-int16-minus-128", NUM, imp="d1ff80", mp="d080", js="-128", source=src)
    f.inp("nonminimal-int32-128", NUM, imp="d200000080", mp="cc80", js="128", source=src)
    f.inp("nonminimal-int64-zero", NUM, imp="d30000000000000000", mp="00", js="0", source=src)
    f.inp("nonminimal-int64-minus-1", NUM, imp="d3ffffffffffffffff", mp="ff", js="-1", source=src)
    f.inp("nonminimal-uint32-65535", NUM, imp="ce0000ffff", mp="cdffff", js="65535", source=src)
    f.inp("nonminimal-uint64-4294967295", NUM, imp="cf00000000ffffffff", mp="ceffffffff", js="4294967295", source=src)
    f.inp("uint64-max-input", NUM, imp="cfffffffffffffffff", mp=mstr(str(2**64 - 1)), js=str(2**64 - 1),
          note="cf ffffffffffffffff decodes (NumberUIntVal) and is written back as a decimal string", source=src)
    f.inp("uint64-2-pow-63-input", NUM, imp="cf8000000000000000", mp=mstr(str(2**63)), js=str(2**63), source=src)
    f.inp("float32-1.5", NUM, imp="ca3fc00000", mp="cb3ff8000000000000", js="1.5",
          note="float32 is widened exactly to float64; ca is never written", source=src)
    f.inp("float32-5-is-int", NUM, imp="ca40a00000", mp="05", js="5", source=src)
    f.inp("float32-0.1", NUM, imp="ca3dcccccd", mp="cb3fb99999a0000000", js="0.10000000149011612",
          note="float32 0.1 widened: 0.10000000149011612 (wire-format.md 2.4)", source=src)
    f.inp("float64-1.0-is-int", NUM, imp="cb3ff0000000000000", mp="01", js="1", source=src)
    f.inp("float64-minus-2-is-int", NUM, imp="cbc000000000000000", mp="fe", js="-2", source=src)
    f.inp("float64-2-pow-53-is-int", NUM, imp=mfloat(2.0**53), mp="cf0020000000000000", js=str(2**53), source=src)
    f.inp("float64-largest-below-2-pow-63-is-int", NUM, imp=mfloat(2.0**63 - 1024), mp=mint(2**63 - 1024),
          js=str(2**63 - 1024), note="9223372036854774784 fits int64, so it is written as an integer", source=src)
    f.inp("float64-minus-2-pow-63-is-int", NUM, imp=mfloat(-2.0**63), mp="d38000000000000000", js=str(-2**63), source=src)
    # errors
    f.err("truncated-uint16", NUM, "UnexpectedEof", imp="cd01")
    f.err("truncated-uint64", NUM, "UnexpectedEof", imp="cf00")
    f.err("truncated-int64-marker-only", NUM, "UnexpectedEof", imp="d3")
    f.err("empty-input", NUM, "UnexpectedEof", imp="")
    f.err("bool-is-not-a-number", NUM, "TypeMismatch", imp="c3", offset=0, note="go-cty: number is required")
    f.err("array-is-not-a-number", NUM, "TypeMismatch", imp="9101", offset=0)
    f.err("map-is-not-a-number", NUM, "TypeMismatch", imp="80", offset=0)
    f.err("never-used-marker-c1", NUM, "Syntax", imp="c1", offset=0, note="0xc1 is not a msgpack marker")
    f.rt("null-number", NUM, "c0", "null")
    f.rt("list-of-boundaries", L(NUM), "97" + "".join(mint(i) for i in (0, 127, 128, -1, -32, -33, 2**63 - 1)),
         "[0,127,128,-1,-32,-33,9223372036854775807]")
    return f


# --------------------------------------------------------------------------- numbers

def msgpack_numbers():
    f = CaseFile("msgpack-numbers.json",
                 "Numbers: float64 against decimal-text forms, numbers read from str and bin, the "
                 "accepted and rejected number texts, infinities, NaN, -0, subnormals, MaxFloat64 "
                 "(wire-format.md 2.4, 5). Numbers remember whether they came from a float64: "
                 "`msgpack_from_json` gives the bytes of the same number read back from its JSON text.",
                 f"{WF} §2.4")
    f.rt("float64-0.1", NUM, "cb3fb999999999999a", "0.1",
         note="a float64 0.1 goes as cb; its JSON text 0.1 reads back as decimal 0.1, which goes as the string \"0.1\"")
    f.rt("decimal-0.1", NUM, "a3302e31", "0.1", note="parsed 0.1 is not exactly a float64: written as a string")
    f.rt("float64-1.5", NUM, "cb3ff8000000000000", "1.5", note="1.5 is exactly a float64 either way")
    f.rt("decimal-0.8", NUM, "a3302e38", "0.8")
    f.rt("float64-minus-1.5", NUM, "cbbff8000000000000", "-1.5")
    f.rt("float64-0.25", NUM, "cb3fd0000000000000", "0.25")
    f.rt("float64-123.456", NUM, mfloat(123.456), "123.456")
    f.rt("float64-0.1-plus-0.2", NUM, mfloat(0.1 + 0.2), "0.30000000000000004")
    f.rt("float64-1e-7", NUM, mfloat(1e-7), "0.0000001", note="JSON numbers never use an exponent")
    f.rt("decimal-1e-7", NUM, mstr("0.0000001"), "0.0000001")
    f.rt("decimal-1e20", NUM, mstr("100000000000000000000"), "100000000000000000000", source=f"{WF} §2.4 table")
    f.rt("decimal-2-pow-63", NUM, mstr(str(2**63)), str(2**63))
    f.rt("decimal-long-fraction", NUM, mstr("3.14159265358979323846264338327950288"),
         "3.14159265358979323846264338327950288")
    f.rt("decimal-1e400", NUM, mstr("1" + "0" * 400), "1" + "0" * 400,
         note="1e400 is a 401-character str16 (wire-format.md 2.4 table)")
    f.rt("subnormal-5e-324", NUM, "cb0000000000000001", AUTO,
         note="JSON text is 0. then 323 zeros then 4940656458412465: big.Float keeps 53 significant bits even "
              "for subnormals (wire-format.md 3.1); that text reads back as a decimal, written as a string")
    f.rt("float64-max", NUM, "cb7fefffffffffffff", "17976931348623157" + "0" * 292,
         difference="a float64 whose value is an integer at or beyond 2^63 is written as float64 (design.md)",
         gocty={"msgpack": mstr("17976931348623157" + "0" * 292)},
         note="MaxFloat64: go-cty writes it as a str16 of its shortest digits plus 292 zeros")
    f.rt("float64-2-pow-63", NUM, "cb43e0000000000000", "9223372036854776000",
         difference="a float64 whose value is an integer at or beyond 2^63 is written as float64 (go-cty issue 220)",
         gocty={"msgpack": mstr("9223372036854776000")},
         note="JSON gives the float's shortest digits (as go-cty does); that text reads back as a different integer")
    f.rt("float64-1e20", NUM, mfloat(1e20), "100000000000000000000",
         difference="a float64 whose value is an integer at or beyond 2^63 is written as float64",
         gocty={"msgpack": mstr("100000000000000000000")})
    # numbers from str and bin
    src = f"{WF} §2.4 decoder"
    f.inp("str-1000", NUM, imp=mstr("1000"), mp="cd03e8", js="1000", source=src)
    f.inp("str-1e3", NUM, imp=mstr("1e3"), mp="cd03e8", js="1000", source=src, note="\"1e3\" is 1000")
    f.inp("str-1E3", NUM, imp=mstr("1E3"), mp="cd03e8", js="1000", source=src)
    f.inp("bin-1e3", NUM, imp=mbin("1e3"), mp="cd03e8", js="1000", source=src, note="numbers are also read from bin")
    f.inp("str8-1e3", NUM, imp="d903" + "1e3".encode().hex(), mp="cd03e8", js="1000", source=src)
    f.inp("str-plus-5", NUM, imp=mstr("+5"), mp="05", js="5", source=src)
    f.inp("str-minus-5", NUM, imp=mstr("-5"), mp="fb", js="-5", source=src)
    f.inp("str-leading-zeros", NUM, imp=mstr("0012"), mp="0c", js="12", source=src)
    f.inp("str-point-5", NUM, imp=mstr(".5"), mp="cb3fe0000000000000", js="0.5", source=src)
    f.inp("str-5-point", NUM, imp=mstr("5."), mp="05", js="5", source=src)
    f.inp("str-1.50", NUM, imp=mstr("1.50"), mp="cb3ff8000000000000", js="1.5", source=src)
    f.inp("str-1.0-is-int", NUM, imp=mstr("1.0"), mp="01", js="1", source=src)
    f.inp("str-1e-3", NUM, imp=mstr("1e-3"), mp=mstr("0.001"), js="0.001", source=src)
    f.inp("str-1p10", NUM, imp=mstr("1p10"), mp="cd0400", js="1024", source=src,
          note="big.ParseFloat accepts a binary exponent: 1p10 = 1024")
    f.inp("str-3p-2", NUM, imp=mstr("3p-2"), mp="cb3fe8000000000000", js="0.75", source=src)
    f.inp("str-1e400", NUM, imp=mstr("1e400"), mp=mstr("1" + "0" * 400), js="1" + "0" * 400, source=src)
    f.inp("str-Inf", NUM, imp=mstr("Inf"), mp="cb7ff0000000000000", js=AUTO, source=src)
    f.inp("str-inf", NUM, imp=mstr("inf"), mp="cb7ff0000000000000", js=AUTO, source=src)
    f.inp("str-plus-Inf", NUM, imp=mstr("+Inf"), mp="cb7ff0000000000000", js=AUTO, source=src)
    f.inp("str-minus-inf", NUM, imp=mstr("-inf"), mp="cbfff0000000000000", js=AUTO, source=src)
    f.inp("str-minus-0-msgpack", NUM, imp=mstr("-0"), mp="00", js=None, source=src,
          note="-0 loses its sign in msgpack (Int64 of -0 is exactly 0)")
    f.inp("str-minus-0-json", NUM, imp=mstr("-0"), mp=None, js="-0", source=src, note="but keeps it in JSON")
    for name, text in [("0x10", "0x10"), ("underscore", "1_0"), ("Infinity", "Infinity"), ("INF", "INF"),
                       ("NaN", "NaN"), ("leading-space", " 1"), ("trailing-space", "1 "), ("empty", ""),
                       ("e-without-digits", "1e"), ("exponent-only", "e5"), ("point-only", "."),
                       ("double-sign", "--1"), ("two-points", "1.2.3"), ("letters", "abc")]:
        f.err(f"str-rejected-{name}", NUM, "InvalidValue", imp=mstr(text), offset=0,
              note=f"{text!r} is not a number (go-cty: number is required)", source=src)
    f.err("bin-rejected-invalid-utf8", NUM, "InvalidValue", imp=mbin(b"\xff"), offset=0, source=src)
    # infinities, NaN, -0
    f.rt("float64-plus-inf", NUM, "cb7ff0000000000000", AUTO, source=f"{WF} §5")
    f.rt("float64-minus-inf", NUM, "cbfff0000000000000", AUTO, source=f"{WF} §5")
    f.inp("float32-plus-inf", NUM, imp="ca7f800000", mp="cb7ff0000000000000", js=AUTO, source=f"{WF} §5")
    nan_diff = dict(difference="NaN is an error (design.md); go-cty panics in big.Float.SetFloat64",
                    gocty={"panics": True})
    f.err("float64-nan", NUM, "InvalidValue", imp="cb7ff8000000000000", offset=0, source=f"{WF} §2.4", **nan_diff)
    f.err("float64-negative-nan-with-payload", NUM, "InvalidValue", imp="cbfff8000000000001", offset=0,
          source=f"{WF} §2.4", **nan_diff)
    f.err("float32-nan", NUM, "InvalidValue", imp="ca7fc00000", offset=0, source=f"{WF} §2.4", **nan_diff)
    f.err("nan-in-list", L(NUM), "InvalidValue", path="[1]", imp="9201cb7ff8000000000000", offset=2,
          source=f"{WF} §2.4", **nan_diff)
    f.inp("float64-minus-0-msgpack", NUM, imp="cb8000000000000000", mp="00", js=None, source=f"{WF} §2.4",
          note="-0 is written as 00 (its sign is lost in msgpack)")
    f.inp("float64-minus-0-json", NUM, imp="cb8000000000000000", mp=None, js="-0", source=f"{WF} §2.4, §3.1")
    f.rt("json-minus-0", NUM, None, "-0", source=f"{WF} §3.1")
    f.inp("json-minus-0-to-msgpack", NUM, ijs="-0", mp="00", js=None, source=f"{WF} §3.1")
    f.rt("numbers-in-list", L(NUM), "94" + "cb3fb999999999999a" + "a3302e31" + "01" + "cb3ff8000000000000",
         AUTO, note="float64 and decimal 0.1 side by side")
    return f


# --------------------------------------------------------------------------- strings

def _text(n):
    alphabet = "abcdefghijklmnopqrstuvwxyz0123456789"
    return "".join(alphabet[i % len(alphabet)] for i in range(n))


def msgpack_strings():
    f = CaseFile("msgpack-strings.json",
                 "Strings: str header boundaries by byte length, str and bin inputs, null, NFC "
                 "normalization on decode, invalid UTF-8 (wire-format.md 2.1, 2.5, 6).",
                 f"{WF} §2.1")
    for n, head in [(0, "a0"), (1, "a1"), (31, "bf"), (32, "d920"), (255, "d9ff"), (256, "da0100"),
                    (65535, "daffff"), (65536, "db00010000")]:
        t = _text(n)
        mp = mstr(t)
        assert mp.startswith(head)
        f.rt(f"str-{n}-bytes", STR, mp, m.go_json_string(t), note=f"{n} ASCII bytes: header {head}")
    f.rt("str-31-bytes-multibyte", STR, mstr("é" * 15 + "a"), AUTO, note="31 bytes, 16 characters: fixstr")
    f.rt("str-32-bytes-multibyte", STR, mstr("é" * 16), AUTO, note="32 bytes, 16 characters: str8")
    f.rt("utf8-two-byte", STR, mstr("é"), '"é"')
    f.rt("utf8-three-byte", STR, mstr("日本"), '"日本"')
    f.rt("utf8-four-byte", STR, mstr("😀"), '"😀"')
    f.rt("nul-byte", STR, "a100", '"\\u0000"')
    src = f"{WF} §2.5"
    f.inp("str8-short", STR, imp="d90161", mp="a161", js='"a"', source=src)
    f.inp("str8-empty", STR, imp="d900", mp="a0", js='""', source=src)
    f.inp("str16-short", STR, imp="da000161", mp="a161", js='"a"', source=src)
    f.inp("str32-short", STR, imp="db0000000161", mp="a161", js='"a"', source=src)
    f.inp("bin8-hello", STR, imp=mbin("hello"), mp=mstr("hello"), js='"hello"', source=src, note="bin is accepted as a string")
    f.inp("bin8-empty", STR, imp="c400", mp="a0", js='""', source=src)
    f.inp("bin16-short", STR, imp="c5000161", mp="a161", js='"a"', source=src)
    f.inp("bin32-short", STR, imp="c60000000161", mp="a161", js='"a"', source=src)
    f.inp("bin8-32-bytes", STR, imp=mbin(_text(32)), mp=mstr(_text(32)), js=AUTO, source=src)
    f.rt("null-string", STR, "c0", "null", note="a top-level nil is a null string, not \"\"")
    f.rt("list-null-and-empty", L(STR), "92c0a0", '[null,""]',
         note="nil at a string position inside a collection is a null element too (go-cty checks nil before "
              "DecodeString); only a nil map key would read as \"\", and that is an error in ctywire "
              "(see msgpack-collections.json)", source=src)
    f.rt("map-null-value", M(STR), "81a161c0", '{"a":null}', source=src)
    # NFC
    src6 = f"{WF} §6"
    f.inp("nfc-cafe-combining-acute", STR, imp=h("a6 63 61 66 65 cc 81"), mp="a5636166c3a9", js='"café"',
          note="\"cafe\" + U+0301 decodes to precomposed \"café\" (wire-format.md 2.5)", source=src6)
    f.inp("nfc-cafe-from-bin", STR, imp=mbin("cafe\u0301"), mp="a5636166c3a9", js='"café"', source=src6)
    f.inp("nfc-hangul-jamo", STR, imp=mstr("\u1100\u1161"), mp=mstr("\uac00"), js='"\uac00"',
          note="U+1100 U+1161 compose to U+AC00", source=src6)
    f.rt("nfc-ligature-fi-unchanged", STR, mstr("\ufb01"), '"\ufb01"', note="only canonical composition: U+FB01 stays",
         source=src6)
    f.inp("nfc-angstrom-sign", STR, imp=mstr("\u212b"), mp=mstr("\u00c5"), js='"\u00c5"',
          note="U+212B ANGSTROM SIGN is canonically equivalent to U+00C5", source=src6)
    f.inp("nfc-reorders-marks", STR, imp=mstr("a\u0301\u0328"), mp=mstr(m.nfc("a\u0301\u0328")), js=AUTO,
          note="ogonek (ccc 202) sorts before acute (ccc 230), then a+ogonek composes", source=src6)
    f.inp("nfc-in-list", L(STR), imp="92" + mstr("e\u0301") + mstr("x"), mp="92" + mstr("é") + mstr("x"), js=AUTO,
          source=src6)
    f.inp("nfc-map-key", M(STR), imp="81" + mstr("cafe\u0301") + mstr("v"), mp="81" + mstr("café") + mstr("v"),
          js=AUTO, note="map keys are normalized too", source=src6)
    # invalid UTF-8
    utf8_diff = dict(difference="invalid UTF-8 is an error (design.md)",
                     gocty="passes the bytes through unchanged and writes them back")
    for name, raw in [("lone-ff", "ff"), ("bad-continuation", "c328"), ("overlong-nul", "c080"),
                      ("surrogate", "eda080"), ("above-10ffff", "f4908080"), ("lone-continuation", "80"),
                      ("truncated-sequence", "e282")]:
        data = bytes.fromhex(raw)
        f.err(f"invalid-utf8-{name}", STR, "InvalidValue", imp=m.mp_str(data).hex(), source=src, **utf8_diff)
    f.err("invalid-utf8-in-bin", STR, "InvalidValue", imp=mbin(b"\xff"), source=src, **utf8_diff)
    f.err("invalid-utf8-in-list", L(STR), "InvalidValue", path="[1]", imp="92a161a1ff", source=src, **utf8_diff)
    f.err("invalid-utf8-map-key", M(STR), "InvalidValue", path="", imp="81a1ffa161", source=src, **utf8_diff)
    # other errors
    f.err("number-is-not-a-string", STR, "TypeMismatch", imp="01", offset=0, note="go-cty: string is required")
    f.err("bool-is-not-a-string", STR, "TypeMismatch", imp="c3", offset=0)
    f.err("array-is-not-a-string", STR, "TypeMismatch", imp="90", offset=0)
    f.err("float-is-not-a-string", STR, "TypeMismatch", imp="cb3ff8000000000000", offset=0)
    f.err("truncated-fixstr", STR, "UnexpectedEof", imp="a56162", note="go-cty hides the EOF: string is required")
    f.err("truncated-str8-header", STR, "UnexpectedEof", imp="d9")
    f.err("truncated-str16-header", STR, "UnexpectedEof", imp="da00")
    f.err("truncated-bin8", STR, "UnexpectedEof", imp="c40261")
    f.err("str32-length-beyond-input", STR, "UnexpectedEof", imp="dbffffffff61",
          note="a length header larger than the input must not be trusted for allocation")
    return f


# --------------------------------------------------------------------------- collections

def msgpack_collections():
    f = CaseFile("msgpack-collections.json",
                 "Lists, sets, maps, tuples and objects in msgpack: array and map header boundaries, "
                 "key order, attribute order, length errors, missing and unsupported attributes, "
                 "duplicate and non-string keys, kind mismatches, truncation (wire-format.md 2.1, 2.2, 2.6).",
                 f"{WF} §2.6")
    # array header boundaries: list(bool)
    for n, head in [(0, "90"), (1, "91"), (15, "9f"), (16, "dc0010"), (65535, "dcffff"), (65536, "dd00010000")]:
        mp = m.mp_array_header(n).hex() + "c2" * n
        assert mp.startswith(head)
        js = "[" + ",".join(["false"] * n) + "]" if n <= 16 else None
        f.rt(f"list-bool-{n}-elements", L(BOOL), mp, js, source=f"{WF} §2.1",
             note=f"array header {head}" + ("" if js else "; JSON left out to keep the file small"))
    f.rt("tuple-16-elements", ["tuple", [NUM] * 16], "dc0010" + "".join(mint(i) for i in range(16)),
         "[" + ",".join(str(i) for i in range(16)) + "]", source=f"{WF} §2.1")
    f.rt("set-number-16-elements", S(NUM), "dc0010" + "".join(mint(i) for i in range(16)),
         "[" + ",".join(str(i) for i in range(16)) + "]", source=f"{WF} §2.1")
    # map header boundaries: map(bool) with 4-hex-digit keys (sorted bytewise = numerically)
    for n, head in [(0, "80"), (1, "81"), (15, "8f"), (16, "de0010"), (65535, "deffff"), (65536, "df00010000")]:
        keys = ["%04x" % i for i in range(n)]
        mp = m.mp_map_header(n).hex() + "".join(mstr(k) + "c2" for k in keys)
        assert mp.startswith(head)
        js = "{" + ",".join(f'"{k}":false' for k in keys) + "}" if n <= 16 else None
        f.rt(f"map-bool-{n}-entries", M(BOOL), mp, js, source=f"{WF} §2.1",
             note=f"map header {head}" + ("" if js else "; JSON left out to keep the file small"))
    attrs16 = {"a%02d" % i: NUM for i in range(16)}
    f.rt("object-16-attributes", Od(attrs16), "de0010" + "".join(mstr(k) + mint(i) for i, k in enumerate(sorted(attrs16))),
         AUTO, source=f"{WF} §2.1")
    # non-minimal headers
    src = f"{WF} §2.1 (decode-only forms)"
    f.inp("array16-header-1", L(BOOL), imp="dc0001c3", mp="91c3", js="[true]", source=src)
    f.inp("array32-header-1", L(BOOL), imp="dd00000001c3", mp="91c3", js="[true]", source=src)
    f.inp("array16-header-0", L(BOOL), imp="dc0000", mp="90", js="[]", source=src)
    f.inp("array16-tuple", T(STR), imp="dc0001a161", mp="91a161", js='["a"]', source=src)
    f.inp("map16-header-1", M(BOOL), imp="de0001a161c3", mp="81a161c3", js='{"a":true}', source=src)
    f.inp("map32-header-1", M(BOOL), imp="df00000001a161c3", mp="81a161c3", js='{"a":true}', source=src)
    f.inp("map16-header-0", M(BOOL), imp="de0000", mp="80", js="{}", source=src)
    f.inp("map16-object", O(a=BOOL), imp="de0001a161c3", mp="81a161c3", js='{"a":true}', source=src)
    # key and attribute order
    src = f"{WF} §2.2"
    f.inp("map-keys-sorted", M(NUM), imp="83" + mstr("b") + "02" + mstr("a") + "01" + mstr("aa") + "03",
          mp="83" + mstr("a") + "01" + mstr("aa") + "03" + mstr("b") + "02", js='{"a":1,"aa":3,"b":2}', source=src)
    f.inp("map-keys-bytewise", M(NUM),
          imp="84" + mstr("é") + "04" + mstr("a") + "02" + mstr("B") + "01" + mstr("aa") + "03",
          mp="84" + mstr("B") + "01" + mstr("a") + "02" + mstr("aa") + "03" + mstr("é") + "04",
          js='{"B":1,"a":2,"aa":3,"é":4}', note="keys sort by UTF-8 bytes: \"B\" < \"a\" < \"aa\" < \"é\"",
          source=src)
    f.rt("object-attributes-sorted", O(b=STR, a=BOOL, B=NUM), "83" + mstr("B") + "01" + mstr("a") + "c3" + mstr("b") + mstr("x"),
         '{"B":1,"a":true,"b":"x"}', source=src)
    f.inp("object-wire-order-irrelevant", O(a=BOOL, b=STR), imp="82" + mstr("b") + mstr("x") + mstr("a") + "c3",
          mp="82" + mstr("a") + "c3" + mstr("b") + mstr("x"), js='{"a":true,"b":"x"}',
          note="attribute order on the wire does not matter", source=src)
    f.inp("bin-map-key", M(STR), imp="81" + mbin("k") + mstr("x"), mp="81" + mstr("k") + mstr("x"), js='{"k":"x"}',
          note="keys are read like strings: bin is accepted", source=f"{WF} §2.6")
    f.inp("bin-object-key", O(k=STR), imp="81" + mbin("k") + mstr("x"), mp="81" + mstr("k") + mstr("x"),
          js='{"k":"x"}', source=f"{WF} §2.6")
    # values inside
    f.rt("list-string-null-unknown", L(STR), "93" + mstr("a") + "c0d40000", AUTO)
    f.rt("map-of-lists", M(L(NUM)), "82" + mstr("a") + "920102" + mstr("b") + "90", '{"a":[1,2],"b":[]}')
    f.rt("list-of-objects", L(O(n=NUM, s=STR)), "92" + "82" + mstr("n") + "01" + mstr("s") + mstr("x") +
         "82" + mstr("n") + "c0" + mstr("s") + "c0", '[{"n":1,"s":"x"},{"n":null,"s":null}]')
    f.rt("tuple-mixed", T(STR, NUM, BOOL, L(STR)), "94" + mstr("a") + "01" + "c3" + "91" + mstr("b"), '["a",1,true,["b"]]')
    f.rt("tuple-null-elements", T(STR, NUM), "92c0c0", "[null,null]")
    f.rt("nested-object", O(o=O(l=L(O(x=NUM)))), "81" + mstr("o") + "81" + mstr("l") + "91" + "81" + mstr("x") + "05",
         '{"o":{"l":[{"x":5}]}}')
    f.rt("empty-object-type", Od({}), "80", "{}")
    f.rt("empty-tuple-type", T(), "90", "[]")
    f.rt("null-object", O(a=STR), "c0", "null")
    f.rt("null-list", L(STR), "c0", "null")
    # length errors
    f.err("tuple-too-short", T(STR, NUM, BOOL), "InvalidValue", imp="92" + mstr("a") + "01", offset=0,
          note="go-cty: a tuple of length 3 is required")
    f.err("tuple-too-long", T(STR), "InvalidValue", imp="92" + mstr("a") + mstr("b"), offset=0)
    empty_diff = dict(difference="an empty map/array for an object/tuple type that has attributes/elements is an "
                                 "error (design.md)",
                      gocty="returns EmptyObjectVal / EmptyTupleVal, a value of the wrong type, without error")
    f.err("empty-map-for-object", O(a=STR, b=STR), "InvalidValue", imp="80", offset=0, **empty_diff)
    f.err("empty-map16-for-object", O(a=STR), "InvalidValue", imp="de0000", offset=0, **empty_diff)
    f.err("empty-array-for-tuple", T(STR), "InvalidValue", imp="90", offset=0, **empty_diff)
    f.err("object-missing-attribute", O(a=BOOL, b=BOOL), "InvalidValue", imp="81" + mstr("a") + "c3", offset=0,
          note="msgpack objects must have every attribute (go-cty: an object with 2 attributes is required (1 given))")
    f.err("object-extra-attribute-count", O(a=BOOL, b=BOOL), "InvalidValue",
          imp="83" + mstr("a") + "c3" + mstr("b") + "c3" + mstr("c") + "c3", offset=0)
    f.err("object-unsupported-attribute", O(a=BOOL, b=BOOL), "InvalidValue", path=".c",
          imp="82" + mstr("a") + "c3" + mstr("c") + "c3", offset=4,
          note="go-cty: unsupported attribute, at [\"c\"] (ctywire's paths name attributes as .c)")
    f.err("object-non-nfc-key-is-unsupported", Od({"café": STR}), "InvalidValue", path=".cafe\u0301",
          imp="81" + mstr("cafe\u0301") + mstr("x"), offset=1,
          note="attribute lookup uses the raw wire key, so a decomposed key does not match the NFC name "
               "(wire-format.md 2.6, 6)")
    dup_diff = dict(difference="duplicate keys in a msgpack map or object are an error (design.md)")
    f.err("object-duplicate-attribute", O(a=BOOL, b=BOOL), "InvalidValue", path=".a",
          imp="82" + mstr("a") + "c3" + mstr("a") + "c2", offset=4,
          gocty="builds object({a}) without b: a value of the wrong type", **dup_diff)
    f.err("map-duplicate-key", M(BOOL), "InvalidValue", path='["a"]', imp="82" + mstr("a") + "c3" + mstr("a") + "c2",
          offset=4, gocty="the last value wins", **dup_diff)
    f.err("map-duplicate-key-after-nfc", M(STR), "InvalidValue", path='["café"]',
          imp="82" + mstr("café") + mstr("x") + mstr("cafe\u0301") + mstr("y"),
          gocty="the keys collide after NFC and which value wins is not deterministic", **dup_diff)
    key_diff = dict(difference="non-string and nil map keys are errors (design.md)")
    f.err("map-integer-key", M(STR), "TypeMismatch", imp="81" + "05" + mstr("x"), offset=1,
          gocty="discards the error and misreads the stream: 81 05 a1 78 decodes as {\"\": \"x\"}", **key_diff)
    f.err("map-nil-key", M(STR), "TypeMismatch", imp="81" + "c0" + mstr("x"), offset=1,
          gocty="nil reads as the key \"\"", **key_diff)
    f.err("map-array-key", M(STR), "TypeMismatch", imp="81" + "90" + mstr("x"), offset=1, gocty="misreads the stream",
          **key_diff)
    f.err("object-integer-key", O(a=STR), "TypeMismatch", imp="81" + "05" + mstr("x"), offset=1,
          note="go-cty: all keys must be strings")
    # kind mismatch
    for name, ty, imp in [("map-for-list", L(STR), "80"), ("str-for-list", L(STR), mstr("a")),
                          ("array-for-map", M(STR), "90"), ("array-for-object", O(a=STR), "91c0"),
                          ("map-for-tuple", T(STR), "81" + mstr("a") + "c0"), ("str-for-set", S(STR), mstr("a")),
                          ("bool-for-map", M(STR), "c3")]:
        f.err(f"kind-mismatch-{name}", ty, "TypeMismatch", imp=imp, offset=0)
    # element errors carry the path
    f.err("list-element-error-path", L(NUM), "TypeMismatch", path="[1]", imp="9201c3", offset=2)
    f.err("set-element-error-path", S(NUM), "TypeMismatch", path="[1]", imp="9201c3", offset=2,
          note="set elements are named by their wire index while decoding")
    f.err("map-element-error-path", M(NUM), "TypeMismatch", path='["k"]', imp="81" + mstr("k") + "c3", offset=3)
    f.err("object-attribute-error-path", O(a=NUM), "TypeMismatch", path=".a", imp="81" + mstr("a") + "c3", offset=3,
          note="go-cty reports [\"a\"]; ctywire uses .a")
    f.err("tuple-element-error-path", T(STR, NUM), "TypeMismatch", path="[1]", imp="92" + mstr("a") + "c3", offset=3)
    f.err("nested-error-path", O(a=L(M(NUM))), "TypeMismatch", path='.a[0]["k"]',
          imp="81" + mstr("a") + "91" + "81" + mstr("k") + "c3", offset=6)
    f.err("invalid-marker-in-list", L(STR), "Syntax", path="[0]", imp="91c1", offset=1)
    # truncation
    f.err("truncated-list", L(STR), "UnexpectedEof", imp="92" + mstr("a"))
    f.err("truncated-array16-header", L(STR), "UnexpectedEof", imp="dc00")
    f.err("array32-length-beyond-input", L(STR), "UnexpectedEof", imp="ddffffffff",
          note="must fail without allocating for 2^32-1 elements")
    f.err("map32-length-beyond-input", M(STR), "UnexpectedEof", imp="dfffffffff")
    f.err("truncated-map-value", M(STR), "UnexpectedEof", imp="81" + mstr("a"))
    f.err("truncated-object", O(a=STR, b=STR), "UnexpectedEof", imp="82" + mstr("a") + mstr("x"))
    return f


# --------------------------------------------------------------------------- sets

def sets():
    f = CaseFile("sets.json",
                 "Set element order and deduplication (wire-format.md 4): primitive sets sort by value "
                 "(strings by bytes, numbers numerically, false before true); every other element type "
                 "sorts by cty's set hash string; known values, then unknowns in insertion order, then "
                 "the null. Decoding deduplicates (unknowns are never equal, one null at most) and the "
                 "encoder writes canonical order whatever the input order.",
                 f"{WF} §4")
    strs = ["B", "a", "aa", "b", "z", "é"]
    f.rt("strings-byte-order", S(STR), "96" + "".join(mstr(s) for s in strs), '["B","a","aa","b","z","é"]')
    f.inp("strings-byte-order-from-shuffled", S(STR), imp="96" + "".join(mstr(s) for s in ["z", "é", "aa", "B", "b", "a"]),
          mp="96" + "".join(mstr(s) for s in strs), js='["B","a","aa","b","z","é"]')
    f.inp("strings-raw-byte-order", S(STR), imp="95" + "".join(mstr(s) for s in ["ab", "a!", "a ", "a\n", "a"]),
          mp="95" + "".join(mstr(s) for s in ["a", "a\n", "a ", "a!", "ab"]), js='["a","a\\n","a ","a!","ab"]')
    f.inp("numbers-numeric-order", S(NUM),
          imp="95" + "0a" + mstr("1000000000000000000000") + "ff" + "cb3ff8000000000000" + "09",
          mp="95" + "ff" + "cb3ff8000000000000" + "09" + "0a" + mstr("1000000000000000000000"),
          js="[-1,1.5,9,10,1000000000000000000000]", note="numeric order: [-1,1.5,9,10,1e21]")
    f.inp("numbers-json-input", S(NUM), ijs="[10,1e21,-1,1.5,9]", mp=AUTO, js="[-1,1.5,9,10,1000000000000000000000]")
    f.inp("bools", S(BOOL), imp="92c3c2", mp="92c2c3", js="[false,true]")
    f.inp("bools-dedup", S(BOOL), imp="93c3c3c2", mp="92c2c3", js="[false,true]")
    # composite: hash string order
    o10, o9, o1e21 = ("81" + mstr("n") + x for x in ("0a", "09", mstr("1000000000000000000000")))
    f.inp("objects-by-hash-10-1e21-9", S(O(n=NUM)), imp="93" + o9 + o1e21 + o10, mp="93" + o10 + o1e21 + o9,
          js='[{"n":10},{"n":1000000000000000000000},{"n":9}]',
          note="hash strings <10;> < <1e+21;> < <9;> (numbers hash as %.10g): not numeric order")
    a, b = 12345678902, 12345678901
    oa, ob = ("81" + mstr("n") + mint(x) for x in (a, b))
    f.rt("objects-equal-hash-keep-insertion-order", S(O(n=NUM)), "92" + oa + ob, f'[{{"n":{a}}},{{"n":{b}}}]',
         note="both hash as <1.23456789e+10;>, so they keep insertion (wire) order")
    f.rt("objects-equal-hash-keep-insertion-order-reversed", S(O(n=NUM)), "92" + ob + oa, f'[{{"n":{b}}},{{"n":{a}}}]')
    order = ["a ", "a!", "a", "a\n", "ab"]
    objs = {s: "81" + mstr("s") + mstr(s) for s in order}
    f.inp("objects-by-quoted-string-hash", S(O(s=STR)), imp="95" + "".join(objs[s] for s in ["a", "a!", "a ", "a\n", "ab"]),
          mp="95" + "".join(objs[s] for s in order), js='[{"s":"a "},{"s":"a!"},{"s":"a"},{"s":"a\\n"},{"s":"ab"}]',
          note="%q hashes: the closing quote (0x22) sorts after space and !, and \\n is written as backslash-n")
    f.inp("list-bool-elements", S(L(BOOL)), imp="93" + "91c3" + "91c2" + "92c2c3", mp="93" + "92c2c3" + "91c2" + "91c3",
          js="[[false,true],[false],[true]]", note="hashes [F;T;] < [F;] < [T;]")
    f.inp("list-string-elements", S(L(STR)), imp="93" + "91" + mstr("b") + "90" + "92" + mstr("a") + mstr("c"),
          mp="93" + "92" + mstr("a") + mstr("c") + "91" + mstr("b") + "90", js='[["a","c"],["b"],[]]')
    f.inp("map-elements", S(M(STR)), imp="92" + "81" + mstr("b") + mstr("x") + "81" + mstr("a") + mstr("y"),
          mp="92" + "81" + mstr("a") + mstr("y") + "81" + mstr("b") + mstr("x"), js='[{"a":"y"},{"b":"x"}]',
          note="map hashes: {\"a\":\"y\";} < {\"b\":\"x\";}")
    f.inp("set-elements", S(S(STR)), imp="92" + "91" + mstr("a") + "92" + mstr("b") + mstr("a"),
          mp="92" + "92" + mstr("a") + mstr("b") + "91" + mstr("a"), js='[["a","b"],["a"]]',
          note="inner sets hash in their own order: [\"a\";\"b\";] < [\"a\";]")
    f.inp("tuple-elements", S(T(STR, NUM)), imp="92" + "92" + mstr("b") + "01" + "92" + mstr("a") + "02",
          mp="92" + "92" + mstr("a") + "02" + "92" + mstr("b") + "01", js='[["a",2],["b",1]]')
    f.inp("objects-with-unknown-and-null-attributes", S(O(s=STR)),
          imp="94" + "81" + mstr("s") + "c0" + "81" + mstr("s") + mstr("b") + "81" + mstr("s") + "d40000" + "81" + mstr("s") + mstr("a"),
          mp="94" + "81" + mstr("s") + mstr("a") + "81" + mstr("s") + mstr("b") + "81" + mstr("s") + "d40000" + "81" + mstr("s") + "c0",
          js=AUTO, note="known objects sort by hash: <\"a\";> < <\"b\";> < <?;> < <~;>")
    f.rt("objects-with-unknowns-are-all-kept", S(O(s=STR)), "92" + ("81" + mstr("s") + "d40000") * 2, AUTO,
         note="objects holding unknowns are never equal, so both stay")
    # unknowns and null
    canon = h("95 a1 61 a1 62 d4 00 00 c7 03 0c 81 01 c2 c0")
    f.inp("unknowns-and-null-placement", S(STR), imp="95" + "c0" + "d40000" + mstr("b") + "c7030c8101c2" + mstr("a"),
          mp=canon, js=None, note="known values sorted, then unknowns in insertion order, then the null "
                                  "(wire-format.md 4: 95 a1 61 a1 62 d4 00 00 c7 03 0c 81 01 c2 c0)")
    f.rt("unknowns-and-null-canonical", S(STR), canon, AUTO)
    f.inp("unknowns-insertion-order", S(STR), imp="94" + "c7030c8101c2" + "c0" + mstr("a") + "d40000",
          mp="94" + mstr("a") + "c7030c8101c2" + "d40000" + "c0", js=None)
    f.rt("unknowns-numbers", S(NUM), "93" + "01" + "d40000" + "c0", AUTO)
    # dedup
    f.inp("dedup-strings", S(STR), imp=h("93 a1 61 a1 61 a1 62"), mp=h("92 a1 61 a1 62"), js='["a","b"]',
          source=f"{WF} §2.6")
    f.inp("dedup-nulls", S(STR), imp="93c0" + mstr("a") + "c0", mp="92" + mstr("a") + "c0", js='["a",null]',
          note="at most one null")
    f.inp("unknowns-all-kept", S(STR), imp="93d40000d40000" + mstr("a"), mp="93" + mstr("a") + "d40000d40000", js=None,
          note="unknowns are never equal to anything, even to each other")
    f.inp("dedup-float-0.1-then-decimal-0.1", S(NUM), imp="92cb3fb999999999999aa3302e31", mp="91cb3fb999999999999a",
          js="[0.1]", note="float64 0.1 and decimal \"0.1\" are equal (same text): the first one stays")
    f.inp("dedup-decimal-0.1-then-float-0.1", S(NUM), imp="92a3302e31cb3fb999999999999a", mp="91a3302e31", js="[0.1]")
    f.inp("dedup-int-and-float-1", S(NUM), imp="9201cb3ff0000000000000", mp="9101", js="[1]")
    f.inp("dedup-int-forms", S(NUM), imp="93" + "05" + "cc05" + "d30000000000000005", mp="9105", js="[5]")
    f.inp("no-dedup-float-0.3-vs-decimal-0.3", S(NUM), imp="92" + mfloat(0.1 + 0.2) + mstr("0.3"),
          mp="92" + mstr("0.3") + mfloat(0.1 + 0.2), js="[0.3,0.30000000000000004]",
          note="float64 0.1+0.2 prints 0.30000000000000004, so it is not equal to decimal 0.3 (wire-format.md 5)")
    f.inp("dedup-objects", S(O(a=STR)), imp="93" + ("81" + mstr("a") + mstr("x")) * 2 + "81" + mstr("a") + "c0",
          mp="92" + "81" + mstr("a") + mstr("x") + "81" + mstr("a") + "c0", js='[{"a":"x"},{"a":null}]')
    f.inp("dedup-after-nfc", S(STR), imp="92" + mstr("café") + mstr("cafe\u0301"), mp="91" + mstr("café"), js='["café"]',
          note="strings are normalized before they are compared")
    f.inp("dedup-json-input", S(STR), ijs='["b","a","b",null,null]', mp="93" + mstr("a") + mstr("b") + "c0",
          js='["a","b",null]')
    f.rt("empty-set", S(STR), "90", "[]")
    f.rt("null-set", S(STR), "c0", "null")
    f.rt("set-with-only-null", S(STR), "91c0", "[null]")
    f.inp("set-of-dynamic-sorts-by-concrete-type", S(DYN),
          imp="92" + dynwrap(STR, mstr("b")) + dynwrap(STR, mstr("a")),
          mp="92" + dynwrap(STR, mstr("a")) + dynwrap(STR, mstr("b")), js=AUTO,
          note="set(dynamic) holding strings is a set(string) and sorts as one")
    return f
