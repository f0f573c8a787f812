#!/usr/bin/python3
"""Makes varied timeline cases for the SVG tests with the reference's
generator (../shared/reference/gen_traces.py).

    /usr/bin/python3 tests/svg/gen_cases.py OUTDIR N [SEED]

Writes OUTDIR/gNN/{trace.json, breakdown.json?, args?}: v1 and v2 traces,
compute- and I/O-bound, small and three-digit candidate numbers, with and
without a breakdown, some with --legend_y, some with extra GPU streams
(buffer 2, 3).  The same SEED gives the same cases.
"""
import json
import os
import random
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
GEN = os.path.join(HERE, "..", "..", "..", "shared", "reference", "gen_traces.py")


def run(*args):
    subprocess.run([sys.executable, GEN] + [str(a) for a in args], check=True,
                   stdout=subprocess.DEVNULL)


def main():
    out, n = sys.argv[1], int(sys.argv[2])
    rng = random.Random(int(sys.argv[3]) if len(sys.argv) > 3 else 1)
    for i in range(n):
        d = os.path.join(out, "g%02d" % i)
        os.makedirs(d, exist_ok=True)
        version = rng.choice([1, 2, 2])
        start = rng.choice([1, 2, 5, 9, 37, 120, 998])
        total = start + rng.randint(6, 12)
        args = ["timeline", "--out", os.path.join(d, "trace.json"), "--seed",
                rng.randint(1, 10**6), "--version", version, "--num-candidates", total,
                "--start-candidate", start,
                "--compute-ms", rng.choice([20, 60, 150, 300, 600]),
                "--read-ms", rng.choice([15, 80, 250, 500]),
                "--stall-prob", rng.choice([0, 0.3, 0.8])]
        if version == 2:
            args += ["--trsm-host-prob", rng.choice([0, 0.5, 1.0])]
        run(*args)
        if rng.random() < 0.25:
            # Extra GPU streams: tracefig draws gpu2, gpu3 lanes.
            with open(os.path.join(d, "trace.json")) as f:
                t = json.load(f)
            for e in t["events"]:
                if e.get("lane") == "gpu" and e.get("candidate") is not None:
                    e["buffer"] = e["candidate"] % rng.choice([3, 4])
            with open(os.path.join(d, "trace.json"), "w") as f:
                json.dump(t, f)
        if rng.random() < 0.5:
            run("breakdown", "--out", os.path.join(d, "breakdown.json"), "--seed",
                rng.randint(1, 10**6), "--candidate", start,
                "--profile", rng.choice(["a100", "a100_slow_pcie", "h100", "h200",
                                         "pcie3_shared", "v100"]),
                *(["--cast"] if rng.random() < 0.5 else []))
        extra = []
        if rng.random() < 0.4:
            extra += ["--legend_y", rng.choice(["0.05", "0.1", "0.3", "0.6", "1.5"])]
        if rng.random() < 0.2:
            extra += ["--num_candidates", rng.choice(["1", "2", "5", "12"])]
        if extra:
            with open(os.path.join(d, "args"), "w") as f:
                f.write(" ".join(extra) + "\n")


main()
