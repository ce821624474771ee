#!/usr/bin/env python3
"""Time from a provider's process start to its handshake line, as go-plugin's client sees
it: `python3 scripts/handshake-time.py target/release/terraform-provider-demo`.

Launches the provider 21 times without TLS and 21 times with AutoMTLS (a P-521 client
certificate like Terraform's, made with openssl), reads the first line of its stdout,
kills it, and prints the median and fastest times, and the median CPU time (user + system,
from wait4) each process used in all: on a loaded machine the wall time includes waiting
for a core, the CPU time does not (and the process does nothing after its handshake but
wait for Terraform)."""

import os
import statistics
import subprocess
import sys
import tempfile
import time

COOKIE = "d602bf8f470bc67ca7faa0386276bbdd4330efaf76d1a219cb4d6991ca9872b2"


def client_certificate(directory):
    key, cert = os.path.join(directory, "key.pem"), os.path.join(directory, "cert.pem")
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-521",
         "-nodes", "-subj", "/CN=localhost", "-days", "1", "-keyout", key, "-out", cert],
        check=True, capture_output=True)
    with open(cert) as f:
        return f.read()


def main():
    binary = sys.argv[1]
    with tempfile.TemporaryDirectory() as directory:
        cert = client_certificate(directory)
    for label, extra in [("plaintext", {}), ("AutoMTLS", {"PLUGIN_CLIENT_CERT": cert})]:
        env = dict(os.environ, TF_PLUGIN_MAGIC_COOKIE=COOKIE, PLUGIN_PROTOCOL_VERSIONS="5,6", **extra)
        samples, cpu = [], []
        for _ in range(21):
            start = time.perf_counter()
            process = subprocess.Popen([binary], env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
            line = process.stdout.readline()
            samples.append(time.perf_counter() - start)
            process.kill()
            _, _, usage = os.wait4(process.pid, 0)
            process.returncode = -9
            process.stdout.close()
            cpu.append(usage.ru_utime + usage.ru_stime)
        print(f"{label}: median {statistics.median(samples) * 1000:.2f} ms, "
              f"fastest {min(samples) * 1000:.2f} ms, CPU time median "
              f"{statistics.median(cpu) * 1000:.1f} ms; line: {line[:40]!r}")


if __name__ == "__main__":
    main()
