#!/usr/bin/env python3
"""gen.py CASE DIR: a small trace for the busy-share suite (tests/busy/run.sh).

Writes DIR/trace.json and DIR/expect.json ({"CLASS": ms}: the time each
colour class covers in the window).  Every case but manynames has a
calibration lane: one slice of category "calib" over half the window, drawn
whole, so a figure's ink can be read back in any unit (pixels, points, TikZ
units).

Cases:
  gpu      a GPU stream of 10,000 kernels of 5 us with 15 us gaps, and four
           memcpys of 300 us where kernels pause
  mixed    a stream whose first slice is a rare category (a memset), then
           kernels of 3 us every 10 us and memcpys of 1 us every 50 us
  flame    a CPU thread: steps of 1 ms every 1.2 ms, in each 30 ops of 20 us
           with 10 us gaps, in each op two launches of 5 us
  names    colour by name: numbered names (ProfilerStep#0..4, layer.N.mlp) and
           names whose hashes collide, with their time in that order
  manynames  colour by name with more names than a legend holds (issue 38):
           a CPU lane of 170 thread names (category "sched") in slices of
           3 us every 10 us, and a traced_probes lane
  lone     lone thin slices (issue 38): a stream of six kernels of 2 ms and
           up to thirty kernels of 5 us, each alone far from the others, and
           a stream of lone memcpys of 3 us; DIR/lone.json gives each lone
           slice's start on the trace's clock (ms), per lane label
"""
import json
import sys


def meta(ev, pid, pname, tid, tname):
    ev.append({"ph": "M", "name": "process_name", "pid": pid, "args": {"name": pname}})
    ev.append({"ph": "M", "name": "thread_name", "pid": pid, "tid": tid, "args": {"name": tname}})


def x(ev, pid, tid, ts, dur, name, cat, exp, key=None):
    ev.append({"ph": "X", "pid": pid, "tid": tid, "ts": ts, "dur": dur, "name": name, "cat": cat})
    k = key if key is not None else cat
    exp[k] = exp.get(k, 0.0) + dur / 1000.0


def gpu(ev, exp):
    meta(ev, 1, "GPU 0", 7, "stream 7")
    pauses = [(40000 * j + 50000, 40000 * j + 50300) for j in range(4)]
    t = 0
    n = 0
    while n < 10000:
        if any(a - 5 < t < b for a, b in pauses):
            t += 20
            continue
        x(ev, 1, 7, t, 5, "kernel_%d" % (n % 3), "kernel", exp)
        t += 20
        n += 1
    for a, b in pauses:
        x(ev, 1, 7, a, b - a, "Memcpy HtoD", "gpu_memcpy", exp)
    return t


def mixed(ev, exp):
    meta(ev, 1, "GPU 0", 7, "stream 7")
    x(ev, 1, 7, 0, 2, "Memset", "gpu_memset", exp)
    t = 10
    for i in range(20000):
        if i % 5 == 4:
            x(ev, 1, 7, t, 1, "Memcpy DtoD", "gpu_memcpy", exp)
        else:
            x(ev, 1, 7, t, 3, "gemm", "kernel", exp)
        t += 10
    return t


def flame(ev, exp):
    meta(ev, 1, "python", 11, "main")
    t = 0
    for s in range(100):
        x(ev, 1, 11, t, 1000, "step", "step", exp)
        u = t + 50
        for o in range(30):
            x(ev, 1, 11, u, 20, "op_%d" % (o % 4), "cpu_op", exp)
            x(ev, 1, 11, u + 2, 5, "launch", "cuda_runtime", exp)
            x(ev, 1, 11, u + 10, 5, "launch", "cuda_runtime", exp)
            u += 30
        t += 1200
    return t


def names(ev, exp):
    meta(ev, 1, "python", 11, "main")
    t = 0
    # Most time first: the numbered steps (one class), then layers, then others.
    plan = [("ProfilerStep#%d" % i, 3000, "ProfilerStep#*") for i in range(5)]
    plan += [("layer.%d.mlp" % i, 1500, "layer.*.mlp") for i in range(4)]
    plan += [(n, 800 - 60 * k, n) for k, n in enumerate(
        ["Frontend", "Backend", "SyncChannel::SendWithTimeout", "SomeSlice", "Optimizer",
         "aten::add", "aten::mul", "aten::copy_"])]
    for name, dur, key in plan:
        x(ev, 1, 11, t, dur, name, "cpu_op", exp, key)
        t += dur + 100
    return t


def manynames(ev, exp):
    meta(ev, 1, "system", 1, "cpu 0")
    meta(ev, 1, "system", 2, "probes")
    names = ["proc" + chr(97 + i // 26) + chr(97 + i % 26) for i in range(170)]
    t = 0
    for i in range(4000):
        x(ev, 1, 1, t, 3, names[i % 170], "sched", exp, names[i % 170])
        t += 10
    x(ev, 1, 2, 0, 5000, "traced_probes", "traced_probes", exp)
    return t


LONE = {}


def lone(ev, exp):
    meta(ev, 1, "GPU 0", 7, "stream 7")
    meta(ev, 1, "GPU 0", 9, "stream 9")
    # The window is [0, 200 ms]: kernels of 2 ms at its ends and between.
    for t in (0, 39000, 78000, 117000, 156000, 198000):
        x(ev, 1, 7, t, 2000, "gemm", "kernel", exp)
    # Each lone slice in the middle of one of the model's fine bins (200 ms
    # / 2048), so it stays a slice of its own there (rules/chrome/rows.c).
    fine = 200000 / 2048.0
    at = [int((n + 0.5) * fine) for n in range(40, 2040, 62)]
    at = [t for t in at if all(abs(t - w - 1000) > 3000 for w in (0, 39000, 78000, 117000,
                                                                 156000, 198000))][:30]
    for t in at:
        x(ev, 1, 7, t, 5, "elementwise", "kernel", exp)
    LONE["GPU 0 / stream 7"] = [t / 1000.0 for t in at]
    mem = [int((n + 0.5) * fine) for n in range(70, 2040, 195)]
    for t in mem:
        x(ev, 1, 9, t, 3, "Memcpy HtoD", "gpu_memcpy", exp)
    LONE["GPU 0 / stream 9"] = [t / 1000.0 for t in mem]
    return 200000


def main():
    case, out = sys.argv[1], sys.argv[2]
    ev, exp = [], {}
    end = {"gpu": gpu, "mixed": mixed, "flame": flame, "names": names,
           "manynames": manynames, "lone": lone}[case](ev, exp)
    if case != "manynames":  # its names must keep the legend out
        meta(ev, 9, "calibration", 1, "calib")
        x(ev, 9, 1, end // 4, end // 2, "calib", "calib", exp)
    ev.sort(key=lambda e: (e.get("ts", -1), -e.get("dur", 0)))
    with open(out + "/trace.json", "w") as f:
        json.dump({"traceEvents": ev}, f)
    with open(out + "/expect.json", "w") as f:
        json.dump(exp, f, sort_keys=True)
    if LONE:
        with open(out + "/lone.json", "w") as f:
            json.dump(LONE, f, sort_keys=True)


main()
