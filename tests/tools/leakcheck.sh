#!/bin/sh
# valgrind over every golden case with every back-end (and again with
# --stats, --stats=csv, --group and --annotate, and for the Chrome cases
# --stats-scope trace), over the statistics
# options' usage errors, over every bad-input case, over Nsight Systems
# exports made by tests/tools/gennsys.py (both layouts, hostile names, two
# processes; a plain, a windowed, a piped gzip'd run), over rocpd databases
# made by tests/tools/genrocpd.py (figures, windows, flows, ranks, the bad
# ones), and over figures of
# several traces and their models: no invalid access, no definite or
# indirect leak.
#
#   leakcheck.sh TRACEFIG
set -u
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
root=$(cd "$(dirname "$0")/../.." && pwd)
TRACEFIG_ROOT=$root
export TRACEFIG_ROOT
if ! command -v valgrind >/dev/null 2>&1; then
    echo "leakcheck: SKIP (valgrind not installed)"
    exit 0
fi
tmp=${TMPDIR:-/tmp}/tracefig-leak.$$
mkdir -p "$tmp"
trap 'chmod -R u+rwx "$tmp" 2>/dev/null; rm -rf "$tmp"' EXIT INT TERM
vg="valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect"
exts="json svg tex"
if "$bin" --version | grep -q ' pdf '; then exts="$exts pdf png"; fi
pass=0
fail=0
for dir in "$root"/tests/golden/*/; do
    trace=trace.json
    [ -f "$dir/trace.json.gz" ] && trace=trace.json.gz
    [ -f "$dir/$trace" ] || continue
    set -- --trace "$trace"
    [ -f "$dir/breakdown.json" ] && set -- "$@" --breakdown breakdown.json
    extra=""
    [ -f "$dir/args" ] && extra=$(sed 's/#.*//' "$dir/args" | tr '\n' ' ')
    outs=""
    for e in $exts; do outs="$outs -o $tmp/out.$e"; done
    # shellcheck disable=SC2086
    (cd "$dir" && $vg "$bin" "$@" $extra $outs) >"$tmp/log" 2>&1
    if [ $? -eq 99 ]; then
        fail=$((fail + 1))
        echo "FAIL leakcheck golden/$(basename "$dir")"
        head -30 "$tmp/log"
    else
        pass=$((pass + 1))
    fi
done
# The statistics: the table and the CSV with --group and --annotate (every
# back-end), over the golden inputs; and the options' usage errors.
for dir in "$root"/tests/golden/*/; do
    trace=trace.json
    [ -f "$dir/trace.json.gz" ] && trace=trace.json.gz
    [ -f "$dir/$trace" ] || continue
    set -- --trace "$trace"
    [ -f "$dir/breakdown.json" ] && set -- "$@" --breakdown breakdown.json
    case $(basename "$dir") in chrome_*) set -- "$@" --stats-scope trace ;; esac
    outs=""
    for e in $exts; do outs="$outs -o $tmp/out.$e"; done
    for st in --stats --stats=csv; do
        # shellcheck disable=SC2086
        (cd "$dir" && $vg "$bin" "$@" $st --group 'all=*' --group 'gpu=GPU*,*Thread' \
            --annotate $outs) >"$tmp/log" 2>&1
        if [ $? -eq 99 ]; then
            fail=$((fail + 1))
            echo "FAIL leakcheck stats/$(basename "$dir") $st"
            head -30 "$tmp/log"
        else
            pass=$((pass + 1))
        fi
    done
done
for args in "--stats -o -" "--group x=a --group bad" "--stats=xml" "--stats-scope all"; do
    # shellcheck disable=SC2086
    $vg "$bin" "$root/examples/overlap_timeline_v2.json" $args >"$tmp/log" 2>&1
    if [ $? -eq 99 ]; then
        fail=$((fail + 1))
        echo "FAIL leakcheck stats usage '$args'"
        head -30 "$tmp/log"
    else
        pass=$((pass + 1))
    fi
done
for dir in "$root"/tests/bad/*/; do
    [ -f "$dir/expect" ] || continue
    rm -rf "$tmp/case"
    cp -R "$dir" "$tmp/case"
    [ -x "$tmp/case/setup" ] && (cd "$tmp/case" && ./setup)
    args=$(cat "$dir/args" 2>/dev/null || true)
    # shellcheck disable=SC2086
    (cd "$tmp/case" && $vg "$bin" $args) >"$tmp/log" 2>&1 </dev/null
    if [ $? -eq 99 ]; then
        fail=$((fail + 1))
        echo "FAIL leakcheck bad/$(basename "$dir")"
        head -30 "$tmp/log"
    else
        pass=$((pass + 1))
    fi
done
# Nsight Systems exports.
if /usr/bin/python3 -c 'import sqlite3' 2>/dev/null; then
    gen="$root/tests/tools/gennsys.py"
    for c in "full" "full --schema 2.9" "hostile" "multiproc"; do
        # shellcheck disable=SC2086
        /usr/bin/python3 "$gen" $c --out "$tmp/e.sqlite" || { fail=$((fail + 1)); continue; }
        gzip -n -c "$tmp/e.sqlite" >"$tmp/e.sqlite.gz"
        outs=""
        for e in $exts; do outs="$outs -o $tmp/out.$e"; done
        for args in "" "--window-event train_step --flows --osrt --stats-scope trace" \
            "--from 120ms --to 130ms --lanes GPU* --depth 2" "-"; do
            if [ "$args" = - ]; then
                # shellcheck disable=SC2086
                $vg "$bin" - --stats $outs <"$tmp/e.sqlite.gz" >"$tmp/log" 2>&1
            else
                # shellcheck disable=SC2086
                $vg "$bin" "$tmp/e.sqlite" $args $outs >"$tmp/log" 2>&1
            fi
            if [ $? -eq 99 ]; then
                fail=$((fail + 1))
                echo "FAIL leakcheck nsys $c '$args'"
                head -30 "$tmp/log"
            else
                pass=$((pass + 1))
            fi
        done
    done
else
    echo "leakcheck: nsys: SKIP (needs /usr/bin/python3 with sqlite3)"
fi
# rocpd databases and rocprof v1's results.db (tests/tools/genrocpd.py):
# figures, windows, flows, statistics, two ranks, and the bad ones.
if /usr/bin/python3 -c 'import sqlite3' 2>/dev/null; then
    gen="$root/tests/tools/genrocpd.py"
    r="$tmp/rocpd"
    mkdir -p "$r"
    for c in full streams multinode rocprofv1 cut v4 noviews empty; do
        /usr/bin/python3 "$gen" $c --out "$r/$c.db" || fail=$((fail + 1))
    done
    /usr/bin/python3 "$gen" rank --rank 0 --out "$r/r0.db" &&
        /usr/bin/python3 "$gen" rank --rank 1 --out "$r/r1.db" || fail=$((fail + 1))
    outs=""
    for e in $exts; do outs="$outs -o $tmp/out.$e"; done
    while IFS='|' read -r what args; do
        # shellcheck disable=SC2086
        (cd "$r" && $vg "$bin" $args) >"$tmp/log" 2>&1 </dev/null
        if [ $? -eq 99 ]; then
            fail=$((fail + 1))
            echo "FAIL leakcheck rocpd/$what"
            head -30 "$tmp/log"
        else
            pass=$((pass + 1))
        fi
    done <<EOF_ROCPD
full|full.db --flows --stats $outs
window|full.db --window-event step?2 --flows $outs
kernel|full.db --window-event Cijk_Alik_Bljk_SB_MT128x128x16_MI32x32x2x1 --occurrence 2 -o $tmp/x.svg
fromto|full.db --from 4ms --to 5ms --lanes GPU* -o $tmp/x.svg
miss|full.db --window-event nosuch -o $tmp/x.svg
streams|streams.db --stats $outs
nodes|multinode.db $outs
v1|rocprofv1.db --flows --window-event step?1 $outs
ranks|r1.db r0.db --stats $outs
cut|cut.db -o $tmp/x.svg
v4|v4.db -o $tmp/x.svg
noviews|noviews.db -o $tmp/x.svg
empty|empty.db -o $tmp/x.svg
EOF_ROCPD
fi
# Several traces: ranks from gentrace.py with memory tracks (on two
# threads), their models, a model of several, two traces of counters and
# their models, timelines, and the bad inputs of several traces.
py=/usr/bin/python3
if [ -x "$py" ]; then
    m="$tmp/multi"
    mkdir -p "$m"
    "$py" "$root/tests/tools/gentrace.py" ranks --out-dir "$m" --world-size 3 --steps 2 --layers 2 \
        --missing 1 --skew-us 50 --memory current >/dev/null
    "$py" "$root/tests/tools/gentrace.py" counters --seed 3 --processes 1 --samples 60 \
        --out "$m/ca.json" >/dev/null
    "$py" "$root/tests/tools/gentrace.py" counters --seed 4 --processes 1 --samples 90 \
        --out "$m/cb.json" >/dev/null
    printf '{"schema": "tracefig-figure-9", "mode": "chrome"}\n' >"$m/future.json"
    outs=""
    for e in $exts; do outs="$outs -o $tmp/out.$e"; done
    v1=$root/examples/overlap_timeline_v1.json
    v2=$root/examples/overlap_timeline_v2.json
    n=0
    while IFS='|' read -r what args; do
        [ -n "$what" ] || continue
        # shellcheck disable=SC2086
        (cd "$m" && TRACEFIG_THREADS=2 $vg "$bin" $args) >"$tmp/log" 2>&1 </dev/null
        if [ $? -eq 99 ]; then
            fail=$((fail + 1))
            echo "FAIL leakcheck multi/$what"
            head -30 "$tmp/log"
        else
            pass=$((pass + 1))
        fi
        n=$((n + 1))
    done <<EOF_MULTI
ranks|rank0.json rank2.json --window-event ProfilerStep#4 $outs
stats|rank0.json rank2.json --stats --annotate -o $tmp/x.svg
csv|rank0.json rank2.json --stats=csv --align event
model0|rank0.json --window-event ProfilerStep#4 -o r0.model.json
model2|rank2.json --window-event ProfilerStep#4 -o r2.model.json
models|r0.model.json r2.model.json $outs
several|r0.model.json r2.model.json --titles a,b -o all.model.json
again|all.model.json $outs
counters|ca.json cb.json --stats $outs
ccsv|ca.json cb.json --stats=csv
cmodel|ca.json -o ca.model.json
cmodels|ca.model.json cb.json $outs
timelines|$v1 $v2 $outs
missing|rank0.json nope.json -o $tmp/x.svg
noevent|rank0.json rank2.json --window-event NoSuchStep -o $tmp/x.svg
schema|rank0.json future.json -o $tmp/x.svg
titles|rank0.json rank2.json --titles a -o $tmp/x.svg
EOF_MULTI
fi
# libtracefig's own C test (tests/lib): from a path, from memory, two
# threads at once, the error values.
TRACEFIG_LIB_RUNNER="$vg" sh "$root/tests/lib/run.sh" "$bin" >"$tmp/log" 2>&1
if [ $? -ne 0 ]; then
    fail=$((fail + 1))
    echo "FAIL leakcheck lib (tests/lib under valgrind)"
    grep -E "FAIL|==[0-9]+==" "$tmp/log" | head -30
else
    pass=$((pass + 1))
fi
echo "leakcheck: $pass passed, $fail failed"
[ $fail -eq 0 ]
