#!/bin/sh
# CTF suite: run.sh TRACEFIG
#
# The traces are the project's own (tests/tools/genctf.py writes CTF 1.8
# metadata and packets), made at test time under $TMPDIR; the bad ones are
# cut or damaged copies.  Checks, on the JSON figure model
# (tests/ctf/check.py) and on the messages:
#   kernel      CPU lanes "CPU 0".."CPU 3", each switched-in thread's time
#               named by its comm, idle left empty; busy per CPU and per
#               process (the statedump's names); --kernel-detail rows
#   oldsys      sys_* / exit_syscall system calls
#   ust         a lane per thread, cyg-profile functions by address nested,
#               *_begin/*_end pairs, instants, one slice never ended
#   nothreads   no vtid: a lane per stream
#   lost        one warning, a note naming the CPU, the range drawn as
#               lost, not as idle
#   twostreams  two streams per CPU merged in time order
#   bigendian   the kernel case, big-endian: the same numbers
#   overlap     packets that overlap (babeltrace2's muxer stops): read whole
#   perf        perf's CTF: prev_pid/next_pid, perf_cpu
#   session     an LTTng session folder (kernel/ and ust/...): one clock
#   eight       8 CPUs; rotated: an LTTng session's archived chunks;
#               ros2: callbacks per thread; dpdk: DPDK's own metadata;
#               busy per CPU, per process and slices per thread against
#               babeltrace2's text (busy.py), SKIP without its CLI
#   nocpu       no cpu_id in the packet context: the CPU from the stream
#               file's name; evcpu: from the event's cpu_id context
#   inputs      the folder, its metadata file
#   errors      a cut and a damaged stream file, metadata that does not
#               parse (the folder or its metadata file given), emptied or
#               overwritten, CTF 2: one line naming the file (and byte), exit 1,
#               nothing written, an existing output untouched
#   real        ../shared/real-traces/ctf: CPU busy per CPU against an
#               independent count of babeltrace2's text (tests/ctf/busy.py)
#   back-ends   json, svg, tikz (and pdf, png when built with cairo)
# Ends with "ctf: N passed, N failed".
set -u
if [ $# -lt 1 ]; then
    echo "usage: $0 TRACEFIG" >&2
    exit 2
fi
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
gen="$root/tests/tools/genctf.py"
check="$here/check.py"
if ! command -v python3 >/dev/null 2>&1; then
    echo "SKIP (no python3)"
    echo "ctf: 0 passed, 0 failed"
    exit 0
fi
# Under ASan (make SAN=1): the ctf plugin's own leak on bad metadata (see the file)
LSAN_OPTIONS="suppressions=$here/lsan.supp:print_suppressions=0${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
export LSAN_OPTIONS
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tracefig-ctf.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
python3 "$gen" kernel "$tmp/kernel" || exit 1
probe=$("$bin" "$tmp/kernel" --stats 2>&1)
case $probe in
*"built without CTF"* | *"cannot be loaded"* | *"ctf plugin"*)
    echo "SKIP (no libbabeltrace2: install Debian's libbabeltrace2-dev and babeltrace2)"
    echo "ctf: 0 passed, 0 failed"
    exit 0
    ;;
esac
pass=0
fail=0
ok() { pass=$((pass + 1)); }
ko() {
    fail=$((fail + 1))
    echo "FAIL: $1"
}

# model NAME TRACE [OPTIONS...]: the JSON model of TRACE into $tmp/NAME.json
model() {
    n=$1
    t=$2
    shift 2
    "$bin" "$t" --format json -o "$tmp/$n.json" "$@" 2>"$tmp/$n.err"
}
# expect NAME WHAT CHECK...: check.py on the model NAME
expect() {
    n=$1
    what=$2
    shift 2
    if python3 "$check" "$tmp/$n.json" "$@"; then ok; else ko "$what"; fi
}

for c in oldsys ust nothreads lost twostreams bigendian overlap perf session eight rotated ros2 \
    dpdk nocpu evcpu; do
    python3 "$gen" $c "$tmp/$c" || ko "genctf.py $c"
done

# --- kernel ---
model kernel "$tmp/kernel" || ko "kernel: $(cat "$tmp/kernel.err")"
expect kernel "kernel: CPU lanes, busy per CPU" "lanes=CPU 0|CPU 1|CPU 2|CPU 3" \
    busy="CPU 0:65" busy="CPU 1:70" busy="CPU 2:1" busy="CPU 3:90"
expect kernel "kernel: per process (statedump names; server's three threads)" \
    proc=server:170 proc=client:50 proc=kworker/0:1:5 proc=systemd:1
expect kernel "kernel: threads by comm, idle empty" "bars=CPU 0:3" \
    "bar=CPU 0:server:10:30" "bar=CPU 0:kworker/0:1:50:55" "bar=CPU 0:server:60:100" \
    "bars=CPU 2:1" "bar=CPU 2:systemd:20:21"
expect kernel "kernel: thread names on their CPUs" "bar=CPU 1:server-worker:70:90" \
    "bar=CPU 1:client:0:50" "bar=CPU 3:server:5:95" "cat=CPU 0:server:2" "cat=CPU 0:irq:0"
if [ -s "$tmp/kernel.err" ]; then ko "kernel: stderr: $(cat "$tmp/kernel.err")"; else ok; fi
model kdetail "$tmp/kernel" --kernel-detail irq,syscalls || ko "kernel-detail"
expect kdetail "--kernel-detail irq,syscalls: rows under the CPU" "bars=CPU 0:7" \
    "row=CPU 0:read:1" "row=CPU 0:irq 42 eth0:2" "row=CPU 0:softirq NET_RX:2" \
    "row=CPU 0:irq 7 timer:1" "bar=CPU 0:read:62:70" "cat=CPU 0:syscall:1" "cat=CPU 0:irq:2"
model kirq "$tmp/kernel" --kernel-detail irq || ko "kernel-detail irq"
expect kirq "--kernel-detail irq: no syscalls" "cat=CPU 0:syscall:0" "cat=CPU 0:irq:2" \
    "row=CPU 0:irq 42 eth0:1"
model ksys "$tmp/kernel" --kernel-detail syscalls || ko "kernel-detail syscalls"
expect ksys "--kernel-detail syscalls: no interrupts" "cat=CPU 0:syscall:1" "cat=CPU 0:irq:0"
if "$bin" "$tmp/kernel" --kernel-detail bogus -o "$tmp/x.svg" 2>"$tmp/kd.err"; then
    ko "--kernel-detail bogus accepted"
elif grep -q "kernel-detail: expected irq, syscalls" "$tmp/kd.err" && [ ! -e "$tmp/x.svg" ]; then
    ok
else ko "--kernel-detail bogus: $(cat "$tmp/kd.err")"; fi
model oldsys "$tmp/oldsys" --kernel-detail syscalls || ko "oldsys"
expect oldsys "sys_write / exit_syscall" "bar=CPU 0:write:2:5" "row=CPU 0:write:1" busy="CPU 0:10"

# --- no cpu_id in the packet context: the CPU from the file's name
# (LTTng's CHANNEL_N), or from the event's cpu_id context ---
for c in nocpu evcpu; do
    model $c "$tmp/$c" || ko "$c: $(cat "$tmp/$c.err")"
    expect $c "$c: CPU lanes, busy per CPU" "lanes=CPU 0|CPU 1|CPU 2|CPU 3" \
        busy="CPU 0:65" busy="CPU 1:70" busy="CPU 2:1" busy="CPU 3:90"
done

# --- an empty stream file (LTTng leaves one for a CPU that wrote nothing)
# and an index folder (LTTng's index/*.idx, here damaged): read as the
# kernel case ---
cp -r "$tmp/kernel" "$tmp/kidx"
: >"$tmp/kidx/channel0_7"
mkdir "$tmp/kidx/index"
printf 'not an index' >"$tmp/kidx/index/channel0_0.idx"
model kidx "$tmp/kidx" || ko "kidx: $(cat "$tmp/kidx.err")"
expect kidx "an empty stream file, an index folder: the kernel's lanes" \
    "lanes=CPU 0|CPU 1|CPU 2|CPU 3" busy="CPU 0:65" busy="CPU 1:70" busy="CPU 2:1" busy="CPU 3:90"

# --- inputs: the folder, its metadata file, the same figure ---
model meta "$tmp/kernel/metadata" || ko "metadata file: $(cat "$tmp/meta.err")"
if cmp -s "$tmp/kernel.json" "$tmp/meta.json"; then ok; else ko "the metadata file draws another figure"; fi

# --- user space ---
model ust "$tmp/ust" || ko "ust: $(cat "$tmp/ust.err")"
expect ust "ust: a lane per thread, functions by address, pairs, nesting" \
    "bar=app:0x401000:0:40" "row=app:0x401200:1" \
    "bar=app:0x401200:10:20" "bar=app:app:work:50:80" \
    "bar=app / app-io:app:work:5:25" "bar=app / app-io:0x401300:60:100" \
    busy="app:70" busy="app / app-io:60"
if grep -q "1 slice never ended" "$tmp/ust.err"; then ok; else ko "ust: the unended slice's warning: $(cat "$tmp/ust.err")"; fi
n_inst=$(python3 -c "
import json; f=json.load(open('$tmp/ust.json'))
print(sum(1 for b in f['bars'] if b.get('shape') == 'instant' and b['name'] == 'app:tick'))")
if [ "$n_inst" = 2 ]; then ok; else ko "ust: 2 instants app:tick, got $n_inst"; fi
model uwin "$tmp/ust" --window-event 0x401200 || ko "--window-event 0x401200: $(cat "$tmp/uwin.err")"
w=$(python3 -c "import json; print(json.load(open('$tmp/uwin.json'))['window'])")
case $w in *10*20*) ok ;; *) ko "--window-event 0x401200: window $w" ;; esac
model ulanes "$tmp/ust" --lanes '*app-io' || ko "--lanes"
expect ulanes "--lanes picks the thread" "lanes=app / app-io"
model noth "$tmp/nothreads" || ko "nothreads: $(cat "$tmp/noth.err")"
expect noth "no vtid: a lane per stream" "lanes=gen / chan_0|gen / chan_1" \
    "bar=gen / chan_0:0x401000:0:40" busy="gen / chan_1:60"

# --- lost events ---
model lost "$tmp/lost" || ko "lost: $(cat "$tmp/lost.err")"
expect lost "lost: the range drawn as lost, the note names CPU 1" \
    "note=events lost (hatched) on CPU 1" "cat=CPU 1:events lost:1" \
    "bar=CPU 1:7 events lost:20:90" "bar=CPU 1:client:0:20" proc=client:20
expect lost "lost: the range lost is not busy (nor idle)" busy="CPU 1:20" busy="CPU 0:65"
"$bin" "$tmp/lost" -o "$tmp/lost.svg" 2>/dev/null
if grep -q 'stroke="#555555"' "$tmp/lost.svg"; then ok; else ko "lost: no hatching in the SVG"; fi
n_lost=$(python3 -c "
import json; f=json.load(open('$tmp/lost.json'))
print(sum(1 for b in f['bars'] if b.get('lost') is True and b['category'] == 'events lost'),
      sum(1 for b in f['bars'] if 'lost' in b))")
[ "$n_lost" = "1 1" ] && ok || ko "lost: JSON bars marked \"lost\": $n_lost"
"$bin" "$tmp/lost" -o "$tmp/lost.tex" 2>/dev/null
if grep -q 'path picture={\\tracefighatch}' "$tmp/lost.tex"; then ok; else ko "lost: no hatching in the TikZ"; fi
"$bin" "$tmp/kernel" -o "$tmp/nolost.tex" 2>/dev/null
if grep -q 'path picture={\\tracefighatch}' "$tmp/nolost.tex"; then ko "kernel: hatching without lost events"; else ok; fi
if [ "$(grep -c "7 events were discarded" "$tmp/lost.err")" = 1 ] &&
    [ "$(wc -l <"$tmp/lost.err")" = 1 ]; then ok; else ko "lost: one warning: $(cat "$tmp/lost.err")"; fi

# --- two streams per CPU, big-endian, overlapping packets, perf ---
model two "$tmp/twostreams" || ko "twostreams"
expect two "two streams per CPU, merged" busy="CPU 0:65" busy="CPU 1:70" \
    "bar=CPU 0:kworker/0:1:50:55" proc=kworker/0:1:5
model big "$tmp/bigendian" || ko "bigendian"
if cmp -s "$tmp/kernel.json" "$tmp/big.json"; then ok; else ko "big-endian draws another figure"; fi
if babeltrace2 "$tmp/overlap" >/dev/null 2>&1; then
    echo "note: babeltrace2's muxer read the overlapping packets"
fi
model over "$tmp/overlap" || ko "overlap: $(cat "$tmp/over.err")"
expect over "overlapping packets: read whole" busy="CPU 0:65" busy="CPU 3:90"
model perf "$tmp/perf" || ko "perf: $(cat "$tmp/perf.err")"
expect perf "perf: prev_pid/next_pid, perf_cpu" "lanes=CPU 0|CPU 1" busy="CPU 0:65" \
    busy="CPU 1:70" proc=client:50

# --- a session: kernel and user space on one clock ---
model sess "$tmp/session" || ko "session: $(cat "$tmp/sess.err")"
expect sess "session: threads and CPUs, one clock" \
    "lanes=app|app / app-io|CPU 0|CPU 1|CPU 2|CPU 3" busy="CPU 3:90" \
    "bar=app:0x401000:0:40"

# --- against babeltrace2's own reading (SKIP without its CLI) ---
# got NAME: "LABEL MS" per CPU lane, "NAME MS" per process (--proc),
# "VTID NAME N" user-space slices per thread (--slices) from the model
got() {
    python3 - "$tmp/$1.json" "${2:-}" <<'PY'
import json, sys
f = json.load(open(sys.argv[1]))
if sys.argv[2] == "--proc":
    for p in sorted(f["stats"].get("cpu_processes", []), key=lambda p: p["name"]):
        print("%s %.6f" % (p["name"], p["cpu_ms"]))
elif sys.argv[2] == "--slices":
    n = {}
    for b in f["bars"]:
        if b["shape"] == "slice":
            tid = f["lanes"][b["lane"]]["label"].rsplit(" ", 1)[-1]
            n[tid] = n.get(tid, 0) + 1
    for tid in sorted(n):
        print("%s %d" % (tid, n[tid]))
else:
    for i, l in enumerate(f["lanes"]):
        if l["label"].startswith("CPU "):
            print("%s %.6f" % (l["label"], f["stats"]["lanes"][i]["busy_ms"]))
PY
}
# agree WHAT WANT GOT: the same keys, values within 1 %
agree() {
    if python3 -c "
import sys
w = dict(l.rsplit(' ', 1) for l in open('$2').read().split('\n') if l)
g = dict(l.rsplit(' ', 1) for l in open('$3').read().split('\n') if l)
sys.exit(0 if w and w.keys() == g.keys() and all(
    abs(float(w[k]) - float(g[k])) <= 1e-6 + 0.01 * float(w[k]) for k in w) else 1)"; then ok
    else ko "$1: babeltrace2 $(tr '\n' ';' <"$2") tracefig $(tr '\n' ';' <"$3")"; fi
}
model eight "$tmp/eight" || ko "eight: $(cat "$tmp/eight.err")"
expect eight "8 CPUs: eight CPU lanes" \
    "lanes=CPU 0|CPU 1|CPU 2|CPU 3|CPU 4|CPU 5|CPU 6|CPU 7" busy="CPU 2:168" proc=server:415
model rot "$tmp/rotated" || ko "rotated: $(cat "$tmp/rot.err")"
expect rot "a rotated session: both chunks, one trace" "lanes=CPU 0|CPU 1|CPU 2|CPU 3" \
    busy="CPU 0:65" busy="CPU 1:70" busy="CPU 2:1" busy="CPU 3:90" proc=server:170 \
    "bar=CPU 0:kworker/0:1:50:55"
model ros2 "$tmp/ros2" || ko "ros2: $(cat "$tmp/ros2.err")"
expect ros2 "ROS 2: callbacks per thread, named by their symbol" \
    "lanes=talker / tid 701|talker / tid 702" "bar=talker / tid 701:TimerCallback::on_timer():30:33" \
    "bar=talker / tid 702:Listener::on_message(std::shared_ptr<String>):12:20" \
    busy="talker / tid 701:15" busy="talker / tid 702:9"
n_pub=$(python3 -c "
import json; f=json.load(open('$tmp/ros2.json'))
print(sum(1 for b in f['bars'] if b['shape'] == 'instant' and b['name'] == 'ros2:rclcpp_publish'))")
[ "$n_pub" = 3 ] && ok || ko "ros2: 3 instants ros2:rclcpp_publish, got $n_pub"
model dpdk "$tmp/dpdk" || ko "dpdk: $(cat "$tmp/dpdk.err")"
expect dpdk "DPDK: a lane per lcore thread (packet context name), bursts, instants" \
    "lanes=dpdk / dpdk-worker1|dpdk / dpdk-worker2" "bar=dpdk / dpdk-worker1:app.burst:9:29" \
    "bar=dpdk / dpdk-worker2:app.burst:4:24" "bars=dpdk / dpdk-worker1:4" \
    busy="dpdk / dpdk-worker1:25" busy="dpdk / dpdk-worker2:20"
if ! command -v babeltrace2 >/dev/null 2>&1; then
    echo "SKIP (babeltrace2 counts: no babeltrace2 CLI: install Debian's babeltrace2)"
else
    for c in kernel eight rotated twostreams bigendian perf lost evcpu; do
        n=$c
        [ $c = rotated ] && n=rot
        [ $c = twostreams ] && n=two
        [ $c = bigendian ] && n=big
        babeltrace2 --clock-cycles "$tmp/$c" 2>/dev/null | python3 "$here/busy.py" >"$tmp/$c.bwant"
        got $n >"$tmp/$c.bgot"
        # lost: babeltrace2's text has no switch for the range lost; the
        # count runs the client to the next switch seen, tracefig stops
        # at the loss: compare CPU 0 only
        if [ $c = lost ]; then
            grep "^CPU 0 " "$tmp/$c.bwant" >"$tmp/$c.w0"; grep "^CPU 0 " "$tmp/$c.bgot" >"$tmp/$c.g0"
            agree "$c: busy per CPU" "$tmp/$c.w0" "$tmp/$c.g0"
            continue
        fi
        agree "$c: busy per CPU" "$tmp/$c.bwant" "$tmp/$c.bgot"
    done
    for c in kernel eight rotated; do
        n=$c
        [ $c = rotated ] && n=rot
        babeltrace2 --clock-cycles "$tmp/$c" 2>/dev/null | python3 "$here/busy.py" --proc >"$tmp/$c.pwant"
        got $n --proc >"$tmp/$c.pgot"
        agree "$c: busy per process" "$tmp/$c.pwant" "$tmp/$c.pgot"
    done
    babeltrace2 --clock-cycles "$tmp/ros2" 2>/dev/null | python3 "$here/busy.py" --slices |
        awk '{print $1, $3}' >"$tmp/ros2.swant"
    got ros2 --slices >"$tmp/ros2.sgot"
    agree "ros2: slices per thread" "$tmp/ros2.swant" "$tmp/ros2.sgot"
    n_b=$(babeltrace2 "$tmp/dpdk" 2>/dev/null | grep -c "burst.begin:")
    n_g=$(python3 -c "
import json; f=json.load(open('$tmp/dpdk.json'))
print(sum(1 for b in f['bars'] if b['name'] == 'app.burst'))")
    [ "$n_b" = "$n_g" ] && [ "$n_b" = 3 ] && ok || ko "dpdk: babeltrace2 $n_b bursts, tracefig $n_g"
fi

# --- stats as text ---
"$bin" "$tmp/kernel" --stats >"$tmp/stats.txt" 2>&1
if grep -q "CPU utilisation  56.5 % of 4 CPUs" "$tmp/stats.txt" && grep -q "^server  *170 " "$tmp/stats.txt"; then ok
else ko "--stats: $(cat "$tmp/stats.txt")"; fi

# --- bad input: one line, exit 1, nothing written, nothing clobbered ---
bad() {
    what=$1
    dir=$2
    pat=$3
    echo keep >"$tmp/keep.svg"
    "$bin" "$dir" -o "$tmp/keep.svg" 2>"$tmp/bad.err"
    rc=$?
    if [ $rc = 1 ] && [ "$(wc -l <"$tmp/bad.err")" = 1 ] && grep -q -- "$pat" "$tmp/bad.err" &&
        [ "$(cat "$tmp/keep.svg")" = keep ]; then ok
    else ko "$what: rc $rc: $(cat "$tmp/bad.err")"; fi
}
cp -r "$tmp/kernel" "$tmp/cut"
sz=$(wc -c <"$tmp/cut/channel0_1")
head -c $((sz - 40)) "$tmp/kernel/channel0_1" >"$tmp/cut/channel0_1"
bad "a cut stream file" "$tmp/cut" "cut/channel0_1: byte [0-9]*: a packet cut short"
cp -r "$tmp/kernel" "$tmp/magic"
python3 -c "
d = bytearray(open('$tmp/magic/channel0_0', 'rb').read())
i = d.find(bytes.fromhex('c11ffcc1'), 4)
d[i:i + 4] = b'\0\0\0\0'
open('$tmp/magic/channel0_0', 'wb').write(d)
print(i)" >"$tmp/magic.at"
bad "a damaged packet" "$tmp/magic" "magic/channel0_0: byte $(cat "$tmp/magic.at"): Invalid CTF magic"
cp -r "$tmp/kernel" "$tmp/evid"
python3 -c "
d = bytearray(open('$tmp/evid/channel0_0', 'rb').read())
i = d.find(bytes.fromhex('c11ffcc1'), 4)
d[i + 84:i + 88] = b'\x77\0\0\0'  # the packet's first event: an id no class has
open('$tmp/evid/channel0_0', 'wb').write(d)
print(i)" >"$tmp/evid.at"
bad "a damaged event (found while reading)" "$tmp/evid" "evid/channel0_0: byte $(cat "$tmp/evid.at"): No event class"
cp -r "$tmp/kernel" "$tmp/meta"
sed 's/stream_id = 0;/stream_id = 0 +++;/' "$tmp/kernel/metadata" >"$tmp/meta/metadata"
# the line babeltrace2's parser stopped at: the first with "+++"
ln=$(grep -n "+++" "$tmp/meta/metadata" | head -1 | cut -d: -f1)
bad "metadata that does not parse (its line)" "$tmp/meta" "meta/metadata: line $ln: syntax error.*does not parse"
bad "the metadata file given, of metadata that does not parse" "$tmp/meta/metadata" \
    "meta/metadata: line $ln: syntax error.*does not parse"
bad "the metadata file given, of a damaged packet" "$tmp/magic/metadata" "/magic/channel0_0: byte"
# a metadata file emptied or overwritten beside the stream files: still the
# trace's, its metadata named (not "not an OTF2 archive")
cp -r "$tmp/kernel" "$tmp/emptymeta"
: >"$tmp/emptymeta/metadata"
bad "an emptied metadata file" "$tmp/emptymeta" "emptymeta/metadata: the trace's metadata does not parse"
bad "an emptied metadata file, given" "$tmp/emptymeta/metadata" "emptymeta/metadata: the trace's metadata does not parse"
cp -r "$tmp/kernel" "$tmp/junkmeta"
python3 -c "open('$tmp/junkmeta/metadata', 'wb').write(bytes((i * 73 + 11) % 256 for i in range(900)))"
bad "a metadata file of other bytes" "$tmp/junkmeta" "junkmeta/metadata: the trace's metadata does not parse"
mkdir "$tmp/ctf2"
printf '\036{"type": "preamble", "version": 2}\n' >"$tmp/ctf2/metadata"
bad "a CTF 2 trace" "$tmp/ctf2" "ctf2/metadata: a CTF 2 trace"

# --- back-ends ---
for f in json svg tex; do
    if "$bin" "$tmp/kernel" -o "$tmp/out.$f" --kernel-detail irq,syscalls 2>/dev/null && [ -s "$tmp/out.$f" ]; then ok
    else ko "back-end $f"; fi
done
if "$bin" --help 2>&1 | grep -q "CTF"; then ok; else ko "--help names CTF"; fi

# --- the real samples: busy per CPU against babeltrace2's text ---
real="$root/../shared/real-traces/ctf"
if [ ! -d "$real/lttng-kernel-bug446190" ]; then
    echo "SKIP (real: no ../shared/real-traces/ctf)"
elif ! command -v babeltrace2 >/dev/null 2>&1; then
    echo "SKIP (real: no babeltrace2: install Debian's babeltrace2)"
else
    k="$real/lttng-kernel-bug446190"
    babeltrace2 --clock-cycles "$k" | python3 "$here/busy.py" >"$tmp/real.want"
    model real "$k" || ko "real kernel: $(cat "$tmp/real.err")"
    python3 -c "
import json; f=json.load(open('$tmp/real.json'))
for i, l in enumerate(f['lanes']):
    print('%s %.6f' % (l['label'], f['stats']['lanes'][i]['busy_ms']))" >"$tmp/real.got"
    if python3 -c "
w = dict(l.rsplit(' ', 1) for l in open('$tmp/real.want').read().split('\n') if l)
g = dict(l.rsplit(' ', 1) for l in open('$tmp/real.got').read().split('\n') if l)
import sys
bad = [k for k in w if k not in g or abs(float(w[k]) - float(g[k])) > 0.001 + 0.01 * float(w[k])]
sys.exit(1 if bad or len(w) != 4 else 0)"; then ok
    else ko "real kernel: busy per CPU: want $(cat "$tmp/real.want") got $(cat "$tmp/real.got")"; fi
    n_sw=$(babeltrace2 "$k" | grep -c " sched_switch: ")
    [ "$n_sw" = 1052 ] && ok || ko "real kernel: babeltrace2 counts $n_sw switches"
    u="$real/lttng-ust-cyg-profile-fast"
    model realu "$u" || ko "real ust: $(cat "$tmp/realu.err")"
    n_entry=$(babeltrace2 "$u" | grep -c "func_entry:")
    n_exit=$(babeltrace2 "$u" | grep -c "func_exit:")
    # every exit closes one slice, the entries never exited run to the end
    got=$(python3 -c "
import json; f=json.load(open('$tmp/realu.json'))
print([l['label'] for l in f['lanes']], sum(1 for b in f['bars']) > 0)")
    case $got in "['glxgears'] True") ok ;; *) ko "real ust: lanes $got" ;; esac
    if grep -q "$((n_entry - n_exit)) slices never ended" "$tmp/realu.err"; then ok
    else ko "real ust: $n_entry entries, $n_exit exits: $(cat "$tmp/realu.err")"; fi
fi

echo "ctf: $pass passed, $fail failed"
[ $fail = 0 ]
