"""gentrace_base.py - what gentrace.py's generators share: the seeded
random source (deviates with + - * / only), the buffered writer, JSON and
time formatting, argument types, a duration model, GPU properties.
"""

import argparse
import gzip
import json
import shutil
import sys

# ---------------------------------------------------------------------------
# Portable arithmetic
# ---------------------------------------------------------------------------

SQRT3 = 1.7320508075688772


def exp_(x):
    """exp(x) from a Taylor series after halving x: + - * / only."""
    k = 0
    while x > 0.25 or x < -0.25:
        x *= 0.5
        k += 1
    term = 1.0
    total = 1.0
    for i in range(1, 12):
        term = term * x / i
        total += term
    for _ in range(k):
        total *= total
    return total


class Rand:
    """Draws built on random.Random.random() alone (stable across versions)."""

    def __init__(self, seed):
        import random
        self.r = random.Random(seed).random

    def uniform(self, lo, hi):
        return lo + (hi - lo) * self.r()

    def chance(self, p):
        return self.r() < p

    def below(self, n):
        """An integer in [0, n)."""
        return min(int(self.r() * n), n - 1)

    def normal(self):
        """A standard normal deviate, approximated by four uniforms (|z| < 3.47)."""
        r = self.r
        return (r() + r() + r() + r() - 2.0) * SQRT3

    def lognormal(self, median, sigma):
        return median * exp_(sigma * self.normal())


# ---------------------------------------------------------------------------
# Output
# ---------------------------------------------------------------------------


class Out:
    """A buffered byte sink that counts what it is given (ASCII text)."""

    CHUNK = 1 << 20

    def __init__(self, path, gz=False):
        self.path = path
        if path in (None, "-"):
            self.raw = sys.stdout.buffer
            self.own = False
        else:
            self.raw = open(path, "wb")
            self.own = True
        self.gz = None
        self.sink = self.raw
        if gz:
            self.gz = gzip.GzipFile(filename="", mode="wb", fileobj=self.raw, mtime=0,
                                    compresslevel=6)
            self.sink = self.gz
        self.parts = []
        self.pending = 0
        self.count = 0

    def write(self, text):
        self.parts.append(text)
        n = len(text)
        self.pending += n
        self.count += n
        if self.pending >= self.CHUNK:
            self.flush()

    def flush(self):
        if self.parts:
            self.sink.write("".join(self.parts).encode("ascii"))
            self.parts = []
            self.pending = 0

    def copy_from(self, f, nbytes):
        """Append nbytes already counted elsewhere, from the binary file f."""
        self.flush()
        f.seek(0)
        shutil.copyfileobj(f, self.sink, 1 << 20)
        self.count += nbytes

    def close(self):
        self.flush()
        if self.gz is not None:
            self.gz.close()
        if self.own:
            self.raw.close()
        else:
            self.raw.flush()


def jstr(s):
    return json.dumps(s)


def us3(ns):
    """Integer nanoseconds as microseconds with three decimals."""
    return "%d.%03d" % divmod(ns, 1000)


def parse_size(text):
    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError("not a size in bytes: %r" % text)
    if not v >= 1:
        raise argparse.ArgumentTypeError("size must be at least 1 byte")
    return int(v)


def positive(text):
    v = int(text)
    if v < 1:
        raise argparse.ArgumentTypeError("must be at least 1")
    return v


def non_negative(text):
    v = int(text)
    if v < 0:
        raise argparse.ArgumentTypeError("must be 0 or more")
    return v


def probability(text):
    v = float(text)
    if not 0.0 <= v <= 1.0:
        raise argparse.ArgumentTypeError("must be in [0, 1]")
    return v


def positive_float(text):
    v = float(text)
    if not v > 0.0:
        raise argparse.ArgumentTypeError("must be > 0")
    return v


# ---------------------------------------------------------------------------
# The pipeline (timeline and pytorch share the time model)
# ---------------------------------------------------------------------------


class Durations:
    """Read and compute times in ms."""

    def __init__(self, rng, read_ms, compute_ms, jitter):
        self.rng = rng
        self.read_ms = read_ms
        self.compute_ms = compute_ms
        self.jitter = jitter
        self.contended = False

    def read(self):
        rng = self.rng
        if rng.chance(0.05):  # the file system changes mood now and then
            self.contended = not self.contended
        ms = rng.lognormal(self.read_ms, 1.5 * self.jitter)
        if self.contended:
            ms *= 1.9
        if rng.chance(0.08):
            ms *= rng.uniform(1.6, 2.5)
        return min(max(ms, 0.4 * self.read_ms), 4.0 * self.read_ms)

    def compute(self):
        ms = self.rng.lognormal(self.compute_ms, self.jitter)
        return min(max(ms, 0.5 * self.compute_ms), 2.0 * self.compute_ms)


# ---------------------------------------------------------------------------
# Chrome trace helpers (pytorch and kineto)
# ---------------------------------------------------------------------------


def gpu_properties(devices, compact):
    props = []
    for d in range(devices):
        p = {"id": d, "name": "NVIDIA H100 80GB HBM3", "totalGlobalMem": 85029158912,
             "computeMajor": 9, "computeMinor": 0, "maxThreadsPerBlock": 1024,
             "maxThreadsPerMultiprocessor": 2048, "regsPerBlock": 65536,
             "regsPerMultiprocessor": 65536, "warpSize": 32, "sharedMemPerBlock": 49152,
             "sharedMemPerMultiprocessor": 233472, "numSms": 132,
             "sharedMemPerBlockOptin": 232448}
        props.append("    " + json.dumps(p) if compact else
                     "    {\n" + ",\n".join('      "%s": %s' % (k, json.dumps(v))
                                            for k, v in p.items()) + "\n    }")
    return "[\n" + ",\n".join(props) + "\n  ]"


def epoch_ns(rng):
    """A start time in 2023-2024, in ns since the epoch."""
    return 1_672_531_200_000_000_000 + int(rng.r() * 6.0e16)
