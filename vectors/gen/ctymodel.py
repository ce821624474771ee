"""A small executable model of the ctywire codec, used only to generate and check the
test vectors in ../ctywire and ../go-cty.

It implements the rules of FORMAT.md (at the repository root), with the deliberate
differences from go-cty of its section 8. It is slow and simple on
purpose; it is NOT the library, and the Rust tests never run it. Where the model and
go-cty 1.12.1 agree, gocty/crosscheck.py confirms the bytes by running go-cty.

Values
    Null(ty), Unknown(ty, ref), Bool, Num, Str, ListV, SetV, MapV, TupleV, ObjV.
    Every value carries its concrete type in `.ty` ('dynamic' only for the null and
    unknown of the dynamic pseudo-type), so that dynamic positions can be re-encoded.

Errors
    CtyError(kind, path, offset=None, message=''), kind one of UnexpectedEof, Syntax,
    TypeMismatch, InvalidValue, LimitExceeded. EncodeError(message, path) for JSON
    encoding failures.
"""

import json
import math
import re
import struct
import unicodedata
from fractions import Fraction

MAX_REFINEMENT_PAYLOAD = 1024
I64_MIN = -(1 << 63)
I64_MAX = (1 << 63) - 1


# --------------------------------------------------------------------------- errors

class CtyError(Exception):
    def __init__(self, kind, path=(), offset=None, message=""):
        super().__init__(f"{kind} at {fmt_path(path)!r} offset={offset}: {message}")
        self.kind = kind
        self.path = tuple(path)
        self.offset = offset
        self.message = message


class EncodeError(Exception):
    def __init__(self, message, path=()):
        super().__init__(f"{message} at {fmt_path(path)!r}")
        self.message = message
        self.path = tuple(path)


def set_element_text(v):
    """A set element in a path, as Terraform's FormatCtyPath prints an index key."""
    if isinstance(v, Unknown):
        return "(not yet known)"
    if isinstance(v, Null):
        return "null"
    if isinstance(v, NumV):
        return v.n.text_g()
    if isinstance(v, Str):
        return json.dumps(v.s, ensure_ascii=False)
    return "..."


def fmt_path(path):
    out = []
    for step in path:
        kind = step[0]
        if kind == "attr":
            out.append("." + step[1])
        elif kind == "key":
            out.append("[" + json.dumps(step[1], ensure_ascii=False) + "]")
        elif kind == "idx":
            out.append(f"[{step[1]}]")
        elif kind == "set":
            out.append("[" + set_element_text(step[1]) + "]")
        else:
            raise ValueError(step)
    return "".join(out)


# --------------------------------------------------------------------------- types
# 'bool' 'number' 'string' 'dynamic'
# ('list', T) ('set', T) ('map', T) ('tuple', (T, ...))
# ('object', ((name, T), ...) sorted by UTF-8 bytes, frozenset(optional names))

PRIMITIVES = ("bool", "number", "string", "dynamic")


def bkey(s):
    return s.encode("utf-8", "surrogatepass")


def Object(attrs, optional=()):
    items = {}
    for k, v in (attrs.items() if isinstance(attrs, dict) else attrs):
        items[nfc(k)] = v
    opt = frozenset(nfc(o) for o in optional)
    for o in opt:
        if o not in items:
            raise CtyError("InvalidValue", message=f"optional attribute {o!r} is not declared")
    return ("object", tuple(sorted(items.items(), key=lambda kv: bkey(kv[0]))), opt)


def is_collection(ty):
    return isinstance(ty, tuple) and ty[0] in ("list", "set", "map")


def obj_attrs(ty):
    return dict(ty[1])


def strip_optional(ty):
    if isinstance(ty, str):
        return ty
    k = ty[0]
    if k in ("list", "set", "map"):
        return (k, strip_optional(ty[1]))
    if k == "tuple":
        return ("tuple", tuple(strip_optional(t) for t in ty[1]))
    return ("object", tuple((n, strip_optional(t)) for n, t in ty[1]), frozenset())


def type_from_jsonvalue(v):
    """Type from a decoded type-JSON value (dicts are lists of pairs: last key wins)."""
    if isinstance(v, str):
        if v in PRIMITIVES:
            return v
        raise CtyError("Syntax", message=f"invalid primitive type name {v!r}")
    if not isinstance(v, list) or not v or not isinstance(v[0], str):
        raise CtyError("Syntax", message="invalid complex type description")
    kind = v[0]
    if kind in ("list", "set", "map"):
        if len(v) != 2:
            raise CtyError("Syntax", message="unexpected extra data in type description")
        return (kind, type_from_jsonvalue(v[1]))
    if kind == "tuple":
        if len(v) != 2:
            raise CtyError("Syntax", message="unexpected extra data in type description")
        if v[1] is None:
            return ("tuple", ())
        if not isinstance(v[1], list):
            raise CtyError("Syntax", message="tuple element types must be an array")
        return ("tuple", tuple(type_from_jsonvalue(e) for e in v[1]))
    if kind == "object":
        if len(v) not in (2, 3):
            raise CtyError("Syntax", message="unexpected extra data in type description")
        attrs = v[1]
        if attrs is None:
            attrs = Pairs([])
        if not isinstance(attrs, Pairs):
            raise CtyError("Syntax", message="object attribute types must be an object")
        d = {}
        for k, t in attrs.pairs:
            d[k] = type_from_jsonvalue(t)
        opt = []
        if len(v) == 3:
            if not isinstance(v[2], list) or not all(isinstance(x, str) for x in v[2]):
                raise CtyError("Syntax", message="optional attributes must be an array of strings")
            opt = v[2]
        return Object(d, opt)
    raise CtyError("Syntax", message="invalid complex type kind name")


class Pairs:
    def __init__(self, pairs):
        self.pairs = pairs


def parse_type_json(text):
    """Parse type JSON text (whitespace allowed, trailing data rejected)."""
    try:
        v = json.loads(text, object_pairs_hook=Pairs, parse_constant=_reject_constant)
    except json.JSONDecodeError as e:
        if e.msg == "Extra data":
            raise CtyError("InvalidValue", message="extraneous data after type description")
        if e.pos >= len(text):
            raise CtyError("UnexpectedEof", message=f"type JSON ends early: {e}")
        raise CtyError("Syntax", message=f"invalid JSON: {e}")
    except (ValueError, RecursionError) as e:
        raise CtyError("Syntax", message=f"invalid JSON: {e}")
    return type_from_jsonvalue(v)


def _reject_constant(name):
    raise ValueError(f"invalid literal {name}")


def go_json_string(s, go122=True):
    """Go encoding/json string output (HTML escaping on)."""
    out = ['"']
    for ch in s:
        c = ord(ch)
        if ch == '"':
            out.append('\\"')
        elif ch == "\\":
            out.append("\\\\")
        elif c < 0x20:
            if ch == "\n":
                out.append("\\n")
            elif ch == "\r":
                out.append("\\r")
            elif ch == "\t":
                out.append("\\t")
            elif go122 and ch == "\b":
                out.append("\\b")
            elif go122 and ch == "\f":
                out.append("\\f")
            else:
                out.append("\\u%04x" % c)
        elif ch in "<>&":
            out.append("\\u%04x" % c)
        elif c in (0x2028, 0x2029):
            out.append("\\u%04x" % c)
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def type_json(ty):
    if isinstance(ty, str):
        return go_json_string(ty)
    k = ty[0]
    if k in ("list", "set", "map"):
        return "[" + go_json_string(k) + "," + type_json(ty[1]) + "]"
    if k == "tuple":
        return '["tuple",[' + ",".join(type_json(t) for t in ty[1]) + "]]"
    attrs = ",".join(go_json_string(n) + ":" + type_json(t) for n, t in ty[1])
    s = '["object",{' + attrs + "}"
    if ty[2]:
        s += ",[" + ",".join(go_json_string(n) for n in sorted(ty[2], key=bkey)) + "]"
    return s + "]"


def type_to_jsonvalue(ty):
    """Type as a Python value for embedding in the case files (`type` field)."""
    return json.loads(type_json(ty))


def type_from_case(v):
    """The `type` field of a case (a JSON value) to a model type."""
    return parse_type_json(json.dumps(v))


# --------------------------------------------------------------------------- type expressions

_TOK = re.compile(r"\s*(?:(?P<id>[A-Za-z_][A-Za-z0-9_-]*)|(?P<q>\"(?:[^\"\\\\]|\\\\.)*\")|(?P<p>[(){}\[\],=:])|(?P<bad>\S))")


def parse_type_expr(text):
    toks = []
    pos = 0
    while True:
        m = _TOK.match(text, pos)
        if not m:
            break
        if m.group("bad") is not None:
            raise CtyError("Syntax", message=f"unexpected character {m.group('bad')!r}")
        toks.append(m.group("id") or m.group("q") or m.group("p"))
        pos = m.end()
    if text[pos:].strip():
        raise CtyError("Syntax", message="unexpected trailing text")
    p = _ExprParser(toks)
    ty = p.type(top=True)
    if p.i != len(toks):
        raise CtyError("Syntax", message="extra tokens after type")
    return ty


class _ExprParser:
    def __init__(self, toks):
        self.toks = toks
        self.i = 0

    def peek(self):
        return self.toks[self.i] if self.i < len(self.toks) else None

    def take(self, want=None):
        t = self.peek()
        if t is None:
            raise CtyError("UnexpectedEof", message=f"expected {want!r}, found end of input")
        if want is not None and t != want:
            raise CtyError("Syntax", message=f"expected {want!r}, found {t!r}")
        self.i += 1
        return t

    def type(self, top=False, attr=False):
        kw = self.take()
        if kw in ("bool", "string", "number"):
            return kw
        if kw == "any":
            return "dynamic"
        if kw in ("list", "set", "map"):
            self.take("(")
            et = self.type()
            self.take(")")
            return (kw, et)
        if kw == "tuple":
            self.take("(")
            self.take("[")
            ets = []
            while self.peek() != "]":
                ets.append(self.type())
                if self.peek() == ",":
                    self.take(",")
                elif self.peek() != "]":
                    raise CtyError("Syntax", message="expected , or ]")
            self.take("]")
            self.take(")")
            return ("tuple", tuple(ets))
        if kw == "object":
            self.take("(")
            self.take("{")
            attrs = {}
            opt = []
            while self.peek() != "}":
                name = self.take()
                if name.startswith('"'):
                    # ctywire's extension: a quoted name (hcl typeexpr rejects it)
                    name = nfc(json.loads(name))
                elif not re.match(r"^[A-Za-z_][A-Za-z0-9_-]*$", name):
                    raise CtyError("Syntax", message="attribute name expected")
                if self.peek() not in ("=", ":"):
                    raise CtyError("Syntax", message="expected = after attribute name")
                self.take()
                # a repeated attribute: the last definition wins (hcl ext/typeexpr)
                if self.peek() == "optional":
                    self.take()
                    self.take("(")
                    attrs[name] = self.type()
                    self.take(")")
                    opt.append(name)
                else:
                    attrs[name] = self.type()
                if self.peek() == ",":
                    self.take(",")
            self.take("}")
            self.take(")")
            return Object(attrs, opt)
        raise CtyError("Syntax", message=f"not a type keyword: {kw!r}")


# --------------------------------------------------------------------------- strings

def nfc(s):
    return unicodedata.normalize("NFC", s)


def go_quote(s):
    """Go strconv.Quote / %q of a valid UTF-8 string."""
    out = ['"']
    for ch in s:
        c = ord(ch)
        if ch == '"':
            out.append('\\"')
        elif ch == "\\":
            out.append("\\\\")
        elif ch == " " or (ch.isprintable() and c != 0x7F):
            out.append(ch)
        elif ch == "\a":
            out.append("\\a")
        elif ch == "\b":
            out.append("\\b")
        elif ch == "\f":
            out.append("\\f")
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\r":
            out.append("\\r")
        elif ch == "\t":
            out.append("\\t")
        elif ch == "\v":
            out.append("\\v")
        elif c < 0x20 or c == 0x7F:
            out.append("\\x%02x" % c)
        elif c < 0x10000:
            out.append("\\u%04x" % c)
        else:
            out.append("\\U%08x" % c)
    out.append('"')
    return "".join(out)


# --------------------------------------------------------------------------- numbers

class GoDecimal:
    """math/big's internal decimal: value = 0.mant * 10**exp, no trailing zeros."""

    def __init__(self, frac):
        # frac: non-negative Fraction with a power-of-two or power-of-ten-friendly denominator
        assert frac >= 0
        if frac == 0:
            self.mant, self.exp = "", 0
            return
        num, den = frac.numerator, frac.denominator
        # den must be 2^a 5^b: multiply up to an integer times 10^-k
        k = 0
        while den % 10 == 0:
            den //= 10
            k += 1
        while den % 2 == 0:
            den //= 2
            num *= 5
            k += 1
        while den % 5 == 0:
            den //= 5
            num *= 2
            k += 1
        assert den == 1, "non-terminating decimal"
        digits = str(num)
        self.exp = len(digits) - k
        self.mant = digits.rstrip("0")

    def at(self, i):
        if 0 <= i < len(self.mant):
            return self.mant[i]
        return "0"

    def round_up(self, n):
        if n < 0 or n >= len(self.mant):
            return
        while n > 0 and self.mant[n - 1] >= "9":
            n -= 1
        if n == 0:
            self.mant = "1"
            self.exp += 1
            return
        self.mant = self.mant[: n - 1] + chr(ord(self.mant[n - 1]) + 1)

    def round_down(self, n):
        if n < 0 or n >= len(self.mant):
            return
        self.mant = self.mant[:n].rstrip("0")

    def round(self, n):
        if n < 0 or n >= len(self.mant):
            return
        if self.mant[n] == "5" and n + 1 == len(self.mant):
            up = n > 0 and (int(self.mant[n - 1]) & 1) != 0
        else:
            up = self.mant[n] >= "5"
        if up:
            self.round_up(n)
        else:
            self.round_down(n)


def _round_shortest(d, frac, prec):
    """Port of math/big roundShortest for the non-negative value frac at `prec` bits."""
    if not d.mant:
        return
    # find integer M with prec+1 bits and E with frac == M * 2**E exactly
    k = frac.numerator.bit_length() - frac.denominator.bit_length()
    while Fraction(2) ** k > frac:
        k -= 1
    while Fraction(2) ** (k + 1) <= frac:
        k += 1
    E = k - prec
    M = frac / (Fraction(2) ** E)
    assert M.denominator == 1, "value has more bits than its precision"
    M = M.numerator
    lower = GoDecimal(Fraction(M - 1) * Fraction(2) ** E)
    upper = GoDecimal(Fraction(M + 1) * Fraction(2) ** E)
    inclusive = (M & 2) == 0
    for i, m in enumerate(d.mant):
        l_ = lower.at(i)
        u = upper.at(i)
        okdown = l_ != m or (inclusive and i + 1 == len(lower.mant))
        okup = m != u and (inclusive or chr(ord(m) + 1) < u or i + 1 < len(upper.mant))
        if okdown and okup:
            d.round(i + 1)
            return
        if okdown:
            d.round_down(i + 1)
            return
        if okup:
            d.round_up(i + 1)
            return


def _fmt_f(d, prec):
    out = []
    if d.exp > 0:
        m = min(len(d.mant), d.exp)
        out.append(d.mant[:m])
        out.append("0" * (d.exp - m))
    else:
        out.append("0")
    if prec > 0:
        out.append(".")
        out.append("".join(d.at(d.exp + i) for i in range(prec)))
    return "".join(out)


def _fmt_e(d, prec):
    out = [d.mant[0] if d.mant else "0"]
    if prec > 0:
        out.append(".")
        frac = d.mant[1: prec + 1]
        out.append(frac + "0" * (prec - len(frac)))
    exp = d.exp - 1 if d.mant else 0
    sign = "-" if exp < 0 else "+"
    exp = abs(exp)
    out.append("e" + sign + ("0" if exp < 10 else "") + str(exp))
    return "".join(out)


class Num:
    """A cty number: +/-inf or a finite exact value, with its origin.

    origin: 'int' (msgpack integer), 'float' (float64; `bits` kept), 'dec' (decimal text).
    Zero keeps its sign (negzero)."""

    def __init__(self, frac=None, inf=0, origin="dec", negzero=False, bits=None):
        self.frac = frac
        self.inf = inf
        self.origin = origin
        self.negzero = negzero
        self.bits = bits

    @staticmethod
    def from_float(f):
        if math.isnan(f):
            raise ValueError("NaN")
        bits = struct.pack(">d", f)
        if math.isinf(f):
            return Num(inf=1 if f > 0 else -1, origin="float", bits=bits)
        return Num(Fraction(f), origin="float", negzero=(f == 0 and math.copysign(1, f) < 0), bits=bits)

    @staticmethod
    def from_int(i):
        return Num(Fraction(i), origin="int")

    def is_int(self):
        return self.inf == 0 and self.frac.denominator == 1

    def sign(self):
        if self.inf:
            return self.inf
        return (self.frac > 0) - (self.frac < 0)

    def text_f(self):
        """big.Float Text('f', -1) at the value's own precision."""
        if self.inf:
            raise EncodeError("cannot serialize infinity as JSON")
        neg = self.frac < 0 or self.negzero
        a = abs(self.frac)
        d = GoDecimal(a)
        if self.origin == "float":
            _round_shortest(d, a, 53)
        # 'int' and 'dec': exact (dec: the model keeps decimals exactly, FORMAT.md §8.12)
        prec = max(len(d.mant) - d.exp, 0)
        return ("-" if neg else "") + _fmt_f(d, prec)

    def text_g10(self):
        """big.Float String() == Text('g', 10): used in set hash strings."""
        if self.inf:
            return "+Inf" if self.inf > 0 else "-Inf"
        neg = self.frac < 0 or self.negzero
        d = GoDecimal(abs(self.frac))
        prec = 10
        d.round(prec)
        eprec = prec
        if eprec > len(d.mant) and len(d.mant) >= d.exp:
            eprec = len(d.mant)
        exp = d.exp - 1
        if exp < -4 or exp >= eprec:
            if prec > len(d.mant):
                prec = len(d.mant)
            s = _fmt_e(d, prec - 1)
        else:
            if prec > d.exp:
                prec = len(d.mant)
            s = _fmt_f(d, max(prec - d.exp, 0))
        return ("-" if neg else "") + s

    def text_g(self):
        """big.Float Text('g', -1) at the value's own precision: how Terraform's
        FormatCtyPath prints a number key (a set element) in a path."""
        if self.inf:
            return "+Inf" if self.inf > 0 else "-Inf"
        neg = self.frac < 0 or self.negzero
        a = abs(self.frac)
        d = GoDecimal(a)
        if self.origin == "float":
            _round_shortest(d, a, 53)
        if not d.mant:
            return ("-" if neg else "") + "0"
        exp = d.exp - 1
        if exp < -4 or exp >= 6:
            s = _fmt_e(d, len(d.mant) - 1)
        else:
            s = _fmt_f(d, max(len(d.mant) - d.exp, 0))
        return ("-" if neg else "") + s

    def equals(self, other):
        if self.inf or other.inf:
            return self.inf == other.inf
        if self.sign() != other.sign():
            return False
        if self.is_int() and other.is_int():
            return self.frac == other.frac
        if self.is_int() or other.is_int():
            return False
        a, b = self.text_f(), other.text_f()
        return (a if a != "-0" else "0") == (b if b != "-0" else "0")

    def cmp(self, other):
        def key(n):
            if n.inf:
                return (n.inf, Fraction(0))
            return (0, n.frac)
        a, b = key(self), key(other)
        return (a > b) - (a < b)

    def __repr__(self):
        if self.inf:
            return "+Inf" if self.inf > 0 else "-Inf"
        return f"Num({self.text_f()},{self.origin})"


_NUM_RE = re.compile(r"^([+-]?)(?:(Inf|inf)|(\d+\.?\d*|\.\d+)(?:([eEpP])([+-]?\d+))?)$")


def parse_number_text(s):
    """cty.ParseNumberVal (big.ParseFloat base 10), except that decimals are kept exactly."""
    m = _NUM_RE.match(s)
    if not m:
        raise ValueError(f"not a number: {s!r}")
    sign, inf, mant, ech, exp = m.groups()
    neg = sign == "-"
    if inf:
        return Num(inf=-1 if neg else 1, origin="dec")
    if "." in mant:
        ip, fp = mant.split(".")
    else:
        ip, fp = mant, ""
    val = Fraction(int((ip + fp) or "0"), 10 ** len(fp))
    if ech:
        e = int(exp)
        if ech in "eE":
            val *= Fraction(10) ** e
        else:
            val *= Fraction(2) ** e
    if neg:
        val = -val
    return Num(val, origin="dec", negzero=(val == 0 and neg))


def float64_exact(frac):
    """The float64 equal to frac, or None."""
    try:
        f = float(frac)
    except OverflowError:
        return None
    if math.isinf(f):
        return None
    return f if Fraction(f) == frac else None


# --------------------------------------------------------------------------- values

class Val:
    pass


class Null(Val):
    def __init__(self, ty):
        self.ty = ty


class Unknown(Val):
    def __init__(self, ty, ref=None):
        self.ty = ty
        self.ref = ref or {}


class Bool(Val):
    ty = "bool"

    def __init__(self, b):
        self.b = b


class NumV(Val):
    ty = "number"

    def __init__(self, n):
        self.n = n


class Str(Val):
    ty = "string"

    def __init__(self, s):
        self.s = s


class ListV(Val):
    def __init__(self, ety, elems):
        self.ety = ety
        self.elems = elems
        self.ty = ("list", ety)


class SetV(Val):
    def __init__(self, ety, elems):
        self.ety = ety
        self.elems = set_order(ety, elems)
        self.ty = ("set", ety)


class MapV(Val):
    def __init__(self, ety, items):
        self.ety = ety
        self.items = dict(sorted(items.items(), key=lambda kv: bkey(kv[0])))
        self.ty = ("map", ety)


class TupleV(Val):
    def __init__(self, elems):
        self.elems = elems
        self.ty = ("tuple", tuple(e.ty for e in elems))


class ObjV(Val):
    def __init__(self, attrs):
        self.attrs = dict(sorted(attrs.items(), key=lambda kv: bkey(kv[0])))
        self.ty = Object({k: v.ty for k, v in self.attrs.items()})


def is_known(v):
    return not isinstance(v, Unknown)


def value_equals(a, b):
    """cty Equals == True (unknowns are never equal; null equals null)."""
    if isinstance(a, Unknown) or isinstance(b, Unknown):
        return False
    if isinstance(a, Null) or isinstance(b, Null):
        return isinstance(a, Null) and isinstance(b, Null)
    if type(a) is not type(b):
        return False
    if isinstance(a, Bool):
        return a.b == b.b
    if isinstance(a, NumV):
        return a.n.equals(b.n)
    if isinstance(a, Str):
        return a.s == b.s
    if isinstance(a, (ListV, TupleV)):
        return len(a.elems) == len(b.elems) and all(value_equals(x, y) for x, y in zip(a.elems, b.elems))
    if isinstance(a, SetV):
        if len(a.elems) != len(b.elems):
            return False
        return all(any(value_equals(x, y) for y in b.elems) for x in a.elems)
    if isinstance(a, MapV):
        return a.items.keys() == b.items.keys() and all(value_equals(a.items[k], b.items[k]) for k in a.items)
    if isinstance(a, ObjV):
        return a.attrs.keys() == b.attrs.keys() and all(value_equals(a.attrs[k], b.attrs[k]) for k in a.attrs)
    raise TypeError(a)


def hash_string(v):
    """cty's set hash string (appendSetHashBytes)."""
    if isinstance(v, Unknown):
        return "?"
    if isinstance(v, Null):
        return "~"
    if isinstance(v, NumV):
        return v.n.text_g10()
    if isinstance(v, Bool):
        return "T" if v.b else "F"
    if isinstance(v, Str):
        return go_quote(v.s)
    if isinstance(v, MapV):
        return "{" + "".join(go_quote(k) + ":" + hash_string(e) + ";" for k, e in v.items.items()) + "}"
    if isinstance(v, (ListV, SetV)):
        return "[" + "".join(hash_string(e) + ";" for e in v.elems) + "]"
    if isinstance(v, ObjV):
        return "<" + "".join(hash_string(e) + ";" for e in v.attrs.values()) + ">"
    if isinstance(v, TupleV):
        return "<" + "".join(hash_string(e) + ";" for e in v.elems) + ">"
    raise TypeError(v)


def _crc_bucket(v):
    import zlib
    return zlib.crc32(hash_string(v).encode("utf-8"))


def _less(ety, a, b):
    # RawEquals short cut is subsumed: equal-by-rules pairs compare False both ways.
    if isinstance(b, Null) and not isinstance(a, Null):
        return True
    if isinstance(a, Null):
        return False
    if is_known(a) and not is_known(b):
        return True
    if not is_known(a):
        return False
    if isinstance(a, Str) and isinstance(b, Str):
        return bkey(a.s) < bkey(b.s)
    if isinstance(a, Bool) and isinstance(b, Bool):
        return (not a.b) and b.b
    if isinstance(a, NumV) and isinstance(b, NumV):
        return a.n.cmp(b.n) < 0
    return hash_string(a).encode("utf-8") < hash_string(b).encode("utf-8")


def set_order(ety, elems):
    """Deduplicate (first wins, unknowns kept, one null) and order as cty does."""
    buckets = {}
    for e in elems:
        h = _crc_bucket(e)
        bucket = buckets.setdefault(h, [])
        if any(value_equals(e, x) for x in bucket):
            continue
        bucket.append(e)
    out = []
    for h in sorted(buckets):
        out.extend(buckets[h])
    # stable insertion sort with the cty rules
    import functools

    def cmp(a, b):
        if _less(ety, a, b):
            return -1
        if _less(ety, b, a):
            return 1
        return 0
    # Python's sort is stable; cmp_to_key with a consistent ordering gives the same result
    return sorted(out, key=functools.cmp_to_key(cmp))


def unify_elements(schema_ety, elems, path):
    """Element type of a list/set/map decoded with schema element type `schema_ety`.

    Returns the concrete element type. Raises InvalidValue for heterogeneous elements
    (go-cty panics there). `elems` is a list of (path_step, value)."""
    ety = None
    for step, e in elems:
        if e.ty == "dynamic":
            continue
        if ety is None:
            ety = e.ty
        elif strip_optional(ety) != strip_optional(e.ty):
            raise CtyError("InvalidValue", path + (step,), message="inconsistent element types")
    if ety is None:
        return schema_ety
    return ety


def retype(ety, vals):
    """Elements of a collection take the collection's element type: a null or unknown of
    the dynamic pseudo-type beside concrete elements becomes a null or unknown of their
    type (go-cty's ListVal/SetVal/MapVal keep only the raw values)."""
    if ety == "dynamic":
        return vals
    out = []
    for v in vals:
        if v.ty == "dynamic":
            v = Null(ety) if isinstance(v, Null) else Unknown(ety)
        out.append(v)
    return out


# --------------------------------------------------------------------------- msgpack reader

def marker_name(m):
    if m <= 0x7F or m >= 0xE0 or 0xCC <= m <= 0xD3:
        return "int"
    if 0x80 <= m <= 0x8F or m in (0xDE, 0xDF):
        return "map"
    if 0x90 <= m <= 0x9F or m in (0xDC, 0xDD):
        return "array"
    if 0xA0 <= m <= 0xBF or 0xD9 <= m <= 0xDB:
        return "str"
    if m == 0xC0:
        return "nil"
    if m == 0xC1:
        return "invalid"
    if m in (0xC2, 0xC3):
        return "bool"
    if 0xC4 <= m <= 0xC6:
        return "bin"
    if 0xC7 <= m <= 0xC9 or 0xD4 <= m <= 0xD8:
        return "ext"
    if m in (0xCA, 0xCB):
        return "float"
    raise AssertionError(m)


class Reader:
    def __init__(self, data):
        self.b = bytes(data)
        self.p = 0

    def eof(self, path=()):
        return CtyError("UnexpectedEof", path, len(self.b), "unexpected end of input")

    def need(self, n, path=()):
        if self.p + n > len(self.b):
            raise self.eof(path)

    def peek(self, path=()):
        self.need(1, path)
        return self.b[self.p]

    def u8(self, path=()):
        self.need(1, path)
        v = self.b[self.p]
        self.p += 1
        return v

    def uint(self, n, path=()):
        self.need(n, path)
        v = int.from_bytes(self.b[self.p: self.p + n], "big")
        self.p += n
        return v

    def take(self, n, path=()):
        self.need(n, path)
        v = self.b[self.p: self.p + n]
        self.p += n
        return v

    def mismatch(self, expected, path):
        m = self.peek(path)
        if marker_name(m) == "invalid":
            raise CtyError("Syntax", path, self.p, "invalid msgpack marker 0xc1")
        raise CtyError("TypeMismatch", path, self.p, f"expected {expected}, found {marker_name(m)}")

    def array_len(self, path):
        m = self.peek(path)
        if 0x90 <= m <= 0x9F:
            self.p += 1
            return m & 0x0F
        if m == 0xDC:
            self.p += 1
            return self.uint(2, path)
        if m == 0xDD:
            self.p += 1
            return self.uint(4, path)
        return None

    def map_len(self, path):
        m = self.peek(path)
        if 0x80 <= m <= 0x8F:
            self.p += 1
            return m & 0x0F
        if m == 0xDE:
            self.p += 1
            return self.uint(2, path)
        if m == 0xDF:
            self.p += 1
            return self.uint(4, path)
        return None

    def raw_str(self, path):
        """str or bin bytes, or None if the next value is neither."""
        m = self.peek(path)
        if 0xA0 <= m <= 0xBF:
            self.p += 1
            n = m & 0x1F
        elif m in (0xD9, 0xC4):
            self.p += 1
            n = self.uint(1, path)
        elif m in (0xDA, 0xC5):
            self.p += 1
            n = self.uint(2, path)
        elif m in (0xDB, 0xC6):
            self.p += 1
            n = self.uint(4, path)
        else:
            return None
        return self.take(n, path)

    def int_value(self, path):
        """Any msgpack integer, or None."""
        m = self.peek(path)
        if m <= 0x7F:
            self.p += 1
            return m
        if m >= 0xE0:
            self.p += 1
            return m - 256
        sizes = {0xCC: (1, False), 0xCD: (2, False), 0xCE: (4, False), 0xCF: (8, False),
                 0xD0: (1, True), 0xD1: (2, True), 0xD2: (4, True), 0xD3: (8, True)}
        if m in sizes:
            n, signed = sizes[m]
            self.p += 1
            raw = self.take(n, path)
            return int.from_bytes(raw, "big", signed=signed)
        return None

    def skip(self, path=()):
        m = self.u8(path)
        k = marker_name(m)
        if k == "invalid":
            raise CtyError("Syntax", path, self.p - 1, "invalid msgpack marker 0xc1")
        self.p -= 1
        if k == "int":
            self.int_value(path)
        elif k in ("nil", "bool"):
            self.p += 1
        elif k in ("str", "bin"):
            self.raw_str(path)
        elif k == "float":
            self.p += 1
            self.take(4 if m == 0xCA else 8, path)
        elif k == "array":
            for _ in range(self.array_len(path)):
                self.skip(path)
        elif k == "map":
            for _ in range(2 * self.map_len(path)):
                self.skip(path)
        elif k == "ext":
            self.ext(path)

    def ext(self, path):
        """Returns (type_code, payload_start, length); payload not yet consumed checks."""
        start = self.p
        m = self.u8(path)
        fixed = {0xD4: 1, 0xD5: 2, 0xD6: 4, 0xD7: 8, 0xD8: 16}
        if m in fixed:
            n = fixed[m]
        elif m == 0xC7:
            n = self.uint(1, path)
        elif m == 0xC8:
            n = self.uint(2, path)
        elif m == 0xC9:
            n = self.uint(4, path)
        else:
            raise AssertionError
        code = self.u8(path)
        if code >= 128:
            code -= 256
        if code == 12 and n > MAX_REFINEMENT_PAYLOAD:
            raise CtyError("LimitExceeded", path, start, "refinement payload over 1024 bytes")
        payload = self.take(n, path)
        return code, payload, start


# --------------------------------------------------------------------------- msgpack decode

def msgpack_decode(data, ty):
    r = Reader(data)
    v = _mp_value(r, ty, ())
    if r.p != len(r.b):
        raise CtyError("InvalidValue", (), r.p, "trailing data after value")
    return v


def _utf8(raw, path, offset):
    try:
        s = bytes(raw).decode("utf-8")
    except UnicodeDecodeError:
        raise CtyError("InvalidValue", path, None, "invalid UTF-8 in string")
    return nfc(s)


def _mp_value(r, ty, path):
    m = r.peek(path)
    kind = marker_name(m)
    if kind == "ext":
        return _mp_unknown(r, ty, path)
    if ty == "dynamic":
        return _mp_dynamic(r, path)
    if kind == "nil":
        r.p += 1
        return Null(ty)
    if kind == "invalid":
        raise CtyError("Syntax", path, r.p, "invalid msgpack marker 0xc1")
    start = r.p
    if ty == "bool":
        if kind != "bool":
            r.mismatch("bool", path)
        r.p += 1
        return Bool(m == 0xC3)
    if ty == "number":
        return NumV(_mp_number(r, path))
    if ty == "string":
        raw = r.raw_str(path)
        if raw is None:
            r.mismatch("string", path)
        return Str(_utf8(raw, path, start))
    k = ty[0]
    if k in ("list", "set", "tuple"):
        n = r.array_len(path)
        if n is None:
            r.mismatch({"list": "list", "set": "set", "tuple": "tuple"}[k], path)
        if n > len(r.b) - r.p:
            raise CtyError("UnexpectedEof", path, None, f"{n} elements cannot fit in the remaining input")
        if k == "tuple":
            if n != len(ty[1]):
                raise CtyError("InvalidValue", path, start, f"a tuple of length {len(ty[1])} is required")
            return TupleV([_mp_value(r, ety, path + (("idx", i),)) for i, ety in enumerate(ty[1])])
        elems = []
        for i in range(n):
            elems.append((("idx", i), _mp_value(r, ty[1], path + (("idx", i),))))
        ety = unify_elements(ty[1], elems, path)
        vals = retype(ety, [e for _, e in elems])
        return ListV(ety, vals) if k == "list" else SetV(ety, vals)
    if k in ("map", "object"):
        n = r.map_len(path)
        if n is None:
            r.mismatch("map" if k == "map" else "object", path)
        if 2 * n > len(r.b) - r.p:
            raise CtyError("UnexpectedEof", path, None, f"{n} entries cannot fit in the remaining input")
        if k == "object":
            atys = obj_attrs(ty)
            if n != len(atys):
                raise CtyError("InvalidValue", path, start,
                               f"an object with {len(atys)} attributes is required ({n} given)")
        items = {}
        order = []
        for _ in range(n):
            kstart = r.p
            raw = r.raw_str(path)
            if raw is None:
                km = r.peek(path)
                if marker_name(km) == "invalid":
                    raise CtyError("Syntax", path, r.p, "invalid msgpack marker 0xc1")
                raise CtyError("TypeMismatch", path, kstart, "map keys must be strings")
            try:
                key_raw = bytes(raw).decode("utf-8")
            except UnicodeDecodeError:
                raise CtyError("InvalidValue", path, None, "invalid UTF-8 in key")
            if k == "object":
                # attribute lookup uses the raw (non-normalized) key, as go-cty does
                step = ("attr", key_raw)
                if key_raw not in atys:
                    raise CtyError("InvalidValue", path + (step,), kstart, "unsupported attribute")
                if key_raw in items:
                    raise CtyError("InvalidValue", path + (step,), kstart, "duplicate attribute")
                items[key_raw] = _mp_value(r, atys[key_raw], path + (step,))
            else:
                key = nfc(key_raw)
                step = ("key", key)
                if key in items:
                    raise CtyError("InvalidValue", path + (step,), kstart, "duplicate map key")
                items[key] = _mp_value(r, ty[1], path + (step,))
                order.append(key)
        if k == "object":
            return ObjV(items)
        ety = unify_elements(ty[1], [(("key", kk), items[kk]) for kk in order], path)
        return MapV(ety, dict(zip(order, retype(ety, [items[kk] for kk in order]))))
    raise AssertionError(ty)


def _mp_number(r, path, bound=False):
    start = r.p
    m = r.peek(path)
    kind = marker_name(m)
    if kind == "int":
        return Num.from_int(r.int_value(path))
    if kind == "float":
        r.p += 1
        if m == 0xCA:
            f = struct.unpack(">f", r.take(4, path))[0]
        else:
            f = struct.unpack(">d", r.take(8, path))[0]
        if math.isnan(f):
            raise CtyError("InvalidValue", path, start, "NaN is not a number")
        return Num.from_float(f)
    if kind in ("str", "bin"):
        raw = r.raw_str(path)
        try:
            return parse_number_text(bytes(raw).decode("utf-8"))
        except (UnicodeDecodeError, ValueError):
            raise CtyError("InvalidValue", path, start, "invalid number text")
    r.mismatch("number", path)


def _mp_dynamic(r, path):
    start = r.p
    m = r.peek(path)
    if m == 0xC0:
        r.p += 1
        return Null("dynamic")
    n = r.array_len(path)
    if n is None:
        r.mismatch("dynamic value array", path)
    if n != 2:
        raise CtyError("InvalidValue", path, start, "dynamic value array must have exactly two elements")
    raw = r.raw_str(path)
    if raw is None:
        r.mismatch("type JSON", path)
    try:
        ty = parse_type_json(bytes(raw).decode("utf-8"))
    except UnicodeDecodeError:
        raise CtyError("InvalidValue", path, None, "type JSON is not UTF-8")
    except CtyError as e:
        raise CtyError(e.kind, path, None, e.message)
    return _mp_value(r, ty, path)


def _mp_unknown(r, ty, path):
    code, payload, start = r.ext(path)
    if len(payload) <= 1 or code != 12:
        # plain unknown: any extension of length <= 1, and (ctywire) any other type code
        return Unknown(ty)
    pr = Reader(payload)
    try:
        n = pr.map_len(path)
    except CtyError:
        n = None
    if n is None:
        raise CtyError("InvalidValue", path, start, "refinement payload is not a map")
    if ty == "dynamic":
        return Unknown("dynamic")
    ref = {}

    def bad(msg):
        return CtyError("InvalidValue", path, start, msg)
    try:
        for _ in range(n):
            key = pr.int_value(path)
            if key is None:
                raise bad("non-integer key in refinement map")
            if key == 1:
                m = pr.u8(path)
                if m not in (0xC2, 0xC3):
                    raise bad("null refinement is not boolean")
                ref["null"] = m == 0xC3
            elif key == 2:
                if ty != "string":
                    raise bad("string prefix refinement for non-string type")
                raw = pr.raw_str(path)
                if raw is None:
                    raise bad("string prefix refinement is not a string")
                try:
                    ref["prefix"] = nfc(bytes(raw).decode("utf-8"))
                except UnicodeDecodeError:
                    raise bad("string prefix refinement is not valid UTF-8")
            elif key in (3, 4):
                if ty != "number":
                    raise bad("numeric bound refinement for non-number type")
                if pr.array_len(path) != 2:
                    raise bad("numeric bound refinement must be [number, bool] array")
                try:
                    bn = _mp_number(pr, path)
                except CtyError:
                    raise bad("numeric bound refinement must be [number, bool] array")
                m = pr.u8(path)
                if m not in (0xC2, 0xC3):
                    raise bad("numeric bound refinement must be [number, bool] array")
                ref["lo" if key == 3 else "hi"] = (bn, m == 0xC3)
            elif key in (5, 6):
                if not is_collection(ty):
                    raise bad("length bound refinement for non-collection type")
                iv = pr.int_value(path)
                if iv is None or iv < 0:
                    raise bad("length bound refinement is not a non-negative integer")
                ref["llo" if key == 5 else "lhi"] = iv
            else:
                pr.skip(path)  # ctywire: unknown refinement keys are skipped
    except CtyError as e:
        if e.kind == "UnexpectedEof":
            raise bad("truncated refinement payload")
        raise
    return make_refined_unknown(ty, ref)


def make_refined_unknown(ty, ref):
    """Apply go-cty's refinement normalisation and collapsing rules."""
    ref = dict(ref)
    if ref.get("null") is True:
        return Null(ty)
    notnull = ref.get("null") is False
    if ref.get("prefix") == "":
        del ref["prefix"]
    if ref.get("llo") == 0:
        del ref["llo"]
    if ref.get("lhi") == I64_MAX:
        del ref["lhi"]
    if notnull and ty == "number" and "lo" in ref and "hi" in ref:
        (lo, li), (hi, hi_inc) = ref["lo"], ref["hi"]
        if li and hi_inc and lo.equals(hi):
            return NumV(lo)
    if notnull and is_collection(ty):
        llo = ref.get("llo", 0)
        lhi = ref.get("lhi", I64_MAX)
        if llo == lhi:
            ety = ty[1]
            if llo == 0:
                if ty[0] == "list":
                    return ListV(ety, [])
                if ty[0] == "set":
                    return SetV(ety, [])
                return MapV(ety, {})
            if ty[0] == "list":
                return ListV(ety, [Unknown(ety) for _ in range(llo)])
            if ty[0] == "set" and llo == 1:
                return SetV(ety, [Unknown(ety)])
    if not notnull:
        ref.pop("null", None)
    return Unknown(ty, ref)


# --------------------------------------------------------------------------- msgpack encode

def mp_int(i):
    if 0 <= i <= 0x7F:
        return bytes([i])
    if i >= 0:
        if i <= 0xFF:
            return b"\xcc" + i.to_bytes(1, "big")
        if i <= 0xFFFF:
            return b"\xcd" + i.to_bytes(2, "big")
        if i <= 0xFFFFFFFF:
            return b"\xce" + i.to_bytes(4, "big")
        return b"\xcf" + i.to_bytes(8, "big")
    if i >= -32:
        return bytes([i & 0xFF])
    if i >= -128:
        return b"\xd0" + i.to_bytes(1, "big", signed=True)
    if i >= -32768:
        return b"\xd1" + i.to_bytes(2, "big", signed=True)
    if i >= -(1 << 31):
        return b"\xd2" + i.to_bytes(4, "big", signed=True)
    return b"\xd3" + i.to_bytes(8, "big", signed=True)


def mp_str(b):
    n = len(b)
    if n < 32:
        return bytes([0xA0 | n]) + b
    if n <= 0xFF:
        return b"\xd9" + bytes([n]) + b
    if n <= 0xFFFF:
        return b"\xda" + n.to_bytes(2, "big") + b
    return b"\xdb" + n.to_bytes(4, "big") + b


def mp_bin(b):
    n = len(b)
    if n <= 0xFF:
        return b"\xc4" + bytes([n]) + b
    if n <= 0xFFFF:
        return b"\xc5" + n.to_bytes(2, "big") + b
    return b"\xc6" + n.to_bytes(4, "big") + b


def mp_array_header(n):
    if n < 16:
        return bytes([0x90 | n])
    if n <= 0xFFFF:
        return b"\xdc" + n.to_bytes(2, "big")
    return b"\xdd" + n.to_bytes(4, "big")


def mp_map_header(n):
    if n < 16:
        return bytes([0x80 | n])
    if n <= 0xFFFF:
        return b"\xde" + n.to_bytes(2, "big")
    return b"\xdf" + n.to_bytes(4, "big")


def mp_ext(code, payload):
    n = len(payload)
    fixed = {1: 0xD4, 2: 0xD5, 4: 0xD6, 8: 0xD7, 16: 0xD8}
    if n in fixed:
        head = bytes([fixed[n]])
    elif n <= 0xFF:
        head = b"\xc7" + bytes([n])
    elif n <= 0xFFFF:
        head = b"\xc8" + n.to_bytes(2, "big")
    else:
        head = b"\xc9" + n.to_bytes(4, "big")
    return head + bytes([code & 0xFF]) + payload


GOCTY_112 = False  # set by gocty/crosscheck.py to model go-cty 1.12.1's number rule


def mp_number(n):
    if GOCTY_112 and n.inf == 0 and n.is_int() and not (I64_MIN <= n.frac <= I64_MAX) \
            and float64_exact(n.frac) is not None:
        return b"\xcb" + struct.pack(">d", float64_exact(n.frac))
    if n.inf:
        return b"\xcb" + struct.pack(">d", math.inf if n.inf > 0 else -math.inf)
    if n.is_int() and I64_MIN <= n.frac <= I64_MAX:
        return mp_int(int(n.frac))
    if n.origin == "float":
        # ctywire: every float64 that is not an int64 stays a float64 (FORMAT.md §8.11)
        return b"\xcb" + n.bits
    if not n.is_int():
        f = float64_exact(n.frac)
        if f is not None:
            return b"\xcb" + struct.pack(">d", f)
    return mp_str(n.text_f().encode())


def safe_known_prefix(prefix):
    """Truncation of long prefixes (go-cty encoder): prefix[:255] then drop the last
    grapheme cluster. Only exact for ASCII (enough for the vectors)."""
    b = prefix.encode("utf-8")[:255]
    s = b.decode("utf-8", "ignore")
    if len(s.encode()) < len(b):
        return s  # a cut code point counts as the dropped last cluster
    assert all(ord(c) < 0x80 for c in s), "model only truncates ASCII prefixes"
    return s[:-1]


def mp_refinement_payload(ty, ref):
    entries = []
    if ref.get("null") is False:
        entries.append(mp_int(1) + b"\xc2")
    if ty == "number":
        for key, name in ((3, "lo"), (4, "hi")):
            if name in ref:
                n, inc = ref[name]
                entries.append(mp_int(key) + b"\x92" + mp_number(n) + (b"\xc3" if inc else b"\xc2"))
    if ty == "string" and ref.get("prefix"):
        p = ref["prefix"]
        if len(p.encode()) > 256:
            p = safe_known_prefix(p)
        entries.append(mp_int(2) + mp_str(p.encode()))
    if is_collection(ty):
        if ref.get("llo", 0) != 0:
            entries.append(mp_int(5) + mp_int(ref["llo"]))
        if ref.get("lhi", I64_MAX) != I64_MAX:
            entries.append(mp_int(6) + mp_int(ref["lhi"]))
    if not entries:
        return None
    return mp_map_header(len(entries)) + b"".join(entries)


def msgpack_encode(v, ty):
    out = bytearray()
    _mp_enc(v, ty, out)
    return bytes(out)


def _mp_enc(v, ty, out):
    if ty == "dynamic" and v.ty != "dynamic":
        out += b"\x92" + mp_bin(type_json(v.ty).encode())
        _mp_enc(v, v.ty, out)
        return
    if isinstance(v, Unknown):
        payload = None if ty == "dynamic" else mp_refinement_payload(ty, v.ref)
        out += b"\xd4\x00\x00" if payload is None else mp_ext(12, payload)
        return
    if isinstance(v, Null):
        out += b"\xc0"
        return
    if ty == "bool":
        out += b"\xc3" if v.b else b"\xc2"
    elif ty == "number":
        out += mp_number(v.n)
    elif ty == "string":
        out += mp_str(v.s.encode("utf-8"))
    elif ty[0] in ("list", "set"):
        out += mp_array_header(len(v.elems))
        for e in v.elems:
            _mp_enc(e, ty[1], out)
    elif ty[0] == "map":
        out += mp_map_header(len(v.items))
        for k, e in v.items.items():
            out += mp_str(k.encode("utf-8"))
            _mp_enc(e, ty[1], out)
    elif ty[0] == "tuple":
        out += mp_array_header(len(ty[1]))
        for e, et in zip(v.elems, ty[1]):
            _mp_enc(e, et, out)
    elif ty[0] == "object":
        out += mp_map_header(len(ty[1]))
        for name, at in ty[1]:
            out += mp_str(name.encode("utf-8"))
            _mp_enc(v.attrs[name], at, out)
    else:
        raise AssertionError(ty)


# --------------------------------------------------------------------------- JSON parse

class JNum:
    def __init__(self, text):
        self.text = text


class JObj:
    def __init__(self, pairs):
        self.pairs = pairs


class JsonParser:
    WS = " \t\r\n"

    def __init__(self, text):
        self.s = text
        self.i = 0
        self.spath = []  # structural position: ("i", index) / ("k", key) steps

    def err(self, msg):
        kind = "UnexpectedEof" if self.i >= len(self.s) else "Syntax"
        e = CtyError(kind, (), None, msg)
        e.spath = list(self.spath)
        return e

    def ws(self):
        while self.i < len(self.s) and self.s[self.i] in self.WS:
            self.i += 1

    def value(self):
        self.ws()
        if self.i >= len(self.s):
            raise self.err("expected value")
        c = self.s[self.i]
        if c == "{":
            self.i += 1
            pairs = []
            self.ws()
            if self.peek() == "}":
                self.i += 1
                return JObj(pairs)
            while True:
                self.ws()
                if self.peek() != '"':
                    raise self.err("expected string key")
                k = self.string()
                self.ws()
                if self.peek() != ":":
                    raise self.err("expected :")
                self.i += 1
                self.spath.append(("k", k))
                v = self.value()
                self.spath.pop()
                pairs.append((k, v))
                self.ws()
                c = self.peek()
                if c == ",":
                    self.i += 1
                    continue
                if c == "}":
                    self.i += 1
                    return JObj(pairs)
                raise self.err("expected , or }")
        if c == "[":
            self.i += 1
            arr = []
            self.ws()
            if self.peek() == "]":
                self.i += 1
                return arr
            while True:
                self.spath.append(("i", len(arr)))
                arr.append(self.value())
                self.spath.pop()
                self.ws()
                c = self.peek()
                if c == ",":
                    self.i += 1
                    continue
                if c == "]":
                    self.i += 1
                    return arr
                raise self.err("expected , or ]")
        if c == '"':
            return self.string()
        for lit, val in (("true", True), ("false", False), ("null", None)):
            if self.s.startswith(lit, self.i):
                self.i += len(lit)
                return val
            if lit.startswith(self.s[self.i:]) and self.s[self.i:]:
                self.i = len(self.s)
                raise self.err("truncated literal")
        m = re.compile(r"-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?").match(self.s, self.i)
        if m and m.end() > self.i:
            end = m.end()
            # a number cut short at the end of input (e.g. "1." or "1e") is EOF
            if end < len(self.s) and self.s[end] in ".eE+-0123456789":
                self.i = end
                rest = self.s[end:]
                if re.fullmatch(r"(\.|[eE][+-]?)", rest):
                    self.i = len(self.s)
                raise self.err("invalid number")
            self.i = end
            return JNum(m.group(0))
        if c == "-" and self.i + 1 == len(self.s):
            self.i += 1
            raise self.err("truncated number")
        raise self.err(f"unexpected character {c!r}")

    def peek(self):
        if self.i >= len(self.s):
            raise self.err("unexpected end of input")
        return self.s[self.i]

    def string(self):
        assert self.s[self.i] == '"'
        self.i += 1
        out = []
        while True:
            if self.i >= len(self.s):
                raise self.err("unterminated string")
            c = self.s[self.i]
            if c == '"':
                self.i += 1
                return "".join(out)
            if c == "\\":
                self.i += 1
                if self.i >= len(self.s):
                    raise self.err("unterminated escape")
                e = self.s[self.i]
                simple = {'"': '"', "\\": "\\", "/": "/", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t"}
                if e in simple:
                    out.append(simple[e])
                    self.i += 1
                elif e == "u":
                    h = self.s[self.i + 1: self.i + 5]
                    if len(h) < 4:
                        self.i = len(self.s)
                        raise self.err("truncated escape")
                    if not re.fullmatch(r"[0-9a-fA-F]{4}", h):
                        raise self.err("bad escape")
                    cp = int(h, 16)
                    self.i += 5
                    if 0xD800 <= cp < 0xDC00 and self.s[self.i: self.i + 2] == "\\u":
                        h2 = self.s[self.i + 2: self.i + 6]
                        if re.fullmatch(r"[dD][c-fC-F][0-9a-fA-F]{2}", h2):
                            cp = 0x10000 + ((cp - 0xD800) << 10) + (int(h2, 16) - 0xDC00)
                            self.i += 6
                    if 0xD800 <= cp < 0xE000:
                        raise CtyError("InvalidValue", (), None, "lone surrogate")
                    out.append(chr(cp))
                else:
                    raise self.err("bad escape")
            elif ord(c) < 0x20:
                raise self.err("control character in string")
            else:
                out.append(c)
                self.i += 1


def json_parse_document(text):
    p = JsonParser(text)
    v = p.value()
    p.ws()
    if p.i != len(p.s):
        raise CtyError("InvalidValue", (), None, "trailing data after value")
    return v


def _jkind(v):
    if v is None:
        return "null"
    if v is True or v is False:
        return "bool"
    if isinstance(v, JNum):
        return "number"
    if isinstance(v, str):
        return "string"
    if isinstance(v, list):
        return "array"
    return "object"


# --------------------------------------------------------------------------- JSON decode

def json_decode(text, ty):
    try:
        doc = json_parse_document(text)
    except CtyError as e:
        # a syntax error is reported at the value that was being read (as a streaming
        # decoder sees it): map the structural position through the type
        if getattr(e, "spath", None):
            e.path = _typed_path(ty, e.spath)
        raise
    return _j_value(doc, ty, ())


def _typed_path(ty, spath):
    out = []
    for kind, val in spath:
        if isinstance(ty, str):
            break
        k = ty[0]
        if kind == "i" and k in ("list", "set"):
            out.append(("idx", val))
            ty = ty[1]
        elif kind == "i" and k == "tuple" and val < len(ty[1]):
            out.append(("idx", val))
            ty = ty[1][val]
        elif kind == "k" and k == "map":
            out.append(("key", nfc(val)))
            ty = ty[1]
        elif kind == "k" and k == "object" and val in obj_attrs(ty):
            out.append(("attr", val))
            ty = obj_attrs(ty)[val]
        else:
            break
    return tuple(out)


def _j_value(j, ty, path):
    if j is None:
        return Null(ty)
    kind = _jkind(j)

    def mismatch(expected):
        return CtyError("TypeMismatch", path, None, f"expected {expected}, found {kind}")
    if ty == "dynamic":
        if kind != "object":
            raise mismatch("dynamic value object")
        d = {}
        for k, v in j.pairs:
            if k not in ("value", "type"):
                raise CtyError("InvalidValue", path, None, f"invalid key {k!r} in dynamically-typed value")
            d[k] = v
        if "type" not in d:
            raise CtyError("InvalidValue", path, None, "missing type in dynamically-typed value")
        if "value" not in d:
            raise CtyError("InvalidValue", path, None, "missing value in dynamically-typed value")
        try:
            inner = type_from_jsonvalue(_j_to_typejson(d["type"]))
        except CtyError as e:
            raise CtyError(e.kind, path, None, e.message)
        return _j_value(d["value"], inner, path)
    if ty == "bool":
        if kind == "bool":
            return Bool(j)
        if kind == "string":
            if j in ("true", "1"):
                return Bool(True)
            if j in ("false", "0"):
                return Bool(False)
            raise CtyError("InvalidValue", path, None, "a bool is required")
        raise mismatch("bool")
    if ty == "number":
        if kind in ("number", "string"):
            text = j.text if kind == "number" else j
            try:
                return NumV(parse_number_text(text))
            except ValueError:
                raise CtyError("InvalidValue", path, None, "a number is required")
        raise mismatch("number")
    if ty == "string":
        if kind == "string":
            return Str(nfc(j))
        if kind == "number":
            return Str(j.text)
        if kind == "bool":
            return Str("true" if j else "false")
        raise mismatch("string")
    k = ty[0]
    if k in ("list", "set", "tuple"):
        if kind != "array":
            raise mismatch(k)
        if k == "tuple":
            if len(j) != len(ty[1]):
                raise CtyError("InvalidValue", path, None,
                               "too many tuple elements" if len(j) > len(ty[1]) else "not enough tuple elements")
            return TupleV([_j_value(e, et, path + (("idx", i),)) for i, (e, et) in enumerate(zip(j, ty[1]))])
        elems = [(("idx", i), _j_value(e, ty[1], path + (("idx", i),))) for i, e in enumerate(j)]
        ety = unify_elements(ty[1], elems, path)
        vals = retype(ety, [e for _, e in elems])
        return ListV(ety, vals) if k == "list" else SetV(ety, vals)
    if k == "map":
        if kind != "object":
            raise mismatch("map")
        items = {}
        order = []
        for key, v in j.pairs:
            key = nfc(key)
            if key in items:
                order.remove(key)
            items[key] = _j_value(v, ty[1], path + (("key", key),))
            order.append(key)
        ety = unify_elements(ty[1], [(("key", kk), items[kk]) for kk in order], path)
        return MapV(ety, dict(zip(order, retype(ety, [items[kk] for kk in order]))))
    if k == "object":
        if kind != "object":
            raise mismatch("object")
        atys = obj_attrs(ty)
        vals = {}
        for key, v in j.pairs:
            if key not in atys:
                raise CtyError("InvalidValue", path + (("attr", key),), None, "unsupported attribute")
            vals[key] = _j_value(v, atys[key], path + (("attr", key),))
        for name, at in atys.items():
            vals.setdefault(name, Null(at))
        return ObjV(vals)
    raise AssertionError(ty)


def _j_to_typejson(j):
    if isinstance(j, JObj):
        return Pairs([(k, _j_to_typejson(v)) for k, v in j.pairs])
    if isinstance(j, list):
        return [_j_to_typejson(e) for e in j]
    if isinstance(j, JNum):
        return float(j.text)
    return j


# --------------------------------------------------------------------------- JSON encode

def json_encode(v, ty, go122=True):
    out = []
    _j_enc(v, ty, (), out, go122)
    return "".join(out)


def _j_enc(v, ty, path, out, go122):
    if isinstance(v, Unknown):
        raise EncodeError("value is not known", path)
    if ty == "dynamic" and v.ty != "dynamic":
        out.append('{"value":')
        _j_enc(v, v.ty, path, out, go122)
        out.append(',"type":' + type_json(v.ty) + "}")
        return
    if isinstance(v, Null):
        out.append("null")
        return
    if ty == "bool":
        out.append("true" if v.b else "false")
    elif ty == "number":
        try:
            out.append(v.n.text_f())
        except EncodeError as e:
            raise EncodeError(e.message, path)
    elif ty == "string":
        out.append(go_json_string(v.s, go122))
    elif ty[0] in ("list", "set", "tuple"):
        out.append("[")
        for i, e in enumerate(v.elems):
            if i:
                out.append(",")
            et = ty[1][i] if ty[0] == "tuple" else ty[1]
            step = ("set", e) if ty[0] == "set" else ("idx", i)
            _j_enc(e, et, path + (step,), out, go122)
        out.append("]")
    elif ty[0] == "map":
        out.append("{")
        for i, (k, e) in enumerate(v.items.items()):
            if i:
                out.append(",")
            out.append(go_json_string(k, go122) + ":")
            _j_enc(e, ty[1], path + (("key", k),), out, go122)
        out.append("}")
    elif ty[0] == "object":
        out.append("{")
        for i, (name, at) in enumerate(ty[1]):
            if i:
                out.append(",")
            out.append(go_json_string(name, go122) + ":")
            _j_enc(v.attrs[name], at, path + (("attr", name),), out, go122)
        out.append("}")
    else:
        raise AssertionError(ty)


# --------------------------------------------------------------------------- implied types

def msgpack_implied_type(data):
    r = Reader(data)
    t = _mp_implied(r)
    if r.p != len(r.b):
        raise CtyError("InvalidValue", (), r.p, "extra bytes after msgpack value")
    return t


def _mp_implied(r):
    m = r.peek()
    k = marker_name(m)
    if k in ("nil",):
        r.p += 1
        return "dynamic"
    if k == "ext":
        r.ext(())
        return "dynamic"
    if k == "bool":
        r.p += 1
        return "bool"
    if k in ("int", "float"):
        r.skip()
        return "number"
    if k == "str":
        r.raw_str(())
        return "string"
    if k == "array":
        n = r.array_len(())
        return ("tuple", tuple(_mp_implied(r) for _ in range(n)))
    if k == "map":
        n = r.map_len(())
        attrs = {}
        for _ in range(n):
            if marker_name(r.peek()) != "str":
                raise CtyError("TypeMismatch", (), r.p, "object keys must be strings")
            key = bytes(r.raw_str(())).decode("utf-8")
            attrs[key] = _mp_implied(r)
        return Object(attrs)
    if k == "bin":
        raise CtyError("TypeMismatch", (), r.p, "unsupported msgpack code 0xc4")
    raise CtyError("Syntax", (), r.p, "invalid marker")


def json_implied_type(text):
    p = JsonParser(text)
    j = p.value()
    p.ws()
    if p.i != len(p.s):
        raise CtyError("InvalidValue", (), None, "extraneous data after JSON object")
    return _j_implied(j)


def _j_implied(j):
    k = _jkind(j)
    if k == "null":
        return "dynamic"
    if k in ("bool", "number", "string"):
        return k
    if k == "array":
        return ("tuple", tuple(_j_implied(e) for e in j))
    attrs = {}
    for key, v in j.pairs:
        t = _j_implied(v)
        if key in attrs and attrs[key] != t:
            raise CtyError("InvalidValue", (), None, f"duplicate {key!r} property in JSON object")
        attrs[key] = t
    return Object(attrs)
