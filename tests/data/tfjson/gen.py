#!/usr/bin/env python3
"""Writes the realistic `show -json` documents that tests/conformance/tfjson.rs reads.

    python3 tests/data/tfjson/gen.py

writes examples/plan/plan.json (a plan), examples/plan/state.json (a state after a
partly failed apply), examples/plan/schema.json (the providers' schemas, in the
`terraform providers schema -json` format) and tests/data/tfjson/types.json (each
resource type's implied type, as cty type JSON).

The documents follow Terraform's rules for the format (internal/command/jsonplan
omitUnknowns, unknownAsBool, marshalResourceChange, marshalPlanResources,
MarshalOutputChanges; internal/command/jsonstate SensitiveAsBool,
marshalAttributeValues, MarshalOutputs), implemented here a second time, in Python,
independently of the crate's Rust code, so that the Rust tests check one
implementation against the other.
"""

import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", "..", ".."))


# ---------------------------------------------------------------------------
# Values: None is null, UNK an unknown, SetV a set (elements in go-cty order), dicts
# are objects or maps, lists are lists or tuples, Num a number kept as exact text.


class Unknown:
    def __repr__(self):
        return "UNK"


UNK = Unknown()
ABSENT = object()  # "no value at all" (cty.NilVal): the property is left out


class SetV(list):
    pass


class Num:
    def __init__(self, text):
        self.text = text


def wholly_known(v):
    if v is UNK:
        return False
    if isinstance(v, list):
        return all(wholly_known(e) for e in v)
    if isinstance(v, dict):
        return all(wholly_known(e) for e in v.values())
    return True


OMIT = object()


def omit_unknowns(v):
    """jsonplan's omitUnknowns: unknown attributes and map elements left out, unknown
    sequence elements null, a wholly unknown value OMIT."""
    if v is None:
        return None
    if v is UNK:
        return OMIT
    if isinstance(v, list):
        return [None if omit_unknowns(e) is OMIT else omit_unknowns(e) for e in v]
    if isinstance(v, dict):
        out = {}
        for k in sorted(v, key=lambda s: s.encode()):
            e = omit_unknowns(v[k])
            if e is not OMIT:
                out[k] = e
        return out
    return v


def unknown_as_bool(v):
    """jsonplan's unknownAsBool."""
    if v is None:
        return False
    if v is UNK:
        return True
    if isinstance(v, list):
        return [unknown_as_bool(e) for e in v]
    if isinstance(v, dict):
        out = {}
        for k in sorted(v, key=lambda s: s.encode()):
            t = unknown_as_bool(v[k])
            if t is not False:
                out[k] = t
        return out
    return False


def element_type(ty, key):
    if ty == "dynamic" or isinstance(ty, str):
        return "dynamic"
    kind = ty[0]
    if kind in ("list", "set", "map"):
        return ty[1]
    if kind == "tuple":
        return ty[1][key]
    if kind == "object":
        return ty[1].get(key, "dynamic")
    raise ValueError(ty)


def step_matches(step, key):
    kind, name = step
    if kind in ("attr", "key"):
        return name == key
    return name == key  # index


def sensitive_as_bool(v, ty, paths):
    """jsonstate's SensitiveAsBool of the value marked at `paths` (lists of steps
    ("attr", name), ("key", name), ("idx", i)); marks inside set elements move to the
    set, as cty.SetVal does."""
    if any(len(p) == 0 for p in paths):
        return True
    if v is None:
        return False
    if v is UNK:
        kind = ty[0] if isinstance(ty, list) else ty
        if kind in ("list", "set", "tuple"):
            return []
        if kind in ("map", "object"):
            return {}
        return False
    if isinstance(v, list):
        items = []
        for i, e in enumerate(v):
            sub = [p[1:] for p in paths if p[0][0] == "idx" and p[0][1] == i]
            items.append(sensitive_as_bool(e, element_type(ty, i), sub))
        if isinstance(v, SetV) and any(marked_anywhere(t) for t in items):
            return True
        return items
    if isinstance(v, dict):
        out = {}
        for k in sorted(v, key=lambda s: s.encode()):
            sub = [p[1:] for p in paths if p[0][0] in ("attr", "key") and p[0][1] == k]
            t = sensitive_as_bool(v[k], element_type(ty, k), sub)
            if t is not False:
                out[k] = t
        return out
    return False


def marked_anywhere(t):
    if t is True:
        return True
    if isinstance(t, list):
        return any(marked_anywhere(e) for e in t)
    if isinstance(t, dict):
        return any(marked_anywhere(e) for e in t.values())
    return False


# ---------------------------------------------------------------------------
# Schemas: blocks with attributes and nested block types, their implied types, the
# paths Terraform's Block.SensitivePaths finds, and the providers-schema JSON.


def attr(ty, required=False, optional=False, computed=False, sensitive=False):
    a = {"type": ty, "description_kind": "plain"}
    if required:
        a["required"] = True
    if optional:
        a["optional"] = True
    if computed:
        a["computed"] = True
    if sensitive:
        a["sensitive"] = True
    return a


def block(attributes, block_types=None):
    return {"attributes": attributes, "block_types": block_types or {}}


def nested(nesting, b, max_items=None):
    n = {"nesting_mode": nesting, "block": b}
    if max_items is not None:
        n["max_items"] = max_items
    return n


def implied_type(b):
    attrs = {name: a["type"] for name, a in b["attributes"].items()}
    for name, n in b["block_types"].items():
        inner = implied_type(n["block"])
        mode = n["nesting_mode"]
        attrs[name] = inner if mode == "single" else [mode, inner]
    return ["object", attrs]


def schema_sensitive_paths(b, v, base):
    """Block.SensitivePaths: each sensitive attribute, inside nested blocks too."""
    if v is None or v is UNK:
        return []
    out = []
    for name, a in sorted(b["attributes"].items()):
        if a.get("sensitive"):
            out.append(base + [("attr", name)])
    for name, n in sorted(b["block_types"].items()):
        bv = v.get(name)
        if bv is None or bv is UNK:
            continue
        here = base + [("attr", name)]
        mode = n["nesting_mode"]
        if mode == "single":
            out += schema_sensitive_paths(n["block"], bv, here)
        elif mode in ("list", "set"):
            for i, e in enumerate(bv):
                out += schema_sensitive_paths(n["block"], e, here + [("idx", i)])
        elif mode == "map":
            for k, e in bv.items():
                out += schema_sensitive_paths(n["block"], e, here + [("key", k)])
    return out


def schema_json_block(b):
    out = {}
    if b["attributes"]:
        out["attributes"] = b["attributes"]
    if b["block_types"]:
        out["block_types"] = {
            name: {**{k: v for k, v in n.items() if k != "block"}, "block": schema_json_block(n["block"])}
            for name, n in b["block_types"].items()
        }
    out["description_kind"] = "plain"
    return out


# ---------------------------------------------------------------------------
# The providers and resource types (subsets of the real schemas).

AWS = "registry.terraform.io/hashicorp/aws"
RANDOM = "registry.terraform.io/hashicorp/random"
KUBERNETES = "registry.terraform.io/hashicorp/kubernetes"

S, N, B = "string", "number", "bool"

SCHEMAS = {
    (AWS, "managed", "aws_instance"): (1, block(
        {
            "ami": attr(S, optional=True, computed=True),
            "arn": attr(S, computed=True),
            "id": attr(S, optional=True, computed=True),
            "instance_type": attr(S, optional=True, computed=True),
            "private_ip": attr(S, optional=True, computed=True),
            "tags": attr(["map", S], optional=True),
            "tags_all": attr(["map", S], optional=True, computed=True),
            "user_data": attr(S, optional=True, computed=True),
            "vpc_security_group_ids": attr(["set", S], optional=True, computed=True),
        },
        {
            "root_block_device": nested("list", block({
                "delete_on_termination": attr(B, optional=True),
                "encrypted": attr(B, optional=True, computed=True),
                "kms_key_id": attr(S, optional=True, computed=True),
                "volume_id": attr(S, computed=True),
                "volume_size": attr(N, optional=True, computed=True),
                "volume_type": attr(S, optional=True, computed=True),
            }), max_items=1),
            "ebs_block_device": nested("set", block({
                "device_name": attr(S, required=True),
                "volume_id": attr(S, computed=True),
                "volume_size": attr(N, optional=True, computed=True),
            })),
            "metadata_options": nested("list", block({
                "http_endpoint": attr(S, optional=True, computed=True),
                "http_tokens": attr(S, optional=True, computed=True),
            }), max_items=1),
        },
    )),
    (AWS, "managed", "aws_db_instance"): (2, block(
        {
            "allocated_storage": attr(N, optional=True, computed=True),
            "engine": attr(S, optional=True, computed=True),
            "engine_version": attr(S, optional=True, computed=True),
            "id": attr(S, optional=True, computed=True),
            "identifier": attr(S, optional=True, computed=True),
            "instance_class": attr(S, required=True),
            "password": attr(S, optional=True, sensitive=True),
            "tags": attr(["map", S], optional=True),
            "username": attr(S, optional=True, computed=True),
        },
        {
            "master_user_secret": nested("list", block({
                "kms_key_id": attr(S, computed=True),
                "secret_arn": attr(S, computed=True, sensitive=True),
                "secret_status": attr(S, computed=True),
            })),
        },
    )),
    (AWS, "managed", "aws_key_pair"): (1, block({
        "arn": attr(S, computed=True),
        "fingerprint": attr(S, computed=True),
        "id": attr(S, optional=True, computed=True),
        "key_name": attr(S, optional=True, computed=True),
        "public_key": attr(S, required=True),
        "tags": attr(["map", S], optional=True),
    })),
    (AWS, "managed", "aws_subnet"): (1, block({
        "arn": attr(S, computed=True),
        "availability_zone": attr(S, optional=True, computed=True),
        "cidr_block": attr(S, optional=True),
        "id": attr(S, optional=True, computed=True),
        "map_public_ip_on_launch": attr(B, optional=True),
        "tags": attr(["map", S], optional=True),
        "vpc_id": attr(S, required=True),
    })),
    (AWS, "managed", "aws_vpc_endpoint"): (0, block({
        "arn": attr(S, computed=True),
        "id": attr(S, optional=True, computed=True),
        "policy": attr(S, optional=True, computed=True),
        "route_table_ids": attr(["set", S], optional=True, computed=True),
        "service_name": attr(S, required=True),
        "tags": attr(["map", S], optional=True),
        "vpc_id": attr(S, required=True),
    })),
    (AWS, "data", "aws_iam_policy_document"): (0, block(
        {
            "id": attr(S, optional=True, computed=True),
            "json": attr(S, computed=True),
        },
        {
            "statement": nested("list", block({
                "actions": attr(["set", S], optional=True),
                "effect": attr(S, optional=True),
                "sid": attr(S, optional=True),
            })),
        },
    )),
    (RANDOM, "managed", "random_password"): (3, block({
        "bcrypt_hash": attr(S, computed=True, sensitive=True),
        "id": attr(S, computed=True),
        "keepers": attr(["map", S], optional=True),
        "length": attr(N, required=True),
        "lower": attr(B, optional=True, computed=True),
        "min_numeric": attr(N, optional=True, computed=True),
        "override_special": attr(S, optional=True),
        "result": attr(S, computed=True, sensitive=True),
        "special": attr(B, optional=True, computed=True),
    })),
    (KUBERNETES, "managed", "kubernetes_manifest"): (1, block({
        "computed_fields": attr(["list", S], optional=True),
        "manifest": attr("dynamic", required=True),
        "object": attr("dynamic", optional=True, computed=True),
    })),
}


def schema_of(provider, mode, rtype):
    return SCHEMAS[(provider, mode, rtype)]


# ---------------------------------------------------------------------------
# JSON output: exact numbers, keys of values in bytewise order, structure in Go's
# struct field order.


def dump(v, indent=0):
    pad = "  " * indent
    if v is None:
        return "null"
    if v is True:
        return "true"
    if v is False:
        return "false"
    if isinstance(v, Num):
        return v.text
    if isinstance(v, int):
        return str(v)
    if isinstance(v, str):
        s = json.dumps(v, ensure_ascii=False)
        return s.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    if isinstance(v, list):
        if not v:
            return "[]"
        inner = ",\n".join(pad + "  " + dump(e, indent + 1) for e in v)
        return "[\n" + inner + "\n" + pad + "]"
    if isinstance(v, dict):
        if not v:
            return "{}"
        inner = ",\n".join(
            pad + "  " + dump(k) + ": " + dump(e, indent + 1) for k, e in v.items()
        )
        return "{\n" + inner + "\n" + pad + "}"
    raise TypeError(repr(v))


def value_json(v):
    """ctyjson.Marshal of a wholly known value: a plain tree, objects sorted."""
    assert wholly_known(v), v
    return omit_unknowns(v)


# ---------------------------------------------------------------------------
# Document pieces.


def address(module, mode, rtype, name, index):
    a = "" if mode == "managed" else "data."
    a += f"{rtype}.{name}"
    if index is not None:
        a += f"[{index}]" if isinstance(index, int) else f'["{index}"]'
    return (module + "." if module else "") + a


class Instance:
    """One resource instance object: its identity, schema, and values."""

    def __init__(self, module, mode, provider, rtype, name, index=None, deposed=None):
        self.module, self.mode, self.provider = module, mode, provider
        self.rtype, self.name, self.index, self.deposed = rtype, name, index, deposed
        self.version, self.schema = schema_of(provider, mode, rtype)
        self.ty = implied_type(self.schema)

    @property
    def address(self):
        return address(self.module, self.mode, self.rtype, self.name, self.index)

    def sensitive(self, value, extra):
        paths = list(extra) + schema_sensitive_paths(self.schema, value, [])
        return sensitive_as_bool(value, self.ty, paths)

    def head(self):
        d = {"address": self.address, "mode": self.mode, "type": self.rtype, "name": self.name}
        if self.index is not None:
            d["index"] = self.index
        return d

    def state_resource(self, value, marks=(), depends_on=(), tainted=False):
        d = self.head()
        d["provider_name"] = self.provider
        d["schema_version"] = self.version
        d["values"] = value_json(value)
        d["sensitive_values"] = self.sensitive(value, marks)
        if depends_on:
            d["depends_on"] = list(depends_on)
        if tainted:
            d["tainted"] = True
        if self.deposed:
            d["deposed_key"] = self.deposed
        return d

    def planned_resource(self, after, marks=()):
        d = self.head()
        d["provider_name"] = self.provider
        d["schema_version"] = self.version
        if after is not None and after is not UNK:
            d["values"] = omit_unknowns(after)
        d["sensitive_values"] = self.sensitive(after, marks)
        return d

    def resource_change(self, actions, before, after, before_marks=(), after_marks=(),
                        replace_paths=None, action_reason=None):
        d = {"address": self.address}
        if self.module:
            d["module_address"] = self.module
        d.update({"mode": self.mode, "type": self.rtype, "name": self.name})
        if self.index is not None:
            d["index"] = self.index
        d["provider_name"] = self.provider
        if self.deposed:
            d["deposed"] = self.deposed
        change = {"actions": actions}
        if before is not ABSENT:
            change["before"] = value_json(before)
        if after is not ABSENT:
            if wholly_known(after):
                change["after"] = value_json(after)
                change["after_unknown"] = {}
            else:
                filtered = omit_unknowns(after)
                if filtered is not OMIT:
                    change["after"] = filtered
                change["after_unknown"] = unknown_as_bool(after)
        if before is not ABSENT:
            change["before_sensitive"] = self.sensitive(before, before_marks)
        if after is not ABSENT:
            change["after_sensitive"] = self.sensitive(after, after_marks)
        if replace_paths:
            change["replace_paths"] = replace_paths
        d["change"] = change
        if action_reason:
            d["action_reason"] = action_reason
        return d


def output_change(actions, before, after, sensitive):
    change = {"actions": actions}
    if before is not ABSENT:
        change["before"] = value_json(before)
    if after is not ABSENT:
        if wholly_known(after):
            change["after"] = value_json(after)
            change["after_unknown"] = False
        else:
            filtered = omit_unknowns(after)
            if filtered is not OMIT:
                change["after"] = filtered
            change["after_unknown"] = unknown_as_bool(after)
    change["before_sensitive"] = sensitive
    change["after_sensitive"] = sensitive
    return change


def output_value(value, ty, sensitive):
    d = {"sensitive": sensitive}
    if wholly_known(value):
        d["type"] = ty
        d["value"] = value_json(value)
    return d


def modules_tree(resources):
    """Nests resource entries into root_module/child_modules by module address."""
    by_module = {}
    for module, r in resources:
        by_module.setdefault(module, []).append(r)
    # every ancestor of a module with resources exists in the tree
    all_modules = set()
    for m in by_module:
        parts = split_module(m)
        for i in range(1, len(parts) + 1):
            all_modules.add(".".join(parts[:i]))

    def build(addr):
        mod = {}
        rs = sorted(by_module.get(addr, []), key=lambda r: r["address"])
        if rs:
            mod["resources"] = rs
        if addr:
            mod["address"] = addr
        children = sorted(
            m for m in all_modules
            if m != addr and parent_module(m) == addr
        )
        if children:
            mod["child_modules"] = [build(c) for c in children]
        return mod

    return build("")


def split_module(addr):
    """module.a.module.b["x"] -> ["module.a", "module.b[\"x\"]"]"""
    if not addr:
        return []
    parts = addr.split(".module.")
    return [parts[0]] + ["module." + p for p in parts[1:]]


def parent_module(addr):
    parts = split_module(addr)
    return ".".join(parts[:-1])


# ---------------------------------------------------------------------------
# The scenario.

WEB_USER_DATA = "#!/bin/bash\nyum install -y nginx && systemctl start nginx <&>\n"
KMS_KEY = "arn:aws:kms:us-east-1:111122223333:key/1234abcd-12ab-34cd-56ef-1234567890ab"
DB_KMS_KEY = "arn:aws:kms:us-east-1:111122223333:key/0f9e8d7c-6b5a-4c3d-2e1f-0a9b8c7d6e5f"
OLD_KEY = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOldOldOldOldOldOldOldOldOldOldOldOldOld deployer@ci"
OLDER_KEY = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOlderOlderOlderOlderOlderOlderOlderOld deployer@ci"
NEW_KEY = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAINewNewNewNewNewNewNewNewNewNewNewNewNew deployer@ci"
BUDGET = Num("12345678901234567890.125")

policy = Instance("", "data", AWS, "aws_iam_policy_document", "assume")
db = Instance("", "managed", AWS, "aws_db_instance", "main")
webs = [Instance("", "managed", AWS, "aws_instance", "web", index=i) for i in (0, 1)]
key = Instance("", "managed", AWS, "aws_key_pair", "deployer")
key_deposed = Instance("", "managed", AWS, "aws_key_pair", "deployer", deposed="5f3c2a1b")
password = Instance("", "managed", RANDOM, "random_password", "db")
manifest = Instance('module.apps["api"]', "managed", KUBERNETES, "kubernetes_manifest", "deployment")
subnets = [Instance("module.network", "managed", AWS, "aws_subnet", "private", index=k) for k in ("a", "b")]
endpoint = Instance("module.network.module.endpoints", "managed", AWS, "aws_vpc_endpoint", "s3")

# Values: before (prior state) and after (planned).

policy_after = {
    "id": UNK,
    "json": UNK,
    "statement": [{"actions": SetV(["sts:AssumeRole"]), "effect": "Allow", "sid": None}],
}

db_before = {
    "allocated_storage": 100,
    "engine": "postgres",
    "engine_version": "15.4",
    "id": "db-ABCDEFGHIJKLMNOPQRSTUVWXYZ",
    "identifier": "main",
    "instance_class": "db.t3.medium",
    "master_user_secret": [{
        "kms_key_id": DB_KMS_KEY,
        "secret_arn": "arn:aws:secretsmanager:us-east-1:111122223333:secret:rds!db-1a2b3c4d-5e6f-AbCdEf",
        "secret_status": "active",
    }],
    "password": "correct-horse-battery-staple",
    "tags": {"env": "prod", "team": "payments"},
    "username": "app",
}
db_after = dict(db_before)
db_after.update({
    "allocated_storage": 200,
    "engine_version": "15.5",
    "master_user_secret": [{"kms_key_id": DB_KMS_KEY, "secret_arn": UNK, "secret_status": UNK}],
})


def web_after(i):
    return {
        "ami": "ami-0c55b159cbfafe1f0",
        "arn": UNK,
        "ebs_block_device": SetV([{"device_name": "/dev/sdf", "volume_id": UNK, "volume_size": 100}]),
        "id": UNK,
        "instance_type": "t3.micro",
        "metadata_options": [{"http_endpoint": "enabled", "http_tokens": "required"}],
        "private_ip": UNK,
        "root_block_device": [{
            "delete_on_termination": True,
            "encrypted": True,
            "kms_key_id": KMS_KEY,
            "volume_id": UNK,
            "volume_size": 20,
            "volume_type": "gp3",
        }],
        "tags": {"Name": f"web-{i}", "Role": "web"},
        "tags_all": {"Environment": "prod", "Name": f"web-{i}", "Role": "web"},
        "user_data": WEB_USER_DATA,
        "vpc_security_group_ids": SetV(["sg-0123456789abcdef0", UNK]),
    }


WEB_MARKS = [[("attr", "user_data")], [("attr", "root_block_device"), ("idx", 0), ("attr", "kms_key_id")]]

key_before = {
    "arn": "arn:aws:ec2:us-east-1:111122223333:key-pair/deployer",
    "fingerprint": "hq3NOKHjPFlc9qAjSCXQ3+8uqK3tBR/zy4Cc2vGZ8mA=",
    "id": "deployer",
    "key_name": "deployer",
    "public_key": OLD_KEY,
    "tags": None,
}
key_after = {
    "arn": UNK,
    "fingerprint": UNK,
    "id": UNK,
    "key_name": "deployer",
    "public_key": NEW_KEY,
    "tags": None,
}
key_deposed_before = dict(key_before, public_key=OLDER_KEY,
                          fingerprint="pZ0wmTfYcI1wN+Z3oG1eXbWbYl8h0mC7S2o2x3Ed2iA=")

password_after = {
    "bcrypt_hash": UNK,
    "id": UNK,
    "keepers": {"rotation": "2024-06"},
    "length": 32,
    "lower": True,
    "min_numeric": 2,
    "override_special": "!#$%&*()-_=+[]{}<>:?",
    "result": UNK,
    "special": True,
}

manifest_after = {
    "computed_fields": None,
    "manifest": {
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "metadata": {"name": "api", "namespace": "apps"},
        "spec": {
            "replicas": 3,
            "selector": {"matchLabels": {"app": "api"}},
            "template": {
                "metadata": {"labels": {"app": "api"}},
                "spec": {"containers": [{
                    "image": "registry.example.com/api:1.42.0",
                    "name": "api",
                    "ports": [{"containerPort": 8080}],
                }]},
            },
        },
    },
    "object": {
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "metadata": {"annotations": None, "labels": None, "name": "api", "namespace": "apps", "uid": UNK},
        "spec": {
            "replicas": 3,
            "selector": {"matchLabels": {"app": "api"}},
            "template": {
                "metadata": {"labels": {"app": "api"}},
                "spec": {"containers": [{
                    "image": "registry.example.com/api:1.42.0",
                    "name": "api",
                    "ports": [{"containerPort": 8080, "protocol": UNK}],
                }]},
            },
        },
        "status": UNK,
    },
}


def subnet_after(k, cidr):
    return {
        "arn": UNK,
        "availability_zone": f"us-east-1{k}",
        "cidr_block": cidr,
        "id": UNK,
        "map_public_ip_on_launch": False,
        "tags": {"Name": f"private-{k}", "Tier": "private"},
        "vpc_id": "vpc-0a1b2c3d4e5f67890",
    }


endpoint_before = {
    "arn": "arn:aws:ec2:us-east-1:111122223333:vpc-endpoint/vpce-0abcd1234ef567890",
    "id": "vpce-0abcd1234ef567890",
    "policy": '{"Statement":[{"Action":"*","Effect":"Allow","Principal":"*","Resource":"*"}],"Version":"2008-10-17"}',
    "route_table_ids": SetV(["rtb-0aaa1111bbbb2222c"]),
    "service_name": "com.amazonaws.us-east-1.s3",
    "tags": {"Name": "s3-endpoint"},
    "vpc_id": "vpc-0a1b2c3d4e5f67890",
}
endpoint_after = dict(endpoint_before, route_table_ids=SetV(["rtb-0aaa1111bbbb2222c", UNK]))

DB_ENDPOINT = "main.c9akciq32.us-east-1.rds.amazonaws.com:5432"

# The plan.

changes = [
    policy.resource_change(["read"], None, policy_after,
                           action_reason="read_because_dependency_pending"),
    db.resource_change(["update"], db_before, db_after),
    *[w.resource_change(["create"], None, web_after(i), after_marks=WEB_MARKS)
      for i, w in enumerate(webs)],
    key.resource_change(["create", "delete"], key_before, key_after,
                        replace_paths=[["public_key"]],
                        action_reason="replace_because_cannot_update"),
    key_deposed.resource_change(["delete"], key_deposed_before, None),
    password.resource_change(["create"], None, password_after),
    manifest.resource_change(["create"], None, manifest_after),
    *[s.resource_change(["create"], None, subnet_after(k, cidr))
      for s, k, cidr in zip(subnets, "ab", ["10.0.1.0/24", "10.0.2.0/24"])],
    endpoint.resource_change(["update"], endpoint_before, endpoint_after),
]

planned = [
    ("", policy.planned_resource(policy_after)),
    ("", db.planned_resource(db_after)),
    *[("", w.planned_resource(web_after(i), WEB_MARKS)) for i, w in enumerate(webs)],
    ("", key.planned_resource(key_after)),
    ("", password.planned_resource(password_after)),
    (manifest.module, manifest.planned_resource(manifest_after)),
    *[(s.module, s.planned_resource(subnet_after(k, cidr)))
      for s, k, cidr in zip(subnets, "ab", ["10.0.1.0/24", "10.0.2.0/24"])],
    (endpoint.module, endpoint.planned_resource(endpoint_after)),
]

prior = [
    ("", db.state_resource(db_before)),
    ("", key.state_resource(key_before)),
    ("", key_deposed.state_resource(key_deposed_before)),
    (endpoint.module, endpoint.state_resource(endpoint_before)),
]

outputs_after = {
    "db_endpoint": (DB_ENDPOINT, "string", False),
    "db_password": (UNK, None, True),
    "max_budget": (BUDGET, "number", False),
    "subnet_ids": ({"a": UNK, "b": UNK}, None, False),
    "web_private_ips": ([UNK, UNK], None, False),
}

plan = {
    "format_version": "1.2",
    "terraform_version": "1.9.5",
    "variables": {
        "environment": {"value": "prod"},
        "instance_count": {"value": 2},
        "max_budget": {"value": BUDGET},
        "user_data": {"value": WEB_USER_DATA},
    },
    "planned_values": {
        "outputs": {name: output_value(v, ty, s) for name, (v, ty, s) in outputs_after.items()},
        "root_module": modules_tree(planned),
    },
    "resource_changes": changes,
    "output_changes": {
        "db_endpoint": output_change(["no-op"], DB_ENDPOINT, DB_ENDPOINT, False),
        "db_password": output_change(["create"], None, UNK, True),
        "max_budget": output_change(["create"], None, BUDGET, False),
        "subnet_ids": output_change(["create"], None, {"a": UNK, "b": UNK}, False),
        "web_private_ips": output_change(["create"], None, [UNK, UNK], False),
    },
    "prior_state": {
        "format_version": "1.0",
        "terraform_version": "1.9.5",
        "values": {
            "outputs": {"db_endpoint": {"sensitive": False, "value": DB_ENDPOINT, "type": "string"}},
            "root_module": modules_tree(prior),
        },
    },
    "configuration": {
        "provider_config": {
            "aws": {"name": "aws", "full_name": AWS, "expressions": {"region": {"constant_value": "us-east-1"}}},
            "kubernetes": {"name": "kubernetes", "full_name": KUBERNETES},
            "random": {"name": "random", "full_name": RANDOM},
        },
        "root_module": {
            "module_calls": {
                "apps": {"source": "./modules/app", "for_each_expression": {"constant_value": ["api"]}},
                "network": {"source": "./modules/network"},
            },
        },
    },
    "relevant_attributes": [
        {"resource": "aws_security_group.web", "attribute": ["id"]},
        {"resource": "module.network.aws_vpc.main", "attribute": ["tags", "Name"]},
    ],
    "timestamp": "2024-06-12T09:30:00Z",
    "applyable": True,
    "complete": True,
    "errored": False,
}

# The state after an apply that failed part-way: the key pair's new object was created
# but destroying the old one failed, so the old one is deposed (next to the one deposed
# earlier); one web instance is tainted.


def known_web(i):
    v = web_after(i)
    v.update({
        "arn": f"arn:aws:ec2:us-east-1:111122223333:instance/i-0{i}1234567890abcdef",
        "ebs_block_device": SetV([{"device_name": "/dev/sdf", "volume_id": f"vol-0{i}ebs0000000000001", "volume_size": 100}]),
        "id": f"i-0{i}1234567890abcdef",
        "private_ip": f"10.0.1.{10 + i}",
        "vpc_security_group_ids": SetV(["sg-0123456789abcdef0", "sg-0fedcba9876543210"]),
    })
    v["root_block_device"] = [dict(v["root_block_device"][0], volume_id=f"vol-0{i}root000000000001")]
    return v


key_new = dict(key_after, arn="arn:aws:ec2:us-east-1:111122223333:key-pair/deployer",
               fingerprint="Xb2Y+3x4kGf9sL1mQ0nR7tU5vW8zA6cD4eF2gH1iJ0k=", id="deployer")
key_old_deposed = Instance("", "managed", AWS, "aws_key_pair", "deployer", deposed="9e8d7c6b")
password_known = dict(password_after,
                      bcrypt_hash="$2a$10$N9qo8uLOickgx2ZMRZoMyeIjZAgcfl7p92ldGxad68LJZdL17lhWy",
                      id="none", result="q7#Wm2!xZp9&Lr4-Tn8=Kd3*Vb6(Hs1)")
db_known = dict(db_after, master_user_secret=db_before["master_user_secret"])
subnet_known = [
    dict(subnet_after(k, cidr), arn=f"arn:aws:ec2:us-east-1:111122223333:subnet/subnet-0{k}", id=f"subnet-0{k}")
    for k, cidr in zip("ab", ["10.0.1.0/24", "10.0.2.0/24"])
]
endpoint_known = dict(endpoint_before, route_table_ids=SetV(["rtb-0aaa1111bbbb2222c", "rtb-0bbb3333cccc4444d"]))
manifest_known = json.loads(json.dumps(manifest_after, default=lambda o: None))
manifest_known["object"]["metadata"]["uid"] = "6f1b3c2a-9d4e-4f5a-8b7c-0e1d2f3a4b5c"
manifest_known["object"]["spec"]["template"]["spec"]["containers"][0]["ports"][0]["protocol"] = "TCP"
manifest_known["object"]["status"] = {"availableReplicas": 3, "observedGeneration": 1}

state_resources = [
    ("", db.state_resource(db_known)),
    *[("", w.state_resource(known_web(i), WEB_MARKS, depends_on=["aws_key_pair.deployer"], tainted=(i == 1)))
      for i, w in enumerate(webs)],
    ("", key.state_resource(key_new)),
    ("", key_deposed.state_resource(key_deposed_before)),
    ("", key_old_deposed.state_resource(key_before)),
    ("", password.state_resource(password_known)),
    (manifest.module, manifest.state_resource(manifest_known)),
    *[(s.module, s.state_resource(v, depends_on=["aws_vpc.main"])) for s, v in zip(subnets, subnet_known)],
    (endpoint.module, endpoint.state_resource(endpoint_known)),
]

state = {
    "format_version": "1.0",
    "terraform_version": "1.9.5",
    "values": {
        "outputs": {
            "db_endpoint": {"sensitive": False, "value": DB_ENDPOINT, "type": "string"},
            "db_password": {"sensitive": True, "value": password_known["result"], "type": "string"},
            "max_budget": {"sensitive": False, "value": BUDGET, "type": "number"},
            "subnet_ids": {"sensitive": False, "value": {"a": "subnet-0a", "b": "subnet-0b"},
                           "type": ["object", {"a": "string", "b": "string"}]},
            "web_private_ips": {"sensitive": False, "value": ["10.0.1.10", "10.0.1.11"],
                                "type": ["tuple", ["string", "string"]]},
        },
        "root_module": modules_tree(state_resources),
    },
}

# Schemas, in the providers-schema format, and the implied types.

provider_schemas = {}
for (provider, mode, rtype), (version, b) in SCHEMAS.items():
    p = provider_schemas.setdefault(provider, {"provider": {"version": 0, "block": {"description_kind": "plain"}}})
    kind = "resource_schemas" if mode == "managed" else "data_source_schemas"
    p.setdefault(kind, {})[rtype] = {"version": version, "block": schema_json_block(b)}
schema_doc = {"format_version": "1.0", "provider_schemas": provider_schemas}

types = {
    ("data." if mode == "data" else "") + rtype: implied_type(b)
    for (_, mode, rtype), (_, b) in SCHEMAS.items()
}


def write(path, doc):
    with open(os.path.join(ROOT, path), "w") as f:
        f.write(dump(doc) + "\n")


os.makedirs(os.path.join(ROOT, "examples", "plan"), exist_ok=True)
write("examples/plan/plan.json", plan)
write("examples/plan/state.json", state)
write("examples/plan/schema.json", schema_doc)
write("tests/data/tfjson/types.json", types)
