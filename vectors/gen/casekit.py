"""Helpers for writing ctywire's own vector files (used by make_cases.py).

Cases are written with explicit inputs; outputs given as AUTO are computed with the
executable model (ctymodel.py) and every case is checked against the model when it is
added, so a typo in a hand-written hex string fails at generation time. The model is in
turn checked by go-cty 1.12.1 (gocty/crosscheck.py) wherever that version applies.
"""

import json
import os

import ctymodel as m
import vecio

AUTO = object()


def h(s):
    """Hex from a readable form: spaces ignored, "quoted text" becomes its UTF-8 bytes."""
    out = []
    i = 0
    while i < len(s):
        c = s[i]
        if c == '"':
            j = s.index('"', i + 1)
            while s[j - 1] == "\\":  # allow \" inside
                j = s.index('"', j + 1)
            out.append(s[i + 1:j].replace('\\"', '"').encode("utf-8").hex())
            i = j + 1
        elif c.isspace():
            i += 1
        else:
            out.append(c)
            i += 1
    text = "".join(out).lower()
    bytes.fromhex(text)
    return text


def mstr(text):
    """msgpack str of text, as hex."""
    return m.mp_str(text.encode("utf-8")).hex()


def mbin(data):
    if isinstance(data, str):
        data = data.encode("utf-8")
    return m.mp_bin(data).hex()


def tj(ty):
    """Type JSON text of a type given as a JSON value."""
    return json.dumps(ty, separators=(",", ":"), ensure_ascii=False)


class CaseFile:
    def __init__(self, fname, description, source):
        self.fname = fname
        self.description = description
        self.source = source
        self.cases = []

    def _base(self, name, note, source, extra):
        c = {"name": name, "source": source or self.source}
        if note:
            c["note"] = note
        c.update(extra)
        return c

    def _finish(self, c):
        check(c)
        self.cases.append(c)
        return c

    def raw(self, **c):
        c.setdefault("source", self.source)
        return self._finish(c)

    # ---- value cases

    def rt(self, name, ty, mp=None, js=None, note=None, source=None, **extra):
        """A canonical value: msgpack and/or JSON. AUTO fills one side from the other."""
        c = self._base(name, note, source, extra)
        c["type"] = ty
        mty = m.type_from_case(ty)
        if mp is AUTO:
            assert js not in (None, AUTO)
            mp = m.msgpack_encode(m.json_decode(js, mty), mty).hex()
        if mp is not None:
            c["msgpack"] = mp
        if js is AUTO:
            v = m.msgpack_decode(bytes.fromhex(mp), mty)
            try:
                js = m.json_encode(v, mty)
            except m.EncodeError as e:
                js = None
                c["json_encode_error"] = {"message": e.message, "path": m.fmt_path(e.path)}
        if js is not None:
            c["json"] = js
            if mp is not None:
                back = m.msgpack_encode(m.json_decode(js, mty), mty).hex()
                if back != mp:
                    c["msgpack_from_json"] = back
        return self._finish(c)

    def inp(self, name, ty, imp=None, ijs=None, mp=AUTO, js=AUTO, note=None, source=None, **extra):
        """A non-canonical input that decodes; expected outputs (AUTO: from the model;
        None: leave the field out)."""
        c = self._base(name, note, source, extra)
        c["type"] = ty
        mty = m.type_from_case(ty)
        if imp is not None:
            c["input_msgpack"] = imp
            v = m.msgpack_decode(bytes.fromhex(imp), mty)
        else:
            c["input_json"] = ijs
            v = m.json_decode(ijs, mty)
        if mp is AUTO:
            mp = m.msgpack_encode(v, mty).hex()
        if mp is not None:
            c["msgpack"] = mp
        if js is AUTO:
            try:
                js = m.json_encode(v, mty)
            except m.EncodeError as e:
                js = None
                c["json_encode_error"] = {"message": e.message, "path": m.fmt_path(e.path)}
        if js is not None:
            c["json"] = js
        if mp is not None and js is not None:
            vm = m.msgpack_decode(bytes.fromhex(mp), mty)
            assert m.json_encode(vm, mty) == js, f"{name}: msgpack {mp} and json {js} disagree"
            back = m.msgpack_encode(m.json_decode(js, mty), mty).hex()
            if back != mp:
                c["msgpack_from_json"] = back
        return self._finish(c)

    def err(self, name, ty, kind, path="", imp=None, ijs=None, offset=None, note=None, source=None, **extra):
        c = self._base(name, note, source, extra)
        c["type"] = ty
        if imp is not None:
            c["input_msgpack"] = imp
        else:
            c["input_json"] = ijs
        e = {"kind": kind, "path": path}
        if offset is not None:
            e["offset"] = offset
        c["error"] = e
        return self._finish(c)

    def write(self):
        path = os.path.join(vecio.VECTORS, "ctywire", self.fname)
        vecio.write_file(path, self.description, self.cases)
        return len(self.cases)


def check(c):
    """Run the case through the model now (fails fast on a bad hand-written value)."""
    import check_model
    try:
        check_model.check_case(c)
    except check_model.Fail as e:
        raise SystemExit(f"case {c['name']}: {e}")
