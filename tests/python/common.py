"""Shared by the Python suites: the command line to compare with, the
repository's examples, and a unittest run that ends "NAME: N passed, N failed"."""
import os
import subprocess
import sys
import unittest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
BIN = os.environ.get("TRACEFIG_BIN", os.path.join(ROOT, "build", "tracefig"))
V2 = os.path.join(ROOT, "examples", "overlap_timeline_v2.json")
BREAKDOWN = os.path.join(ROOT, "examples", "candidate_breakdown.json")
KINETO = os.path.join(ROOT, "examples", "kineto_trace.json")
GZIP = os.path.join(ROOT, "tests", "golden", "chrome_gzip", "trace.json.gz")
EXTS = {"svg": "svg", "tikz": "tex", "pdf": "pdf", "png": "png", "json": "json"}


def cli(*args, cwd=None):
    """Runs the command line; (exit status, stdout bytes, stderr text)."""
    p = subprocess.run([BIN, *args], capture_output=True, cwd=cwd, check=False)
    return p.returncode, p.stdout, p.stderr.decode()


def cli_outputs(tmp, trace_args, opt_args):
    """Every format the command line writes for these arguments: {fmt: bytes}."""
    outs = []
    for fmt, ext in EXTS.items():
        outs += ["-o", os.path.join(tmp, f"cli.{ext}")]
    rc, _, err = cli(*trace_args, *opt_args, *outs)
    if rc != 0:
        raise AssertionError(f"the command line failed ({rc}): {err}")
    got = {}
    for fmt, ext in EXTS.items():
        with open(os.path.join(tmp, f"cli.{ext}"), "rb") as f:
            got[fmt] = f.read()
    rc, got["stats"], err = cli(*trace_args, *opt_args, "--stats")
    if rc != 0:
        raise AssertionError(f"the command line's --stats failed ({rc}): {err}")
    return got


def main(name):
    suite = unittest.defaultTestLoader.loadTestsFromModule(sys.modules["__main__"])
    result = unittest.TextTestRunner(verbosity=2, stream=sys.stdout).run(suite)
    failed = len(result.failures) + len(result.errors)
    skipped = len(result.skipped)
    passed = max(0, result.testsRun - failed - skipped)
    for test, why in result.skipped:
        print(f"{name}: SKIP {test.id()}: {why}")
    print(f"{name}: {passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)
