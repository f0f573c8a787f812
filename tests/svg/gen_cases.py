#!/usr/bin/python3
"""Makes varied timeline cases for the SVG tests with the project's
generator (tests/tools/gentrace.py).

    /usr/bin/python3 tests/svg/gen_cases.py OUTDIR N [SEED]

Writes OUTDIR/gNN/{trace.json, breakdown.json?, args?}: v1 and v2 traces,
compute- and I/O-bound, small and three-digit candidate numbers, recorded
from the window or from the start, with and without a breakdown, some with
--legend_y, some with extra GPU streams (3 or 4 buffers).  The same SEED
gives the same cases.
"""
import os
import random
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
GEN = os.path.join(HERE, "..", "tools", "gentrace.py")
GPUS = ["a100", "a100-x8-shared-pcie", "h100", "h200", "l40s", "v100"]


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
                "--record-from", rng.choice([start, start, 0]),
                "--compute-ms", rng.choice([20, 60, 150, 300, 600]),
                "--read-ms", rng.choice([15, 80, 250, 500]),
                "--stall-prob", rng.choice([0, 0.3, 0.8])]
        if version == 2:
            args += ["--trsm-prob", rng.choice([0, 0.5, 1.0])]
            if rng.random() < 0.3:
                args += ["--record-stalls"]
        if rng.random() < 0.25:
            # Extra GPU streams: tracefig draws gpu2, gpu3 lanes.
            args += ["--buffers", rng.choice([3, 4])]
        run(*args)
        if rng.random() < 0.5:
            run("breakdown", "--out", os.path.join(d, "breakdown.json"), "--seed",
                rng.randint(1, 10**6), "--candidate", start, "--gpu", rng.choice(GPUS),
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
