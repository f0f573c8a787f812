#!/bin/sh
# ftrace suite: run.sh TRACEFIG
#
# ftrace text written by tests/tools/genftrace.py in every dialect (the
# tracing file with and without the TGID column, trace-cmd report, Android
# 4.1's marks, both systrace HTML forms, Chrome JSON's systemTraceEvents,
# an empty one, marks alone), checked on the JSON figure model
# (tests/perfetto/check.py): CPU lanes and their busy time, atrace thread
# slices, async slices and counters, names, the window (a clock-sync mark
# at time 0 does not stretch it), CPU time per process; gzip and standard
# input; bad input (a cut file, a damaged one, no event line, an HTML page
# without data, a cut page: one line, exit 1, an existing output
# untouched; lines of neither kind: one warning); every back-end,
# --window-event, --lanes; other events as instants by name on their
# thread's lane (instants).  The same traces and ../shared/real-traces/ftrace
# (SKIP without it) against tests/ftrace/ftcount.py, an independent count.
# Ends with "ftrace: N passed, N failed".
set -u
if [ $# -lt 1 ]; then
    echo "usage: $0 TRACEFIG" >&2
    exit 2
fi
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
check="$root/tests/perfetto/check.py"
w=$(mktemp -d "${TMPDIR:-/tmp}/tracefig-ftrace.XXXXXX")
trap 'rm -rf "$w"' EXIT INT TERM
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
ext() { case $1 in html*) echo html ;; json*) echo json ;; *) echo txt ;; esac; }
file() { echo "$w/$1.$(ext "$1")"; }
# model CASE CHECK...: draws the case's trace as JSON (every lane) and checks it
model() {
    c=$1
    shift
    if "$bin" "$(file "$c")" --stats --max-lanes 100 -o "$w/$c.model.json" >"$w/$c.out" 2>"$w/$c.err" &&
        python3 "$check" "$w/$c.model.json" "$@"; then ok; else bad "$c: $(head -3 "$w/$c.err")"; fi
}

dialects="tgid plain tcmd android41 html html_legacy json json_empty json_system noise marks_only lost eight instants
    flags5 crlf dropped latency old2632 markvar rawclock bom preface perfscript html_legacy_code
    html_comment"
for c in $dialects; do
    python3 "$root/tests/tools/genftrace.py" "$c" "$(file "$c")" || bad "genftrace $c"
done

# (a) every dialect: the same lanes, busy times, slices, counters and window
sched="busy['CPU 0'] == 22 and busy['CPU 1'] == 8"
slices="busy['server / srv-worker'] == 8 and busy['client'] == 4 and busy['server / async op'] == 8"
names="{'handle', 'parse', 'request', 'async op', 'irq_handler_entry'} <= names"
# the CPU lanes' runs are of their processes' classes (the shared system rule)
cats="{'server', 'client', 'atrace', 'ftrace'} <= cats and 'sched' not in cats"
count="counters['server / queue'] == (3, 5)"
window="m['window']['start_us'] == 1000000 and m['window']['end_us'] == 1022000"
for c in tgid plain tcmd android41 html html_legacy; do
    model $c "labels[-2:] == ['CPU 0', 'CPU 1']" "$sched" "$slices" "$names" "$cats" "$count" "$window" \
        "m['stats']['cpu_processes'] == [{'name': 'server', 'cpu_ms': 25}, {'name': 'client', 'cpu_ms': 5}]"
    [ -s "$w/$c.err" ] && bad "$c: a message: $(cat "$w/$c.err")" || ok
done
# other columns and fields: 5-character flags, CRLF, trace-cmd report -l's
# latency columns, kernels before 2.6.35, a raw clock's integer times, a
# byte order mark, a line before the header, marks with a trailing "\n" or
# blanks and counters with a category: the same figure
for c in flags5 crlf latency old2632 markvar rawclock bom preface html_legacy_code html_comment; do
    model $c "labels[-2:] == ['CPU 0', 'CPU 1']" "$sched" "$slices" "$names" "$count" "$window" \
        "m['stats']['cpu_processes'] == [{'name': 'server', 'cpu_ms': 25}, {'name': 'client', 'cpu_ms': 5}]" \
        "'handle\\\\n' not in names and 'task client' not in labels"
    if [ $c = preface ]; then
        grep -q "1 line neither a header nor an ftrace event, skipped (the first: line 1)" "$w/$c.err" &&
            [ "$(wc -l <"$w/$c.err")" = 1 ] && ok || bad "$c: one warning: $(cat "$w/$c.err")"
        continue
    fi
    [ -s "$w/$c.err" ] && bad "$c: a message: $(cat "$w/$c.err")" || ok
done
# perf script's text: the same CPU lanes and busy time (no marks), the
# worker's process from its PID/TID
model perfscript "labels[-2:] == ['CPU 0', 'CPU 1']" "$sched" "'irq_handler_entry' in names" \
    "m['stats']['cpu_processes'][0] == {'name': 'server', 'cpu_ms': 25}"
[ -s "$w/perfscript.err" ] && bad "perfscript: a message: $(cat "$w/perfscript.err")" || ok
# trace-cmd report's `CPU:1 [42 EVENTS DROPPED]`: as the tracing file's LOST line
model dropped "busy['CPU 1'] == 7" "busy['CPU 0'] == 22" "'42 events lost' in names"
grep -q "42 events lost on CPU 1" "$w/dropped.err" && ok || bad "dropped: the warning: $(cat "$w/dropped.err")"
# without the TGID column, the processes come from the marks (B|100|...)
python3 "$check" "$w/plain.model.json" "[l for l in m['lanes'] if l['label'] == 'server / srv-worker'][0]['pid'] == 100" &&
    ok || bad "plain: srv-worker's process from its marks"
# the clock-sync mark at time 0 is no instant either
python3 "$check" "$w/tgid.model.json" "'trace_event_clock_sync' not in str(names)" && ok || bad "clock sync drawn"

# (b) Chrome JSON: the text on the JSON's clock (parent_ts=5.0 is the
# text's 1.0 s), with its own events; an empty systemTraceEvents draws the JSON alone
model json "$sched" "$slices" "'frame' in names" "m['window']['start_us'] == 5000000" \
    "m['window']['end_us'] == 5022000" "labels[0] == 'browser'"
model json_empty "labels == ['browser']" "busy['browser'] == 16"
[ -s "$w/json_empty.err" ] && bad "json_empty: a message: $(cat "$w/json_empty.err")" || ok
# a JSON of systemTraceEvents alone (no traceEvents): its text drawn as the text is
model json_system "labels[-2:] == ['CPU 0', 'CPU 1']" "$sched" "$slices" "$window"
[ -s "$w/json_system.err" ] && bad "json_system: a message: $(cat "$w/json_system.err")" || ok

# (c) atrace marks alone: thread lanes, no CPU lane
model marks_only "not [l for l in labels if l.startswith('CPU')]" "busy['pid 100 / srv-worker'] == 8" \
    "busy['client'] == 4"
# lines of neither kind: skipped, counted in one warning naming the first
model noise "$sched" "$slices"
[ "$(wc -l <"$w/noise.err")" -eq 1 ] && grep -q 'noise.txt: 3 lines neither a header nor an ftrace event, skipped (the first: line 15)' "$w/noise.err" &&
    ok || bad "noise: $(cat "$w/noise.err")"

# (d) input: gzip, standard input, both
gzip -c "$w/tgid.txt" >"$w/tgid.txt.gz"
"$bin" "$w/tgid.txt.gz" --stats --max-lanes 100 -o "$w/gz.json" >/dev/null 2>&1 && cmp -s "$w/gz.json" "$w/tgid.model.json" &&
    ok || bad "gzip"
"$bin" - --stats --max-lanes 100 -o "$w/stdin.json" <"$w/tgid.txt" >/dev/null 2>&1 &&
    cmp -s "$w/stdin.json" "$w/tgid.model.json" && ok || bad "standard input"
gzip -c "$w/html.html" | "$bin" - --stats -o "$w/stdin2.json" >/dev/null 2>&1 &&
    python3 "$check" "$w/stdin2.json" "$sched" && ok || bad "gzip'd HTML on standard input"

# (e) bad input: one line naming the file and the line, exit 1, the output kept
echo keep >"$w/keep.svg"
badcase() {
    name=$1
    want=$2
    "$bin" "$w/$name" -o "$w/keep.svg" 2>"$w/err"
    rc=$?
    [ $rc -eq 1 ] && [ "$(wc -l <"$w/err")" -eq 1 ] && grep -q "$want" "$w/err" &&
        [ "$(cat "$w/keep.svg")" = keep ] && ok || bad "$name: rc=$rc $(cat "$w/err")"
}
size=$(wc -c <"$w/tgid.txt")
head -c $((size - 20)) "$w/tgid.txt" >"$w/cut.txt"
badcase cut.txt 'cut.txt: line 34: the file is cut'
python3 - "$w/tgid.txt" "$w/damaged.txt" <<'PY'
import sys
b = bytearray(open(sys.argv[1], 'rb').read())
at = b.index(b'sched_switch', 1500)
b[at:at + 4] = b'\x00\x01\xff\x00'
open(sys.argv[2], 'wb').write(bytes(b))
PY
badcase damaged.txt 'damaged.txt: line [0-9]*: a control byte 0x00'
head -11 "$w/tgid.txt" >"$w/headers.txt"
badcase headers.txt 'headers.txt: no ftrace event line'
printf '<!DOCTYPE html>\n<html><body><p>[000] hello</p></body></html>\n' >"$w/page.html"
badcase page.html 'page.html: an HTML page without systrace data'
head -30 "$w/html.html" >"$w/cutpage.html"
badcase cutpage.html 'cutpage.html: line 30: the page is cut'
gzip -c "$w/tgid.txt" | head -c 300 >"$w/cut.txt.gz"
badcase cut.txt.gz 'cut.txt.gz'

# (f) every back-end, twice the same bytes; --window-event; --lanes
for e in svg tex pdf png json; do
    "$bin" "$w/tgid.txt" -o "$w/all.$e" 2>/dev/null && [ -s "$w/all.$e" ] &&
        "$bin" "$w/tgid.txt" -o "$w/again.$e" 2>/dev/null && cmp -s "$w/all.$e" "$w/again.$e" &&
        ok || bad "back-end $e"
done
"$bin" "$w/tgid.txt" --window-event handle -o "$w/win.json" 2>/dev/null &&
    python3 "$check" "$w/win.json" "m['window']['start_us'] == 1011000 and m['window']['end_us'] == 1019000" &&
    ok || bad "--window-event handle"
"$bin" "$w/tgid.txt" --lanes 'CPU*' -o "$w/cpus.json" 2>/dev/null &&
    python3 "$check" "$w/cpus.json" "labels == ['CPU 0', 'CPU 1']" && ok || bad "--lanes 'CPU*'"
"$bin" "$w/tgid.txt" --stats 2>/dev/null | grep -q '^CPU utilisation  68.18 % of 2 CPUs' && ok ||
    bad "--stats CPU utilisation"
"$bin" "$w/tgid.txt" --stats 2>/dev/null | grep -q '^server  *25 ' && ok || bad "--stats CPU ms of server"

# (f2) lost events (`CPU:1 [LOST 42 EVENTS]`): the range hatched, neither
# work nor idle, one warning naming the CPU; 8 CPUs
"$bin" "$(file lost)" --format json -o "$w/lost.json" 2>"$w/lost.err" &&
    python3 - "$w/lost.json" <<'PY' && ok || bad "lost: the range drawn lost: $(cat "$w/lost.err")"
import json, sys
m = json.load(open(sys.argv[1]))
L = [l['label'] for l in m['lanes']]
cpu1 = [(b['name'], b['x0'], b['x1'], b.get('lost')) for b in m['bars'] if L[b['lane']] == 'CPU 1']
busy = {L[i]: s['busy_ms'] for i, s in enumerate(m['stats']['lanes'])}
want = [('client', 5, 9, None), ('42 events lost', 9, 10, True), ('srv-worker', 12, 15, None)]
sys.exit(0 if cpu1 == want and busy['CPU 1'] == 7 and busy['CPU 0'] == 22 else 1)
PY
[ "$(wc -l <"$w/lost.err")" = 1 ] && grep -q "42 events lost on CPU 1" "$w/lost.err" && ok ||
    bad "lost: one warning: $(cat "$w/lost.err")"
"$bin" "$(file lost)" -o "$w/lost.tex" 2>/dev/null && grep -q 'tracefighatch' "$w/lost.tex" && ok ||
    bad "lost: TikZ hatching"
# the legend's swatch of lost events is as their bars: grey (the JSON model,
# the SVG's fills), hatched (SVG, TikZ), not the category's own colour
python3 - "$w/lost.json" <<'PY' && ok || bad "lost: the legend's colour is not the bars'"
import json, sys
m = json.load(open(sys.argv[1]))
cat = {c['name']: c['color'] for c in m['categories']}
leg = [e['color'] for e in m['legend'] if e['label'] == 'events lost']
bars = {cat[b['category']] for b in m['bars'] if b.get('lost')}
sys.exit(0 if leg == ['#BBBBBB'] and bars == {'#BBBBBB'} else 1)
PY
"$bin" "$(file lost)" -o "$w/lost.svg" 2>/dev/null && python3 - "$w/lost.svg" <<'PY' && ok || bad "lost: SVG swatch not as the bars"
import re, sys
s = open(sys.argv[1]).read()
bar = re.search(r'<title>42 events lost[^<]*</title>\s*<path d="[^"]*" fill="(#\w+)"', s).group(1)
sw = re.search(r'class="tf-swatch" d="[^"]*" fill="(#\w+)"[^>]*/>\s*<path d="[^"]*" fill="none" '
               r'stroke="#555555"[^>]*/>\s*(<path d="[^"]*" fill="none" stroke="#555555"[^>]*/>\s*)*'
               r'<text class="tf-legend-text"[^>]*>events lost<', s)
sys.exit(0 if sw and sw.group(1) == bar == '#BBBBBB' else 1)
PY
grep -q 'tracefig-cat-eventsxlost}{HTML}{BBBBBB}' "$w/lost.tex" && ok || bad "lost: TikZ colour not the bars' grey"
"$bin" "$(file eight)" --format json --max-lanes 100 -o "$w/eight.json" 2>/dev/null &&
    python3 "$check" "$w/eight.json" "['CPU %d' % i for i in range(8)] == [l for l in labels if l.startswith('CPU')]" &&
    ok || bad "eight: 8 CPU lanes"

# (h) other events (not sched_switch/wakeup, marks, cpu_frequency/idle): an
# instant by name on the thread's lane (its TID), counted per lane and name
# against the text the generator wrote; a thread without slices (server)
# gets a lane of instants alone, after the lanes of slices: the CPU lanes,
# their busy time and the lanes of slices are those of the tgid case
cat >"$w/instants.py" <<'PY'
import collections, json, re, sys
m = json.load(open(sys.argv[2]))
L = [l['label'] for l in m['lanes']]
got = collections.Counter((L[b['lane']], b['name']) for b in m['bars'] if b['shape'] == 'instant')
lane = {100: 'server', 101: 'server / srv-worker', 200: 'client'}
known = ('sched_switch', 'sched_wakeup', 'tracing_mark_write', 'cpu_frequency', 'cpu_idle')
want = collections.Counter()
for t in open(sys.argv[1]):
    e = re.match(r'\s*\S+-(\d+)\s.*?\d+\.\d+: (\w+): ', t)
    if e and e.group(2) not in known and int(e.group(1)) in lane:
        want[(lane[int(e.group(1))], e.group(2))] += 1
merged = [b for b in m['bars'] if b['shape'] == 'instant' and b['merged']]
ok = got == want and len(want) == 6 and not merged
print('' if ok else 'got %s want %s merged %s' % (dict(got), dict(want), merged))
sys.exit(0 if ok else 1)
PY
"$bin" "$(file instants)" --max-lanes 100 --width 7in -o "$w/instants.json" 2>"$w/instants.err" &&
    python3 "$w/instants.py" "$(file instants)" "$w/instants.json" >"$w/cmp.out" && ok ||
    bad "instants: per lane and name: $(cat "$w/cmp.out" "$w/instants.err")"
"$bin" "$(file instants)" --lanes server -o "$w/instants-server.json" 2>/dev/null &&
    python3 "$check" "$w/instants-server.json" "labels == ['server']" \
        "sorted(b['name'] for b in m['bars']) == ['sched_process_fork'] + ['workqueue_execute_start'] * 2" &&
    ok || bad "instants: --lanes server, its lane of instants alone"
"$bin" "$(file tgid)" -o "$w/tgid-default.json" 2>/dev/null &&
    "$bin" "$(file instants)" -o "$w/instants-default.json" 2>/dev/null &&
    python3 - "$w/tgid-default.json" "$w/instants-default.json" <<'PY' && ok || bad "instants: the default figure's lanes of slices and CPUs moved"
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:])
def lanes(m):
    return [(l['label'], s['busy_ms']) for l, s in zip(m['lanes'], m['stats']['lanes']) if l['label'] != 'server']
sys.exit(0 if lanes(a) == lanes(b) and a['window'] == b['window'] and
         lanes(b)[-2:] == [('CPU 0', 22), ('CPU 1', 8)] else 1)
PY

# (g) the independent count: CPU busy per CPU, atrace slices per thread
for c in tgid plain tcmd android41 html html_legacy json noise lost eight instants flags5 crlf \
    dropped latency old2632 markvar; do
    f=$(file $c)
    "$bin" "$f" --stats --max-lanes 500 --max-counters 500 --format json -o "$w/$c.cmp.json" >/dev/null 2>&1 &&
        python3 "$here/ftcount.py" "$f" "$w/$c.cmp.json" >"$w/cmp.out" && ok || bad "ftcount $c: $(cat "$w/cmp.out")"
done
# the count fails on a model 2 % off
python3 - "$w/tgid.cmp.json" "$w/off.json" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
i = [l['label'] for l in m['lanes']].index('CPU 0')
m['stats']['lanes'][i]['busy_ms'] *= 1.02
json.dump(m, open(sys.argv[2], 'w'))
PY
! python3 "$here/ftcount.py" "$w/tgid.txt" "$w/off.json" >/dev/null && ok || bad "ftcount misses a 2 % error"
real="$root/../shared/real-traces/ftrace"
if [ -d "$real" ]; then
    for f in "$real"/*.txt "$real"/*.html; do
        [ -f "$f" ] || continue
        n=$(basename "$f")
        for width in 3.3in 7in; do
            "$bin" "$f" --stats --max-lanes 500 --max-counters 500 --width $width --format json \
                -o "$w/real.json" >/dev/null 2>"$w/real.err" &&
                python3 "$here/ftcount.py" "$f" "$w/real.json" >"$w/cmp.out" && ok ||
                bad "ftcount $n at $width: $(cat "$w/cmp.out" "$w/real.err" | head -5)"
        done
        "$bin" "$f" -o "$w/real.svg" 2>"$w/real.err" && [ -s "$w/real.svg" ] && ok ||
            bad "$n: the default figure: $(cat "$w/real.err")"
    done
else
    echo "SKIP real traces: no $real"
fi

echo "ftrace: $pass passed, $fail failed"
[ $fail -eq 0 ]
