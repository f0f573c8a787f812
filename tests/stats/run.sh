#!/bin/sh
# The overlap statistics on the command line (issue 12).
#
#   run.sh TRACEFIG
#
# On the examples and on every golden input (with its args):
#   - `--stats` prints the aligned table and `--stats=csv` the CSV, and
#     nothing else, on standard output, and with no -o they write no figure;
#   - check_stats.py: the CSV parses (csv module, header row), every number
#     of the table and of the CSV is the JSON model's, digit for digit, the
#     table's numbers line up on their decimal point, and "stats" is the
#     model's last member;
#   - with -o the figure is still written and standard output is the same;
#     `-o -` is refused; the table is the same under another locale.
# With ../shared/real-traces (from the repository root; else SKIP): for each
# HTA-produced trace (hta-*.json.gz, read gzip'd), `tracefig FILE --stats-scope trace --format json -o -`
# must give the GPU breakdown that hta_reference.py (tracefig's own
# definition, computed again in Python; not HTA) computes, to the last
# digit printed (compare_gpu.py).  HTA's own numbers: tests/hta/run.sh.
# Ends with "stats: N passed, N failed".
set -u
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tracefig-stats.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
py=python3
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL stats: $1"; }

if ! command -v "$py" >/dev/null 2>&1; then
    echo "stats: SKIP (needs python3)"
    echo "stats: 0 passed, 0 failed"
    exit 0
fi

# case NAME DIR ARGS...: the checks above on `tracefig ARGS` run in DIR.
case_() {
    name=$1
    dir=$2
    shift 2
    w="$tmp/$name"
    rm -rf "$w" && mkdir -p "$w/empty"
    # shellcheck disable=SC2164
    if ! (cd "$dir" && "$bin" "$@" --format json -o -) >"$w/model.json" 2>"$w/err"; then
        bad "$name: the JSON model: $(head -c 300 "$w/err")"
        return
    fi
    # --stats with no -o: the table on stdout, no figure anywhere.  The
    # input is given by absolute path so the run can happen in an empty
    # folder.
    (cd "$w/empty" && "$bin" "$@" --stats >"$w/table.txt" 2>"$w/err.txt")
    rc=$?
    [ $rc -eq 0 ] && ok || bad "$name: --stats exited $rc: $(head -c 300 "$w/err.txt")"
    (cd "$w/empty" && "$bin" "$@" --stats=csv >"$w/table.csv" 2>"$w/err.csv")
    rc=$?
    [ $rc -eq 0 ] && ok || bad "$name: --stats=csv exited $rc"
    if [ -z "$(ls -A "$w/empty")" ]; then ok; else
        bad "$name: --stats without -o wrote $(ls -A "$w/empty" | tr '\n' ' ')"
    fi
    out=$("$py" "$here/check_stats.py" "$w/model.json" "$w/table.txt" "$w/table.csv")
    rc=$?
    echo "$out" | grep '^FAIL' | sed "s|^FAIL |FAIL stats: $name: |"
    p=$(echo "$out" | sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\1/p')
    f=$(echo "$out" | sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\2/p')
    pass=$((pass + ${p:-0}))
    fail=$((fail + ${f:-1}))
    [ $rc -eq 0 ] || [ "${f:-0}" -gt 0 ] || fail=$((fail + 1))
    # With -o: the figure is written, standard output is the same table.
    (cd "$w/empty" && "$bin" "$@" --stats -o fig.svg >"$w/table2.txt" 2>/dev/null)
    if [ -s "$w/empty/fig.svg" ] && cmp -s "$w/table.txt" "$w/table2.txt"; then ok; else
        bad "$name: --stats -o fig.svg: no figure, or another table"
    fi
    if (cd "$w/empty" && "$bin" "$@" --stats -o - >"$w/dash.txt" 2>/dev/null); then
        bad "$name: --stats -o - accepted"
    elif [ $? -eq 2 ] && [ ! -s "$w/dash.txt" ]; then ok; else
        bad "$name: --stats -o -: not a usage error, or output on stdout"
    fi
    if [ -n "$de" ]; then
        (cd "$w/empty" && LC_ALL=$de TZ=Pacific/Chatham "$bin" "$@" --stats >"$w/table.de" 2>/dev/null)
        if cmp -s "$w/table.txt" "$w/table.de"; then ok; else
            bad "$name: the table differs under LC_ALL=$de"
        fi
    fi
}

de=$(locale -a 2>/dev/null | grep -i '^de_DE\.utf-\{0,1\}8$' | head -n 1)

ex="$root/examples"
case_ v1 "$ex" "$ex/overlap_timeline_v1.json"
case_ v2 "$ex" "$ex/overlap_timeline_v2.json"
case_ v2-breakdown "$ex" "$ex/overlap_timeline_v2.json" --breakdown "$ex/candidate_breakdown.json"
case_ v2-groups "$ex" "$ex/overlap_timeline_v2.json" --group 'streams=GPU Stream*' \
    --group 'threads=*Thread,nothing' --group 'none=zzz*'
case_ pytorch "$ex" "$ex/pytorch_chrome_trace.json"
for d in "$root"/tests/golden/*/; do
    [ -f "$d/trace.json" ] || continue
    set -- "$d/trace.json"
    [ -f "$d/breakdown.json" ] && set -- "$@" --breakdown "$d/breakdown.json"
    extra=""
    [ -f "$d/args" ] && extra=$(sed 's/#.*//' "$d/args" | tr '\n' ' ')
    # shellcheck disable=SC2086
    case_ "golden-$(basename "$d")" "$d" "$@" $extra
done

# --stats-compat hta (issue 20): the same checks on a trace of the
# project's own; the table, the CSV and the JSON say "compat" alike.
gen="$tmp/gen-hta.json"
if "$py" "$root/tests/tools/gentrace.py" hta --case kineto-frac --seed 1 --out "$gen"; then
    case_ compat-hta "$tmp" "$gen" --stats-compat hta --stats-scope trace
    case_ compat-hta-window "$tmp" "$gen" --stats-compat hta --from 5ms --to 15ms
else
    bad "gentrace.py hta failed"
fi

# The older Kineto format (issue 18): its categories (Kernel, Memcpy,
# Memset, Operator, Runtime) count in the GPU breakdown as today's names
# do: the same trace with the categories renamed gives the same numbers.
old="$tmp/kineto-2021.json"
if "$py" "$root/tests/tools/gentrace.py" kineto --format 2021 --steps 3 --seed 5 --out "$old"; then
    sed 's/"cat": "Kernel"/"cat": "kernel"/; s/"cat": "Memcpy"/"cat": "gpu_memcpy"/;
         s/"cat": "Memset"/"cat": "gpu_memset"/; s/"cat": "Operator"/"cat": "cpu_op"/;
         s/"cat": "Runtime"/"cat": "cuda_runtime"/' "$old" >"$tmp/kineto-2021-renamed.json"
    for scope in window trace; do
        "$bin" "$old" --stats-scope $scope --format json -o "$tmp/k21.json" 2>/dev/null
        "$bin" "$tmp/kineto-2021-renamed.json" --stats-scope $scope --format json \
            -o "$tmp/k21r.json" 2>/dev/null
        if "$py" - "$tmp/k21.json" "$tmp/k21r.json" <<'PY'
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:3])
ga, gb = a["stats"].get("gpu_breakdown"), b["stats"].get("gpu_breakdown")
sys.exit(0 if ga and ga == gb and ga["compute_ms"] > 0 and ga["comm_ms"] > 0 and
         [c["color"] for c in a["categories"]] == [c["color"] for c in b["categories"]] else 1)
PY
        then ok; else bad "kineto --format 2021 ($scope): another GPU breakdown or other colours than with today's category names"; fi
    done
else
    bad "gentrace.py kineto --format 2021 failed"
fi

# args.stream in the forms the fast reading of it must leave to the full
# one (stats.c): repeated keys (the last wins), a "stream" key only in a
# nested object, one after a nested object or an array, a string of an
# integer, blanks around the colon, the word as a value or inside a
# string; and kernel names repeated (classified once, remembered) under
# different categories.  The GPU breakdown must be hta_reference.py's.
streams="$tmp/streams.json"
"$py" - "$streams" <<'PY'
import json, sys
args = [
    '{"stream": 7, "correlation": 1}',
    '{"stream": 1, "x": 2, "stream": 9}',
    '{"x": {"stream": 3}}',
    '{"x": {"a": 1}, "stream": 4}',
    '{"grid": [1, 1, 1], "stream": 5}',
    '{"stream": " 6 "}',
    '{"stream" :  8 , "y": 1}',
    '{"note": "stream", "stream": 10}',
    '{"note": "a \\"stream\\": 11", "z": 0}',
    '{"stream": -1}',
    '{"stream": "7"}',
]
names = ["ncclKernel_AllReduce", "void gemm<float>(float*)", "Memcpy HtoD", "void gemm<float>(float*)"]
cats = ["kernel", "gpu_memcpy", "cuda_sync", "kernel"]
ev, t = [], 1000.0
for i in range(200):
    a = args[i % len(args)]
    n, c = names[i % len(names)], cats[(i // 3) % len(cats)]
    ev.append('{"ph": "X", "cat": %s, "name": %s, "pid": 1, "tid": %d, "ts": %.3f, "dur": %.3f, '
              '"args": %s}' % (json.dumps(c), json.dumps(n), i % 3, t, 3.5 + i % 5, a))
    t += 2.25 + (i % 7)
open(sys.argv[1], "w").write('{"traceEvents": [\n' + ",\n".join(ev) + "\n]}\n")
PY
if "$bin" "$streams" --stats-scope trace --format json -o - >"$tmp/streams.model" 2>"$tmp/streams.err" &&
    "$py" "$here/hta_reference.py" "$streams" >"$tmp/streams.ref" 2>"$tmp/streams.referr"; then
    msg=$("$py" "$here/compare_gpu.py" "$tmp/streams.model" "$tmp/streams.ref") && ok ||
        bad "stream forms: $msg"
else
    bad "stream forms: $(head -c 300 "$tmp/streams.err" "$tmp/streams.referr")"
fi

# The options themselves.
v2="$ex/overlap_timeline_v2.json"
for bad_args in "--stats=xml" "--stats-scope all" "--stats-compat HTA" "--group noequals" "--group =GPU*" \
    "--group x=,," "--annotate=yes"; do
    # shellcheck disable=SC2086
    "$bin" "$v2" $bad_args -o "$tmp/x.json" >/dev/null 2>&1
    rc=$?
    [ $rc -eq 2 ] && ok || bad "'$bad_args' exited $rc, expected 2 (usage)"
done
for good_args in "--stats-scope trace --stats" "--stats-scope window --stats=text"; do
    # shellcheck disable=SC2086
    "$bin" "$v2" $good_args >/dev/null 2>&1 && ok || bad "'$good_args' failed"
done
"$bin" --help | grep -q -- "--stats-scope" && ok || bad "--help does not document --stats-scope"
"$bin" "$v2" --annotate -o "$tmp/a.json" && grep -q '"summary_drawn": true' "$tmp/a.json" && ok ||
    bad "--annotate does not set summary_drawn"

# The Python computation itself, on hand-computed cases.
if "$py" "$here/hta_reference.py" --self-test >"$tmp/selftest" 2>&1; then ok; else
    bad "hta_reference.py --self-test: $(grep FAIL "$tmp/selftest" | head -3)"
fi

# Folding (rules/ivfold.h): a trace read in start order has its busy sets
# folded as it goes; its statistics and its figure must be those of the
# same trace kept whole (TRACEFIG_FOLD=off), and of its events scrambled.
if "$py" "$here/gen_ordered.py" "$tmp/ord.json" && "$py" "$here/gen_ordered.py" "$tmp/shuf.json" --shuffle; then
    for g in "" "--group gpu=GPU*"; do
        # shellcheck disable=SC2086
        "$bin" "$tmp/ord.json" $g --stats=csv -o "$tmp/ord.model.json" >"$tmp/ord.csv" 2>"$tmp/ord.err"
        # shellcheck disable=SC2086
        TRACEFIG_FOLD=off "$bin" "$tmp/ord.json" $g --stats=csv -o "$tmp/whole.model.json" >"$tmp/whole.csv" 2>&1
        # shellcheck disable=SC2086
        "$bin" "$tmp/shuf.json" $g --stats=csv >"$tmp/shuf.csv" 2>/dev/null
        if [ -s "$tmp/ord.csv" ] && cmp -s "$tmp/ord.csv" "$tmp/whole.csv" && cmp -s "$tmp/ord.csv" "$tmp/shuf.csv"; then ok; else
            bad "folded statistics ($g) differ from the whole sets': $(diff "$tmp/ord.csv" "$tmp/whole.csv" | head -5)"
        fi
        cmp -s "$tmp/ord.model.json" "$tmp/whole.model.json" && ok ||
            bad "the figure of a folded trace ($g) is not the whole one's"
        [ ! -s "$tmp/ord.err" ] && ok || bad "folding warned: $(head -c 200 "$tmp/ord.err")"
    done
    grep -q 'gpu_breakdown,,,comm_comp_overlap_pct' "$tmp/ord.csv" && ok ||
        bad "the ordered trace has no GPU breakdown to compare"
else
    bad "gen_ordered.py failed"
fi
# B/E pairs come at their end: when none nests and they come in start order
# (pfwrite.py big: 40 000 slices on 8 threads, as a Perfetto trace and as
# Chrome JSON) they are folded as X events are, and must give the whole
# sets' statistics and figure.
if "$py" "$root/tests/tools/pfwrite.py" big 40000 "$tmp/be.pftrace" "$tmp/be.json" >/dev/null 2>&1; then
    for f in be.pftrace be.json; do
        "$bin" "$tmp/$f" --stats=csv -o "$tmp/$f.fold.json" >"$tmp/$f.fold.csv" 2>&1
        TRACEFIG_FOLD=off "$bin" "$tmp/$f" --stats=csv -o "$tmp/$f.whole.json" >"$tmp/$f.whole.csv" 2>&1
        if grep -q busy_ms "$tmp/$f.fold.csv" && cmp -s "$tmp/$f.fold.csv" "$tmp/$f.whole.csv" &&
            cmp -s "$tmp/$f.fold.json" "$tmp/$f.whole.json"; then ok; else
            bad "$f: folded B/E statistics or figure differ from the whole ones"
        fi
    done
else
    bad "pfwrite.py big failed"
fi
# ftrace text: its records come at their end (a CPU's run at the switch
# that ends it, an atrace slice at its E), so it folds up to the latest
# start less the lag pass 1 measured; the statistics and the figure must be
# the whole sets' all the same (12 MB: folded several times).
if "$py" "$root/tests/tools/genftrace.py" big "$tmp/big.txt" 12 >/dev/null 2>&1; then
    "$bin" "$tmp/big.txt" --stats=csv -o "$tmp/big.fold.json" >"$tmp/big.fold.csv" 2>"$tmp/big.err"
    TRACEFIG_FOLD=off "$bin" "$tmp/big.txt" --stats=csv -o "$tmp/big.whole.json" >"$tmp/big.whole.csv" \
        2>"$tmp/big.whole.err"
    if grep -q 'CPU 7,,busy_ms' "$tmp/big.fold.csv" && cmp -s "$tmp/big.fold.csv" "$tmp/big.whole.csv" &&
        cmp -s "$tmp/big.fold.json" "$tmp/big.whole.json"; then ok; else
        bad "ftrace text: folded statistics or figure differ from the whole ones: $(diff "$tmp/big.fold.csv" "$tmp/big.whole.csv" | head -5)"
    fi
    # (the lanes left out are said, the same in both)
    cmp -s "$tmp/big.err" "$tmp/big.whole.err" && ! grep -q 'another order' "$tmp/big.err" && ok ||
        bad "ftrace text: folding warned: $(head -c 200 "$tmp/big.err")"
    # An atrace slice that never ended (it comes at the end, drawn to the
    # window's end): nothing is folded past its start, near the end of the
    # trace or at its beginning.
    last=$(tail -n 1 "$tmp/big.txt" | sed 's/.*\] d\.\.3 *\([0-9.]*\):.*/\1/')
    for at in "$last" 1.000500; do
        # (in its place by time)
        awk -v at="$at" -v l="        task1022-1022  ( 1020) [002] ...1 $(printf '%12s' "$at"): tracing_mark_write: B|1020|never" '
            !done && /^ / { split($0, a, "] "); split(a[2], b, " "); if (b[2] + 0 > at + 0) { print l; done = 1 } }
            { print } END { if (!done) print l }' "$tmp/big.txt" >"$tmp/open.txt"
        "$bin" "$tmp/open.txt" --stats=csv >"$tmp/open.fold.csv" 2>"$tmp/open.err"
        TRACEFIG_FOLD=off "$bin" "$tmp/open.txt" --stats=csv >"$tmp/open.whole.csv" 2>/dev/null
        if grep -q 'never ended' "$tmp/open.err" && cmp -s "$tmp/open.fold.csv" "$tmp/open.whole.csv" &&
            ! grep -q 'another order' "$tmp/open.err"; then ok; else
            bad "ftrace text, a slice never ended at $at: folded statistics differ from the whole ones: $(diff "$tmp/open.fold.csv" "$tmp/open.whole.csv" | head -5)"
        fi
    done
else
    bad "genftrace.py big failed"
fi
if "$py" -c 'import sqlite3' 2>/dev/null &&
    "$py" "$root/tests/tools/gennsys.py" bench-kernels --kernels 150000 --out "$tmp/k.sqlite" >/dev/null 2>&1; then
    "$bin" "$tmp/k.sqlite" --stats=csv -o "$tmp/k1.json" >"$tmp/k1.csv" 2>&1
    TRACEFIG_FOLD=off "$bin" "$tmp/k.sqlite" --stats=csv -o "$tmp/k2.json" >"$tmp/k2.csv" 2>&1
    if grep -q busy_ms "$tmp/k1.csv" && cmp -s "$tmp/k1.csv" "$tmp/k2.csv" && cmp -s "$tmp/k1.json" "$tmp/k2.json"; then ok; else
        bad "an Nsight export's folded statistics or figure differ from the whole ones"
    fi
else
    echo "stats: folding of an Nsight export: SKIP (python3 sqlite3 or gennsys.py failed)"
fi

# The HTA-produced real traces: the whole-trace GPU breakdown against the
# independent Python computation of tracefig's definition.
real="$root/../shared/real-traces"
if [ ! -d "$real" ]; then
    echo "stats: real traces: SKIP ($real not found)"
else
    for gz in "$real"/hta-*.json.gz; do
        [ -f "$gz" ] || continue
        name=$(basename "$gz" .gz)
        file=$gz
        if ! "$bin" "$file" --stats-scope trace --format json -o - >"$tmp/$name.model" \
            2>"$tmp/$name.err"; then
            bad "$name: tracefig failed: $(head -c 300 "$tmp/$name.err")"
            continue
        fi
        if ! "$py" "$here/hta_reference.py" "$file" >"$tmp/$name.ref" 2>"$tmp/$name.referr"; then
            bad "$name: hta_reference.py failed: $(tail -n 1 "$tmp/$name.referr")"
            continue
        fi
        msg=$("$py" "$here/compare_gpu.py" "$tmp/$name.model" "$tmp/$name.ref")
        case $? in
        0) ok; echo "stats: $name: $msg" ;;
        *) bad "$name: $msg" ;;
        esac
    done
fi

echo "stats: $pass passed, $fail failed"
[ $fail -eq 0 ]
