#!/usr/bin/env python3
"""The OTF2 archives of ../shared/real-traces/otf2, drawn by tracefig and
held against what the OTF2 library itself reads (python3-otf2):

    otf2_real.py TRACEFIG TRACES_DIR TMP_DIR

For each archive: every back-end renders; the figure has one lane per
location with events, in rank order; each rank's busy time in the default
window is the union of its regions as the library's events give them;
TRACER_Loop (the 32-rank archive) is a window from the earliest start of
its first occurrence on any rank to the latest end; ping-pong's 16
messages are 16 arrows.  Prints "ok NAME" or "fail NAME: why" lines (the
protocol of multi.py)."""
import json
import os
import subprocess
import sys

try:
    import otf2
    import otf2.reader
    import otf2.events
except ImportError:
    print("SKIP otf2 archives (no python3-otf2)")
    sys.exit(0)

ARCHIVES = ["ping-pong-otf2", "sst-ember-otf2", "tracer-stencil4d-32"]


def library_view(anchor):
    """Per location (in rank order): its intervals [t0, t1] in us from the
    global offset, by the rule tracefig documents (a Leave closes the
    innermost open frame of its region; a region never left runs to the
    end); the first TRACER_Loop occurrence; the number of MPI sends."""
    with otf2.reader.open(anchor) as tr:
        clock = tr.definitions.clock_properties
        res, off = clock.timer_resolution, clock.global_offset
        us = lambda t: (t - off) * 1e6 / res
        locs = {}
        sends = 0
        end = 0.0
        for loc, ev in tr.events:
            st = locs.setdefault(loc, {"stack": [], "iv": [], "loop": None, "n": 0})
            st["n"] += 1
            t = us(ev.time)
            end = max(end, t)
            if isinstance(ev, otf2.events.Enter):
                st["stack"].append((ev.region, t))
            elif isinstance(ev, otf2.events.Leave):
                for i in range(len(st["stack"]) - 1, -1, -1):
                    if st["stack"][i][0] == ev.region:
                        r, t0 = st["stack"].pop(i)
                        st["iv"].append((t0, t))
                        if r.name == "TRACER_Loop" and st["loop"] is None:
                            st["loop"] = (t0, t)
                        break
            elif isinstance(ev, (otf2.events.MpiSend, otf2.events.MpiIsend)):
                sends += 1
        for st in locs.values():
            for _, t0 in st["stack"]:
                st["iv"].append((t0, end))
        return locs, sends


def union_ms(iv, lo, hi):
    total, cur = 0.0, None
    for a, b in sorted((max(a, lo), min(b, hi)) for a, b in iv):
        if b <= a:
            continue
        if cur and a <= cur[1]:
            cur[1] = max(cur[1], b)
        else:
            if cur:
                total += cur[1] - cur[0]
            cur = [a, b]
    if cur:
        total += cur[1] - cur[0]
    return total / 1000.0


def run(tracefig, args, out):
    p = subprocess.run([tracefig] + args + ["-o", out], capture_output=True, text=True)
    return p.returncode, p.stderr


def check(tracefig, traces, tmp, name):
    anchor = os.path.join(traces, "otf2", name, "traces.otf2")
    if not os.path.exists(anchor):
        print("SKIP otf2/%s (%s not found)" % (name, anchor))
        return
    d = os.path.join(tmp, "otf2-" + name)
    os.makedirs(d, exist_ok=True)
    formats = ["json", "svg", "tikz"]
    if b"pdf" in subprocess.run([tracefig, "--version"], capture_output=True).stdout:
        formats += ["pdf", "png"]
    bad = []
    for f in formats:
        rc, err = run(tracefig, [anchor, "--flows", "--format", f], os.path.join(d, "all." + f))
        if rc != 0:
            bad.append("%s: exit %d %s" % (f, rc, err.strip()[:200]))
    print(("fail otf2/%s/render: %s" % (name, "; ".join(bad))) if bad else "ok otf2/%s/render" % name)

    locs, sends = library_view(anchor)
    with open(os.path.join(d, "all.json")) as f:
        m = json.load(f)
    slices = [l for l in m["lanes"] if l["kind"] == "slices"]
    want = len([l for l in locs.values() if l["iv"]])
    if len(slices) == want and [l["pid"] for l in slices] == sorted(l["pid"] for l in slices):
        print("ok otf2/%s/lanes" % name)
    else:
        print("fail otf2/%s/lanes: %d lanes (%s), the library has %d locations with regions"
              % (name, len(slices), [l["label"] for l in slices][:4], want))
    # busy per lane in the default window, against the library's events
    lo, hi = m["window"]["start_us"], m["window"]["end_us"]
    lanes = [i for i, l in enumerate(m["lanes"]) if l["kind"] == "slices"]
    got = [m["stats"]["lanes"][i]["busy_ms"] for i in lanes]
    exp = [union_ms(st["iv"], lo, hi) for _, st in sorted(locs.items(), key=lambda x: x[0]._ref)
           if st["iv"]]
    off = [(a, round(b, 3)) for a, b in zip(got, exp) if abs(a - b) > 0.0015]
    if len(got) == len(exp) and not off:
        print("ok otf2/%s/busy" % name)
    else:
        print("fail otf2/%s/busy: tracefig vs library (ms): %s" % (name, off[:4]))
    if name == "ping-pong-otf2":
        n = len(m["arrows"])
        if n == 16 and sends == 16:
            print("ok otf2/%s/messages" % name)
        else:
            print("fail otf2/%s/messages: %d arrows, the library has %d sends" % (name, n, sends))
    if name == "tracer-stencil4d-32":
        rc, err = run(tracefig, [anchor, "--window-event", "TRACER_Loop", "--flows", "--format",
                                 "json"], os.path.join(d, "loop.json"))
        loops = [st["loop"] for st in locs.values() if st["loop"]]
        ok = rc == 0 and loops
        if ok:
            with open(os.path.join(d, "loop.json")) as f:
                w = json.load(f)["window"]
            lo, hi = min(a for a, _ in loops), max(b for _, b in loops)
            ok = abs(w["start_us"] - lo) < 0.01 and abs(w["end_us"] - hi) < 0.01
        print("ok otf2/%s/TRACER_Loop" % name if ok else
              "fail otf2/%s/TRACER_Loop: exit %d %s" % (name, rc, err.strip()[:200]))


def main():
    tracefig, traces, tmp = sys.argv[1:4]
    if not os.path.isdir(os.path.join(traces, "otf2")):
        print("SKIP otf2 archives (no otf2/ folder)")
        return 0
    for name in ARCHIVES:
        check(tracefig, traces, tmp, name)
    return 0


if __name__ == "__main__":
    sys.exit(main())
