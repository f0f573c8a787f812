#!/bin/sh
# perfetto suite: run.sh TRACEFIG
#
# Perfetto protobuf traces written by the project's own writer
# (tests/tools/pfwrite.py) under $TMPDIR, checked on the JSON figure model
# (tests/perfetto/check.py): thread, process and nested custom tracks;
# interning across incremental-state resets and sequences; packet defaults
# and clock snapshots; flows; counters; full and compact sched (CPU lanes,
# idle left empty); atrace in print and zero events, in time order across
# per-CPU bundles; compressed_packets; unknown fields; gzip and standard
# input; a JSON file named .pftrace; cut, damaged and empty traces (one
# line, exit 1, nothing written, an existing output untouched); every
# back-end.  The same traces and ../shared/real-traces/perfetto-proto
# (SKIP without it) against pfdecode.py, an independent decoder
# (pfcompare.py), and the real traces against the figures their README gives.
# Ends with "perfetto: N passed, N failed".
set -u
if [ $# -lt 1 ]; then
    echo "usage: $0 TRACEFIG" >&2
    exit 2
fi
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
w=$(mktemp -d "${TMPDIR:-/tmp}/tracefig-perfetto.XXXXXX")
trap 'rm -rf "$w"' EXIT INT TERM
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
gen() { python3 "$root/tests/tools/pfwrite.py" "$1" "$w/$1.pftrace"; }
# model CASE CHECK...: draws the case's trace as JSON and checks it
model() {
    c=$1
    shift
    if "$bin" "$w/$c.pftrace" --stats -o "$w/$c.json" >"$w/$c.out" 2>"$w/$c.err" &&
        python3 "$here/check.py" "$w/$c.json" "$@"; then ok; else bad "$c: $(head -3 "$w/$c.err")"; fi
}

for c in tracks intern defaults counters sched_full sched_compact compressed empty unknown gpu incclock freq system system_apps; do
    gen $c || bad "pfwrite $c"
done

# (c) track events
model tracks "labels == ['app / main', 'app / worker', 'app / Async', 'Group / Child']" \
    "busy['app / main'] == 10" "busy['app / worker'] == 8" "busy['Group / Child'] == 30" \
    "'inner' in names and 'ping' in names" "'c1' in cats" "m['window']['start_us'] == 1000000"
"$bin" "$w/tracks.pftrace" --flows -o "$w/flows.json" 2>/dev/null &&
    python3 "$here/check.py" "$w/flows.json" "len(m['arrows']) == 1" \
        "m['arrows'][0]['from']['lane'] == 0 and m['arrows'][0]['to']['lane'] == 1" && ok || bad "flows"
"$bin" "$w/tracks.pftrace" -o "$w/tracks.svg" 2>/dev/null && grep -q 'hello' "$w/tracks.svg" &&
    grep -q '"n"\|n: 7\|n=7\|7' "$w/tracks.svg" && ok || bad "debug annotations in the SVG's tooltips"
model intern "names == {'first', 'second', 'other seq'}" "busy['pid 200 / T'] == 6" \
    "'catA' in cats"
model defaults "busy['pid 300 / D'] == 2" "m['window']['end_us'] - m['window']['start_us'] == 3000"
model incclock "busy['pid 900 / inc'] == 2" "m['window']['start_us'] == 50001000" \
    "busy['pid 900 / legacy thread'] == 3" "{'legacy X', 'legacy B'} <= names" \
    "counters['pid 900 / legacy C depth'] == (4, 4)"
model unknown "busy['pid 800 / U'] == 2"
# A system trace's default figure: a few threads, then every CPU lane, all
# drawn in the default height (the height cut the CPU lanes, which come last)
"$bin" "$w/system.pftrace" -o "$w/system.json" 2>/dev/null &&
    python3 "$here/check.py" "$w/system.json" \
        "[l for l in labels[:m['layout']['lanes_drawn']] if l.startswith('CPU ')] == ['CPU 0', 'CPU 1', 'CPU 2', 'CPU 3']" \
        "len([l for l in labels if not l.startswith('CPU ')]) <= 10" && ok ||
    bad "system: the default figure draws every CPU lane under a few threads"
# A system trace's threads by the time their slices cover, most first
# (the kernel's after the users' of the same time: RenderThread before
# kthr_b, a child of kthreadd), not by pid; no counter track by default,
# the most varying first when asked for; the CPU lanes' legend names the
# processes of the most CPU time (rules/chrome/system.c)
model system_apps "labels == ['kthr_a', 'pid 30 / kworker/1:2', 'com.example.app', \
'com.example.app / RenderThread', 'com.example.runner / runner', 'busyuser', \
'CPU 0', 'CPU 1', 'CPU 2', 'CPU 3']" "not counters" \
    "[e['label'] for e in m['legend'] if 'cpu_ms' in e] == ['com.example.app', \
'com.example.runner', 'busyuser', 'idle0', 'idle1', 'idle2']" \
    "[e['holds'] for e in m['legend'] if e['label'] == 'other processes'] == \
[['idle3', 'idle4', 'idle5']]" "'sched' not in [e['label'] for e in m['legend']]" \
    "len({e['color'] for e in m['legend']}) == len(m['legend'])"
"$bin" "$w/system_apps.pftrace" --max-counters 1 -o "$w/sa1.json" 2>/dev/null &&
    python3 "$here/check.py" "$w/sa1.json" "list(counters) == ['idle0 / wavy']" && ok ||
    bad "system_apps: the counter that varies first"
"$bin" "$w/system_apps.pftrace" --stats -o "$w/sa.json" >/dev/null 2>&1 &&
    python3 "$here/pfcompare.py" "$w/system_apps.pftrace" "$w/sa.json" cpu-legend cpu-processes &&
    ok || bad "system_apps: the CPU legend against the decoder's CPU time per process"
# ... and in the PNG: each legend colour drawn, the processes' apart
if "$bin" "$w/system_apps.pftrace" -o "$w/sa.png" 2>/dev/null; then
    python3 "$here/colors.py" "$w/sa.png" "$w/sa.json" && ok || bad "system_apps: PNG colours"
else
    bad "system_apps: PNG"
fi
# A colour means one class: tests/chrome's 15 categories, in the PNG
c15=$root/tests/chrome/cases/classes_15/trace.json
"$bin" "$c15" -o "$w/c15.png" 2>/dev/null && "$bin" "$c15" -o "$w/c15.json" 2>/dev/null &&
    python3 "$here/colors.py" "$w/c15.png" "$w/c15.json" && ok || bad "classes_15: PNG colours"
model counters "counters['proc / mem'] == (0, 90)" "counters['wave'] == (0, 2)"
model gpu "counters['GPU 1 / GPU busy'] == (0, 30)" "counters['GPU 1 / mem bw'] == (0, 0.75)" \
    "counters['GPU 0 / shader'] == (5, 7)" "'GPU 0 / gpufreq' not in counters" \
    "busy['GPU 0 / GRAPHICS'] == 1 and busy['GPU 0 / COMPUTE'] == 0.5" "{'fragment', 'dispatch'} <= names"
model freq "counters['CPU 1 / cpufreq'] == (300000, 1800000)" "counters['CPU 1 / cpuidle'] == (-1, 1)" \
    "counters['GPU 0 / gpufreq'] == (150000, 900000)"
model compressed "labels == ['app / main', 'app / worker', 'app / Async', 'Group / Child']" \
    "busy['Group / Child'] == 30"

# (e) scheduling and atrace
model sched_full "labels[-2:] == ['CPU 0', 'CPU 1']" "busy['CPU 0'] == 30" "busy['CPU 1'] == 3" \
    "busy['/bin/server / srv-worker'] == 22" "busy['/bin/server / async op'] == 8" \
    "[l['rows'] for l in m['lanes'] if l['label'] == '/bin/server / async op'] == [2]" "'handle|request' in names and 'zero slice' in names" \
    "counters['/bin/server / queue'] == (5, 5)" "counters['/bin/server / zcount'] == (9, 9)" \
    "'/bin/server' in cats and 'client' in cats" "'swapper/0' not in names" "'client' in names"
model sched_compact "labels == ['CPU 2']" "busy['CPU 2'] == 25" "names == {'alpha', 'beta'}" \
    "'alpha-proc' in cats"
"$bin" "$w/sched_full.pftrace" --lanes 'CPU*' -o "$w/cpus.json" 2>/dev/null &&
    python3 "$here/check.py" "$w/cpus.json" "labels == ['CPU 0', 'CPU 1']" && ok || bad "--lanes 'CPU*'"
"$bin" "$w/sched_full.pftrace" --stats 2>/dev/null | grep -q '^CPU 0 .* 30 ' && ok || bad "--stats CPU 0"
python3 "$here/check.py" "$w/sched_full.json" "m['stats']['cpus'] == 2 and m['stats']['cpus_busy_ms'] == 33" \
    "m['stats']['cpu_processes'] == [{'name': '/bin/server', 'cpu_ms': 28}, {'name': 'client', 'cpu_ms': 5}]" &&
    ok || bad "CPU time per process"
"$bin" "$w/sched_full.pftrace" --stats 2>/dev/null | grep -q '^CPU utilisation  41.25 % of 2 CPUs' && ok ||
    bad "--stats CPU utilisation"

# (a) input: gzip, standard input, JSON named .pftrace
gzip -c "$w/tracks.pftrace" >"$w/tracks.pftrace.gz"
"$bin" "$w/tracks.pftrace.gz" -o "$w/gz.json" 2>/dev/null && cmp -s "$w/gz.json" "$w/tracks.json" && ok ||
    bad "gzip"
"$bin" - -o "$w/stdin.json" <"$w/tracks.pftrace" 2>/dev/null && cmp -s "$w/stdin.json" "$w/tracks.json" &&
    ok || bad "standard input"
gzip -c "$w/sched_full.pftrace" | "$bin" - -o "$w/stdin2.json" 2>/dev/null &&
    python3 "$here/check.py" "$w/stdin2.json" "busy['CPU 0'] == 30" && ok || bad "gzip on standard input"
printf '\n{"traceEvents":[{"ph":"X","name":"j","ts":0,"dur":5,"pid":1,"tid":1}]}\n' >"$w/json.pftrace"
"$bin" "$w/json.pftrace" -o "$w/json.json" 2>/dev/null &&
    python3 "$here/check.py" "$w/json.json" "names == {'j'}" && ok || bad "JSON named .pftrace"

# (g) bad input
echo keep >"$w/keep.svg"
"$bin" "$w/empty.pftrace" -o "$w/keep.svg" 2>"$w/err"
rc=$?
[ $rc -eq 1 ] && [ "$(wc -l <"$w/err")" -eq 1 ] && grep -q 'no event to draw' "$w/err" &&
    [ "$(cat "$w/keep.svg")" = keep ] && ok || bad "empty: rc=$rc $(cat "$w/err")"
size=$(wc -c <"$w/sched_full.pftrace")
head -c $((size - 7)) "$w/sched_full.pftrace" >"$w/cut.pftrace"
"$bin" "$w/cut.pftrace" -o "$w/cut.json" 2>"$w/err"
rc=$?
[ $rc -eq 0 ] && [ "$(grep -c warning "$w/err")" -eq 1 ] && grep -q 'cut in a packet' "$w/err" &&
    python3 "$here/check.py" "$w/cut.json" "busy['CPU 0'] == 30" && ok || bad "cut: rc=$rc $(cat "$w/err")"
python3 - "$w/tracks.pftrace" "$w/damaged.pftrace" <<'PY'
import sys
b = bytearray(open(sys.argv[1], 'rb').read())
b[40] = 0xff  # inside the second packet
b[41] = 0xff
open(sys.argv[2], 'wb').write(bytes(b))
PY
"$bin" "$w/damaged.pftrace" -o "$w/keep.svg" 2>"$w/err"
rc=$?
{ [ $rc -eq 1 ] && [ "$(wc -l <"$w/err")" -eq 1 ] && grep -q 'damaged.pftrace: byte [0-9]*: ' "$w/err" &&
    [ "$(cat "$w/keep.svg")" = keep ]; } || { [ $rc -eq 0 ] && [ "$(wc -l <"$w/err")" -le 1 ]; } && ok ||
    bad "damaged: rc=$rc $(cat "$w/err")"
printf '\012\005\010\001\377\377\377' >"$w/bad2.pftrace"
"$bin" "$w/bad2.pftrace" -o "$w/keep.svg" 2>"$w/err"
rc=$?
[ $rc -eq 1 ] && [ "$(wc -l <"$w/err")" -eq 1 ] && grep -q 'bad2.pftrace: byte ' "$w/err" && ok ||
    bad "bad2: rc=$rc $(cat "$w/err")"

# back-ends
for ext in svg tex pdf png json; do
    "$bin" "$w/sched_full.pftrace" -o "$w/all.$ext" 2>/dev/null && [ -s "$w/all.$ext" ] &&
        "$bin" "$w/sched_full.pftrace" -o "$w/again.$ext" 2>/dev/null && cmp -s "$w/all.$ext" "$w/again.$ext" &&
        ok || bad "back-end $ext"
done
"$bin" "$w/tracks.pftrace" --window-event inner -o "$w/win.json" 2>/dev/null &&
    python3 "$here/check.py" "$w/win.json" "m['window']['end_us'] - m['window']['start_us'] == 3000" &&
    ok || bad "--window-event"
"$bin" "$w/tracks.pftrace" --from 2ms --to 6ms -o "$w/ft.json" 2>/dev/null &&
    python3 "$here/check.py" "$w/ft.json" "m['window']['start_us'] == 1002000" && ok || bad "--from/--to"

# the library and the Python module (from the checkout): a protobuf trace by
# path and as bytes, the command's bytes
lib=$(dirname "$bin")/libtracefig.so.0
if grep -q __asan_init "$lib" 2>/dev/null; then
    # an ASan library loads only into programs built with it (run-all.sh
    # skips the Python suite there too; tests/lib runs its C test)
    echo "SKIP python: a sanitizer build's library"
elif [ -f "$lib" ] && [ -d "$root/python/tracefig" ]; then
    "$bin" "$w/sched_full.pftrace" -o "$w/cmd.svg" 2>/dev/null
    if PYTHONPATH="$root/python" TRACEFIG_LIB="$lib" python3 - "$w/sched_full.pftrace" "$w/cmd.svg" <<'PY'
import sys
import tracefig
want = open(sys.argv[2]).read()
a = tracefig.Figure(sys.argv[1]).svg()
b = tracefig.Figure(open(sys.argv[1], 'rb').read()).svg()
s = tracefig.Figure(sys.argv[1]).stats()
sys.exit(0 if a == want and b == want and s['cpus'] == 2 else 1)
PY
    then ok; else bad "the Python module on a protobuf trace (path and bytes)"; fi
else
    echo "SKIP python: no $lib or no $root/python/tracefig"
fi

# the project's own traces against tests/perfetto/pfdecode.py, an independent
# decoder (pfcompare.py: CPU lanes and busy within 2 %, track and counter
# lanes, bar names and busy, atrace threads and counters, the window)
cmp_model() {
    c=$1
    shift
    if "$bin" "$w/$c.pftrace" --stats --format json -o "$w/$c.dec.json" >/dev/null 2>"$w/$c.err" &&
        python3 "$here/pfcompare.py" "$w/$c.pftrace" "$w/$c.dec.json" "$@"; then ok; else bad "pfdecode $c $*"; fi
}
for c in tracks intern defaults counters compressed unknown; do
    cmp_model $c window tracks counters
done
cmp_model sched_full cpus window atrace atrace-counters cpu-processes
cmp_model sched_compact cpus window atrace tracks cpu-processes
cmp_model freq cpus window
# the comparison itself fails on a model that is 3 % off, or misnames a lane or a bar
python3 - "$w/sched_full.dec.json" "$w/tracks.dec.json" "$w/bad" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
i = [l['label'] for l in m['lanes']].index('CPU 0')
m['stats']['lanes'][i]['busy_ms'] *= 1.03
json.dump(m, open(sys.argv[3] + '1.json', 'w'))
m = json.load(open(sys.argv[1]))
m['bars'][0]['name'] = 'not in the trace'
json.dump(m, open(sys.argv[3] + '2.json', 'w'))
m = json.load(open(sys.argv[2]))
m['lanes'][0]['label'] += 'x'
json.dump(m, open(sys.argv[3] + '3.json', 'w'))
PY
! python3 "$here/pfcompare.py" "$w/sched_full.pftrace" "$w/bad1.json" cpus >/dev/null &&
    ! python3 "$here/pfcompare.py" "$w/sched_full.pftrace" "$w/bad2.json" atrace >/dev/null &&
    ! python3 "$here/pfcompare.py" "$w/tracks.pftrace" "$w/bad3.json" tracks >/dev/null && ok ||
    bad "pfcompare.py accepts a doctored model"

# the real traces
real=$root/../shared/real-traces/perfetto-proto
if [ ! -d "$real" ]; then
    echo "SKIP real traces: $real not found"
else
    r=$real
    "$bin" "$r/tokio-tracing.pftrace" --stats -o "$w/tokio.json" >/dev/null 2>&1 &&
        python3 "$here/check.py" "$w/tokio.json" "len(labels) == 9" \
            "sorted(l.split(' / ')[1] for l in labels) == ['main'] + ['tokio-runtime-worker-%d' % i for i in range(8)]" \
            "'\"backtrace\"' in names and 'worker start' in names and 'park' in names" \
            "abs((m['window']['end_us'] - m['window']['start_us']) / 1e3 - 260) < 1" && ok || bad "tokio"
    "$bin" "$r/sdk-counters.pftrace" --stats -o "$w/sdk.json" >/dev/null 2>&1 &&
        python3 "$here/check.py" "$w/sdk.json" "len(labels) == 1 and labels[0].endswith('track1')" \
            "counters[labels[0]] == (0, 2)" \
            "abs((m['window']['end_us'] - m['window']['start_us']) / 1e6 - 3.0) < 0.01" && ok || bad "sdk"
    "$bin" "$r/empty-config.pftrace" -o "$w/e.svg" 2>"$w/err"
    [ $? -eq 1 ] && [ "$(wc -l <"$w/err")" -eq 1 ] && grep -q 'empty-config.pftrace: .*no event' "$w/err" &&
        [ ! -e "$w/e.svg" ] && ok || bad "empty-config: $(cat "$w/err")"
    "$bin" "$r/android-startup-warm.perfetto-trace" --lanes 'CPU*' --stats -o "$w/and.json" >/dev/null 2>"$w/err" &&
        python3 "$here/check.py" "$w/and.json" "labels == ['CPU %d' % i for i in range(8)]" \
            "abs(busy['CPU 0'] - 574) < 10 and abs(busy['CPU 7'] - 83) < 5" && ok || bad "android CPUs"
    "$bin" "$r/android-startup-warm.perfetto-trace" --max-lanes 400 --max-counters 400 -o "$w/and2.json" 2>"$w/err" &&
        python3 "$here/check.py" "$w/and2.json" \
            "len([l for l in m['lanes'] if l['kind'] == 'slices' and isinstance(l.get('tid'), int)]) == 152" \
            "len([l for l in m['lanes'] if l['kind'] != 'slices']) == 204" \
            "'measureBlock' in names and 'startActivityAndWait' in names" \
            "any(l.startswith('/system/bin/surfaceflinger') for l in labels)" &&
        grep -q '2 slices never ended' "$w/err" && ok || bad "android threads: $(head -2 "$w/err")"
    "$bin" "$r/android-startup-warm.perfetto-trace" -o "$w/and3.json" 2>/dev/null &&
        python3 "$here/check.py" "$w/and3.json" "labels[-8:] == ['CPU %d' % i for i in range(8)]" &&
        ok || bad "android default: CPU lanes after the threads"
    "$bin" "$r/android-startup-warm.perfetto-trace" --window-event activityStart -o "$w/and4.json" 2>/dev/null &&
        ok || bad "android --window-event activityStart"
    # against the independent decoder: pcmp TRACE CHECK... -- TRACEFIG-OPTION...
    pcmp() {
        t=$r/$1
        shift
        checks=
        while [ "$1" != -- ]; do checks="$checks $1"; shift; done
        shift
        # shellcheck disable=SC2086
        if ! "$bin" "$t" "$@" --stats --format json -o "$w/pc.json" >/dev/null 2>"$w/err"; then
            bad "pfdecode $(basename "$t"): tracefig: $(head -1 "$w/err")"
        elif python3 "$here/pfcompare.py" "$t" "$w/pc.json" $checks; then ok; else
            bad "pfdecode $(basename "$t")$checks"; fi
    }
    pcmp android-startup-warm.perfetto-trace cpus window cpu-processes -- --lanes 'CPU*'
    pcmp android-startup-warm.perfetto-trace cpu-legend --
    "$bin" "$r/android-startup-warm.perfetto-trace" -o "$w/and5.json" 2>/dev/null &&
        python3 "$here/check.py" "$w/and5.json" \
            "any(l.startswith('androidx.benchmark.integration.macrobenchmark.target') for l in labels)" \
            "'measureBlock' in names and 'startActivityAndWait' in names" "not counters" &&
        ok || bad "android default: the app and the test runner among the threads"
    "$bin" "$r/android-startup-warm.perfetto-trace" --width 3.3in -o "$w/and6.png" 2>/dev/null &&
        "$bin" "$r/android-startup-warm.perfetto-trace" --width 3.3in -o "$w/and6.json" 2>/dev/null &&
        python3 "$here/colors.py" "$w/and6.png" "$w/and6.json" 6 && ok || bad "android at 3.3in: legend colours"
    pcmp android-startup-warm.perfetto-trace atrace atrace-counters -- --max-lanes 400 --max-counters 400
    # a counter named as a thread of its process ('GPU completion' of 3
    # apps): its label must not say "(tid ?)", as it has no thread
    python3 "$here/check.py" "$w/pc.json" "not [x for x in labels if x.endswith('(tid ?)')]" >/dev/null && ok ||
        bad "android: counter lanes labelled '(tid ?)': $(grep -o '"[^"]*(tid ?)"' "$w/pc.json" | head -3 | tr '\n' ' ')"
    pcmp tokio-tracing.pftrace tracks counters window cpus --
    pcmp sdk-counters.pftrace tracks counters window cpus --
fi
echo "perfetto: $pass passed, $fail failed"
[ $fail -eq 0 ]
