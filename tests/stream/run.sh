#!/bin/sh
# Streaming vs whole-document loads: on medium inputs (a few MB, generated
# with tests/tools/gentrace.py) both load paths must give the same figure
# (--format json), the same warnings and the same exit status; errors (a
# syntax error far from the window, a type error in an event the window
# does not use) must be the same located message.  Also through a pipe,
# which the streaming path reads once.
#
#   run.sh TRACEFIG
#
# Needs /usr/bin/python3 for the generator; says SKIP without it.
set -u
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
root=$(cd "$(dirname "$0")/../.." && pwd)
gen="$root/tests/tools/gentrace.py"
py=/usr/bin/python3
if [ ! -x "$py" ]; then
    echo "stream: SKIP (needs $py for tests/tools/gentrace.py)"
    echo "stream: 0 passed, 0 failed"
    exit 0
fi
tmp=${TMPDIR:-/tmp}/tracefig-stream.$$
mkdir -p "$tmp"
trap 'rm -rf "$tmp"' EXIT INT TERM

pass=0
fail=0

# same_rc RC NAME FILE [ARGS...]: both paths agree (output, stderr, status)
# and the status is RC.
same_rc() {
    want=$1
    name=$2
    file=$3
    shift 3
    TRACEFIG_LOAD=whole "$bin" "$file" "$@" --format json -o - >"$tmp/w.out" 2>"$tmp/w.err"
    wrc=$?
    TRACEFIG_LOAD=stream "$bin" "$file" "$@" --format json -o - >"$tmp/s.out" 2>"$tmp/s.err"
    src=$?
    if [ $wrc -eq "$want" ] && [ $wrc -eq $src ] && cmp -s "$tmp/w.out" "$tmp/s.out" &&
        cmp -s "$tmp/w.err" "$tmp/s.err"; then
        pass=$((pass + 1))
    else
        echo "FAIL stream $name: whole rc=$wrc, stream rc=$src (want $want)"
        head -c 300 "$tmp/w.err"
        diff "$tmp/w.out" "$tmp/s.out" | head -10
        diff "$tmp/w.err" "$tmp/s.err" | head -10
        fail=$((fail + 1))
    fi
}

# same NAME FILE [ARGS...]: both paths draw the same figure.
same() { same_rc 0 "$@"; }

# piped NAME FILE [ARGS...]: standard input gives what the file gives.
piped() {
    name=$1
    file=$2
    shift 2
    "$bin" "$file" "$@" --format json -o - >"$tmp/f.out" 2>/dev/null
    frc=$?
    "$bin" - "$@" --format json -o - <"$file" >"$tmp/p.out" 2>/dev/null
    prc=$?
    if [ $frc -eq 0 ] && [ $prc -eq 0 ] && cmp -s "$tmp/f.out" "$tmp/p.out"; then
        pass=$((pass + 1))
    else
        echo "FAIL stream $name (stdin): file rc=$frc, stdin rc=$prc"
        diff "$tmp/f.out" "$tmp/p.out" | head -10
        fail=$((fail + 1))
    fi
}

# fails NAME FILE PATTERN: both paths fail with exit 1 and a message
# matching PATTERN (and, by `same`, the same message).
fails() {
    name=$1
    file=$2
    pattern=$3
    TRACEFIG_LOAD=stream "$bin" "$file" --format json -o - >/dev/null 2>"$tmp/e.err"
    rc=$?
    if [ $rc -eq 1 ] && grep -q "$pattern" "$tmp/e.err"; then
        pass=$((pass + 1))
    else
        echo "FAIL stream $name: rc=$rc, stderr: $(cat "$tmp/e.err")"
        fail=$((fail + 1))
    fi
    same_rc 1 "$name" "$file"
}

# check NAME COMMAND...: one check of the inputs themselves.
check() {
    name=$1
    shift
    if "$@"; then
        pass=$((pass + 1))
    else
        echo "FAIL stream $name"
        fail=$((fail + 1))
    fi
}

differ() { ! cmp -s "$1" "$2"; }
nonempty() {
    for f in "$@"; do [ -s "$f" ] || return 1; done
}

# meta_last FILE X: FILE's top-level "start_candidate": X (2-space indent)
# comes after the start of its events array, as the profiler writes it.
meta_last() { sed -n '/"events": \[/,$p' "$1" | grep -q "^  \"start_candidate\": $2,\$"; }

# g ARGS...: run the generator; a failure is a failed check, not a silent skip.
g() {
    if ! "$py" "$gen" "$@" 2>"$tmp/gen.err"; then
        echo "FAIL stream: gentrace.py $*: $(head -c 300 "$tmp/gen.err")"
        fail=$((fail + 1))
    fi
}

# The generator: the same arguments give the same bytes, another seed others.
g timeline --version 2 --num-candidates 40 --stall-prob 0.3 --seed 3 --out "$tmp/d1.json"
g timeline --version 2 --num-candidates 40 --stall-prob 0.3 --seed 3 --out "$tmp/d2.json"
g timeline --version 2 --num-candidates 40 --stall-prob 0.3 --seed 4 --out "$tmp/d3.json"
check gentrace-deterministic cmp -s "$tmp/d1.json" "$tmp/d2.json"
check gentrace-wrote nonempty "$tmp/d1.json" "$tmp/d3.json"
check gentrace-seed-matters differ "$tmp/d1.json" "$tmp/d3.json"

# --- PyTorch Chrome traces ----------------------------------------------------
g pytorch --num-candidates 30 --trsm-kernels 20 --out "$tmp/pt.json"
g pytorch --num-candidates 30 --interleave-gpu --seed 4 --out "$tmp/pt_inter.json"
g pytorch --num-candidates 30 --no-gpu-annotations --seed 5 --out "$tmp/pt_noann.json"
same pytorch "$tmp/pt.json"
same pytorch-start-7 "$tmp/pt.json" --start_candidate 7
same pytorch-interleaved "$tmp/pt_inter.json"
same pytorch-no-annotations "$tmp/pt_noann.json" --start-candidate 29
same_rc 1 pytorch-no-such-candidate "$tmp/pt.json" --start_candidate 99
piped pytorch "$tmp/pt.json" --start_candidate 3
# A bare array of the same events.
"$py" - "$tmp/pt.json" "$tmp/pt_bare.json" <<'EOF'
import json, sys
events = json.load(open(sys.argv[1]))["traceEvents"]
with open(sys.argv[2], "w") as f:
    f.write("[\n" + ",\n".join(json.dumps(e) for e in events) + "\n]\n")
EOF
same pytorch-bare-array "$tmp/pt_bare.json" --start_candidate 2
# A syntax error near the end, far from the window: located, same message.
"$py" - "$tmp/pt.json" "$tmp/pt_bad.json" <<'EOF'
import sys
data = open(sys.argv[1], "rb").read()
at = data.rfind(b'"ph": "X"', 0, len(data) - 2000)
open(sys.argv[2], "wb").write(data[:at] + b'"ph" "X"' + data[at + 9:])
EOF
fails pytorch-syntax-error-far-away "$tmp/pt_bad.json" "pt_bad.json:[0-9][0-9]*:[0-9][0-9]*: ':' expected"

# A Kineto trace (multi-line events, string pids, instant events, flows):
# no Candidate_Eval_N event, so the generic Chrome mode draws it, alike
# through both loaders (Chrome traces always stream) and from a pipe.
g kineto --steps 3 --layers 4 --out "$tmp/kt.json"
same_rc 0 kineto-chrome-mode "$tmp/kt.json"
check kineto-mode grep -q '"mode": "chrome"' "$tmp/s.out"
same_rc 0 kineto-window-event "$tmp/kt.json" --window-event 'ProfilerStep#4' --flows
check kineto-window-event-lanes grep -q '"lanes": \[' "$tmp/s.out"

# make bench's scanner-alone driver (tests/tools/scan_floor.c) walks what the
# loader walks: every event of the trace, and a syntax error stops it.
floor_bin="$(dirname "$bin")/scan_floor"
if [ -x "$floor_bin" ]; then
    n_ev=$("$py" -c 'import json, sys; print(len(json.load(open(sys.argv[1]))["traceEvents"]))' "$tmp/kt.json")
    check scan-floor-events sh -c '"$1" "$2" 1 | grep -qx "scan [0-9.]* events $3"' - \
        "$floor_bin" "$tmp/kt.json" "$n_ev"
    head -c 5000 "$tmp/kt.json" >"$tmp/kt_cut.json"
    check scan-floor-error sh -c '! "$1" "$2" 1 2>"$3" && grep -q "^scan_floor: .*kt_cut.json:" "$3"' - \
        "$floor_bin" "$tmp/kt_cut.json" "$tmp/floor.err"
else
    echo "stream: scan-floor: SKIP ($floor_bin not built)"
fi

# --- pipelined timelines -------------------------------------------------------
g timeline --version 2 --num-candidates 12000 --start-candidate 6000 --record-from 0 \
    --trsm-prob 0.2 --stall-prob 0.2 --metadata-last --out "$tmp/tl.json"
g timeline --version 1 --num-candidates 12000 --start-candidate 11990 --record-from 0 \
    --indent 0 --metadata-last --out "$tmp/tl1.json"
# The profiler's layout: the metadata (2-space indent) after the events (6).
check timeline-input-has-metadata-last meta_last "$tmp/tl.json" 6000
same timeline-metadata-after-events "$tmp/tl.json"
same timeline-start-on-command-line "$tmp/tl.json" --start_candidate 17
same timeline-window-on-command-line "$tmp/tl.json" --start_candidate 3000 --num_candidates 6
same timeline-num-candidates "$tmp/tl.json" --num-candidates 40
same timeline-v1-near-the-end "$tmp/tl1.json"
same timeline-focus "$tmp/tl1.json" --focus_candidate 5000
piped timeline "$tmp/tl.json"
piped timeline-start "$tmp/tl.json" --start_candidate 100
# Metadata first, null candidates, a real-valued candidate, odd buffers.
"$py" - "$tmp/tl.json" "$tmp/tl_meta.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
ev = d.pop("events")
for i, e in enumerate(ev):
    if i % 997 == 0:
        e["candidate"] = None
    if i % 1501 == 0:
        del e["candidate"]
    if e.get("candidate") == 6001 and e["lane"] == "gpu":
        e["candidate"] = 6001.0
d["events"] = ev
d["num_candidates"] = 4
json.dump(d, open(sys.argv[2], "w"), indent=1)
EOF
same timeline-metadata-first "$tmp/tl_meta.json"
piped timeline-metadata-first "$tmp/tl_meta.json"
# A type error in an event far from the window: the same located message.
"$py" - "$tmp/tl.json" "$tmp/tl_type.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
d["events"][40000]["start_ms"] = "12.5"
json.dump(d, open(sys.argv[2], "w"), indent=2)
EOF
fails timeline-type-error-far-away "$tmp/tl_type.json" "events\[40000\].start_ms: expected a number, got a string"
# A syntax error after the events (in the metadata).
"$py" - "$tmp/tl.json" "$tmp/tl_bad.json" <<'EOF'
import sys
data = open(sys.argv[1], "rb").read()
open(sys.argv[2], "wb").write(data.replace(b'"num_candidates": 3', b'"num_candidates": 03'))
EOF
fails timeline-syntax-error-in-metadata "$tmp/tl_bad.json" "tl_bad.json:[0-9][0-9]*:[0-9][0-9]*: invalid token"

# --- the scanner on a thread of its own (src/load/pipe.c) ------------------------
# pipe_same RC NAME FILE [ARGS...]: one thread (TRACEFIG_PIPE=off), a pipe
# from the first element (on) and the default (a pipe once the scan is 16 MB
# into the file) give the same output, stderr and status, and the status is
# RC.  The output file exists before: an error must leave it as it was.
pipe_same() {
    want=$1
    name=$2
    file=$3
    shift 3
    ok=1
    for mode in off on auto; do
        printf 'before\n' >"$tmp/p-$mode.out"
        if [ $mode = auto ]; then
            "$bin" "$file" "$@" -o "$tmp/p-$mode.out" 2>"$tmp/p-$mode.err"
        else
            TRACEFIG_PIPE=$mode "$bin" "$file" "$@" -o "$tmp/p-$mode.out" 2>"$tmp/p-$mode.err"
        fi
        rc=$?
        if [ $rc -ne "$want" ]; then
            ok=0
            echo "FAIL stream pipe $name: $mode rc=$rc (want $want): $(head -c 300 "$tmp/p-$mode.err")"
        fi
    done
    for mode in on auto; do
        if ! cmp -s "$tmp/p-off.out" "$tmp/p-$mode.out" ||
            ! cmp -s "$tmp/p-off.err" "$tmp/p-$mode.err"; then
            ok=0
            echo "FAIL stream pipe $name: $mode differs from off"
            diff "$tmp/p-off.err" "$tmp/p-$mode.err" | head -5
        fi
    done
    if [ "$want" -ne 0 ] && [ "$(cat "$tmp/p-off.out")" != before ]; then
        ok=0
        echo "FAIL stream pipe $name: the existing output was overwritten"
    fi
    if [ $ok = 1 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); fi
}

# About 20 MB of Kineto events, so the default takes the pipe for the last
# fifth of the first pass and for the second; the same gzip'd (with the
# inflater's thread as well).
g kineto --size 2e7 --seed 7 --out "$tmp/big.json"
gzip -c "$tmp/big.json" >"$tmp/big.json.gz"
pipe_same 0 kineto-20MB "$tmp/big.json" --format json
pipe_same 0 kineto-20MB-svg "$tmp/big.json" --format svg
pipe_same 0 kineto-20MB-window "$tmp/big.json" --from 100ms --to 130ms --format json
pipe_same 0 kineto-20MB-stats "$tmp/big.json" --stats=csv --format json
pipe_same 0 kineto-20MB-gzip "$tmp/big.json.gz" --format json
pipe_same 0 kineto-20MB-window-event "$tmp/big.json" --window-event 'ProfilerStep#5' --format json
TRACEFIG_CHUNK=4096 pipe_same 0 kineto-20MB-small-chunks "$tmp/big.json" --format json
# From standard input (spooled for the second pass): the pipe from the first
# element gives what one thread gives.
TRACEFIG_PIPE=off "$bin" - --format json -o "$tmp/stdin-off.json" <"$tmp/big.json" 2>&1
TRACEFIG_PIPE=on "$bin" - --format json -o "$tmp/stdin-on.json" <"$tmp/big.json" 2>&1
check kineto-20MB-stdin-pipe cmp -s "$tmp/stdin-off.json" "$tmp/stdin-on.json"
check kineto-20MB-stdin-drawn nonempty "$tmp/stdin-off.json"
# Past 16 MB: a syntax error; the same after a type error in an event (the
# syntax error wins, as with one thread); one element larger than a batch
# (2 MB of args); a gzip'd file cut short.
"$py" - "$tmp/big.json" "$tmp/big_bad.json" "$tmp/big_type.json" "$tmp/big_huge.json" <<'EOF'
import sys
data = open(sys.argv[1], "rb").read()
late = data.rfind(b'"ph": "X"', 0, len(data) - 3000)
open(sys.argv[2], "wb").write(data[:late] + b'"ph" "X"' + data[late + 9:])
early = data.find(b'"dur": ', len(data) // 2)
typed = data[:early] + b'"dur": "7", "x": ' + data[early + 7:]
late = typed.rfind(b'"ph": "X"', 0, len(typed) - 3000)
open(sys.argv[3], "wb").write(typed[:late] + b'"ph" "X"' + typed[late + 9:])
at = data.rfind(b'"args": {', 0, len(data) - 5000) + len(b'"args": {')
open(sys.argv[4], "wb").write(data[:at] + b'"blob": "' + b"x" * (2 << 20) + b'", ' + data[at:])
EOF
pipe_same 1 kineto-20MB-syntax-error "$tmp/big_bad.json" --format json
check kineto-20MB-syntax-error-located \
    grep -q "big_bad.json:[0-9][0-9]*:[0-9][0-9]*: ':' expected" "$tmp/p-off.err"
pipe_same 1 kineto-20MB-type-then-syntax-error "$tmp/big_type.json" --format json
check kineto-20MB-type-then-syntax-error-located \
    grep -q "big_type.json:[0-9][0-9]*:[0-9][0-9]*: ':' expected" "$tmp/p-off.err"
pipe_same 0 kineto-20MB-huge-element "$tmp/big_huge.json" --format json
head -c $(($(wc -c <"$tmp/big.json.gz") / 2)) "$tmp/big.json.gz" >"$tmp/big_cut.json.gz"
pipe_same 1 kineto-20MB-gzip-cut "$tmp/big_cut.json.gz" --format json
check kineto-20MB-gzip-cut-message grep -q "gzip: unexpected end of file" "$tmp/p-off.err"

# --- every golden case: the same figure, and the same warnings, which the
# golden suite (also run with TRACEFIG_LOAD=stream by run-all.sh) does not
# compare.
for dir in "$root"/tests/golden/*/; do
    [ -f "$dir/trace.json" ] || continue
    set -- "$dir/trace.json"
    [ -f "$dir/breakdown.json" ] && set -- "$@" --breakdown "$dir/breakdown.json"
    extra=""
    [ -f "$dir/args" ] && extra=$(sed 's/#.*//' "$dir/args" | tr '\n' ' ')
    # shellcheck disable=SC2086
    same "golden-$(basename "$dir")" "$@" $extra
done

echo "stream: $pass passed, $fail failed"
[ $fail -eq 0 ]
