#!/usr/bin/env python3
"""Writes vectors/plan/ctywire-responses.json: Terraform's checks of a provider's
PlanResourceChange, ApplyResourceChange and ReadResource responses that surround
objchange's (its resource-instance node's own checks), with Terraform's diagnostics word
for word.

The expectations are written here by hand from Terraform v1.15.5's
internal/terraform/node_resource_abstract_instance.go (plan, apply, refresh,
getRequiredReplaces), internal/plans/objchange and internal/lang/format; the cases whose
`verified` field names a DEMO_MISBEHAVE switch are also what a real Terraform 1.15.5
printed in examples/terraform-provider-demo's end-to-end suite
(misbehaving_providers_are_judged_as_terraform_judges_them,
a_state_of_the_wrong_type_is_refused_by_both). Nothing here runs ctywire.

Run from the repository root: python3 vectors/gen/plan_responses.py
"""

import json
import pathlib
import struct

ADDRESS = "demo_thing.x"
PROVIDER = "example.com/ctywire/demo"
# Terraform names the provider two ways: by its source address (%q of an
# addrs.Provider) and by its configuration (%q of an AbsProviderConfig).
SOURCE = json.dumps(PROVIDER)
CONFIG = json.dumps(f'provider["{PROVIDER}"]')
BUG = "This is a bug in the provider, which should be reported in the provider's own issue tracker."

SCHEMA = {
    "attributes": {
        "name": {"type": "string", "required": True},
        "size": {"type": "number", "optional": True},
        "id": {"type": "string", "computed": True},
        "secret": {"type": "string", "optional": True, "sensitive": True},
        "password": {"type": "string", "optional": True, "write_only": True},
    },
    "block_types": {
        "disk": {
            "nesting_mode": "list",
            "block": {
                "attributes": {
                    "size": {"type": "number", "required": True},
                    "kind": {"type": "string", "optional": True, "computed": True},
                }
            },
        },
        "network": {
            "nesting_mode": "set",
            "block": {"attributes": {"name": {"type": "string", "required": True}}},
        },
    },
}

UNKNOWN = {"$unknown": {}}


def thing(**changes):
    """The demo's thing as the e2e suite configures it, applied; `changes` replace
    attributes (`disk_kind` the first disk's kind)."""
    value = {
        "name": "a",
        "size": 2,
        "id": "thing-a",
        "secret": "s",
        "password": None,
        "disk": [{"size": 1, "kind": "standard"}],
        "network": [{"name": "n1"}, {"name": "n2"}],
    }
    kind = changes.pop("disk_kind", "standard")
    value["disk"] = [{"size": 1, "kind": kind}]
    value.update(changes)
    return value


CONFIG_VALUE = thing(id=None, disk_kind=None)
PLANNED_CREATE = thing(id=UNKNOWN, disk_kind=UNKNOWN)


def msgpack(value):
    """MessagePack of a JSON-like value as go-cty writes an object (attributes in name
    order); enough for the wrong-type payloads below."""
    out = bytearray()

    def item(v):
        if v is None:
            out.append(0xC0)
        elif isinstance(v, bool):
            out.append(0xC3 if v else 0xC2)
        elif isinstance(v, int):
            assert 0 <= v < 128
            out.append(v)
        elif isinstance(v, str):
            b = v.encode()
            assert len(b) < 32
            out.append(0xA0 | len(b))
            out.extend(b)
        elif isinstance(v, list):
            assert len(v) < 16
            out.append(0x90 | len(v))
            for e in v:
                item(e)
        elif isinstance(v, dict):
            assert len(v) < 16
            out.append(0x80 | len(v))
            for k in sorted(v):
                item(k)
                item(v[k])
        else:
            raise TypeError(v)

    item(value)
    return out.hex()


def found(rule, path, text, summary, detail):
    """One problem: its rule, its path (ctywire's syntax; None where it holds a set
    element), objchange's text where the problem is objchange's (None for the checks
    Terraform words only in the diagnostic), and the diagnostic."""
    f = {"rule": rule}
    if path is not None:
        f["path"] = path
    if text is not None:
        f["terraform_text"] = text
    f["summary"] = summary
    f["detail"] = detail
    return f


def unknown_after_apply(path):
    return found(
        "unknown-after-apply",
        path,
        None,
        "Provider returned invalid result object after apply",
        f"After the apply operation, the provider still indicated an unknown value for {ADDRESS}{path}. "
        "All values must be known after apply, so this is always a bug in the provider and should be "
        "reported in the provider's own repository. Terraform will still save the other known object "
        "values in the state.",
    )


def write_only(path, terraform_path, when, summary):
    return found(
        "write-only-returned",
        path,
        None,
        summary,
        f"Provider {CONFIG} returned a value for the write-only attribute \"{ADDRESS}{terraform_path}\" {when}. "
        f"Write-only attributes cannot be read back from the provider. {BUG}",
    )


def inconsistent(rule, path, text):
    return found(
        rule,
        path,
        text,
        "Provider produced inconsistent result after apply",
        f"When applying changes to {ADDRESS}, provider {CONFIG} produced an unexpected new value: {text}.\n\n{BUG}",
    )


def invalid_plan(rule, path, text):
    """objchange.AssertPlanValid's problems, as plan() reports them
    (tfdiags.FormatErrorPrefixed: the address, the path, ": ", the message)."""
    message = text.split(": ", 1)[1] if path else text
    return found(
        rule,
        path,
        text,
        "Provider produced invalid plan",
        f"Provider {SOURCE} planned an invalid value for {ADDRESS}{path}: {message}.\n\n{BUG}",
    )


def replace_nowhere(path, go_path):
    return found(
        "requires-replace-nowhere",
        path,
        None,
        "Provider produced invalid plan",
        f"Provider {SOURCE} has indicated \"requires replacement\" on {ADDRESS} for a non-existent "
        f"attribute path {go_path}.\n\n{BUG}",
    )


def case(name, source, check, expected, verified=None, note=None, **values):
    c = {"name": name, "source": source}
    if note:
        c["note"] = note
    if verified:
        c["verified"] = verified
    c["check"] = check
    c["schema"] = SCHEMA
    c.update(values)
    if isinstance(expected, dict) and "kind" in expected:
        c["decode_error"] = expected
    else:
        c["found"] = expected
    return c


NODE = "terraform v1.15.5 internal/terraform/node_resource_abstract_instance.go"
E2E = "Terraform 1.15.5, e2e suite, DEMO_MISBEHAVE="

WRONG_SIZE = thing()
WRONG_SIZE["size"] = "big"
WRONG_SIZE_ERROR = {
    "value": "new",
    "kind": "InvalidValue",
    "path": ".size",
    "terraform_summary": '["size"]: number is required',
}

CASES = [
    # ---- ApplyResourceChange: apply()
    case(
        "an apply that keeps the plan",
        f"{NODE} apply",
        "apply",
        [],
        planned=PLANNED_CREATE,
        new=thing(),
    ),
    case(
        "unknowns left after apply, one error each, in cty.Walk's order",
        f"{NODE} apply (IsWhollyKnown, cty.Walk)",
        "apply",
        [unknown_after_apply(".disk[0].kind"), unknown_after_apply(".id")],
        verified=E2E + "apply-leaves-unknown",
        planned=PLANNED_CREATE,
        new=PLANNED_CREATE,
    ),
    case(
        "an unknown left in a set element stops the checks before objchange's",
        f"{NODE} apply (IsWhollyKnown before AssertObjectCompatible)",
        "apply",
        [
            found(
                "unknown-after-apply",
                None,
                None,
                "Provider returned invalid result object after apply",
                f"After the apply operation, the provider still indicated an unknown value for {ADDRESS}.network[...].name. "
                "All values must be known after apply, so this is always a bug in the provider and should be "
                "reported in the provider's own repository. Terraform will still save the other known object "
                "values in the state.",
            )
        ],
        note="`name` changed too, but Terraform checks the plan only once the new value is wholly known. "
        "A set element's path names an object element `[...]` (format.CtyPath).",
        planned=thing(network=[{"name": "n1"}]),
        new=thing(name="b", network=[{"name": UNKNOWN}]),
    ),
    case(
        "a null object after a create",
        f"{NODE} apply (AssertObjectCompatible, before the null-object check it makes unreachable)",
        "apply",
        [inconsistent("disappeared", "", "Root object was present, but now absent")],
        verified=E2E + "apply-returns-null",
        note="Terraform's own 'returned a null object' error comes only when no other error did, and "
        "AssertObjectCompatible always reports a planned object that became null first.",
        planned=PLANNED_CREATE,
        new=None,
    ),
    case(
        "a new value of the wrong type does not decode",
        f"{NODE} apply; internal/plugin6/grpc_provider.go decodeDynamicValue",
        "apply",
        WRONG_SIZE_ERROR,
        verified=E2E + "apply-wrong-type",
        note="Terraform decodes the payload with the schema's type, so TestConformance never sees a value of "
        "another type: go-cty's decoder refuses it, and Terraform prints the decoder's error as the summary "
        "(go-cty names the attribute as an index). ctywire's decoder refuses it at the same attribute, "
        "in its own words.",
        planned=PLANNED_CREATE,
        new_msgpack=msgpack(WRONG_SIZE),
    ),
    case(
        "a write-only value returned after apply is reported before unknowns",
        f"{NODE} apply (ValidateWriteOnlyAttributes)",
        "apply",
        [write_only(".password", ".password", "after apply", "Provider produced invalid object")],
        planned=PLANNED_CREATE,
        new=thing(password="p", id=UNKNOWN),
    ),
    case(
        "a known planned value changed by apply",
        f"{NODE} apply; objchange.AssertObjectCompatible",
        "apply",
        [inconsistent("changed", ".size", ".size: was cty.NumberIntVal(2), but now cty.NumberIntVal(3)")],
        verified=E2E + "apply-changes-planned",
        planned=PLANNED_CREATE,
        new=thing(size=3),
    ),
    case(
        "a sensitive planned value changed by apply",
        f"{NODE} apply; objchange.AssertObjectCompatible",
        "apply",
        [inconsistent("sensitive-changed", ".secret", ".secret: inconsistent values for sensitive attribute")],
        verified=E2E + "apply-changes-secret",
        planned=PLANNED_CREATE,
        new=thing(secret="t"),
    ),
    case(
        "a destroy that returns the object",
        f"{NODE} apply (change.Action == plans.Delete && !newVal.IsNull())",
        "apply",
        [
            found(
                "not-null-after-destroy",
                "",
                None,
                "Provider returned invalid result object after apply",
                f"After applying a Delete plan, the provider returned a non-null object for {ADDRESS}. "
                "Destroying should always produce a null value, so this is always a bug in the provider and "
                "should be reported in the provider's own repository. Terraform will still save this errant "
                "object in the state for debugging and recovery.",
            )
        ],
        verified=E2E + "destroy-returns-object",
        planned=None,
        new=thing(),
    ),
    case(
        "a destroy that returns null",
        f"{NODE} apply",
        "apply",
        [],
        planned=None,
        new=None,
    ),
    # ---- ReadResource / ImportResourceState: refresh()
    case(
        "a refresh that finds the object as it is",
        f"{NODE} refresh",
        "read",
        [],
        new=thing(),
    ),
    case(
        "a refresh that finds the object gone",
        f"{NODE} refresh",
        "read",
        [],
        new=None,
    ),
    case(
        "unknowns after a refresh, one error without a path",
        f"{NODE} refresh (IsWhollyKnown)",
        "read",
        [
            found(
                "unknown-after-read",
                ".disk[0].kind",
                None,
                "Provider produced invalid object",
                f"Provider {SOURCE} planned an invalid value for {ADDRESS} during refresh: "
                f"The returned state contains unknown values.\n\n{BUG}",
            )
        ],
        verified=E2E + "read-leaves-unknown",
        note="Terraform names no path; `path` is the first unknown, ctywire's addition.",
        new=thing(id=UNKNOWN, disk_kind=UNKNOWN),
    ),
    case(
        "a refreshed value of the wrong type does not decode",
        f"{NODE} refresh; internal/plugin6/grpc_provider.go decodeDynamicValue",
        "read",
        WRONG_SIZE_ERROR,
        note="As after apply: the decoder refuses it before TestConformance could.",
        new_msgpack=msgpack(WRONG_SIZE),
    ),
    case(
        "a write-only value returned by a refresh",
        f"{NODE} refresh (ValidateWriteOnlyAttributes)",
        "read",
        [write_only(".password", ".password", "during refresh", "Provider produced invalid object")],
        new=thing(password="p"),
    ),
    # ---- PlanResourceChange: plan() and getRequiredReplaces
    case(
        "a null planned object for a create",
        f"{NODE} plan; objchange.AssertPlanValid",
        "plan",
        [invalid_plan("planned-absent", "", "planned for absence but config wants existence")],
        verified=E2E + "plan-returns-null",
        note="TestConformance passes (a null object has the schema's type), so the check that fails is "
        "AssertPlanValid's first, at the root; FormatErrorPrefixed puts the address before it.",
        prior=None,
        config=CONFIG_VALUE,
        planned=None,
    ),
    case(
        "a null planned object for an update",
        f"{NODE} plan; objchange.AssertPlanValid",
        "plan",
        [invalid_plan("planned-absent", "", "planned for absence but config wants existence")],
        verified=E2E + "plan-returns-null",
        prior=thing(),
        config=CONFIG_VALUE,
        planned=None,
    ),
    case(
        "a planned value of the wrong type does not decode",
        f"{NODE} plan; internal/plugin6/grpc_provider.go decodeDynamicValue",
        "plan",
        dict(WRONG_SIZE_ERROR, value="planned"),
        verified=E2E + "plan-wrong-type",
        note="As after apply: TestConformance in plan() never fails for a payload decoded with the schema's type.",
        prior=None,
        config=CONFIG_VALUE,
        planned_msgpack=msgpack(WRONG_SIZE),
    ),
    case(
        "a write-only value planned",
        f"{NODE} plan (ValidateWriteOnlyAttributes, before AssertPlanValid)",
        "plan",
        [write_only(".password", ".password", "during planning", "Provider produced invalid plan")],
        note="The plan also sets `password` against a null configuration, but Terraform stops at the write-only check.",
        prior=None,
        config=CONFIG_VALUE,
        planned=thing(password="p", id=UNKNOWN, disk_kind=UNKNOWN),
    ),
    case(
        "a configured value changed by the plan",
        f"{NODE} plan; objchange.AssertPlanValid",
        "plan",
        [invalid_plan("config-mismatch", ".size", ".size: planned value cty.NumberIntVal(3) does not match config value cty.NumberIntVal(2)")],
        verified=E2E + "plan-changes-config",
        prior=None,
        config=CONFIG_VALUE,
        planned=thing(size=3, id=UNKNOWN, disk_kind=UNKNOWN),
    ),
    case(
        "requires replacement on an attribute that does not exist",
        f"{NODE} getRequiredReplaces",
        "requires_replace",
        [replace_nowhere(".nmae", 'cty.Path{cty.GetAttrStep{Name:"nmae"}}')],
        verified=E2E + "plan-replaces-nowhere",
        prior=thing(),
        planned=thing(name="b", id=UNKNOWN),
        requires_replace=[".name", ".nmae"],
    ),
    case(
        "requires replacement on a block index that does not exist",
        f"{NODE} getRequiredReplaces",
        "requires_replace",
        [
            replace_nowhere(
                ".disk[3].size",
                'cty.Path{cty.GetAttrStep{Name:"disk"}, cty.IndexStep{Key:cty.NumberIntVal(3)}, cty.GetAttrStep{Name:"size"}}',
            )
        ],
        prior=thing(),
        planned=thing(),
        requires_replace=[".disk[0].size", ".disk[3].size"],
    ),
    case(
        "requires replacement paths of a create are not looked at",
        f"{NODE} getRequiredReplaces (a null prior value)",
        "requires_replace",
        [],
        prior=None,
        planned=PLANNED_CREATE,
        requires_replace=[".nmae"],
    ),
]


def main():
    names = [c["name"] for c in CASES]
    assert len(names) == len(set(names)), "case names must be unique"
    doc = {
        "description": "Terraform's checks of a provider's PlanResourceChange, ApplyResourceChange and "
        "ReadResource responses around objchange's (its resource-instance node's), with the diagnostics "
        f"Terraform prints for resource {ADDRESS} of provider {PROVIDER}.",
        "source": "this project's cases, expectations written by hand from Terraform v1.15.5 "
        "(vectors/gen/plan_responses.py); `verified` cases also checked against a real Terraform 1.15.5",
        "address": ADDRESS,
        "provider": PROVIDER,
        "cases": CASES,
    }
    out = pathlib.Path(__file__).resolve().parents[1] / "plan" / "ctywire-responses.json"
    out.write_text(json.dumps(doc, indent=1, ensure_ascii=False) + "\n")
    print(f"{out}: {len(CASES)} cases")


if __name__ == "__main__":
    main()
