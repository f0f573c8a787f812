#!/bin/sh
# tracefig's `--stats-compat hta` against Holistic Trace Analysis itself
# (issue 20).
#
#   run.sh TRACEFIG
#
# HTA is the package in ../shared/hta (from the repository root), run with
# Debian's python3-pandas, -plotly, -networkx, -psutil and -yaml (make
# check installs them as root): hta_numbers.py runs its TraceAnalysis on a
# trace and prints its numbers.  On every Kineto trace in
# ../shared/real-traces (hta-*.json.gz, kineto-resnet50-nw0) and on the
# project's own traces (tests/tools/gentrace.py hta --case ...: fractional
# timestamps, several ProfilerSteps, NCCL, sync rows, MTIA and ROCm names,
# string streams, no GPU work, and traces HTA raises on),
# `tracefig TRACE --stats-compat hta --stats-scope trace` must give HTA's
# kernel time, idle, compute and non-compute to 1 us and its overlap to
# 0.01 points, or, where HTA raises, fail with one line naming HTA's
# exception (compare_hta.py).  Several seeds of the generated cases.
# SKIP when ../shared/hta or pandas is missing: the project's own
# definitions are tested without HTA (tests/stats).
# Ends with "hta: N passed, N failed".
set -u
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
hta=$root/../shared/hta
real=$root/../shared/real-traces
py=/usr/bin/python3
pass=0
fail=0

if [ ! -f "$hta/hta/trace_analysis.py" ]; then
    echo "hta: SKIP ($hta not found: HTA itself is needed to compare with it)"
    echo "hta: 0 passed, 0 failed"
    exit 0
fi
if ! [ -x "$py" ] || ! "$py" -c 'import pandas, numpy, plotly, networkx, psutil, yaml' 2>/dev/null; then
    echo "hta: SKIP (HTA needs $py with python3-pandas, -plotly, -networkx, -psutil, -yaml)"
    echo "hta: 0 passed, 0 failed"
    exit 0
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tracefig-hta.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM

# one NAME FILE: HTA and tracefig on FILE, compared.
one() {
    name=$1
    file=$2
    PYTHONPATH=$hta "$py" "$here/hta_numbers.py" "$file" >"$tmp/hta.json" 2>"$tmp/hta.err"
    if grep -q '^SKIP' "$tmp/hta.json" 2>/dev/null; then
        echo "hta: $name: $(head -n 1 "$tmp/hta.json")"
        return
    fi
    if [ ! -s "$tmp/hta.json" ]; then
        fail=$((fail + 1))
        echo "FAIL hta: $name: hta_numbers.py: $(tail -n 2 "$tmp/hta.err")"
        return
    fi
    "$bin" "$file" --stats-compat hta --stats-scope trace --format json -o - \
        >"$tmp/model.json" 2>"$tmp/tf.err"
    rc=$?
    if msg=$("$py" "$here/compare_hta.py" "$tmp/hta.json" "$tmp/model.json" "$tmp/tf.err" "$rc"); then
        pass=$((pass + 1))
        echo "hta: $name: $msg"
    else
        fail=$((fail + 1))
        echo "FAIL hta: $name: $msg"
    fi
}

if [ -d "$real" ]; then
    for f in "$real"/hta-*.json.gz "$real"/kineto-resnet50-nw0.pt.trace.json.gz; do
        [ -f "$f" ] && one "$(basename "$f")" "$f"
    done
else
    echo "hta: real traces: SKIP ($real not found)"
fi

for case in kineto-frac kineto-int rocm mtia mtia-runfn nogpu strings err-corr err-noargs \
    err-stream-inf err-noname err-step; do
    seeds=1
    case $case in kineto-frac | rocm | mtia | strings) seeds="1 2 3" ;; esac
    for seed in $seeds; do
        out="$tmp/$case-$seed.json"
        if ! "$py" "$root/tests/tools/gentrace.py" hta --case "$case" --seed "$seed" --out "$out"; then
            fail=$((fail + 1))
            echo "FAIL hta: gentrace.py hta --case $case --seed $seed"
            continue
        fi
        one "gentrace $case seed $seed" "$out"
    done
done

# The window scope: HTA's rows clipped to the window, said in the JSON.
out="$tmp/kineto-frac-1.json"
if [ -f "$out" ] && "$bin" "$out" --stats-compat hta --format json -o - >"$tmp/w.json" 2>/dev/null &&
    "$py" -c 'import json,sys; s=json.load(open(sys.argv[1]))["stats"]; sys.exit(not (s["compat"] == "hta" and s["gpu_breakdown"]["scope"] == "window"))' "$tmp/w.json"; then
    pass=$((pass + 1))
else
    fail=$((fail + 1))
    echo "FAIL hta: --stats-compat hta --stats-scope window: no compat window breakdown"
fi
"$bin" "$out" --stats-compat htax -o "$tmp/x.svg" >/dev/null 2>&1
[ $? -eq 2 ] && pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL hta: --stats-compat htax not a usage error"; }

echo "hta: $pass passed, $fail failed"
[ $fail -eq 0 ]
