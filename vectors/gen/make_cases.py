#!/usr/bin/env python3
"""Generate ctywire's own vector files, vectors/ctywire/*.json.

Every case is written here with its input spelled out; outputs written as AUTO are
computed by the executable model (ctymodel.py); every case is checked against the model
as it is added. Byte strings that FORMAT.md gives verbatim are written verbatim.

Usage: python3 vectors/gen/make_cases.py        (then gocty/crosscheck.py, see README)
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import ctymodel as m  # noqa: E402
from casekit import AUTO, CaseFile, h, mbin, mstr, tj  # noqa: E402

WF = "ctywire: FORMAT.md"
DIFF = "ctywire: FORMAT.md §8"  # the deliberate differences from go-cty, §8.1 to §8.18

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
                 "non-minimal forms (FORMAT.md §2.1, §2.4).",
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
          note="float32 0.1 widened: 0.10000000149011612 (FORMAT.md §2.4)", source=src)
    f.inp("float64-1.0-is-int", NUM, imp="cb3ff0000000000000", mp="01", js="1", source=src)
    f.inp("float64-minus-2-is-int", NUM, imp="cbc000000000000000", mp="fe", js="-2", source=src)
    f.inp("float64-2-pow-53-is-int", NUM, imp=mfloat(2.0**53), mp="cf0020000000000000", js=str(2**53), source=src)
    f.inp("float64-largest-below-2-pow-63-is-int", NUM, imp=mfloat(2.0**63 - 1024), mp=mint(2**63 - 1024),
          js=None, note="9223372036854774784 fits int64, so it is written as an integer", source=src)
    f.inp("float64-largest-below-2-pow-63-json", NUM, imp=mfloat(2.0**63 - 1024), mp=None,
          js="9223372036854775000", note="JSON prints the float's shortest digits, as go-cty does (issue 220): "
                                         "the same float gives 9223372036854774784 through msgpack but "
                                         "9223372036854775000 through JSON", source=src)
    f.inp("float64-minus-2-pow-63-is-int", NUM, imp=mfloat(-2.0**63), mp="d38000000000000000", js=None, source=src)
    f.inp("float64-minus-2-pow-63-json", NUM, imp=mfloat(-2.0**63), mp=None, js="-9223372036854776000", source=src,
          note="through JSON the float prints its shortest digits")
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
                 "(FORMAT.md §2.4, §5). Numbers remember whether they came from a float64: "
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
    fuzz = f"{WF} §2.4, §5 (found by the roundtrip fuzz target)"
    f.rt("float64-fraction-shortest-text", NUM, "cb430c6cb6e2093402", "1000104010000000.2", source=fuzz,
         note="a float64 prints its shortest 53-bit digits, 1000104010000000.2 (the float64 is "
              "1000104010000000.25); that text reads back as a decimal that is not a float64, written as a string")
    f.inp("decimal-exactly-a-float64-with-more-digits", NUM, imp=mstr("1000104010000000.25"),
          mp="cb430c6cb6e2093402", js=None, source=fuzz,
          note="1000104010000000.25 read as text (from a string here, or from JSON) is exactly a float64 and not "
               "an integer, so it is written as cb; read back, that float64 prints 1000104010000000.2 "
               "(float64-fraction-shortest-text), which is not Equal to 1000104010000000.25, in go-cty as here: "
               "the round trip through MessagePack changes the value")
    f.rt("float64-1e-7", NUM, mfloat(1e-7), "0.0000001", note="JSON numbers never use an exponent")
    f.rt("decimal-1e-7", NUM, mstr("0.0000001"), "0.0000001")
    f.rt("decimal-1e20", NUM, mstr("100000000000000000000"), "100000000000000000000", source=f"{WF} §2.4 table")
    f.rt("decimal-2-pow-63", NUM, mstr(str(2**63)), str(2**63))
    f.rt("decimal-long-fraction", NUM, mstr("3.14159265358979323846264338327950288"),
         "3.14159265358979323846264338327950288")
    f.rt("decimal-1e400", NUM, mstr("1" + "0" * 400), "1" + "0" * 400,
         note="1e400 is a 401-character str16 (FORMAT.md §2.4 table)")
    f.rt("subnormal-5e-324", NUM, "cb0000000000000001", AUTO,
         note="JSON text is 0. then 323 zeros then 4940656458412465: big.Float keeps 53 significant bits even "
              "for subnormals (FORMAT.md §3.1); that text reads back as a decimal, written as a string")
    f.rt("float64-max", NUM, "cb7fefffffffffffff", "17976931348623157" + "0" * 292,
         difference="a float64 whose value is an integer at or beyond 2^63 is written as float64 (FORMAT.md §8.11)",
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
    nan_diff = dict(difference="NaN is an error (FORMAT.md §8.8); go-cty panics in big.Float.SetFloat64",
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
                 "normalization on decode, invalid UTF-8 (FORMAT.md §2.1, §2.5, §6).",
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
          note="\"cafe\" + U+0301 decodes to precomposed \"café\" (FORMAT.md §2.5)", source=src6)
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
    utf8_diff = dict(difference="invalid UTF-8 is an error (FORMAT.md §8.6)",
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
                 "duplicate and non-string keys, kind mismatches, truncation (FORMAT.md §2.1, §2.2, §2.6).",
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
                                 "error (FORMAT.md §8.3)",
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
               "(FORMAT.md §2.6, §6)")
    dup_diff = dict(difference="duplicate keys in a msgpack map or object are an error (FORMAT.md §8.4)")
    f.err("object-duplicate-attribute", O(a=BOOL, b=BOOL), "InvalidValue", path=".a",
          imp="82" + mstr("a") + "c3" + mstr("a") + "c2", offset=4,
          gocty="builds object({a}) without b: a value of the wrong type", **dup_diff)
    f.err("map-duplicate-key", M(BOOL), "InvalidValue", path='["a"]', imp="82" + mstr("a") + "c3" + mstr("a") + "c2",
          offset=4, gocty="the last value wins", **dup_diff)
    f.err("map-duplicate-key-after-nfc", M(STR), "InvalidValue", path='["café"]',
          imp="82" + mstr("café") + mstr("x") + mstr("cafe\u0301") + mstr("y"),
          gocty="the keys collide after NFC and which value wins is not deterministic", **dup_diff)
    key_diff = dict(difference="non-string and nil map keys are errors (FORMAT.md §8.5)")
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
          imp="81" + mstr("a") + "91" + "81" + mstr("k") + "c3", offset=7)
    f.err("invalid-marker-in-list", L(STR), "Syntax", path="[0]", imp="91c1", offset=1)
    # truncation
    f.err("truncated-list", L(STR), "UnexpectedEof", path="[1]", imp="92" + mstr("a"),
          note="the input ends where element [1] should start")
    f.err("truncated-array16-header", L(STR), "UnexpectedEof", imp="dc00")
    f.err("array32-length-beyond-input", L(STR), "UnexpectedEof", imp="ddffffffff",
          note="must fail without allocating for 2^32-1 elements: that many elements cannot fit in what is left")
    f.err("array16-length-beyond-input", L(BOOL), "UnexpectedEof", imp="dc0003c3c3",
          note="3 elements announced, 2 bytes left")
    f.err("map32-length-beyond-input", M(STR), "UnexpectedEof", imp="dfffffffff")
    f.err("truncated-map-value", M(STR), "UnexpectedEof", path='["a"]', imp="81" + mstr("a"))
    f.err("truncated-object", O(a=STR, b=STR), "UnexpectedEof", imp="82" + mstr("a") + mstr("x"))
    return f


# --------------------------------------------------------------------------- sets

def sets():
    f = CaseFile("sets.json",
                 "Set element order and deduplication (FORMAT.md §4): primitive sets sort by value "
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
    f.raw(name="zero-and-negative-zero-both-kept", type=S(NUM), input_msgpack="9200cb8000000000000000",
          json="[-0,0]", msgpack_from_json="920000",
          note="0 and -0 are equal but hash as \"0\" and \"-0\", so go-cty keeps both; the \"-0\" bucket "
               "(CRC32 1193965756) comes before the \"0\" bucket (CRC32 4108050209) and the sort ties them; "
               "MessagePack writes -0 as the integer 0, which makes the bytes decode to a one-element set")
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
                                  "(FORMAT.md §4: 95 a1 61 a1 62 d4 00 00 c7 03 0c 81 01 c2 c0)")
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
          note="float64 0.1+0.2 prints 0.30000000000000004, so it is not equal to decimal 0.3 (FORMAT.md §5)")
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


# --------------------------------------------------------------------------- refinements

def ext(code, payload_hex):
    return m.mp_ext(code, bytes.fromhex(payload_hex)).hex()


def ref(payload_hex):
    """A refined unknown: extension type 12 with the given payload (header chosen by length)."""
    return ext(12, payload_hex)


def refinements():
    f = CaseFile("refinements.json",
                 "Unknown values and their refinements, msgpack extension type 12 (FORMAT.md §2.3): "
                 "the examples of 2.3, every extension header form, collapsing to known values, "
                 "normalisation, key errors, unknown keys (skipped), other extension types (plain "
                 "unknowns) and the 1024-byte payload limit. JSON cannot hold unknowns: "
                 "`json_encode_error` says so.",
                 f"{WF} §2.3")
    ex = f"{WF} §2.3 examples"
    f.rt("plain-unknown", STR, "d40000", AUTO)
    f.rt("string-not-null", STR, h("c7 03 0c 81 01 c2"), AUTO, source=ex)
    f.rt("string-prefix", STR, h("c7 07 0c 81 02 a4 66 6f 6f 2d"), AUTO, source=ex)
    f.rt("string-not-null-prefix", STR, h("c7 09 0c 82 01 c2 02 a4 666f6f2d"), AUTO, source=ex)
    f.rt("number-lower-0-inclusive", NUM, h("c7 05 0c 81 03 92 00 c3"), AUTO, source=ex)
    f.rt("number-0-to-1", NUM, h("c7 09 0c 82 03 92 00 c3 04 92 01 c3"), AUTO, source=ex)
    f.rt("number-above-1.5-to-1e30", NUM,
         h('c7 30 0c 82 03 92 cb 3ff8000000000000 c2 04 92 bf "1000000000000000000000000000000" c3'), AUTO, source=ex,
         note="lower bound 1.5 exclusive (a float64), upper bound 1e30 inclusive (written as a string)")
    f.rt("list-length-1-to-2", L(STR), h("c7 05 0c 82 05 01 06 02"), AUTO, source=ex)
    f.rt("set-not-null-length-1-to-300", S(STR), h("c7 09 0c 83 01 c2 05 01 06 cd 012c"), AUTO, source=ex)
    f.rt("list-element-fixext8", L(STR), h("91 d7 0c 82 01 c2 02 a3 61 62 3a"), AUTO, source=ex,
         note="an 8-byte payload uses fixext8 (d7)")
    for name, ty in [("bool", BOOL), ("object", O(a=STR)), ("tuple", T(STR)), ("map", M(STR)), ("dynamic-list", L(DYN))]:
        f.rt(f"{name}-not-null", ty, h("c7 03 0c 81 01 c2"), AUTO, note="bool, object and tuple carry only key 1")
    f.rt("map-length-bounds", M(STR), ref("820502060a"), AUTO)
    f.rt("number-upper-exclusive-float", NUM, ref("8104 92 cb400c000000000000 c2".replace(" ", "")), AUTO)
    f.rt("number-bounds-decimal-strings", NUM, ref("8203 92" + mstr("0.1") + "c3 04 92" + mstr("0.2") + "c2"), AUTO)
    f.rt("number-negative-bounds", NUM, ref("8203 92 d080 c3 04 92 ff c3".replace(" ", "")), AUTO)
    f.rt("refined-in-object", O(id=STR, n=NUM), "82" + mstr("id") + ref("8201c202" + mstr("i-")) + mstr("n") + "c0",
         AUTO)
    # header forms
    hf = f"{WF} §2.1 extension header"
    f.inp("fixext1-code-12-is-plain", STR, imp="d40c80", mp="d40000", js=None, source=hf,
          note="an extension of length <= 1 is a plain unknown whatever its type code")
    f.inp("fixext1-code-5-is-plain", STR, imp="d405ff", mp="d40000", js=None, source=hf)
    f.inp("ext8-empty-is-plain", STR, imp="c7000c", mp="d40000", js=None, source=hf)
    f.inp("ext8-length-1-is-plain", NUM, imp="c7010cc3", mp="d40000", js=None, source=hf)
    f.err("fixext2-code-12-truncated-map", STR, "InvalidValue", imp=h("d5 0c 81 01"), source=hf,
          note="a 2-byte payload cannot hold a whole refinement entry: 81 01 lacks the value")
    f.rt("fixext4-prefix", STR, h('d6 0c 81 02 a1 "a"'), AUTO, source=hf, note="4-byte payload: fixext4 (d6)")
    f.rt("fixext4-length-upper-255", L(STR), h("d6 0c 81 06 cc ff"), AUTO, source=hf)
    f.rt("fixext8-prefix", STR, h('d7 0c 82 01 c2 02 a3 "ab:"'), AUTO, source=hf)
    f.rt("fixext16-prefix", STR, h('d8 0c 82 01 c2 02 ab "hello-world"'), AUTO, source=hf,
         note="16-byte payload: fixext16 (d8)")
    f.rt("ext8-prefix-200", STR, ref("8102" + mstr("p" * 200)), AUTO, source=hf)
    f.rt("ext16-prefix-256-not-truncated", STR, ref("8102" + mstr("q" * 255 + "-")), AUTO, source=hf,
         note="a 256-byte prefix is kept (only longer ones are truncated): payload 261 bytes, ext16 (c8)")
    big = "1" + "0" * 299
    f.rt("ext16-number-bound-300-digits", NUM, ref("8103 92".replace(" ", "") + mstr(big) + "c3"), AUTO, source=hf,
         note="a long decimal bound makes a payload over 255 bytes: ext16 (c8)")
    f.inp("ext32-input", STR, imp=h("c9 00000007 0c 81 02 a4 666f6f2d"), mp=h("c7 07 0c 81 02 a4 666f6f2d"), js=None,
          source=hf, note="ext32 (c9) is accepted on input when its payload is at most 1024 bytes; it is never "
                          "written, because no payload that fits the limit needs it")
    f.inp("ext16-input-short", STR, imp=h("c8 0003 0c 81 01 c2"), mp=h("c7 03 0c 81 01 c2"), js=None, source=hf)
    f.inp("ext8-input-for-fixext-length", STR, imp=h("c7 04 0c 81 02 a1 61"), mp=h("d6 0c 81 02 a1 61"), js=None,
          source=hf)
    # long prefixes: truncated when written
    pre = f"{WF} §2.3 key 2"
    f.inp("prefix-300-truncated", STR, imp=ref("8102" + mstr("a" * 300)), mp=h("c8 0102 0c 81 02 d9 fe") + "61" * 254,
          js=None, source=pre, note="a prefix over 256 bytes is cut to 255 bytes and then loses its last grapheme "
                                    "cluster (SafeKnownPrefix): 254 ASCII bytes")
    f.inp("prefix-257-truncated", STR, imp=ref("820 1c2 02".replace(" ", "") + mstr("b" * 257)),
          mp=h("c8 0104 0c 82 01 c2 02 d9 fe") + "62" * 254, js=None, source=pre)
    f.inp("prefix-cut-inside-code-point", STR, imp=ref("8102" + mstr("d" * 254 + "\U0001f937")),
          mp=h("c8 0102 0c 81 02 d9 fe") + "64" * 254, js=None, source=pre,
          note="255 bytes end inside the 4-byte U+1F937: the partial code point is dropped")
    f.inp("payload-exactly-1024", STR, imp=ref("8102" + mstr("a" * 1019)), mp=h("c8 0102 0c 81 02 d9 fe") + "61" * 254,
          js=None, source=pre, note="payload 81 02 da 03fb + 1019 bytes = 1024 bytes: accepted")
    f.inp("prefix-as-bin", STR, imp=ref("8102" + mbin("foo-")), mp=h("c7 07 0c 81 02 a4 666f6f2d"), js=None, source=pre)
    f.inp("prefix-nfc", STR, imp=ref("8102" + mstr("cafe\u0301")), mp=ref("8102" + mstr("café")), js=None, source=pre,
          note="string-prefix refinements are NFC-normalized (FORMAT.md §6)")
    # collapsing
    col = f"{WF} §2.3 collapsing"
    f.inp("null-true-is-known-null", STR, imp=h("c7 03 0c 81 01 c3"), mp="c0", js="null", source=col,
          note="nullness true means definitely null: the known null")
    f.inp("null-true-list-is-known-null", L(STR), imp=h("c7 03 0c 81 01 c3"), mp="c0", js="null", source=col)
    f.inp("number-equal-inclusive-bounds-not-null", NUM, imp=ref("830 1c2 03 92 05 c3 04 92 05 c3".replace(" ", "")),
          mp="05", js="5", source=col)
    f.inp("number-equal-float-bounds-not-null", NUM,
          imp=ref("8301c2 0392cb3ff8000000000000c3 0492cb3ff8000000000000c3".replace(" ", "")),
          mp="cb3ff8000000000000", js="1.5", source=col)
    f.rt("number-equal-bounds-without-not-null-stays", NUM, ref("82 03 92 05 c3 04 92 05 c3".replace(" ", "")), AUTO,
         source=col, note="without not-null the value could still be null: it stays unknown")
    f.rt("number-equal-bounds-one-exclusive-stays", NUM, ref("83 01c2 03 92 05 c3 04 92 06 c2".replace(" ", "")), AUTO,
         source=col)
    f.inp("list-length-0-not-null", L(STR), imp=ref("8301c2 0500 0600".replace(" ", "")), mp="90", js="[]", source=col)
    f.inp("set-length-0-not-null", S(STR), imp=ref("8301c2 0500 0600".replace(" ", "")), mp="90", js="[]", source=col)
    f.inp("map-length-0-not-null", M(STR), imp=ref("8301c2 0500 0600".replace(" ", "")), mp="80", js="{}", source=col)
    f.inp("list-upper-0-not-null", L(STR), imp=h("c7 05 0c 82 01 c2 06 00"), mp="90", js="[]", source=col,
          note="the lower bound defaults to 0, so an upper bound of 0 fixes the length")
    f.inp("list-length-2-not-null", L(STR), imp=h("c7 07 0c 83 01 c2 05 02 06 02"), mp=h("92 d4 00 00 d4 00 00"),
          js=None, source=col, note="a known list of two unknown elements (FORMAT.md §2.3)")
    f.inp("set-length-1-not-null", S(STR), imp=h("c7 07 0c 83 01 c2 05 01 06 01"), mp=h("91 d4 00 00"), js=None,
          source=col)
    f.rt("set-length-2-not-null-stays", S(STR), h("c7 07 0c 83 01 c2 05 02 06 02"), AUTO, source=col,
         note="only sets of exactly one element collapse")
    f.rt("map-length-2-not-null-stays", M(STR), h("c7 07 0c 83 01 c2 05 02 06 02"), AUTO, source=col)
    f.rt("list-length-2-without-not-null-stays", L(STR), h("c7 05 0c 82 05 02 06 02"), AUTO, source=col)
    f.rt("list-length-0-without-not-null-stays", L(STR), h("c7 03 0c 81 06 00"), AUTO, source=col)
    # normalisation
    nor = f"{WF} §2.3 encoding rules"
    f.inp("lower-length-0-omitted", L(STR), imp=h("c7 03 0c 81 05 00"), mp="d40000", js=None, source=nor,
          note="a lower length bound of 0 is not written; an empty refinement is a plain unknown")
    f.inp("upper-length-maxint-omitted", L(STR), imp=ref("8106cf7fffffffffffffff"), mp="d40000", js=None, source=nor)
    f.inp("empty-prefix-omitted", STR, imp=h("c7 03 0c 81 02 a0"), mp="d40000", js=None, source=nor)
    f.inp("payload-trailing-bytes-ignored", STR, imp=h("d6 0c 81 01 c2 c0"), mp=h("c7 03 0c 81 01 c2"), js=None,
          source=nor, note="bytes after the refinement map inside the payload are ignored, as go-cty does (room "
                           "for future use)")
    f.inp("empty-refinement-map", STR, imp=h("c7 01 0c 80"), mp="d40000", js=None, source=nor)
    f.inp("keys-out-of-order", STR, imp=h("c7 07 0c 82 02 a2 61 62 01 c2"), mp=h("c7 07 0c 82 01 c2 02 a2 61 62"),
          js=None, source=nor, note="entries are written in the order 1, 3, 4, 2, 5, 6")
    f.inp("number-keys-out-of-order", NUM, imp=ref("8204 92 01 c3 03 92 00 c3".replace(" ", "")),
          mp=h("c7 09 0c 82 03 92 00 c3 04 92 01 c3"), js=None, source=nor)
    f.inp("length-keys-out-of-order", L(STR), imp=h("c7 07 0c 83 06 02 05 01 01 c2"),
          mp=h("c7 07 0c 83 01 c2 05 01 06 02"), js=None, source=nor)
    f.inp("bound-as-decimal-string", NUM, imp=ref("8103 92".replace(" ", "") + mstr("1e-3") + "c3"),
          mp=ref("810392" + mstr("0.001") + "c3"), js=None, source=nor,
          note="bounds are read with the full number rules, so \"1e-3\" works, and written back canonically")
    f.inp("bound-non-minimal-int", NUM, imp=ref("810392d10005c3"), mp=ref("8103920 5c3".replace(" ", "")), js=None,
          source=nor)
    f.inp("bound-integral-float", NUM, imp=ref("810392cb4000000000000000c3"), mp=ref("81039202c3"), js=None, source=nor)
    f.inp("length-bound-non-minimal-int", L(STR), imp=ref("8105d10001"), mp=ref("810501"), js=None, source=nor)
    # errors
    er = f"{WF} §2.3 decoding"
    for name, ty, payload, why in [
        ("prefix-for-number", NUM, "8102" + mstr("a"), "string prefix refinement for non-string type"),
        ("prefix-for-list", L(STR), "8102" + mstr("a"), "string prefix refinement for non-string type"),
        ("bound-for-string", STR, "81039200c3", "numeric bound refinement for non-number type"),
        ("length-for-string", STR, "810501", "length bound refinement for non-collection type"),
        ("length-for-object", O(a=STR), "810601", "objects are not collections"),
        ("length-for-tuple", T(STR), "810501", "tuples are not collections"),
        ("null-not-bool", STR, "810101", "null refinement is not boolean"),
        ("bound-not-array", NUM, "810305", "bound must be [number, bool]"),
        ("bound-array-of-3", NUM, "81039300c3c3", "bound must be [number, bool]"),
        ("bound-inclusive-not-bool", NUM, "8103920001", "bound must be [number, bool]"),
        ("bound-not-a-number", NUM, "810392c3c3", "bound must be [number, bool]"),
        ("bound-bad-number-text", NUM, "810392" + mstr("abc") + "c3", "bound must be [number, bool]"),
        ("bound-nan", NUM, "810392cb7ff8000000000000c3", "NaN is never a number"),
        ("prefix-not-string", STR, "810205", "prefix must be str or bin"),
        ("prefix-invalid-utf8", STR, "8102a1ff", "prefix must be valid UTF-8"),
        ("length-not-int", L(STR), "8105c3", "length bound must be an integer"),
        ("non-integer-key", STR, "81" + mstr("a") + "c3", "non-integer key in map"),
        ("payload-not-a-map", STR, "92c3c3", "not a map"),
        ("payload-is-a-string", STR, mstr("ab"), "not a map"),
        ("truncated-payload-map", STR, "8201c2", "the map announces 2 entries but holds 1"),
    ]:
        f.err(f"error-{name}", ty, "InvalidValue", imp=ref(payload), note=why, source=er)
    f.err("error-in-list-element-path", L(NUM), "InvalidValue", path="[1]", imp="9201" + ref("8102" + mstr("a")), source=er)
    f.err("error-not-a-map-even-for-dynamic", DYN, "InvalidValue", imp=ref("92c3c3"), source=er,
          note="the payload must be a map before refinements are ignored for dynamic")
    f.err("truncated-extension", STR, "UnexpectedEof", imp=h("c7 07 0c 81 02 a4 66"), source=er)
    f.err("truncated-extension-header", STR, "UnexpectedEof", imp=h("c8 00"), source=er)
    # oversize
    ov = f"{WF} §2.3 decoding rule 3"
    f.err("oversize-ext16-1025", STR, "LimitExceeded", imp=ref("8102" + mstr("a" * 1020)), offset=0, source=ov,
          note="payload of 1025 bytes: over the 1024-byte limit (go-cty: oversize unknown value refinement)")
    f.err("oversize-ext32", STR, "LimitExceeded", imp="c9" + (1025).to_bytes(4, "big").hex() + "0c" + "8102" + mstr("a" * 1020)[0:6] + "61" * 1020,
          offset=0, source=ov, note="ext32 is accepted only up to the same limit")
    f.err("oversize-in-list", L(STR), "LimitExceeded", path="[0]", imp="91" + ref("8102" + mstr("a" * 2000)), offset=1,
          source=ov)
    # unknown keys (difference)
    uk = dict(source=f"{DIFF}.2", difference="unknown refinement keys are skipped, value and all (FORMAT.md §8.2)")
    f.inp("unknown-key-7-before-null", STR, imp=h("c7 05 0c 82 07 05 01 c2"), mp=h("c7 03 0c 81 01 c2"), js=None,
          gocty={"error": "length lower bound refinement for non-collection type (it reads the 5 as a key)"}, **uk)
    f.inp("unknown-key-7-string-value", STR, imp=h('c7 06 0c 82 07 a1 "x" 01 c2'), mp=h("c7 03 0c 81 01 c2"), js=None,
          gocty={"error": "non-integer key in map"}, **uk)
    f.inp("unknown-key-nested-value", NUM, imp=ref("83 00 93 01 02 81 a1 61 c0 01 c2 03 92 00 c3".replace(" ", "")),
          mp=ref("8201c2039200c3"), js=None,
          gocty={"error": "non-integer key in map (the unconsumed array value is read as the next key)"}, **uk)
    f.inp("unknown-key-negative", STR, imp=ref("82ffc301c2"), mp=h("c7 03 0c 81 01 c2"), js=None,
          gocty={"error": "non-integer key in map (the unconsumed c3 is read as the next key)"}, **uk)
    f.inp("unknown-key-last-alone", STR, imp=h("c7 03 0c 81 07 c3"), mp="d40000", js=None,
          gocty="accepts it (the unknown key is last), but keeps an empty refinement object", **uk)
    f.inp("unknown-key-large", L(STR), imp=ref("82cd1000c001c2"), mp=h("c7 03 0c 81 01 c2"), js=None,
          gocty="does not consume the unknown key's value, so the entries after it are misread (FORMAT.md "
                "§2.3 rule 7)", **uk)
    # other extension types (difference)
    ot = dict(source=f"{DIFF}.1", difference="any msgpack extension other than type 12 is a plain unknown (the protocol "
                                        "doc's rule)")
    f.inp("ext-type-0-length-2", STR, imp=h("d5 00 00 00"), mp="d40000", js=None,
          gocty={"error": "unsupported extension type 0x00 with len 2"}, **ot)
    f.inp("ext-type-5-refinement-like", STR, imp=h("c7 03 05 81 01 c2"), mp="d40000", js=None,
          gocty={"error": "unsupported extension type 0x05 with len 3"}, **ot)
    f.inp("ext-type-minus-1-timestamp", NUM, imp=h("d6 ff 00 00 00 00"), mp="d40000", js=None,
          gocty={"error": "unsupported extension type 0x-1 with len 4 (the int8 code -1, as Go's %02x prints it)"},
          **ot)
    f.inp("ext-type-7-in-object", O(a=STR), imp="81" + mstr("a") + h("d7 07 0102030405060708"),
          mp="81" + mstr("a") + "d40000", js=None, gocty={"error": "unsupported extension type 0x07 with len 8"}, **ot)
    # dynamic: refinements ignored
    dy = f"{WF} §2.3 decoding rule 5"
    f.inp("dynamic-ignores-not-null", DYN, imp=h("c7 03 0c 81 01 c2"), mp="d40000", js=None, source=dy)
    f.inp("dynamic-ignores-null-true", DYN, imp=h("c7 03 0c 81 01 c3"), mp="d40000", js=None, source=dy,
          note="even definitely-null is ignored: the result is the unknown dynamic value, not a null")
    f.inp("dynamic-ignores-length", DYN, imp=h("c7 03 0c 81 05 01"), mp="d40000", js=None, source=dy)
    f.inp("list-dynamic-element-ignores", L(DYN), imp=h("91 c7 03 0c 81 01 c2"), mp=h("91 d4 00 00"), js=None, source=dy)
    return f


# --------------------------------------------------------------------------- dynamic

def dynamic():
    f = CaseFile("dynamic.json",
                 "The dynamic pseudo-type (FORMAT.md §2.2, §2.7, §3.1, §3.2): msgpack [type JSON as bin, value] "
                 "and JSON {\"value\":...,\"type\":...} wrappers; unknowns and nulls of a concrete type keep the "
                 "wrapper; dynamic positions inside collections wrap each element.",
                 f"{WF} §2.7")
    src = f"{WF} §2.7 examples"
    f.rt("bool", DYN, dynwrap(BOOL, "c3"), '{"value":true,"type":"bool"}', source=src)
    f.rt("string", DYN, dynwrap(STR, mstr("hello")), '{"value":"hello","type":"string"}')
    f.rt("number", DYN, dynwrap(NUM, "01"), '{"value":1,"type":"number"}')
    f.rt("number-float", DYN, dynwrap(NUM, "cb3fb999999999999a"), '{"value":0.1,"type":"number"}')
    f.rt("list-string", DYN, h('92 c4 11 "[\\"list\\",\\"string\\"]" 91 a5 "hello"'),
         '{"value":["hello"],"type":["list","string"]}', source=src)
    f.rt("map-number", DYN, dynwrap(M(NUM), "81" + mstr("x") + "01"), '{"value":{"x":1},"type":["map","number"]}')
    f.rt("set-string", DYN, dynwrap(S(STR), "92" + mstr("a") + mstr("b")), AUTO)
    f.rt("empty-tuple", DYN, h('92 c4 0c "[\\"tuple\\",[]]" 90'), '{"value":[],"type":["tuple",[]]}', source=src)
    f.rt("empty-object", DYN, h('92 c4 0d "[\\"object\\",{}]" 80'), '{"value":{},"type":["object",{}]}', source=src)
    f.rt("tuple", DYN, dynwrap(T(STR, NUM), "92" + mstr("a") + "01"), AUTO)
    f.rt("object", DYN, dynwrap(O(a=STR, b=L(NUM)), "82" + mstr("a") + mstr("x") + mstr("b") + "9101"), AUTO)
    f.rt("nested-list", DYN, dynwrap(L(L(NUM)), "92" + "920102" + "90"), AUTO)
    attrs = {"attribute_%02d" % i: STR for i in range(30)}
    tjson = tj(Od(dict(sorted(attrs.items()))))
    assert len(tjson) > 255
    f.rt("bin16-type-json", DYN, "92" + mbin(tjson) + "de001e" + "".join(mstr(k) + "c0" for k in sorted(attrs)), AUTO,
         note=f"a type JSON of {len(tjson)} bytes needs bin16 (c5)")
    # null and unknown
    f.rt("null-dynamic", DYN, "c0", "null", note="NullVal(DynamicPseudoType) is plain c0")
    f.rt("unknown-dynamic", DYN, "d40000", AUTO, note="DynamicVal is plain d4 00 00")
    f.rt("null-of-concrete-type", DYN, h('92 c4 11 "[\\"list\\",\\"string\\"]" c0'),
         '{"value":null,"type":["list","string"]}', source=f"{WF} §2.2 rule 2")
    f.rt("null-string", DYN, dynwrap(STR, "c0"), '{"value":null,"type":"string"}')
    f.rt("unknown-of-concrete-type", DYN, h('92 c4 08 "\\"string\\"" d4 00 00'), AUTO, source=f"{WF} §2.2 rule 2",
         note="the dynamic check comes before the unknown check: the wrapper is kept")
    f.rt("refined-unknown-of-concrete-type", DYN, dynwrap(STR, "c7030c8101c2"), AUTO,
         note="a refined unknown of a concrete type inside a dynamic slot keeps its refinements")
    f.rt("unknown-list-of-concrete-type", DYN, dynwrap(L(STR), h("c7 05 0c 82 05 01 06 02")), AUTO)
    # input forms
    f.inp("type-json-as-str", DYN, imp="92" + mstr('"string"') + mstr("a"), mp=dynwrap(STR, mstr("a")),
          js='{"value":"a","type":"string"}', note="the type JSON is also accepted as str", source=f"{WF} §2.7 decoding")
    f.inp("type-json-as-str8", DYN, imp="92" + "d908" + '"string"'.encode().hex() + mstr("a"),
          mp=dynwrap(STR, mstr("a")), js=AUTO)
    f.inp("type-json-bin16-short", DYN, imp="92" + "c50008" + '"string"'.encode().hex() + mstr("a"),
          mp=dynwrap(STR, mstr("a")), js=AUTO)
    f.inp("type-json-whitespace", DYN, imp="92" + mbin('[ "list" , "string" ]') + "91" + mstr("a"),
          mp=dynwrap(L(STR), "91" + mstr("a")), js=AUTO, note="type JSON may contain whitespace; it is written compactly")
    f.inp("nested-dynamic-type", DYN, imp="92" + mbin('"dynamic"') + dynwrap(STR, mstr("a")), mp=dynwrap(STR, mstr("a")),
          js='{"value":"a","type":"string"}', note="type \"dynamic\" inside the wrapper means another wrapper follows")
    f.inp("nested-dynamic-type-null", DYN, imp="92" + mbin('"dynamic"') + "c0", mp="c0", js="null")
    f.inp("nested-dynamic-type-unknown", DYN, imp="92" + mbin('"dynamic"') + "d40000", mp="d40000", js=None)
    f.inp("wrapped-list-dynamic-becomes-list-string", DYN,
          imp="92" + mbin(tj(L(DYN))) + "91" + dynwrap(STR, mstr("a")), mp=dynwrap(L(STR), "91" + mstr("a")),
          js='{"value":["a"],"type":["list","string"]}',
          note="a list(dynamic) whose elements are strings is a list(string) value, and is written as one")
    # collections of dynamic
    src = f"{WF} §2.7 collections"
    f.rt("list-dynamic", L(DYN), h('91 92 c4 08 "\\"string\\"" a5 "hello"'), '[{"value":"hello","type":"string"}]',
         source=src, note="each element is wrapped")
    f.rt("map-dynamic", M(DYN), h('81 a1 "x" 92 c4 08 "\\"number\\"" 01'), '{"x":{"value":1,"type":"number"}}', source=src)
    f.rt("object-dynamic-attribute", O(d=DYN, s=BOOL), "82" + mstr("d") + dynwrap(BOOL, "c3") + mstr("s") + "c3",
         '{"d":{"value":true,"type":"bool"},"s":true}')
    f.rt("tuple-dynamic-element", T(DYN, STR), "92" + dynwrap(NUM, "05") + mstr("x"), '[{"value":5,"type":"number"},"x"]')
    f.rt("list-dynamic-two-strings", L(DYN), "92" + dynwrap(STR, mstr("a")) + dynwrap(STR, mstr("b")), AUTO)
    f.inp("list-dynamic-null-and-string", L(DYN), imp="92" + "c0" + dynwrap(STR, mstr("a")),
          mp="92" + dynwrap(STR, "c0") + dynwrap(STR, mstr("a")),
          js='[{"value":null,"type":"string"},{"value":"a","type":"string"}]',
          note="a null of the dynamic pseudo-type does not clash with the strings, but the list is a list(string), "
               "so it becomes a null string, written with a wrapper (go-cty's ListVal keeps only the raw values)")
    f.inp("list-dynamic-unknown-and-string", L(DYN), imp="92" + "d40000" + dynwrap(STR, mstr("a")),
          mp="92" + dynwrap(STR, "d40000") + dynwrap(STR, mstr("a")), js=AUTO,
          note="likewise the unknown becomes an unknown string")
    f.inp("map-dynamic-null-and-number", M(DYN), imp="82" + mstr("a") + "c0" + mstr("b") + dynwrap(NUM, "01"),
          mp="82" + mstr("a") + dynwrap(NUM, "c0") + mstr("b") + dynwrap(NUM, "01"), js=AUTO)
    f.rt("list-dynamic-only-nulls", L(DYN), "92c0c0", "[null,null]",
         note="with no concrete element the list stays a list(dynamic): nothing to wrap")
    f.rt("object-dynamic-attributes-keep-own-types", O(a=DYN, b=DYN), "82" + mstr("a") + "c0" + mstr("b") + dynwrap(NUM, "01"),
         '{"a":null,"b":{"value":1,"type":"number"}}', note="object attributes each keep their own type")
    f.rt("list-dynamic-empty", L(DYN), "90", "[]")
    f.rt("list-dynamic-typed-nulls", L(DYN), "92" + dynwrap(STR, "c0") + dynwrap(STR, mstr("a")), AUTO)
    f.rt("list-object-with-dynamic", L(O(a=DYN)), "92" + ("81" + mstr("a") + dynwrap(STR, mstr("x"))) * 2, AUTO)
    f.rt("map-dynamic-lists", M(DYN), "82" + mstr("a") + dynwrap(L(NUM), "9101") + mstr("b") + dynwrap(L(NUM), "90"), AUTO)
    het = dict(difference="heterogeneous elements of list(dynamic)-like types are an error (FORMAT.md §8.9)",
               gocty={"panics": True}, note="go-cty panics: inconsistent list element types (cty.String then cty.Number)")
    f.err("list-dynamic-heterogeneous", L(DYN), "InvalidValue", path="[1]",
          imp="92" + dynwrap(STR, mstr("a")) + dynwrap(NUM, "01"), **het)
    f.err("list-dynamic-heterogeneous-typed-nulls", L(DYN), "InvalidValue", path="[1]",
          imp="92" + dynwrap(STR, "c0") + dynwrap(NUM, "c0"), **het)
    f.err("set-dynamic-heterogeneous", S(DYN), "InvalidValue", path="[1]",
          imp="92" + dynwrap(STR, mstr("a")) + dynwrap(BOOL, "c3"), **het)
    f.err("map-dynamic-heterogeneous", M(DYN), "InvalidValue", path='["b"]',
          imp="82" + mstr("a") + dynwrap(STR, mstr("x")) + mstr("b") + dynwrap(NUM, "01"), **het)
    f.err("list-object-dynamic-heterogeneous", L(O(a=DYN)), "InvalidValue", path="[1]",
          imp="92" + "81" + mstr("a") + dynwrap(STR, mstr("x")) + "81" + mstr("a") + dynwrap(NUM, "01"), **het)
    f.err("list-dynamic-heterogeneous-json", L(DYN), "InvalidValue", path="[1]",
          ijs='[{"value":"a","type":"string"},{"value":1,"type":"number"}]', **het)
    # HTML-escaped names
    f.rt("html-escaped-attribute-name", DYN, "92" + mbin('["object",{"a\\u003cb":"string"}]') + "81" + mstr("a<b") + mstr("x"),
         '{"value":{"a\\u003cb":"x"},"type":["object",{"a\\u003cb":"string"}]}', source=f"{WF} §1.1",
         note="type JSON escapes < > & in attribute names, as Go's json.Marshal does")
    f.inp("unescaped-attribute-name-input", DYN, imp="92" + mbin('["object",{"a<b":"string"}]') + "81" + mstr("a<b") + mstr("x"),
          mp="92" + mbin('["object",{"a\\u003cb":"string"}]') + "81" + mstr("a<b") + mstr("x"), js=AUTO)
    f.rt("html-escaped-ampersand-and-u2028", DYN,
         "92" + mbin('["object",{"\\u0026":"bool","\\u2028":"bool"}]') + "82" + mstr("&") + "c3" + mstr("\u2028") + "c2",
         AUTO)
    # errors
    er = f"{WF} §2.7 decoding"
    f.err("array-of-1", DYN, "InvalidValue", imp="91" + mbin('"string"'), offset=0, source=er,
          note="go-cty: dynamic value array must have exactly two elements")
    f.err("array-of-3", DYN, "InvalidValue", imp="93" + mbin('"string"') + mstr("a") + "c0", offset=0, source=er)
    f.err("array-of-0", DYN, "InvalidValue", imp="90", offset=0, source=er)
    f.err("not-an-array-str", DYN, "TypeMismatch", imp=mstr("a"), offset=0, source=er,
          note="go-cty: msgpack: invalid code=a1 decoding array length")
    f.err("not-an-array-bool", DYN, "TypeMismatch", imp="c3", offset=0, source=er)
    f.err("not-an-array-map", DYN, "TypeMismatch", imp="80", offset=0, source=er)
    f.err("type-json-not-bytes", DYN, "TypeMismatch", imp="92" + "01" + mstr("a"), offset=1, source=er)
    f.err("type-json-invalid-name", DYN, "Syntax", imp="92" + mbin('"foo"') + mstr("a"), source=er,
          note="go-cty: invalid primitive type name \"foo\"")
    f.err("type-json-wrong-case", DYN, "Syntax", imp="92" + mbin('"String"') + mstr("a"), source=er)
    f.err("type-json-not-json", DYN, "Syntax", imp="92" + mbin("abc") + mstr("a"), source=er)
    f.err("type-json-missing-element-type", DYN, "Syntax", imp="92" + mbin('["list"]') + "90", source=er)
    f.err("type-json-not-utf8", DYN, "InvalidValue", imp="92" + mbin(b'"\xff"') + "c0", source=er,
          note="invalid UTF-8 is an invalid value, as in strings")
    f.err("type-json-undeclared-optional", DYN, "InvalidValue",
          imp="92" + mbin('["object",{"a":"string"},["b"]]') + "81" + mstr("a") + mstr("x"), source=er,
          difference="an optional attribute that is not declared is an error", gocty={"panics": True},
          note="go-cty panics: optional contains undeclared attribute \"b\"")
    f.err("value-does-not-match-type", DYN, "TypeMismatch", imp=dynwrap(STR, "c3"), offset=11, source=er)
    f.err("truncated-wrapper", DYN, "UnexpectedEof", imp="92" + mbin('"string"'), source=er)
    f.err("error-path-inside-wrapper", O(d=DYN), "TypeMismatch", path=".d[1]",
          imp="81" + mstr("d") + dynwrap(L(NUM), "9201c3"), source=er,
          note="the wrapper adds no path step: the element is .d[1]")
    # JSON
    js = f"{WF} §3.1, §3.2 dynamic"
    f.rt("json-order-value-then-type", DYN, None, '{"value":{"dynamic":true,"static":true},"type":["object",{"dynamic":"bool","static":"bool"}]}',
         source=js)
    f.inp("json-type-first", DYN, ijs='{"type":"string","value":"a"}', mp=dynwrap(STR, mstr("a")),
          js='{"value":"a","type":"string"}', source=js, note="keys in any order")
    f.inp("json-whitespace", DYN, ijs=' { "value" : [ 1 ] , "type" : [ "list" , "number" ] } ',
          mp=dynwrap(L(NUM), "9101"), js='{"value":[1],"type":["list","number"]}', source=js)
    f.inp("json-duplicate-value-last-wins", DYN, ijs='{"value":"a","type":"string","value":"b"}',
          mp=dynwrap(STR, mstr("b")), js='{"value":"b","type":"string"}', source=js)
    f.inp("json-null", DYN, ijs="null", mp="c0", js="null", source=js)
    f.inp("json-typed-null", DYN, ijs='{"value":null,"type":"string"}', mp=dynwrap(STR, "c0"),
          js='{"value":null,"type":"string"}', source=js)
    f.inp("json-nested-dynamic-type", DYN, ijs='{"value":{"value":"a","type":"string"},"type":"dynamic"}',
          mp=dynwrap(STR, mstr("a")), js='{"value":"a","type":"string"}', source=js)
    f.inp("json-nested-dynamic-null", DYN, ijs='{"value":null,"type":"dynamic"}', mp="c0", js="null", source=js)
    f.inp("json-escaped-type-name", DYN, ijs='{"value":{"a<b":1},"type":["object",{"a\\u003cb":"number"}]}',
          mp="92" + mbin('["object",{"a\\u003cb":"number"}]') + "81" + mstr("a<b") + "01",
          js='{"value":{"a\\u003cb":1},"type":["object",{"a\\u003cb":"number"}]}', source=js)
    f.err("json-extra-key", DYN, "InvalidValue", ijs='{"value":"a","type":"string","x":1}', source=js,
          note='go-cty: invalid key "x" in dynamically-typed value')
    f.err("json-missing-type", DYN, "InvalidValue", ijs='{"value":"a"}', source=js)
    f.err("json-missing-value", DYN, "InvalidValue", ijs='{"type":"string"}', source=js)
    f.err("json-bare-value", DYN, "TypeMismatch", ijs='"a"', source=js, note="no implied-type fallback: missing expected {")
    f.err("json-bare-array", DYN, "TypeMismatch", ijs="[1]", source=js)
    f.err("json-invalid-type", DYN, "Syntax", ijs='{"value":"a","type":"strin"}', source=js)
    f.err("json-type-not-a-type", DYN, "Syntax", ijs='{"value":"a","type":5}', source=js)
    f.err("json-value-mismatch", DYN, "TypeMismatch", ijs='{"value":[1],"type":"string"}', source=js)
    f.err("json-error-path-inside-wrapper", O(d=DYN), "TypeMismatch", path=".d[1]",
          ijs='{"d":{"value":[1,true],"type":["list","number"]}}', source=js,
          note="go-cty loses the inner path (it decodes the value with a fresh Unmarshal); ctywire keeps it")
    return f


# --------------------------------------------------------------------------- JSON encoding

def json_encoding():
    f = CaseFile("json-encoding.json",
                 "JSON output (FORMAT.md §3.1): Go encoding/json string escaping (HTML-safe; \\b and "
                 "\\f as written by Go >= 1.22, which current Terraform uses), number texts without "
                 "exponents, map and object key order, the dynamic wrapper, and the errors for unknowns "
                 "and infinities with their paths.",
                 f"{WF} §3.1")
    esc = [
        ("quote", 'a"b', '"a\\"b"'), ("backslash", "a\\b", '"a\\\\b"'), ("newline", "a\nb", '"a\\nb"'),
        ("carriage-return", "a\rb", '"a\\rb"'), ("tab", "a\tb", '"a\\tb"'),
        ("backspace", "a\bb", '"a\\bb"'), ("form-feed", "a\fb", '"a\\fb"'),
        ("nul", "\x00", '"\\u0000"'), ("control-01", "\x01", '"\\u0001"'), ("control-1f", "\x1f", '"\\u001f"'),
        ("vertical-tab", "\x0b", '"\\u000b"'), ("escape-1b", "\x1b", '"\\u001b"'),
        ("less-than", "<", '"\\u003c"'), ("greater-than", ">", '"\\u003e"'), ("ampersand", "&", '"\\u0026"'),
        ("html", "<a href='x'>&amp;</a>", '"\\u003ca href=\'x\'\\u003e\\u0026amp;\\u003c/a\\u003e"'),
        ("line-separator", "\u2028", '"\\u2028"'), ("paragraph-separator", "\u2029", '"\\u2029"'),
        ("del-literal", "a\x7fb", '"a\x7fb"'), ("slash-literal", "a/b", '"a/b"'),
        ("c1-control-literal", "\u0085", '"\u0085"'), ("bom-literal", "\ufeff", '"\ufeff"'),
        ("non-ascii-literal", "é日😀", '"é日😀"'), ("replacement-char-literal", "\ufffd", '"\ufffd"'),
        ("single-quote-literal", "'", "\"'\""),
    ]
    for name, text, js in esc:
        note = None
        if name in ("backspace", "form-feed"):
            note = "Go >= 1.22 writes \\b and \\f; older Go (and go-cty built with it) wrote \\u0008 / \\u000c"
        f.rt(f"escape-{name}", STR, mstr(text), js, note=note)
    src = f"{WF} §3.2 strings"
    f.inp("unescape-unicode", STR, ijs='"\\u0041\\u00e9"', mp=mstr("Aé"), js='"Aé"', source=src)
    f.inp("unescape-slash", STR, ijs='"a\\/b"', mp=mstr("a/b"), js='"a/b"', source=src)
    f.inp("unescape-surrogate-pair", STR, ijs='"\\ud83d\\ude00"', mp=mstr("😀"), js='"😀"', source=src)
    f.inp("unescape-html", STR, ijs='"\\u003c"', mp=mstr("<"), js='"\\u003c"', source=src)
    f.inp("literal-html-input", STR, ijs='"<&>"', mp=mstr("<&>"), js='"\\u003c\\u0026\\u003e"', source=src)
    f.inp("uppercase-hex-escape", STR, ijs='"\\u00E9\\u001F"', mp=mstr("é\x1f"), js='"é\\u001f"', source=src)
    f.inp("short-escapes-input", STR, ijs='"\\b\\f\\n\\r\\t"', mp=mstr("\b\f\n\r\t"), js='"\\b\\f\\n\\r\\t"', source=src)
    f.inp("literal-u2028-input", STR, ijs='"\u2028"', mp=mstr("\u2028"), js='"\\u2028"', source=src)
    # keys
    f.rt("map-key-escaping", M(STR), "82" + mstr("&") + mstr("y") + mstr("a<b") + mstr("x"),
         '{"\\u0026":"y","a\\u003cb":"x"}', note="map keys use the string rules and sort by raw bytes")
    f.rt("map-key-control-and-quote", M(NUM), "82" + mstr("\n") + "01" + mstr('"') + "02", '{"\\n":1,"\\"":2}')
    f.rt("object-attribute-escaping", Od({"a>b": STR, "c&d": NUM}), "82" + mstr("a>b") + mstr("x") + mstr("c&d") + "01",
         '{"a\\u003eb":"x","c\\u0026d":1}')
    f.rt("map-keys-bytewise", M(BOOL), "83" + mstr("B") + "c3" + mstr("a") + "c2" + mstr("é") + "c3",
         '{"B":true,"a":false,"é":true}')
    f.rt("object-all-attributes-written", O(a=STR, b=NUM, c=L(STR)), "83" + mstr("a") + "c0" + mstr("b") + "c0" + mstr("c") + "c0",
         '{"a":null,"b":null,"c":null}', note="every attribute is present, nulls as null")
    # numbers
    num = f"{WF} §3.1 numbers"
    f.rt("number-1e21-decimal", NUM, mstr("1000000000000000000000"), "1000000000000000000000", source=num,
         note="never an exponent")
    f.rt("number-float-1e21", NUM, mfloat(1e21), "1000000000000000000000", source=num,
         difference="a float64 whose value is an integer at or beyond 2^63 is written as float64",
         gocty={"msgpack": mstr("1000000000000000000000")})
    f.rt("number-float-5e-324", NUM, "cb0000000000000001", "0." + "0" * 323 + "4940656458412465", source=num)
    f.inp("number-parsed-1e-7", NUM, ijs="1e-7", mp=mstr("0.0000001"), js="0.0000001", source=num)
    f.inp("number-parsed-1.5e300", NUM, ijs="1.5e300", mp=mstr("15" + "0" * 299), js="15" + "0" * 299, source=num)
    f.rt("number-negative-zero", NUM, None, "-0", source=num)
    f.rt("number-negative-decimal", NUM, mstr("-0.001"), "-0.001", source=num)
    f.rt("number-int64-min", NUM, "d38000000000000000", "-9223372036854775808", source=num)
    f.rt("number-float-2-pow-60", NUM, None, "1152921504606846976", source=num)
    f.inp("number-float-2-pow-60-shortest", NUM, imp=mfloat(2.0**60), mp=None, js="1152921504606847000", source=num,
          note="a float64 prints its shortest round-trip digits (go-cty issue 220), even when it is an integer")
    # structure
    f.rt("nested-no-spaces", O(a=L(M(NUM)), b=T(BOOL, STR)), "82" + mstr("a") + "91" + "82" + mstr("x") + "01" + mstr("y") + "02" +
         mstr("b") + "92c3" + mstr("z"), '{"a":[{"x":1,"y":2}],"b":[true,"z"]}')
    f.rt("empty-collections", O(l=L(STR), m=M(STR), s=S(STR), t=T(), o=Od({})),
         "85" + mstr("l") + "90" + mstr("m") + "80" + mstr("o") + "80" + mstr("s") + "90" + mstr("t") + "90",
         '{"l":[],"m":{},"o":{},"s":[],"t":[]}')
    f.rt("dynamic-value-then-type", DYN, dynwrap(L(BOOL), "92c3c2"), '{"value":[true,false],"type":["list","bool"]}')
    f.rt("dynamic-typed-null", DYN, dynwrap(NUM, "c0"), '{"value":null,"type":"number"}')
    f.rt("dynamic-null", DYN, "c0", "null")
    # errors
    er = f"{WF} §3 (encoding errors)"
    for name, ty, mp, path in [
        ("unknown-top", STR, "d40000", ""),
        ("unknown-refined-top", STR, "c7030c8101c2", ""),
        ("unknown-attribute", O(a=STR, b=STR), "82" + mstr("a") + mstr("x") + mstr("b") + "d40000", ".b"),
        ("unknown-nested-attribute", O(a=O(b=NUM)), "81" + mstr("a") + "81" + mstr("b") + "d40000", ".a.b"),
        ("unknown-list-element", L(STR), "92" + mstr("x") + "d40000", "[1]"),
        ("unknown-tuple-element", T(STR, NUM), "92" + mstr("x") + "d40000", "[1]"),
        ("unknown-map-value", M(STR), "81" + mstr("k") + "d40000", '["k"]'),
        ("unknown-set-element", S(STR), "92" + mstr("x") + "d40000", "[(not yet known)]"),
        ("unknown-inside-set-element", S(O(l=L(STR))), "91" + "81" + mstr("l") + "91d40000", "[...].l[0]"),
        ("unknown-list-value", L(STR), "c7030c8101c2", ""),
        ("unknown-inside-dynamic-wrapper", DYN, dynwrap(STR, "d40000"), ""),
        ("unknown-dynamic", DYN, "d40000", ""),
        ("unknown-in-list-dynamic", L(DYN), "92" + dynwrap(STR, mstr("a")) + dynwrap(STR, "d40000"), "[1]"),
        ("unknown-in-object-dynamic", O(d=DYN), "81" + mstr("d") + dynwrap(L(STR), "91d40000"), ".d[0]"),
    ]:
        f.rt(f"error-{name}", ty, mp, None, source=er, json_encode_error={"message": "value is not known", "path": path})
    for name, ty, mp, path in [
        ("infinity-top", NUM, "cb7ff0000000000000", ""),
        ("negative-infinity-in-list", L(NUM), "9201cbfff0000000000000", "[1]"),
        ("infinity-attribute", O(n=NUM), "81" + mstr("n") + "cb7ff0000000000000", ".n"),
        ("infinity-map-value", M(NUM), "81" + mstr("k") + "cb7ff0000000000000", '["k"]'),
        ("infinity-set-element", S(NUM), "9201cb7ff0000000000000", "[+Inf]"),
        ("infinity-in-dynamic", DYN, dynwrap(NUM, "cb7ff0000000000000"), ""),
    ]:
        f.rt(f"error-{name}", ty, mp, None, source=er,
             json_encode_error={"message": "cannot serialize infinity as JSON", "path": path})
    return f


# --------------------------------------------------------------------------- JSON decoding

def json_decoding():
    f = CaseFile("json-decoding.json",
                 "JSON input (FORMAT.md §3.2): go-cty's leniencies (numbers and bools from strings, "
                 "strings from numbers and bools, missing attributes are null, a repeated key's last value "
                 "wins), what it rejects, and ctywire's deliberate differences (too-short tuples and "
                 "trailing data are errors).",
                 f"{WF} §3.2")
    src = f"{WF} §3.2 top level"
    f.inp("null-for-list", L(STR), ijs="null", mp="c0", js="null", source=src)
    f.inp("null-for-object", O(a=STR), ijs="null", mp="c0", js="null", source=src)
    f.inp("whitespace-around", L(NUM), ijs=" \n\t[ 1 , 2 ]\r\n ", mp="920102", js="[1,2]", source=src)
    f.inp("trailing-whitespace", STR, ijs='"a"  \n', mp=mstr("a"), js='"a"', source=src)
    trail = dict(difference="trailing text after the value is an error (FORMAT.md §8.7)",
                 gocty="ignores everything after the first complete value")
    f.err("trailing-second-value", STR, "InvalidValue", ijs='"a" "b"', source=src, **trail)
    f.err("trailing-object", O(a=NUM), "InvalidValue", ijs='{"a":1} {}', source=src, **trail)
    f.err("trailing-number", NUM, "InvalidValue", ijs="1 2", source=src, **trail)
    f.err("trailing-null", STR, "InvalidValue", ijs="null null", source=src, **trail)
    # syntax
    syn = f"{WF} §3.2 (nested values are fully validated)"
    for name, ty, text, kind in [
        ("empty-input", STR, "", "UnexpectedEof"), ("only-whitespace", STR, "  ", "UnexpectedEof"),
        ("unterminated-string", STR, '"abc', "UnexpectedEof"),
        ("unterminated-object", O(a=NUM), '{"a":1', "UnexpectedEof"), ("truncated-literal", BOOL, "tru", "UnexpectedEof"),
        ("trailing-comma-object", O(a=NUM), '{"a":1,}', "Syntax"),
        ("missing-comma", L(NUM), "[1 2]", "Syntax"),
        ("single-quotes", STR, "'a'", "Syntax"), ("plus-sign", NUM, "+1", "Syntax"),
        ("leading-point", NUM, ".5", "Syntax"), ("nan-literal", NUM, "NaN", "Syntax"), ("infinity-literal", NUM, "Infinity", "Syntax"),
        ("bad-escape", STR, '"\\x41"', "Syntax"), ("raw-control-character", STR, '"a\tb"', "Syntax"),
        ("unquoted-key", O(a=NUM), "{a:1}", "Syntax"), ("capitalized-literal", BOOL, "True", "Syntax"),
    ]:
        f.err(f"syntax-{name}", ty, kind, ijs=text, source=syn)
    at = "a syntax error is reported at the value that was being read"
    f.err("syntax-unterminated-array", L(NUM), "UnexpectedEof", path="[1]", ijs="[1,", source=syn, note=at)
    f.err("syntax-trailing-comma-array", L(NUM), "Syntax", path="[1]", ijs="[1,]", source=syn, note=at)
    f.err("syntax-missing-value", O(a=NUM), "Syntax", path=".a", ijs='{"a":}', source=syn, note=at)
    f.err("syntax-nested-missing-value", O(a=M(L(NUM))), "Syntax", path='.a["k"][0]', ijs='{"a":{"k":[}}', source=syn,
          note=at)
    f.err("syntax-leading-zero", NUM, "Syntax", ijs="01", source=syn, note="01 is not a JSON number",
          difference="the whole input must be one JSON value (trailing text is an error)",
          gocty="reads the token 0 and ignores the rest: 0")
    # bool
    b = f"{WF} §3.2 bool"
    f.inp("bool-from-string-true", BOOL, ijs='"true"', mp="c3", js="true", source=b)
    f.inp("bool-from-string-false", BOOL, ijs='"false"', mp="c2", js="false", source=b)
    f.inp("bool-from-string-1", BOOL, ijs='"1"', mp="c3", js="true", source=b)
    f.inp("bool-from-string-0", BOOL, ijs='"0"', mp="c2", js="false", source=b)
    f.err("bool-from-string-True", BOOL, "InvalidValue", ijs='"True"', source=b,
          note='go-cty: a bool is required; to convert from string, use lowercase "true"')
    f.err("bool-from-string-yes", BOOL, "InvalidValue", ijs='"yes"', source=b)
    f.err("bool-from-number-1", BOOL, "TypeMismatch", ijs="1", source=b, note="go-cty: bool is required")
    f.err("bool-from-array", BOOL, "TypeMismatch", ijs="[]", source=b)
    # number
    n = f"{WF} §3.2 number"
    f.inp("number-1.0-is-1", NUM, ijs="1.0", mp="01", js="1", source=n)
    f.inp("number-exponent", NUM, ijs="1E2", mp="64", js="100", source=n)
    f.inp("number-exponent-plus", NUM, ijs="1e+2", mp="64", js="100", source=n)
    f.inp("number-0.1-is-decimal", NUM, ijs="0.1", mp="a3302e31", js="0.1", source=n)
    f.inp("number-1.5-is-float", NUM, ijs="1.5", mp="cb3ff8000000000000", js="1.5", source=n)
    f.inp("number-negative-fraction", NUM, ijs="-1.5e-3", mp=mstr("-0.0015"), js="-0.0015", source=n)
    f.inp("number-1e400", NUM, ijs="1e400", mp=mstr("1" + "0" * 400), js="1" + "0" * 400, source=n)
    f.inp("number-big-integer", NUM, ijs="123456789012345678901234567890", mp=mstr("123456789012345678901234567890"),
          js="123456789012345678901234567890", source=n)
    f.inp("number-from-string", NUM, ijs='"1e3"', mp="cd03e8", js="1000", source=n, note="numbers may be JSON strings")
    f.inp("number-from-string-decimal", NUM, ijs='"0.10"', mp="a3302e31", js="0.1", source=n)
    f.inp("number-from-string-inf", NUM, ijs='"Inf"', mp="cb7ff0000000000000", js=AUTO, source=n,
          note="\"Inf\" parses to +Inf, which JSON cannot write back")
    f.inp("number-from-string-p-exponent", NUM, ijs='"1p10"', mp="cd0400", js="1024", source=n)
    for name, text in [("hex", '"0x10"'), ("underscore", '"1_0"'), ("space", '" 1"'), ("word", '"abc"'), ("empty", '""'),
                       ("nan", '"NaN"')]:
        f.err(f"number-from-string-rejected-{name}", NUM, "InvalidValue", ijs=text, source=n,
              note="go-cty: a number is required")
    f.err("number-from-bool", NUM, "TypeMismatch", ijs="true", source=n, note="go-cty: number is required")
    f.err("number-from-object", NUM, "TypeMismatch", ijs="{}", source=n)
    # string
    s = f"{WF} §3.2 string"
    for name, text, val in [("1.50", "1.50", "1.50"), ("1e5", "1e5", "1e5"), ("minus-0", "-0", "-0"), ("1E+2", "1E+2", "1E+2"),
                            ("big", "123456789012345678901234567890", "123456789012345678901234567890")]:
        f.inp(f"string-from-number-{name}", STR, ijs=text, mp=mstr(val), js=m.go_json_string(val), source=s,
              note="a JSON number keeps its literal text")
    f.inp("string-from-true", STR, ijs="true", mp=mstr("true"), js='"true"', source=s)
    f.inp("string-from-false", STR, ijs="false", mp=mstr("false"), js='"false"', source=s)
    f.inp("string-nfc", STR, ijs='"e\\u0301"', mp=mstr("é"), js='"é"', source=s, note="decoding normalizes to NFC")
    f.err("string-from-array", STR, "TypeMismatch", ijs='["a"]', source=s)
    # dynamic (more in dynamic.json)
    dy = f"{WF} §3.2 dynamic"
    f.inp("dynamic-keys-any-order", DYN, ijs='{"type":"number","value":"5"}', mp=dynwrap(NUM, "05"),
          js='{"value":5,"type":"number"}', source=dy, note="the value is decoded with the type's leniencies")
    f.err("dynamic-invalid-key", DYN, "InvalidValue", ijs='{"value":1,"type":"number","extra":true}', source=dy,
          note='go-cty: invalid key "extra" in dynamically-typed value')
    f.err("dynamic-missing-type", DYN, "InvalidValue", ijs='{"value":1}', source=dy)
    f.err("dynamic-missing-value", DYN, "InvalidValue", ijs='{"type":"number"}', source=dy)
    f.err("dynamic-in-object-missing-type", O(d=DYN), "InvalidValue", path=".d", ijs='{"d":{"value":1}}', source=dy)
    f.err("string-from-object", STR, "TypeMismatch", ijs="{}", source=s)
    # collections
    c = f"{WF} §3.2 collections"
    f.inp("list-null-element", L(STR), ijs='[null,"a"]', mp="92c0" + mstr("a"), js='[null,"a"]', source=c)
    f.inp("list-of-numbers-from-strings", L(NUM), ijs='["1","2.5"]', mp="9201cb4004000000000000", js="[1,2.5]", source=c)
    f.err("list-from-object", L(STR), "TypeMismatch", ijs="{}", source=c, note="go-cty: missing expected [")
    f.err("set-from-string", S(STR), "TypeMismatch", ijs='"a"', source=c)
    f.err("list-element-error-path", L(NUM), "TypeMismatch", path="[1]", ijs="[1,true]", source=c)
    f.err("set-element-error-path", S(NUM), "TypeMismatch", path="[1]", ijs="[1,true]", source=c)
    f.inp("map-duplicate-key-last-wins", M(NUM), ijs='{"a":1,"b":2,"a":3}', mp="82" + mstr("a") + "03" + mstr("b") + "02",
          js='{"a":3,"b":2}', source=c)
    f.inp("map-keys-sorted", M(NUM), ijs='{"b":1,"a":2}', mp="82" + mstr("a") + "02" + mstr("b") + "01", js='{"a":2,"b":1}',
          source=c)
    f.inp("map-key-nfc", M(NUM), ijs='{"cafe\\u0301":1}', mp="81" + mstr("café") + "01", js='{"café":1}', source=c)
    f.err("map-from-array", M(STR), "TypeMismatch", ijs="[]", source=c)
    f.err("map-value-error-path", M(NUM), "TypeMismatch", path='["k"]', ijs='{"k":[]}', source=c)
    # tuple
    t = f"{WF} §3.2 tuple"
    f.inp("tuple", T(STR, NUM, BOOL), ijs='["a",1,true]', mp="93" + mstr("a") + "01c3", js='["a",1,true]', source=t)
    f.inp("tuple-empty", T(), ijs="[]", mp="90", js="[]", source=t)
    f.err("tuple-too-long", T(STR), "InvalidValue", ijs='["a","b"]', source=t, note="go-cty: too many tuple elements (need 1)")
    short = dict(difference="a JSON tuple that is too short is an error at the tuple's own path (FORMAT.md §8.10)")
    f.err("tuple-too-short-top-level", T(STR, STR), "InvalidValue", ijs='["a"]', source=t, gocty={"panics": True},
          note="go-cty panics: slice bounds out of range [:-1]", **short)
    f.err("tuple-too-short-nested", O(t=T(STR, STR)), "InvalidValue", path=".t", ijs='{"t":["a"]}', source=t,
          gocty="not enough tuple elements (need 2), reported at the parent's path \"\"", **short)
    f.err("tuple-empty-for-non-empty", T(STR), "InvalidValue", ijs="[]", source=t, gocty={"panics": True}, **short)
    f.err("tuple-from-object", T(STR), "TypeMismatch", ijs="{}", source=t)
    # object
    o = f"{WF} §3.2 object"
    f.inp("object-missing-attributes-are-null", O(a=STR, b=NUM), ijs='{"a":"x"}', mp="82" + mstr("a") + mstr("x") + mstr("b") + "c0",
          js='{"a":"x","b":null}', source=o, note="unlike msgpack, JSON objects may leave attributes out")
    f.inp("object-empty-all-null", O(a=STR, b=NUM), ijs="{}", mp="82" + mstr("a") + "c0" + mstr("b") + "c0",
          js='{"a":null,"b":null}', source=o)
    f.inp("object-order-irrelevant", O(a=STR, b=NUM), ijs='{"b":1,"a":"x"}', mp="82" + mstr("a") + mstr("x") + mstr("b") + "01",
          js='{"a":"x","b":1}', source=o)
    f.inp("object-duplicate-key-last-wins", O(a=STR), ijs='{"a":"x","a":"y"}', mp="81" + mstr("a") + mstr("y"),
          js='{"a":"y"}', source=o, note="JSON keeps go-cty's leniency here (msgpack does not)")
    f.inp("object-nested-missing", L(O(a=STR, b=BOOL)), ijs='[{"b":true},{}]',
          mp="92" + "82" + mstr("a") + "c0" + mstr("b") + "c3" + "82" + mstr("a") + "c0" + mstr("b") + "c0",
          js='[{"a":null,"b":true},{"a":null,"b":null}]', source=o)
    f.err("object-unsupported-attribute", O(a=STR), "InvalidValue", path=".c", ijs='{"a":"x","c":1}', source=o,
          note='go-cty: unsupported attribute "c", reported at the object\'s path; ctywire names the attribute')
    f.err("object-non-nfc-key", Od({"café": STR}), "InvalidValue", path=".cafe\u0301", ijs='{"cafe\\u0301":"x"}', source=o,
          note="attribute lookup uses the raw key (FORMAT.md §3.2)")
    f.err("object-attribute-error-path", O(a=O(b=NUM)), "TypeMismatch", path=".a.b", ijs='{"a":{"b":"x"}}'.replace('"x"', "[]"),
          source=o)
    f.err("object-from-array", O(a=STR), "TypeMismatch", ijs="[]", source=o)
    return f


# --------------------------------------------------------------------------- type JSON

def type_json():
    f = CaseFile("type-json.json",
                 "Type JSON (FORMAT.md §1.1, §1.2): the exact text written, the forms accepted on input "
                 "(printed back as `type_json_canonical`), and the inputs that must be refused.",
                 f"{WF} §1")
    ok = [
        ("string", '"string"'), ("number", '"number"'), ("bool", '"bool"'), ("dynamic", '"dynamic"'),
        ("list", '["list","string"]'), ("set", '["set","number"]'), ("map", '["map","bool"]'),
        ("nested", '["list",["map",["set","dynamic"]]]'), ("tuple", '["tuple",["string","number"]]'),
        ("tuple-empty", '["tuple",[]]'), ("object", '["object",{"a":"string","b":["list","number"]}]'),
        ("object-empty", '["object",{}]'), ("object-optional", '["object",{"a":"string","b":"number"},["b"]]'),
        ("object-optional-all", '["object",{"a":"string","b":"number"},["a","b"]]'),
        ("object-sorted-bytewise", '["object",{"B":"bool","_":"bool","a":"bool","é":"bool"}]'),
        ("object-html-escaped", '["object",{"A":"bool","a\\u003cb":"number","b":"string"}]'),
        ("object-escaped-ampersand-u2028", '["object",{"\\u0026":"bool","\\u2028":"bool"}]'),
        ("object-non-ascii-literal", '["object",{"café":"string"}]'),
        ("deep", '["map",["object",{"a":["tuple",[["list","string"],"dynamic"]]}]]'),
    ]
    for name, text in ok:
        t = m.parse_type_json(text)
        f.raw(name=name, type_json=text, type=m.type_to_jsonvalue(t), source=f"{WF} §1.1")
    canon = [
        ("tuple-null", '["tuple",null]', '["tuple",[]]', "go-cty keeps the nil slice and writes it back as null"),
        ("object-null", '["object",null]', '["object",{}]', None),
        ("whitespace", ' [ "list" ,\n\t"string" ] ', '["list","string"]', "whitespace between tokens is allowed"),
        ("object-unsorted", '["object",{"b":"string","a":"number"}]', '["object",{"a":"number","b":"string"}]', None),
        ("object-unescaped-html", '["object",{"a<b":"string"}]', '["object",{"a\\u003cb":"string"}]', None),
        ("object-escaped-ascii", '["object",{"\\u0061":"string"}]', '["object",{"a":"string"}]', None),
        ("object-duplicate-last-wins", '["object",{"a":"string","a":"number"}]', '["object",{"a":"number"}]',
         "duplicate attribute keys: the last one wins (Go map decoding)"),
        ("object-empty-optional-list", '["object",{"a":"string"},[]]', '["object",{"a":"string"}]',
         "an empty optional list is not written"),
        ("object-optional-unsorted", '["object",{"a":"string","b":"number"},["b","a"]]',
         '["object",{"a":"string","b":"number"},["a","b"]]', None),
        ("object-nfc-name", '["object",{"cafe\\u0301":"string"}]', '["object",{"café":"string"}]',
         "attribute names are NFC-normalized (FORMAT.md §6)"),
        ("nested-tuple-null", '["list",["tuple",null]]', '["list",["tuple",[]]]', None),
    ]
    for name, text, canonical, note in canon:
        t = m.parse_type_json(text)
        c = dict(name=name, type_json=text, type_json_canonical=canonical, type=m.type_to_jsonvalue(t),
                 source=f"{WF} §1.2")
        if note:
            c["note"] = note
        if "tuple\",null" in text:
            c["difference"] = "a zero-element tuple type is always written [] (FORMAT.md §8.14)"
            c["gocty"] = "parsing [\"tuple\",null] gives cty.Tuple(nil), which go-cty writes back as null"
        f.raw(**c)
    bad = [
        ("wrong-case", '"String"', 'invalid primitive type name "String"'),
        ("unknown-name", '"foo"', None), ("any-is-not-type-json", '"any"', None),
        ("kind-as-string", '"list"', None), ("empty-array", "[]", None),
        ("missing-element-type", '["list"]', None), ("extra-element", '["list","string","number"]', None),
        ("unknown-kind", '["foo","string"]', "invalid complex type kind name"),
        ("object-not-array", '{"a":"string"}', "invalid complex type description"),
        ("number-token", "1", None), ("null-token", "null", None), ("true-token", "true", None),
        ("trailing-token", '"string" "number"', "extraneous data after type description: trailing data is an "
                                                 "InvalidValue, as after any value"),
        ("trailing-garbage", '"string"x', "trailing data (checked before what follows is parsed)"),
        ("unterminated", '["list","string"', "the text ends inside the type: UnexpectedEof"),
        ("trailing-comma", '["tuple",["string",]]', None), ("tuple-not-array", '["tuple","string"]', None),
        ("object-attrs-not-object", '["object",["a"]]', None), ("object-optional-not-array", '["object",{"a":"string"},"a"]', None),
        ("object-extra-element", '["object",{"a":"string"},["a"],"x"]', None),
        ("object-optional-undeclared", '["object",{"a":"string"},["b"]]', "go-cty panics: optional contains undeclared attribute"),
        ("list-of-invalid", '["list","String"]', None), ("empty-text", "", None), ("map-null", '["map",null]', None),
    ]
    kinds = {"trailing-token": "InvalidValue", "trailing-garbage": "InvalidValue", "unterminated": "UnexpectedEof",
             "empty-text": "UnexpectedEof", "object-optional-undeclared": "InvalidValue"}
    for name, text, note in bad:
        c = dict(name=name, type_json=text, type_json_error={"kind": kinds.get(name, "Syntax")}, source=f"{WF} §1.2")
        if note:
            c["note"] = note
        if name == "object-optional-undeclared":
            c["difference"] = "an undeclared optional attribute is an error"
            c["gocty"] = {"panics": True}
        f.raw(**c)
    return f


# --------------------------------------------------------------------------- type expressions

def type_expr():
    f = CaseFile("type-expr.json",
                 "Terraform type expressions, as in a variable block's type argument (hcl ext/typeexpr "
                 "TypeConstraint): the expected type, as type JSON, or an error.",
                 f"{WF} §1.4; hcl/v2 ext/typeexpr")
    ok = [
        ("string", "string", STR), ("number", "number", NUM), ("bool", "bool", BOOL), ("any", "any", DYN),
        ("list-string", "list(string)", L(STR)), ("set-number", "set(number)", S(NUM)), ("map-bool", "map(bool)", M(BOOL)),
        ("list-any", "list(any)", L(DYN)), ("nested", "list(map(set(string)))", L(M(S(STR)))),
        ("tuple", "tuple([string, number])", T(STR, NUM)), ("tuple-empty", "tuple([])", T()),
        ("tuple-trailing-comma", "tuple([string, number,])", T(STR, NUM)),
        ("object", "object({a=string, b=number})", O(a=STR, b=NUM)), ("object-empty", "object({})", Od({})),
        ("object-optional", "map(object({a=string, b=optional(number)}))", M(["object", {"a": STR, "b": NUM}, ["b"]])),
        ("object-optional-nested", "object({a=optional(list(object({b=optional(string)})))})",
         ["object", {"a": L(["object", {"b": STR}, ["b"]])}, ["a"]]),
        ("object-newlines", "object({\n  a = string\n  b = list(number)\n})", O(a=STR, b=L(NUM))),
        ("object-colon", "object({a: string})", O(a=STR)),
        ("object-trailing-comma", "object({a=string,})", O(a=STR)),
        ("whitespace", "  map ( string )  ", M(STR)),
        ("object-sorted", "object({z=bool, a=bool, B=bool})", O(z=BOOL, a=BOOL, B=BOOL)),
        ("attribute-with-dash", "object({my-attr=string})", Od({"my-attr": STR})),
        ("object-any", "object({a=any})", O(a=DYN)),
        ("duplicate-attribute-last-wins", "object({a=string, a=number})", O(a=NUM)),
    ]
    for name, text, ty in ok:
        f.raw(name=name, type_expr=text, type=m.type_to_jsonvalue(m.type_from_case(ty)))
    bad = [
        ("bare-list", "list"), ("bare-map", "map"), ("bare-object", "object"), ("bare-tuple", "tuple"),
        ("unknown-keyword", "foo"), ("string-call", "string(number)"), ("list-two-args", "list(string, number)"),
        ("list-no-args", "list()"), ("tuple-not-list", "tuple(string)"), ("object-not-map", "object(string)"),
        ("unclosed", "map(string"), ("optional-top-level", "optional(string)"), ("optional-in-list", "list(optional(string))"),
        ("quoted-type", '"string"'), ("empty", ""), ("type-json-is-not-an-expression", '["list","string"]'),
        ("trailing-text", "string number"), ("uppercase", "String"),
    ]
    eof = {"bare-list", "bare-map", "bare-object", "bare-tuple", "unclosed", "empty"}
    for name, text in bad:
        c = dict(name=name, type_expr=text, type_expr_error={"kind": "UnexpectedEof" if name in eof else "Syntax"})
        if name in eof:
            c["note"] = "the expression ends where more is required"
        f.raw(**c)
    f.raw(name="quoted-attribute", type_expr='object({"a b"=string, "c"=bool})', type=["object", {"a b": "string", "c": "bool"}],
          difference="an extension: a quoted attribute name lets every object type print as a type expression "
                     "and parse back (names that are not identifiers print quoted)",
          gocty="hcl typeexpr rejects it: Object constructor map keys must be attribute names")
    return f


# --------------------------------------------------------------------------- differences

GO_512_INT = ("12345678901234567890123456789012345678901234567890123456789012345678901234567890123456789012345678901"
              "234567890123456789012345678901234567890123456789012346000000000000000000000000000000000000000000000")
GO_512_FRAC = ("0.1234567891123456789112345678911234567891123456789112345678911234567891123456789112345678911234567891"
               "1234567891123456789112345678911234567891123456789112345")


def differences():
    f = CaseFile("differences.json",
                 "One case for each deliberate difference from go-cty in the codecs and type JSON, FORMAT.md "
                 "§8.1 to §8.13 (each case's `source` names its section). `difference` says what ctywire does "
                 "and why; `gocty` says what go-cty does instead. The other vector files repeat these cases in "
                 "context; §8.14 to §8.18 are recorded in type-json.json, type-expr.json, the error paths of "
                 "the other files, tests/robustness/hostile.rs and go-cty/json-value-jsonable.json.",
                 DIFF)

    def d(text):
        return text
    # Each group of cases below cites its section of FORMAT.md §8 as its `source`.
    f.source = f"{DIFF}.1"
    f.inp("extension-type-other-than-12-is-plain-unknown", STR, imp=h("d5 00 00 00"), mp="d40000", js=None,
          difference=d("any msgpack extension other than type 12 is a plain unknown, as the protocol doc says"),
          gocty={"error": "unsupported extension type 0x00 with len 2 (go-cty >= 1.13; go-cty <= 1.12 and "
                          "terraform-plugin-go read it as a plain unknown too)"})
    f.source = f"{DIFF}.2"
    f.inp("unknown-refinement-key-is-skipped", STR, imp=h("c7 05 0c 82 07 05 01 c2"), mp=h("c7 03 0c 81 01 c2"), js=None,
          difference="unknown refinement keys are skipped with their values",
          gocty={"error": "length lower bound refinement for non-collection type (the value 5 is read as a key)"})
    f.source = f"{DIFF}.3"
    f.err("empty-map-for-object-with-attributes", O(a=STR, b=STR), "InvalidValue", imp="80", offset=0,
          difference="an empty map for an object type with attributes is an error",
          gocty="returns cty.EmptyObjectVal, of type object({}), without error")
    f.err("empty-array-for-tuple-with-elements", T(STR), "InvalidValue", imp="90", offset=0,
          difference="an empty array for a tuple type with elements is an error",
          gocty="returns cty.EmptyTupleVal, of type tuple([]), without error")
    f.source = f"{DIFF}.4"
    f.err("duplicate-map-key", M(BOOL), "InvalidValue", path='["a"]', imp=h("82 a1 61 c3 a1 61 c2"), offset=4,
          difference="duplicate keys in a msgpack map are an error", gocty="the last value wins: {\"a\": false}")
    f.err("duplicate-map-key-after-nested-values", M(L(STR)), "InvalidValue", path='["b"]',
          imp=h('83 a1 "b" 91 a1 "x" a1 "a" 90 a1 "b" 92 a1 "y" a1 "z"'), offset=9,
          difference="duplicate keys in a msgpack map are an error, at the offset of the later key",
          gocty="the last value wins: {\"a\": [], \"b\": [\"y\", \"z\"]}")
    f.err("duplicate-object-attribute", O(a=STR, b=STR), "InvalidValue", path=".a", imp=h('82 a1 61 a1 78 a1 61 a1 79'),
          offset=5, difference="duplicate keys in a msgpack object are an error",
          gocty="builds object({a}) = {a: \"y\"}, a value of the wrong type (FORMAT.md §2.6)")
    f.err("map-keys-equal-after-nfc", M(STR), "InvalidValue", path='["café"]',
          imp="82" + mstr("café") + mstr("x") + mstr("cafe\u0301") + mstr("y"),
          difference="two msgpack map keys that are equal under NFC are duplicate keys",
          gocty="both normalize to \"café\"; which value wins is not deterministic (Go map order)")
    f.source = f"{DIFF}.5"
    f.err("non-string-map-key", M(STR), "TypeMismatch", imp=h('81 05 a1 "x"'), offset=1,
          difference="a non-string map key is an error",
          gocty="the error is discarded and the stream misread: 81 05 a1 78 decodes as {\"\": \"x\"}")
    f.err("nil-map-key", M(STR), "TypeMismatch", imp=h('81 c0 a1 "x"'), offset=1,
          difference="a nil map key is an error", gocty="nil reads as the empty string: {\"\": \"x\"}")
    f.source = f"{DIFF}.6"
    f.err("invalid-utf8-string", STR, "InvalidValue", imp=h("a2 c3 28"),
          difference="invalid UTF-8 in a string is an error", gocty={"msgpack": "a2c328"})
    f.source = f"{DIFF}.7"
    f.err("msgpack-trailing-bytes", STR, "InvalidValue", imp=h("a0 a0"), offset=1,
          difference="trailing bytes after the msgpack value are an error", gocty={"msgpack": "a0"})
    f.err("json-trailing-text", L(STR), "InvalidValue", ijs='["a"] ["b"]',
          difference="trailing text after the JSON value is an error", gocty="ignored: decodes [\"a\"]")
    f.source = f"{DIFF}.8"
    f.err("nan", NUM, "InvalidValue", imp=h("cb 7ff8000000000000"), offset=0,
          difference="NaN is an error", gocty={"panics": True})
    f.source = f"{DIFF}.9"
    f.err("heterogeneous-list-dynamic", L(DYN), "InvalidValue", path="[1]",
          imp="92" + dynwrap(STR, mstr("a")) + dynwrap(NUM, "01"),
          difference="heterogeneous elements of list(dynamic)-like types are an error",
          gocty={"panics": True}, note="go-cty panics in cty.ListVal: inconsistent list element types")
    f.source = f"{DIFF}.10"
    f.err("json-tuple-too-short", T(STR, STR), "InvalidValue", ijs='["a"]',
          difference="a JSON tuple with too few elements is an error at the tuple's path",
          gocty={"panics": True}, note="go-cty builds the error at path[:len(path)-1], which panics at the top level")
    f.source = f"{DIFF}.11"
    f.rt("float64-integer-at-2-pow-63", NUM, "cb43e0000000000000", "9223372036854776000",
         difference="a float64 whose value is an integer at or beyond 2^63 is written as float64 (go-cty issue 220)",
         gocty={"msgpack": mstr("9223372036854776000")},
         note="go-cty writes the float's shortest digits as a decimal string, which reads back as a different integer")
    f.rt("float64-max", NUM, "cb7fefffffffffffff", "17976931348623157" + "0" * 292,
         difference="a float64 whose value is an integer at or beyond 2^63 is written as float64",
         gocty={"msgpack": mstr("17976931348623157" + "0" * 292)})
    f.source = f"{DIFF}.12"
    big_int = "1234567890" * 20
    f.rt("decimal-integer-over-512-bits", NUM, mstr(big_int), big_int,
         difference="decimals longer than go-cty's 512 bits are kept exactly",
         gocty={"msgpack": mstr(GO_512_INT)},
         note="go-cty rounds to 512 bits and prints the shortest digits at that precision (computed with Go's "
              "math/big: ParseFloat(s, 10, 512, ToNearestEven) then Text('f', -1), as cty.ParseNumberVal does)")
    big_frac = "0." + "1234567891" * 20
    f.rt("decimal-fraction-over-512-bits", NUM, mstr(big_frac), big_frac,
         difference="decimals longer than go-cty's 512 bits are kept exactly", gocty={"msgpack": mstr(GO_512_FRAC)})
    f.raw(name="undeclared-optional-attribute", type_json='["object",{"a":"string"},["b"]]',
          type_json_error={"kind": "InvalidValue"}, source=f"{DIFF}.13",
          difference="an optional attribute that is not declared is an error (FORMAT.md §8.13; a "
                     "reimplementation should return an error instead)",
          gocty={"panics": True}, note='go-cty panics: optional contains undeclared attribute "b"')
    return f


# --------------------------------------------------------------------------- implied types

def implied_types():
    f = CaseFile("implied-type.json",
                 "Types implied by untyped input (FORMAT.md §2.8 msgpack.ImpliedType, §1.3 json.ImpliedType), "
                 "beyond go-cty's own test tables. Not used by the plugin protocol.",
                 f"{WF} §2.8")

    def imp(name, hexstr, ty, **kw):
        f.raw(name=name, input_msgpack=hexstr, implied_type=m.type_to_jsonvalue(m.type_from_case(ty)), **kw)

    def bad(name, hexstr, kind, **kw):
        f.raw(name=name, input_msgpack=hexstr, implied_type_error={"kind": kind}, **kw)
    imp("ext-is-dynamic", h("c7 03 0c 81 01 c2"), DYN, note="any extension is an unknown: dynamic")
    imp("float32-is-number", "ca3fc00000", NUM)
    imp("str8-is-string", "d90161", STR)
    imp("nested", "82" + mstr("l") + "92" + "01" + mstr("x") + mstr("o") + "81" + mstr("n") + "c0",
        O(l=T(NUM, STR), o=O(n=DYN)))
    bad("bin-is-rejected", mbin("x"), "TypeMismatch", note="go-cty: unsupported msgpack code 0xc4 (str only)")
    bad("dynamic-wrapper-cannot-be-typed", dynwrap(STR, mstr("a")), "TypeMismatch",
        note="the wrapper's type JSON is bin, which ImpliedType refuses")
    bad("non-string-key", "81" + "01" + "c3", "TypeMismatch", note="object keys must be strings")
    bad("trailing-bytes", "c3c3", "InvalidValue", note="go-cty: extra bytes after msgpack value")
    bad("truncated", "92c3", "UnexpectedEof")
    bad("invalid-marker", "c1", "Syntax")
    for name, text, ty in [("json-nested", '{"a":[1,"x",null],"b":{}}', O(a=T(NUM, STR, DYN), b=Od({}))),
                           ("json-number-exponent", "1e400", NUM)]:
        f.raw(name=name, input_json=text, implied_type=m.type_to_jsonvalue(m.type_from_case(ty)), source=f"{WF} §1.3")
    f.raw(name="json-duplicate-same-type", input_json='{"a":1,"a":2}', implied_type=["object", {"a": "number"}],
          source=f"{WF} §1.3", note="duplicates are an error only when their types differ")
    f.raw(name="json-duplicate-different-types", input_json='{"a":1,"a":"x"}', implied_type_error={"kind": "InvalidValue"},
          source=f"{WF} §1.3", note='go-cty >= 1.16.2: duplicate "a" property in JSON object')
    f.raw(name="json-trailing", input_json="[] []", implied_type_error={"kind": "InvalidValue"}, source=f"{WF} §1.3",
          note="go-cty: extraneous data after JSON object")
    return f


ALL = [msgpack_integers, msgpack_numbers, msgpack_strings, msgpack_collections, sets, refinements, dynamic,
       json_encoding, json_decoding, type_json, type_expr, implied_types, differences]


def main():
    from gocty.crosscheck import annotate_case, load_report
    report = load_report()
    total = 0
    for fn in ALL:
        cf = fn()
        rel = os.path.join("ctywire", cf.fname)
        cf.cases = [annotate_case(rel, c, report) for c in cf.cases]
        n = cf.write()
        print(f"ctywire/{cf.fname}: {n} cases")
        total += n
    print(f"total {total}")


if __name__ == "__main__":
    main()
