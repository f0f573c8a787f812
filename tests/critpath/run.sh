#!/bin/sh
# --critical-path (issue 47).
#
#   run.sh TRACEFIG
#
# (a) The project's own traces (tests/tools/gentrace_critpath.py CASE): a
#     CPU-bound step, a GPU-bound step (context sync), a step bound by an
#     NCCL collective (stream sync), launch overhead and a kernel-to-kernel
#     gap, cudaEventSynchronize, cudaStreamWaitEvent across streams: each
#     with its expected path (events in order) and breakdown; a trace whose
#     kernels have no correlation ids fails with one line, a trace without
#     cuda_sync events gets one warning; the JSON model's critical_path and
#     "critical": true on the bars of the path; what the collector keeps
#     (TRACEFIG_CP_STATS) on a Kineto trace of many steps.
# (c) The path drawn: the bars of the path whole (the dense case: launches
#     among slices merged into busy shares, one past --depth), the rest
#     faded as --highlight fades it, arrows exactly for the path's edges
#     between two lanes, the span "critical path L"; SVG, JSON, PNG, TikZ
#     in pdflatex, lualatex and xelatex; with user marks; many crossings
#     (the launches case) merged into fewer arrows by the rule of
#     rules/critpath_marks.h.
# (d) Beyond HTA: Nsight Systems and rocpd (generated, then ../shared's).
# (b) HTA itself (../shared/hta, with python3-pandas and -networkx) on the
#     real Kineto traces in ../shared/real-traces and on (a)'s traces (and
#     on random ones, fuzz.py): the same events on the path (name, start,
#     duration) and each category's share within 0.1 points under
#     --stats-compat hta (compare.py).  SKIP without them.  By hand:
#     sweep.py (every instance of an annotation in a trace) and fuzz.py
#     (any seeds).
# Ends with "critpath: N passed, N failed".
set -u
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
gen=$root/tests/tools/gentrace_critpath.py
hta=$root/../shared/hta
real=$root/../shared/real-traces
py=/usr/bin/python3
[ -x "$py" ] || py=python3
pass=0
fail=0
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tracefig-critpath.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM

ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL critpath: $*"; }

# expect CASE 'LENGTH_MS' 'CATEGORY=PCT ...' 'EVENT,EVENT,...'
expect() {
    c=$1
    mkdir -p "$tmp/$c"
    "$py" "$gen" "$c" "$tmp/$c/t.json" || { bad "$c: generator"; return; }
    if ! "$bin" "$tmp/$c/t.json" --window-event 'ProfilerStep*' --critical-path --stats=csv \
        >"$tmp/$c.csv" 2>"$tmp/$c.err"; then
        bad "$c: $(head -n 1 "$tmp/$c.err")"
        return
    fi
    got_len=$(grep '^critical_path,,,length_ms,' "$tmp/$c.csv" | cut -d, -f5)
    [ "$got_len" = "$2" ] && ok || bad "$c: length $got_len ms, expected $2"
    for kv in $3; do
        k=${kv%%=*}
        v=${kv#*=}
        got=$(grep "^critical_path,$k,,pct," "$tmp/$c.csv" | cut -d, -f5)
        [ "$got" = "$v" ] && ok || bad "$c: $k $got %, expected $v"
    done
    got_ev=$(grep '^critical_event,.*,name,' "$tmp/$c.csv" | cut -d, -f5 | paste -sd, -)
    [ "$got_ev" = "$4" ] && ok || bad "$c: path $got_ev, expected $4"
}

expect cpu 1 'cpu_bound=100 gpu_compute_bound=0' 'aten::big,cudaLaunchKernel'
expect gpu 1.015 'cpu_bound=0.49 gpu_compute_bound=98.52 gpu_kernel_launch_overhead=0.99' \
    'aten::mm,cudaLaunchKernel,gemm'
expect comm 0.815 'cpu_bound=0.61 gpu_communication_bound=98.16 gpu_kernel_launch_overhead=1.23 gpu_compute_bound=0' \
    'c10d::allreduce_,cudaLaunchKernel,ncclDevKernel_AllReduce_Sum_f32'
expect gaps 0.2 'gpu_compute_bound=97.5 gpu_kernel_kernel_overhead=2.5 gpu_kernel_launch_overhead=0' 'k1,k2'
expect event-sync 0.42 'cpu_bound=0.48 gpu_compute_bound=95.24 gpu_kernel_launch_overhead=4.29' \
    'aten::one,cudaLaunchKernel,k1'
expect wait-event 0.59 'cpu_bound=0.34 gpu_compute_bound=94.92 gpu_kernel_launch_overhead=4.75' \
    'aten::pair,cudaLaunchKernel,k1,k2'

# PyTorch 1.8's categories (Operator, Runtime, Kernel): its operators are
# on the path (kineto-resnet50-nw0's step is bound by its data loader).
expect old 1 'cpu_bound=100 gpu_compute_bound=0' 'aten::big,cudaLaunchKernel'

# ac2g flows join the kernel and the sync of the GPU-bound step when the
# args have no correlation ids: the same path and breakdown.
expect ac2g 1.015 'cpu_bound=0.49 gpu_compute_bound=98.52 gpu_kernel_launch_overhead=0.99' \
    'aten::mm,cudaLaunchKernel,gemm'

# The sync edges themselves: event-sync ends at cudaEventSynchronize's end
# only through a sync edge; wait-event's k1 -> k2 is one (JSON edges).
c=wait-event
if "$bin" "$tmp/$c/t.json" --window-event 'ProfilerStep*' --critical-path -f json -o "$tmp/$c.json" 2>/dev/null &&
    "$py" - "$tmp/$c.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
c = d["critical_path"]
names = [e["name"] for e in c["events"]]
k1, k2 = names.index("k1"), names.index("k2")
assert {"type": "sync", "from": "%d.end" % k1, "to": "%d.start" % k2, "weight": 0} in c["edges"], c["edges"]
assert c["unit"] == "ms" and set(c["breakdown"]) == {"cpu_bound", "gpu_compute_bound", "gpu_communication_bound", "gpu_kernel_kernel_overhead", "gpu_kernel_launch_overhead", "data_loading"}
crit = sorted(b["name"] for b in d["bars"] if b.get("critical"))
assert crit == sorted(names), crit
PY
then ok; else bad "wait-event: JSON critical_path (sync edge k1 -> k2, breakdown, critical bars)"; fi

# No correlation ids: one line, exit 1, nothing written.
mkdir -p "$tmp/nocorr"
"$py" "$gen" nocorr "$tmp/nocorr/t.json"
"$bin" "$tmp/nocorr/t.json" --window-event 'ProfilerStep*' --critical-path -o "$tmp/nocorr.svg" \
    >/dev/null 2>"$tmp/nocorr.err"
rc=$?
if [ $rc -eq 1 ] && [ ! -e "$tmp/nocorr.svg" ] && [ "$(wc -l <"$tmp/nocorr.err")" -eq 1 ] &&
    grep -q 't.json: no kernel in the window is joined to a launch: the trace has no correlation ids or ac2g flows$' "$tmp/nocorr.err"; then
    ok
else
    bad "nocorr: exit $rc, $(cat "$tmp/nocorr.err")"
fi
# No cuda_sync events: one warning, the path still given.
mkdir -p "$tmp/nosync"
"$py" "$gen" nosync "$tmp/nosync/t.json"
if "$bin" "$tmp/nosync/t.json" --window-event 'ProfilerStep*' --critical-path --stats=csv \
    >"$tmp/nosync.csv" 2>"$tmp/nosync.err" && [ "$(grep -c warning "$tmp/nosync.err")" -eq 1 ] &&
    grep -q '^critical_path,,,length_ms,0.115$' "$tmp/nosync.csv"; then
    ok
else
    bad "nosync: $(cat "$tmp/nosync.err")"
fi
# A window without GPU work (HTA's cpu_only trace; HTA raises an
# AssertionError there): one line, exit 1, nothing written.
t=$real/hta-cpu-only.pt.trace.json.gz
if [ -f "$t" ]; then
    "$bin" "$t" --window-event 'ProfilerStep*' --critical-path -o "$tmp/cpu-only.svg" \
        >/dev/null 2>"$tmp/cpu-only.err"
    rc=$?
    if [ $rc -eq 1 ] && [ ! -e "$tmp/cpu-only.svg" ] && [ "$(wc -l <"$tmp/cpu-only.err")" -eq 1 ] &&
        grep -q 'no GPU kernel, memcpy or memset in the window' "$tmp/cpu-only.err"; then
        ok
    else
        bad "cpu-only: exit $rc, $(cat "$tmp/cpu-only.err")"
    fi
else
    echo "critpath: SKIP cpu-only ($t not found)"
fi
# HTA's instance order under --stats-compat hta (rules/critpath_inst.c):
# --occurrence 2 is HTA's instance 1, the GPU's annotation of step 1 (its
# load-time filter drops step 2, the last), by a glob or by a name the
# step names hold; without --stats-compat hta it is step 2, the second in
# time; a third instance there is not.
mkdir -p "$tmp/instances"
"$py" "$gen" instances "$tmp/instances/t.json"
win() { "$bin" "$tmp/instances/t.json" --critical-path --stats=csv "$@" 2>"$tmp/win.err" |
    grep '^window,,,window_ms,' | cut -d, -f5; }
[ "$(win --window-event 'ProfilerStep*' --occurrence 2 --stats-compat hta)" = 1.1 ] && ok ||
    bad "instances: --occurrence 2 under --stats-compat hta is not HTA's instance 1 (1.1 ms)"
[ "$(win --window-event ProfilerStep --occurrence 2 --stats-compat hta)" = 1.1 ] && ok ||
    bad "instances: the name ProfilerStep (held by the step names) is not HTA's annotation"
[ "$(win --window-event 'ProfilerStep*' --occurrence 2)" = 0.9 ] && ok ||
    bad "instances: without --stats-compat hta --occurrence 2 is not step 2 (0.9 ms)"
if ! "$bin" "$tmp/instances/t.json" --critical-path --stats-compat hta --window-event ProfilerStep \
    --occurrence 3 -o "$tmp/i3.svg" 2>"$tmp/i3.err" && [ ! -e "$tmp/i3.svg" ] &&
    [ "$(wc -l <"$tmp/i3.err")" -eq 1 ] &&
    grep -q 'only 2 instances of "ProfilerStep" as HTA counts them' "$tmp/i3.err"; then
    ok
else
    bad "instances: a third instance: $(cat "$tmp/i3.err")"
fi
# The path's window is HTA's instance whatever --pad (which pads the
# figure): the same path as without it.
[ "$("$bin" "$tmp/instances/t.json" --critical-path --stats=csv --window-event ProfilerStep \
    --occurrence 2 --stats-compat hta --pad 50 2>/dev/null | grep '^critical_path,,,length_ms,')" = \
    "critical_path,,,length_ms,0.05" ] && ok ||
    bad "instances: --pad 50 changes the path under --stats-compat hta"
# A window without GPU work in a trace with some: under --stats-compat hta
# the path of its CPU operators (HTA's); one with nothing: one line.
mkdir -p "$tmp/cpuwin"
"$py" "$gen" cpuwin "$tmp/cpuwin/t.json"
if "$bin" "$tmp/cpuwin/t.json" --window-event '## zero_grad ##' --critical-path --stats-compat hta \
    --stats=csv >"$tmp/cpuwin.csv" 2>/dev/null &&
    grep -q '^critical_path,,,length_ms,0.08$' "$tmp/cpuwin.csv" &&
    grep -q '^critical_path,cpu_bound,,pct,100$' "$tmp/cpuwin.csv" &&
    [ "$(grep '^critical_event,.*,name,' "$tmp/cpuwin.csv" | cut -d, -f5 | paste -sd, -)" = aten::zero_,aten::fill_ ]; then
    ok
else
    bad "cpuwin: no CPU-only path under --stats-compat hta"
fi
"$bin" "$tmp/cpuwin/t.json" --window-event '## empty ##' --critical-path --stats-compat hta \
    -o "$tmp/empty.svg" >/dev/null 2>"$tmp/empty.err"
rc=$?
if [ $rc -eq 1 ] && [ ! -e "$tmp/empty.svg" ] && [ "$(wc -l <"$tmp/empty.err")" -eq 1 ] &&
    grep -q 'no CPU operator or GPU work starts in the window: the critical path is empty$' "$tmp/empty.err"; then
    ok
else
    bad "cpuwin: empty window: exit $rc, $(cat "$tmp/empty.err")"
fi
# Without --critical-path nothing changes: no critical_path key.
if "$bin" "$tmp/gpu/t.json" -f json -o - 2>/dev/null | grep -q critical; then
    bad "a figure without --critical-path mentions it"
else
    ok
fi

# What the collector keeps (TRACEFIG_CP_STATS, no timing): on a Kineto
# trace of many steps (gentrace.py kineto), every complete event is kept
# or only counted; pass 1 keeps no CPU operator or Python function (only
# the runtime calls, GPU rows, steps and syncs the window's graph may need
# from anywhere), and the look before pass 2 keeps no more rows than the
# window has events.  (The runtime calls and GPU rows of the whole trace
# are still kept: the queue lengths and synchronisation lookups read them.)
t=$tmp/steps.json
if "$py" "$root/tests/tools/gentrace.py" kineto --size 3e6 --out "$t" &&
    TRACEFIG_CP_STATS=1 "$bin" "$t" --window-event 'ProfilerStep*' --occurrence 2 \
        --critical-path --stats=csv >/dev/null 2>"$tmp/steps.err"; then
    if "$py" - "$t" "$tmp/steps.err" <<'PY'
import json, re, sys
ev = [e for e in json.load(open(sys.argv[1]))["traceEvents"]
      if e.get("ph") == "X" and "dur" in e and e.get("name")]
m = re.search(r"critpath rows: kept (\d+), pass1 (\d+), look (\d+), counted (\d+)",
              open(sys.argv[2]).read())
kept, pass1, look, counted = map(int, m.groups())
steps = sorted((e for e in ev if e["name"].startswith("ProfilerStep#")
                and e.get("cat") == "user_annotation"), key=lambda e: e["ts"])
w0, w1 = steps[1]["ts"], steps[1]["ts"] + steps[1]["dur"]
window = sum(1 for e in ev if w0 <= e["ts"] <= w1)
ops = sum(1 for e in ev if e.get("cat") in ("cpu_op", "python_function"))
bad = []
if kept + counted != len(ev):
    bad.append("kept %d + counted %d != %d events" % (kept, counted, len(ev)))
if pass1 > len(ev) - ops:
    bad.append("pass 1 kept %d rows, more than the %d events not operators" % (pass1, len(ev) - ops))
if not 0 < look <= window:
    bad.append("the look kept %d rows, the window has %d events" % (look, window))
if len(steps) < 10:
    bad.append("only %d steps" % len(steps))
print("; ".join(bad))
sys.exit(1 if bad else 0)
PY
    then ok; else bad "rows kept: $(cat "$tmp/steps.err" | head -n 2)"; fi
else
    bad "rows kept: $(head -n 1 "$tmp/steps.err" 2>/dev/null)"
fi

# (c) The path drawn (--critical-path on a figure): the path's bars whole
#     and in colour, the rest faded as --highlight fades it, an arrow for
#     each edge of the path between two lanes, the span "critical path L"
#     above the plot; every back-end.
# check DESCRIPTION COMMAND
check() {
    if sh -c "$2" >"$tmp/check.out" 2>&1; then ok; else bad "$1: $(head -c 300 "$tmp/check.out")"; fi
}
export bin tmp py
c=wait-event
"$bin" "$tmp/$c/t.json" --window-event 'ProfilerStep*' --critical-path -o "$tmp/d-$c.json" \
    -o "$tmp/d-$c.svg" 2>/dev/null
# The model: arrows exactly for the path's edges whose events are on two
# lanes (their bars'), each from the edge's time to the edge's time; the
# span's text the length in the axis unit; critical bars kept, the rest faded.
cat >"$tmp/model.py" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
c = d["critical_path"]
ev = c["events"]
bars = d["bars"]
k = {"ms": 1, "µs": 1e3, "us": 1e3, "s": 1e-3, "ns": 1e6}[d["axis"]["unit"]]
def bar_of(e):
    for b in bars:
        if b.get("critical") and b["name"] == e["name"] and abs(b["x0"] - e["start_ms"] * k) < 1.001e-3 * k:
            return b
    return None
lane = [bar_of(e) for e in ev]
assert all(lane), [e["name"] for e, b in zip(ev, lane) if not b]
want = []
for e in c["edges"]:
    i, ei = e["from"].split(".")
    j, ej = e["to"].split(".")
    a, b = lane[int(i)], lane[int(j)]
    if a["lane"] != b["lane"]:
        want.append((a["lane"], b["lane"]))
got = [(a["from"]["lane"], a["to"]["lane"]) for a in d["arrows"] if a.get("critical")]
assert sorted(got) == sorted(want) and got, (got, want)
spans = [m for m in d.get("marks", []) if m["text"].startswith("critical path ")]
assert len(spans) == 1, d.get("marks")
k = {"ms": 1, "µs": 1e3, "us": 1e3, "s": 1e-3, "ns": 1e6}[spans[0]["unit"]]
num = float(spans[0]["text"].split()[2])
assert abs(num - c["length"] * k) <= 0.006 * c["length"] * k, (spans[0]["text"], c["length"])
for b in bars:
    assert b.get("faded") == (not b.get("critical", False)), b
print(len(got))
PY
check "$c: JSON arrows exactly for the path's cross-lane edges, the span's length, critical bars kept and the rest faded" \
    '"$py" "$tmp/model.py" "$tmp/d-wait-event.json" >"$tmp/n-arrows" && test "$(cat "$tmp/n-arrows")" = 2'
check "$c: SVG: one tf-critical arrow per model arrow, data-critical on each path bar, the span's text" \
    'test "$(grep -c "class=\"tf-critical\"" "$tmp/d-wait-event.svg")" = "$(cat "$tmp/n-arrows")" &&
     test "$(grep -c "data-critical=\"true\"" "$tmp/d-wait-event.svg")" = 4 &&
     grep -q ">critical path 590 µs<" "$tmp/d-wait-event.svg"'
# The fading is --highlight's: the gpu case's path (aten::mm, its launch,
# gemm) kept by name gives the same bar colours.
c=gpu
check "$c: the bars' colours and categories equal --highlight's keeping the path's events" \
    '"$bin" "$tmp/gpu/t.json" --window-event "ProfilerStep*" --critical-path -o "$tmp/cp.json" &&
     "$bin" "$tmp/gpu/t.json" --window-event "ProfilerStep*" --highlight aten::mm --highlight cudaLaunchKernel \
        --highlight gemm -o "$tmp/hl.json" &&
     "$py" - "$tmp/cp.json" "$tmp/hl.json" <<'"'"'PY'"'"'
import json, sys
def bars(p):
    d = json.load(open(p))
    cats = {c["name"]: c for c in d["categories"]}
    return sorted((b["name"], b["x0"], b["category"], b["faded"], json.dumps(cats.get(b["category"]), sort_keys=True)) for b in d["bars"])
a, b = bars(sys.argv[1]), bars(sys.argv[2])
assert a and a == b, (a, b)
assert sum(1 for x in a if not x[3]) == 3, a
PY'
# A path event among slices merged into busy shares is drawn whole: the
# dense case's 151 launches of 0.4 us (each beside a Python function and a
# kernel as short), and the one nested deeper than --depth 3.
mkdir -p "$tmp/dense"
"$py" "$gen" dense "$tmp/dense/t.json"
check "dense: without --critical-path the launches are merged into busy shares (the model)" \
    '"$bin" "$tmp/dense/t.json" --window-event "ProfilerStep*" --depth 3 -f json -o - |
     "$py" -c "import json,sys; d=json.load(sys.stdin); assert any(b[\"shape\"] == \"dense\" and b[\"name\"] == \"cuda_runtime\" for b in d[\"bars\"])"'
check "dense: with it each launch, and aten::deep past --depth 3, is a bar of its own, critical, not faded" \
    '"$bin" "$tmp/dense/t.json" --window-event "ProfilerStep*" --depth 3 --critical-path -f json -o - |
     "$py" -c "
import json,sys
d = json.load(sys.stdin)
crit = [b for b in d[\"bars\"] if b.get(\"critical\")]
names = sorted(set(b[\"name\"] for b in crit))
assert names == [\"aten::big\", \"aten::deep\", \"aten::mid\", \"cudaLaunchKernel\"], names
assert sum(b[\"name\"] == \"cudaLaunchKernel\" for b in crit) == 151
assert all(b.get(\"shape\", \"slice\") == \"slice\" and not b[\"faded\"] for b in crit)
assert any(b[\"shape\"] == \"dense\" and b[\"faded\"] for b in d[\"bars\"])
"'
for w in 3.3in 7in; do
    check "dense at $w: the SVG draws the 154 path bars whole (slices, not shares) over faded shares" \
        '"$bin" "$tmp/dense/t.json" --window-event "ProfilerStep*" --depth 3 --critical-path --width '$w' \
            -o "$tmp/dense.svg" &&
         test "$(grep -c "data-critical=\"true\"" "$tmp/dense.svg")" = 154 &&
         test "$(grep -c "<g class=\"tf-bar tf-cudaLaunchKernel\"[^>]*data-critical" "$tmp/dense.svg")" = 151 &&
         grep -q "data-busy=[^>]*data-faded=\"true\"" "$tmp/dense.svg"'
done
check "dense at --height 1.5in (4 rows drawn): the launch in aten::deep still drawn, in the last row, and no note says it is not" \
    '"$bin" "$tmp/dense/t.json" --window-event "ProfilerStep*" --critical-path --width 3.3in --height 1.5in \
        -o "$tmp/dense-h.svg" 2>"$tmp/dense-h.err" &&
     test "$(grep -c "data-critical=\"true\"" "$tmp/dense-h.svg")" = 154 && ! grep -q "not drawn" "$tmp/dense-h.err"'
# Many crossings: a loop of launches and stream syncs, 30 rounds 8 us apart
# then 10 rounds 46 us apart in a 2 ms window.  Every crossing edge has an
# arrow between the same lanes within 1/80 of the window (both ends), no
# two arrows drawn are that close, and the wide rounds keep one each.
mkdir -p "$tmp/launches"
"$py" "$gen" launches "$tmp/launches/t.json"
check "launches: an arrow for every crossing within 1/80 of the window, none closer, close ones merged" \
    '"$bin" "$tmp/launches/t.json" --window-event "ProfilerStep*" --critical-path -o "$tmp/launches.json" &&
     "$py" - "$tmp/launches.json" <<'"'"'PY'"'"'
import json, sys
d = json.load(open(sys.argv[1]))
c = d["critical_path"]
k = {"ms": 1, "µs": 1e3}[d["axis"]["unit"]]
near = d["axis"]["span"] / 80
lane = {l["label"]: i for i, l in enumerate(d["lanes"])}  # events name lanes as the figure does
want = []
for e in c["edges"]:
    a, b = c["events"][int(e["from"].split(".")[0])], c["events"][int(e["to"].split(".")[0])]
    if lane[a["lane"]] == lane[b["lane"]]:
        continue
    x0 = (a["start_ms"] + (a["dur_ms"] if e["from"].endswith("end") else 0)) * k
    x1 = (b["start_ms"] + (b["dur_ms"] if e["to"].endswith("end") else 0)) * k
    want.append((lane[a["lane"]], lane[b["lane"]], x0, x1))
got = [(a["from"]["lane"], a["to"]["lane"], a["from"]["x"], a["to"]["x"]) for a in d["arrows"] if a.get("critical")]
assert len(want) == 79 and 20 <= len(got) < len(want), (len(want), len(got))
for w in want:
    assert any(g[:2] == w[:2] and abs(g[2] - w[2]) < near + 1e-6 and abs(g[3] - w[3]) < near + 1e-6 for g in got), w
for i, g in enumerate(got):
    for h in got[i + 1:]:
        if h[:2] == g[:2]:
            assert not (abs(h[2] - g[2]) < near and abs(h[3] - g[3]) < near), (g, h)
            break
PY'
# HTA's annotation is a part of the names: with --critical-path,
# --window-event ProfilerStep (no event has that name) takes the events
# whose names contain it, so --occurrence 2 is the second step, as the glob;
# a figure without the path still asks for a name.
# Two steps: wait-event's, then a copy 10 ms later with its ids moved.
"$py" - "$tmp/wait-event/t.json" "$tmp/two.json" <<'PY'
import copy, json, sys
d = json.load(open(sys.argv[1]))
evs = d["traceEvents"]
more = []
for e in evs:
    if e.get("ph") == "M":
        continue
    e = copy.deepcopy(e)
    e["ts"] = e["ts"] + 10000
    e["name"] = e["name"].replace("ProfilerStep#1", "ProfilerStep#2")
    a = e.get("args", {})
    for k in ("correlation", "External id"):
        if isinstance(a.get(k), int):
            a[k] += 100000
    if "id" in e and isinstance(e["id"], int):
        e["id"] += 100000
    more.append(e)
d["traceEvents"] = evs + more
json.dump(d, open(sys.argv[2], "w"))
PY
check "--window-event ProfilerStep with --critical-path: HTA's annotation, the steps by part of their names" \
    '"$bin" "$tmp/two.json" --window-event ProfilerStep --occurrence 2 --critical-path \
        --stats=csv >"$tmp/sub.csv" &&
     "$bin" "$tmp/two.json" --window-event "ProfilerStep*" --occurrence 2 --critical-path \
        --stats=csv >"$tmp/glob.csv" &&
     grep -q "^critical_path,,,length_ms," "$tmp/sub.csv" && cmp -s "$tmp/sub.csv" "$tmp/glob.csv" &&
     "$bin" "$tmp/two.json" --window-event ProfilerStep --critical-path --stats=csv >"$tmp/sub1.csv" &&
     a=$(grep -m1 "^critical_event,.*,ts_us," "$tmp/sub1.csv" | cut -d, -f5) &&
     b=$(grep -m1 "^critical_event,.*,ts_us," "$tmp/sub.csv" | cut -d, -f5) &&
     test "$(awk -v a="$a" -v b="$b" "BEGIN { print b - a }")" = 10000 &&
     ! "$bin" "$tmp/two.json" --window-event ProfilerStep -o "$tmp/sub.svg" 2>"$tmp/sub.err" &&
     grep -q "nearest: \"ProfilerStep#" "$tmp/sub.err" && test ! -e "$tmp/sub.svg"'
# HTA's CRITICAL_PATH_ADD_ZERO_WEIGHT_LAUNCH_EDGE=1 under --stats-compat
# hta: gaps' second kernel, reached by the kernel-kernel edge, also gets a
# launch edge of weight 0, and the path (HTA's 202 us, not 200) takes it
# through the CPU; without hta the switch is not read.
check "CRITICAL_PATH_ADD_ZERO_WEIGHT_LAUNCH_EDGE=1: HTA's zero-weight launch edges under --stats-compat hta only" \
    'z() { CRITICAL_PATH_ADD_ZERO_WEIGHT_LAUNCH_EDGE=$1 "$bin" "$tmp/gaps/t.json" --window-event ProfilerStep \
          --critical-path $2 --stats=csv | grep "^critical_path,,,length_ms," | cut -d, -f5; } &&
     test "$(z 0 "--stats-compat hta")" = 0.2 && test "$(z 1 "--stats-compat hta")" = 0.202 &&
     test "$(z 1 "--stats-compat none")" = "$(z 0 "--stats-compat none")"'
# With user marks: a span of their own and a highlight keep working.
check "with --span and --highlight: both spans, bars kept by either" \
    '"$bin" "$tmp/wait-event/t.json" --window-event "ProfilerStep*" --critical-path --span "k1..k2=both" \
        --highlight "Context*" -f json -o - | "$py" -c "
import json,sys
d = json.load(sys.stdin)
t = sorted(m[\"text\"] for m in d[\"marks\"] if m[\"kind\"] == \"span\")
assert t == [\"both\", \"critical path 590 µs\"], t
kept = sorted(b[\"name\"] for b in d[\"bars\"] if not b[\"faded\"])
assert kept == [\"Context Sync\", \"aten::pair\", \"cudaLaunchKernel\", \"k1\", \"k2\"], kept
"'
check "PNG at 3.3in is drawn" \
    '"$bin" "$tmp/wait-event/t.json" --window-event "ProfilerStep*" --critical-path --width 3.3in \
        -o "$tmp/d.png" 2>"$tmp/png.err" && test -s "$tmp/d.png" || grep -q "cairo" "$tmp/png.err"'
"$bin" "$tmp/wait-event/t.json" --window-event 'ProfilerStep*' --critical-path -o "$tmp/cp.tex"
check "TikZ: one \\tracefigcriticalarrow per arrow, the style tracefig/critical" \
    'test "$(grep -c "^\\\\tracefigcriticalarrow{" "$tmp/cp.tex")" = 2 &&
     grep -q "tracefigdefaultstyle{critical}" "$tmp/cp.tex"'
cat >"$tmp/doc.tex" <<'TEX'
\documentclass[twocolumn]{article}
\usepackage{tikz}
\begin{document}
\begin{figure}\input{cp.tex}\caption{The critical path.}\end{figure}
\end{document}
TEX
for eng in pdflatex lualatex xelatex; do
    if command -v $eng >/dev/null 2>&1 && command -v pdftotext >/dev/null 2>&1; then
        check "TikZ in $eng: compiles, the span typeset" \
            '(cd "$tmp" && rm -f doc.pdf && timeout 300 '$eng' -interaction=nonstopmode -halt-on-error doc.tex \
                >/dev/null 2>&1) && pdftotext "$tmp/doc.pdf" - | grep -q "critical path 590"'
    else
        echo "critpath: SKIP TikZ in $eng (not installed)"
    fi
done

# (d) Beyond HTA: an Nsight Systems export and a rocpd database (gennsys.py
# and genrocpd.py critpath) whose runtime calls are joined to their kernels
# by correlation id and whose synchronisation calls, named, join the GPU
# back: the stream sync waits for k0, the device sync for k2, the event
# sync for k3, and k2 waits for k1 (cudaStreamWaitEvent / hipStreamWaitEvent).
sync_path() { # FILE ARGS...: the path's events and edges (JSON), checked
    f=$1
    shift
    "$bin" "$f" "$@" --critical-path -f json -o "$f.json" 2>"$f.err" &&
        "$py" - "$f.json" <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))["critical_path"]
names = [e["name"] for e in c["events"]]
calls = [n for n in names if n.startswith(("cuda", "hip"))]
want = ["LaunchKernel", "StreamSynchronize", "LaunchKernel", "DeviceSynchronize",
        "LaunchKernel", "EventSynchronize", "Free"]
assert [n[4:] if n.startswith("cuda") else n[3:] for n in calls] == want, names
assert abs(c["length"] - 8.035) < 1e-9, c["length"]
sync = [(e["from"], e["to"]) for e in c["edges"] if e["type"] == "sync"]
ix = {n: i for i, n in enumerate(names)}
def at(pfx):
    return [i for i, n in enumerate(names) if n[4:].startswith(pfx) or n[3:].startswith(pfx)][0]
k = [i for i, n in enumerate(names) if not n.startswith(("cuda", "hip"))]
assert len(k) == 4, names
assert ("%d.end" % k[0], "%d.end" % at("StreamSynchronize")) in sync, sync
assert ("%d.end" % k[1], "%d.start" % k[2]) in sync, sync
assert ("%d.end" % k[2], "%d.end" % at("DeviceSynchronize")) in sync, sync
assert ("%d.end" % k[3], "%d.end" % at("EventSynchronize")) in sync, sync
assert sum(1 for e in c["edges"] if e["type"] == "launch") == 3, c["edges"]
PY
}
if "$py" -c 'import sqlite3' 2>/dev/null; then
    "$py" "$root/tests/tools/gennsys.py" critpath --out "$tmp/cp.sqlite" &&
        sync_path "$tmp/cp.sqlite" --window-event step && ok ||
        bad "nsys: the path through the synchronisation calls ($(cat "$tmp/cp.sqlite.err"))"
    "$py" "$root/tests/tools/genrocpd.py" critpath --out "$tmp/cp.rocpd.db" &&
        sync_path "$tmp/cp.rocpd.db" && ok ||
        bad "rocpd: the path through the synchronisation calls ($(cat "$tmp/cp.rocpd.db.err"))"
    # no warning about cuda_sync: the calls are the synchronisation events
    if grep -q warning "$tmp/cp.sqlite.err" "$tmp/cp.rocpd.db.err"; then
        bad "nsys/rocpd: a warning: $(cat "$tmp/cp.sqlite.err" "$tmp/cp.rocpd.db.err")"
    else
        ok
    fi
else
    echo "critpath: SKIP nsys/rocpd ($py has no sqlite3)"
fi
# The real exports of ../shared print and draw their path.
for t in "$real"/nsys/*.sqlite "$real"/rocpd/*.rocpd.db; do
    [ -f "$t" ] || { echo "critpath: SKIP real nsys/rocpd ($real not found)"; break; }
    b=$(basename "$t")
    if "$bin" "$t" --critical-path --stats=csv >"$tmp/$b.csv" 2>/dev/null &&
        grep -q '^critical_path,,,length_ms,[0-9]' "$tmp/$b.csv" &&
        [ "$(grep -c '^critical_event,.*,name,' "$tmp/$b.csv")" -gt 0 ] &&
        "$bin" "$t" --critical-path -o "$tmp/$b.svg" 2>/dev/null && [ -s "$tmp/$b.svg" ]; then
        ok
        echo "critpath: $b: $(grep '^critical_path,,,length_ms' "$tmp/$b.csv" | cut -d, -f5) ms, $(grep -c '^critical_event,.*,name,' "$tmp/$b.csv") events"
    else
        bad "$b: no path printed or drawn"
    fi
done

# The whole of a trace of several ProfilerStep#N names under --stats-compat
# hta: the path stays out of the last step, whose rows HTA leaves out (the
# collector keeps the step names from the whole trace, not the window's).
t=$real/hta-diff-test.json.gz
if [ -f "$t" ]; then
    check "--stats-compat hta, whole trace: the path ends before the last step" \
        '"$bin" "'"$t"'" --stats-compat hta --critical-path -f json -o - 2>/dev/null |
         "$py" -c "
import json, sys
m = json.load(sys.stdin)
steps = [b[\"x0\"] for b in m[\"bars\"] if (b.get(\"name\") or \"\").startswith(\"ProfilerStep#\")]
ev = m[\"critical_path\"][\"events\"]
assert len(steps) > 1 and ev, (steps, len(ev))
last = max(steps)
assert max(e[\"start_ms\"] for e in ev) < last, (max(e[\"start_ms\"] for e in ev), last)
"'
else
    echo "critpath: SKIP whole-trace HTA filter ($t not found)"
fi

# (b) HTA itself.
if [ ! -f "$hta/hta/trace_analysis.py" ]; then
    echo "critpath: SKIP HTA comparison ($hta not found)"
elif ! "$py" -c 'import pandas, numpy, networkx, plotly, psutil, yaml' 2>/dev/null; then
    echo "critpath: SKIP HTA comparison (HTA needs $py with pandas, networkx, plotly, psutil, yaml)"
else
    # hta_one NAME FILE [ANNOTATION INSTANCE]: HTA's annotation and instance
    # (default ProfilerStep, 0) against --window-event ANNOTATION
    # --occurrence INSTANCE+1: the annotation as HTA takes it, a part of
    # the names ("ProfilerStep" for ProfilerStep#5).
    hta_one() {
        d="$tmp/hta-$1"
        mkdir -p "$d"
        ln -sf "$2" "$d/"
        an=${3:-ProfilerStep}
        inst=${4:-0}
        we=$an
        PYTHONPATH=$hta "$py" "$here/hta_path.py" "$d" "$an" "$inst" >"$tmp/$1.hta" 2>"$tmp/$1.htaerr"
        if [ ! -s "$tmp/$1.hta" ] || grep -q '^FAIL' "$tmp/$1.hta"; then
            bad "$1: HTA gives no path ($(tail -n 1 "$tmp/$1.htaerr"))"
            return
        fi
        "$bin" "$2" --window-event "$we" --occurrence $((inst + 1)) --critical-path \
            --stats-compat hta --stats=csv >"$tmp/$1.csv" 2>/dev/null
        if r=$("$py" "$here/compare.py" "$tmp/$1.hta" "$tmp/$1.csv"); then
            ok
            echo "critpath: $1: $r"
        else
            bad "$1: $r"
        fi
    }
    for c in cpu gpu comm gaps event-sync wait-event; do
        hta_one "gen-$c" "$tmp/$c/t.json"
    done
    # HTA's switch for a causal launch edge of weight 0 (its own tests set
    # it), read by both.
    CRITICAL_PATH_ADD_ZERO_WEIGHT_LAUNCH_EDGE=1 hta_one gen-gaps-zero-launch "$tmp/gaps/t.json"
    # Whole-microsecond starts with 0.4 us launches: pandas reads the ts
    # column as integers, so HTA rounds nothing (rounded, the launches would
    # last 0 and join nothing).
    hta_one gen-dense "$tmp/dense/t.json"
    # HTA's instance 1 (the GPU's annotation, rules/critpath_inst.c); a
    # window of CPU operators only.
    hta_one gen-instances "$tmp/instances/t.json" ProfilerStep 1
    hta_one gen-cpuwin "$tmp/cpuwin/t.json" '## zero_grad ##' 0
    # an instance of no length: HTA's window [t, t] (drawn 1 us wide)
    hta_one gen-cpuwin-instant "$tmp/cpuwin/t.json" '## instant ##' 0
    # Random traces (gen_random.py, by seed: threads, streams, the sync
    # kinds, NCCL kernels, nesting, memcpy/memset, zero lengths, times on a
    # 1, 5 or 10 us grid so that they tie, overlapping kernels, a second
    # step, user annotations and the GPU's step annotations): seeds on
    # which tracefig once differed from HTA (equal times not in HTA's numpy
    # order, its event record / stream wait launches), and bigger ones.
    for fz in "5 6 10 14 21 29 33 35 50 57 58 87 119" "--knobs grid=1 92" "--knobs ops=25,grid=10 1000-1002"; do
        # shellcheck disable=SC2086
        if PYTHONPATH=$hta "$py" "$here/fuzz.py" "$bin" $fz >"$tmp/fuzz.out" 2>&1; then
            ok
            echo "critpath: fuzz $fz: $(tail -n 1 "$tmp/fuzz.out")"
        else
            bad "fuzz $fz: $(grep -v ' ok \| HTA' "$tmp/fuzz.out" | head -n 3)"
        fi
    done
    if [ -d "$real" ]; then
        # hta-diff-test: HTA leaves out the last step's rows (several
        # ProfilerStep#N names) and joins a CUDA graph's launch to its last
        # kernel only.
        for t in hta-diff-control hta-diff-test hta-amd-mi250 hta-dist-rank0 hta-dist-rank1; do
            [ -f "$real/$t.json.gz" ] && hta_one "$t" "$real/$t.json.gz"
        done
        # HTA's instance 1 of ProfilerStep there: the GPU's annotation of
        # step 1 (the filter drops step 2), not the second step in time.
        [ -f "$real/hta-amd-mi250.json.gz" ] &&
            hta_one hta-amd-mi250-1 "$real/hta-amd-mi250.json.gz" ProfilerStep 1
        # HTA's own critical-path test trace (simple_add): the annotation is
        # also a glob ("[...]"), taken as the name it is; its instance 1
        # starts inside instance 0.
        t=hta-simple-add.pt.trace
        [ -f "$real/$t.json.gz" ] &&
            hta_one simple-add "$real/$t.json.gz" '[param|pytorch.model.alex_net|0|0|0|measure|forward]' 1
        # "forward" held by the annotations and by kernel names, in the
        # file's order: instance 4 is a kernel, whose window holds CPU
        # operators only.
        [ -f "$real/$t.json.gz" ] && hta_one simple-add-forward-4 "$real/$t.json.gz" forward 4
    else
        echo "critpath: SKIP real traces ($real not found)"
    fi
fi

echo "critpath: $pass passed, $fail failed"
[ $fail -eq 0 ]
