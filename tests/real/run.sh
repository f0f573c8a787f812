#!/bin/sh
# Real-trace suite: run.sh TRACEFIG
#
# Renders every trace of ../shared/real-traces, every Nsight Systems
# export of ../shared/real-traces/nsys and every rocpd database of
# ../shared/real-traces/rocpd (beside the repository: files other
# projects wrote, never copied into this one; SKIP when the folder is
# absent) with the default options and checks, per file:
#   render   json, svg, tikz (and pdf, png when built with cairo): exit 0
#   gzip     a .gz file gives the same model as its inflated copy (the other
#            checks run on that copy, made in $TMPDIR)
#   size     the SVG is at most 150 KB (issue 40: a row's busy shares are
#            runs of bins, one group and tooltip each, one path a colour)
#   xmllint  the SVG is well-formed
#   model    every bar within [0, axis span] on a lane and row that exists,
#            every lane labelled
#   counters every C series with a value in the window has its track (at
#            most the cap, with a note), [memory] events a memory track per
#            process, and kineto-resnet50-nw0 its CUDA memory
#   stable   every output is the same bytes on a second run
#   window   the default window ends (and starts) where the drawn events do
#   figure   what a good figure of some of the files shows (issue 18):
#            kineto-resnet50-nw0: one lane per thread, "GPU 0 / stream 7",
#            no profiler lane; clang-ftime-trace and tf1-timeline: at least
#            five colours and a legend of the slices' names
#   pdflatex, lualatex, xelatex   the --standalone TikZ compiles without
#            errors (pdflatex is timed: reported, not asserted)
#   browser  in headless Chromium (tests/svg/browser.sh): no two texts
#            overlap, no text leaves the viewBox, every bar has a tooltip
#   named    (exports) every lane is named: "process / thread" or
#            "GPU N / stream M", never a bare pid or tid
#   nvtx     (exports with NVTX ranges) --window-event on the longest range
#            of the export: the window is that range's extent
#   otf2     (the archives of otf2/, tests/real/otf2_real.py) every back-end;
#            one lane per location with regions, in rank order; each lane's
#            busy time as the OTF2 library's own events give it (python3-
#            otf2); TRACER_Loop as a window; ping-pong's 16 messages as
#            16 arrows
# and prints one summary line per file (lanes, bars, SVG bytes, pdflatex
# time).  Known bugs: tests/real/KNOWN_FAILURES, "FILE/CHECK: why" lines,
# listed and counted neither as passed nor as failed.  Tools that are not
# installed (TeX engines, Chromium, xmllint) are skipped with a note.
# Ends with "real: N passed, N failed"; exit 1 on an unknown failure.
set -u
if [ $# -lt 1 ]; then
    echo "usage: $0 TRACEFIG" >&2
    exit 2
fi
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
traces=$root/../shared/real-traces
py=python3
[ -x /usr/bin/python3 ] && py=/usr/bin/python3
if [ ! -d "$traces" ]; then
    echo "SKIP (no ../shared/real-traces beside the repository)"
    echo "real: 0 passed, 0 failed"
    exit 0
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tracefig-real.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
known_file=$here/KNOWN_FAILURES

cairo=
"$bin" --version 2>/dev/null | grep -q 'pdf' && cairo=1
engines=""
for e in pdflatex lualatex xelatex; do
    if command -v "$e" >/dev/null 2>&1; then engines="$engines $e"; else echo "note: $e not installed: skipped"; fi
done
have_xmllint=
command -v xmllint >/dev/null 2>&1 && have_xmllint=1 || echo "note: xmllint not installed: skipped"

pass=0
fail=0
nknown=0
known_lines=""
fixed_lines=""
result() { # TEST OK(0/1) MESSAGE
    if [ "$2" = 0 ]; then
        pass=$((pass + 1))
        if [ -f "$known_file" ] && grep -q "^$1:" "$known_file"; then
            fixed_lines="$fixed_lines
FIXED $1 (listed in KNOWN_FAILURES: remove the line)"
        fi
    elif [ -f "$known_file" ] && grep -q "^$1:" "$known_file"; then
        nknown=$((nknown + 1))
        known_lines="$known_lines
KNOWN $(grep "^$1:" "$known_file" | head -n 1)"
    else
        fail=$((fail + 1))
        echo "FAIL real/$1: $3"
    fi
}

now() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b - a }'; }

formats="json svg tikz"
[ -n "$cairo" ] && formats="$formats pdf png"
ext() { case $1 in json) echo json ;; svg) echo svg ;; tikz) echo tex ;; pdf) echo pdf ;; png) echo png ;; esac; }

svgs=""
summary=""
for src in "$traces"/* "$traces"/nsys/* "$traces"/rocpd/*; do
    [ -f "$src" ] || continue
    file=$(basename "$src")
    case $file in *.json | *.json.gz | *.gz | *.sqlite | *.db) ;; *) continue ;; esac
    name=$(printf '%s' "$file" | sed 's/\.gz$//; s/\.json$//; s/[^A-Za-z0-9._-]/_/g')
    d=$tmp/$name
    mkdir -p "$d"
    printf '%s\n' "$file" >"$d/.file"
    input=$src
    case $file in
    *.gz)
        # The checks below read an inflated copy (in $TMPDIR only); the .gz
        # itself must give the same model.
        gzip -dc "$src" >"$d/trace.json"
        input=$d/trace.json
        "$bin" "$src" --format json -o "$d/gz.json" 2>"$d/gz.err"
        grc=$?
        "$bin" "$input" --format json -o "$d/plain.json" 2>/dev/null
        # A trace with rank facts names its file in the model's "traces":
        # the two files' names differ, nothing else may.
        for m in gz plain; do
            sed 's/"file": "[^"]*"/"file": ""/' "$d/$m.json" >"$d/$m.cmp" 2>/dev/null
        done
        if [ $grc = 0 ] && cmp -s "$d/gz.cmp" "$d/plain.cmp"; then
            result "$file/gzip" 0 ""
        else
            result "$file/gzip" 1 "exit $grc, or another model than the inflated file: $(head -c 200 "$d/gz.err")"
        fi
        ;;
    esac

    # --- render every format, twice
    ok=0
    msg=""
    for fmt in $formats; do
        e=$(ext $fmt)
        "$bin" "$input" --format $fmt -o "$d/fig.$e" 2>"$d/err.$fmt"
        rc=$?
        [ $rc = 0 ] || { ok=1; msg="$msg $fmt: exit $rc: $(head -c 200 "$d/err.$fmt");"; }
    done
    result "$file/render" $ok "$msg"
    if [ ! -s "$d/fig.json" ] || [ ! -s "$d/fig.svg" ]; then
        summary="$summary
$file: no figure"
        continue
    fi

    ok=0
    msg=""
    for fmt in $formats; do
        e=$(ext $fmt)
        "$bin" "$input" --format $fmt -o "$d/again.$e" 2>/dev/null
        cmp -s "$d/fig.$e" "$d/again.$e" || { ok=1; msg="$msg $fmt differs;"; }
    done
    result "$file/stable" $ok "$msg"

    bytes=$(wc -c <"$d/fig.svg" | tr -d ' ')
    if [ "$bytes" -le 153600 ]; then result "$file/size" 0 ""; else result "$file/size" 1 "SVG is $bytes bytes (limit 150 KB)"; fi

    if [ -n "$have_xmllint" ]; then
        if xmllint --noout "$d/fig.svg" 2>"$d/xml.err"; then
            result "$file/xmllint" 0 ""
        else
            result "$file/xmllint" 1 "$(head -3 "$d/xml.err")"
        fi
    fi
    svgs="$svgs $d/fig.svg"

    # --- the model: bars inside the axis, labelled lanes; the counts
    counts=$("$py" - "$d/fig.json" <<'PY' 2>&1
import json, sys
m = json.load(open(sys.argv[1], encoding="utf-8"))
errs = []
span = m["axis"]["span"]
lanes = m["lanes"]
for i, l in enumerate(lanes):
    if not isinstance(l.get("label"), str) or not l["label"].strip():
        errs.append("lane %d has no label" % i)
for b in m["bars"]:
    if not (0 <= b["lane"] < len(lanes)):
        errs.append("bar on no lane: %r" % b)
    elif not (0 <= b["row"] < lanes[b["lane"]]["rows"]):
        errs.append("bar below its lane's rows: %r" % b)
    if not (-1e-9 <= b["x0"] <= b["x1"] <= span * (1 + 1e-12) + 1e-9):
        errs.append("bar outside [0, %g]: %r" % (span, b))
dense = sum(1 for b in m["bars"] if b["shape"] == "dense")
print("%d %d %d %d %s" % (len(errs), len(lanes), len(m["bars"]), dense, m["axis"]["unit"]))
for e in errs[:5]:
    print(e)
PY
)
    set -- $counts
    if [ "${1:-x}" = 0 ]; then
        result "$file/model" 0 ""
    else
        result "$file/model" 1 "$(printf '%s' "$counts" | sed -n '2,6p' | tr '\n' ' ')"
    fi
    # --- the window: from the first drawn event to the last
    msg=$("$py" - "$d/fig.json" <<'PY' 2>&1
import json, sys
m = json.load(open(sys.argv[1], encoding="utf-8"))
span = m["axis"]["span"]
x0 = min(b["x0"] for b in m["bars"])
x1 = max(b["x1"] for b in m["bars"])
tol = span * 1e-6
if abs(x0) > tol or abs(x1 - span) > tol:
    print("the window is 0..%g %s, the drawn events %g..%g" % (span, m["axis"]["unit"], x0, x1))
PY
)
    if [ -z "$msg" ]; then result "$file/window" 0 ""; else result "$file/window" 1 "$msg"; fi
    case $file in
    kineto-resnet50-nw0* | clang-ftime-trace* | tf1-timeline*)
        msg=$("$py" - "$d/fig.json" "$d/fig.svg" "$file" <<'PY' 2>&1
import json, re, sys
import xml.etree.ElementTree as ET
m = json.load(open(sys.argv[1], encoding="utf-8"))
file = sys.argv[3]
labels = [l["label"] for l in m["lanes"]]
errs = []
if file.startswith("kineto-resnet50-nw0"):
    # Counter tracks (the memory ones) are lanes of their process, not threads.
    ids = [(str(l["pid"]), str(l["tid"])) for l in m["lanes"] if l.get("kind") != "counter"]
    if len(set(ids)) != len(ids) or any(re.search(r"/ tid ", l) for l in labels):
        errs.append("not one lane per thread: %r" % labels)
    if "GPU 0 / stream 7" not in labels:
        errs.append("no 'GPU 0 / stream 7': %r" % labels)
    if any("Traces" in l or "Profiler" in l for l in labels):
        errs.append("a profiler lane: %r" % labels)
    cpu = [l for l in labels if l.startswith("python / thread ")]
    if len(cpu) != 2:
        errs.append("want the two CPU threads: %r" % labels)
else:
    ns = "{http://www.w3.org/2000/svg}"
    fills = set()
    for g in ET.parse(sys.argv[2]).getroot().iter(ns + "g"):
        if (g.get("class") or "").split()[:1] in (["tf-bar"], ["bar"]):
            for el in g:
                if el.get("fill"):
                    fills.add(el.get("fill").upper())
                    break
    legend = [e["label"] for e in m["legend"]]
    names = set(b["name"] for b in m["bars"])
    if len(fills) < 5:
        errs.append("%d colours, want at least 5" % len(fills))
    listed = [l for l in legend if l != "other"]
    if m.get("color_by") != "name" or len(listed) < 5 or "(no category)" in legend or \
            not all(any(n == l or n.startswith(l) or l in n for n in names) for l in listed):
        errs.append("not a legend of names: %r" % legend)
print("; ".join(errs))
PY
)
        if [ -z "$msg" ]; then result "$file/figure" 0 ""; else result "$file/figure" 1 "$msg"; fi
        ;;
    esac

    lanes=${2:-?}
    nbars=${3:-?}
    ndense=${4:-?}

    # --- counters: every series with a value in the window has its track
    # (at most the cap, with a note), and Kineto's [memory] events a memory
    # track per device
    ctr=$("$py" - "$input" "$d/fig.json" "$file" <<'PY' 2>&1
import json, re, sys
from decimal import Decimal
m = json.load(open(sys.argv[2], encoding="utf-8"), parse_float=Decimal)
try:
    trace = json.load(open(sys.argv[1], encoding="utf-8"), parse_float=Decimal)
    evs = trace["traceEvents"] if isinstance(trace, dict) else trace
except ValueError:
    evs = []  # not a JSON trace (an Nsight Systems export): no C events
w0, w1 = m["window"]["start_us"], m["window"]["end_us"]
def num(v):
    if v is None or isinstance(v, bool):
        return None
    if isinstance(v, (int, Decimal)):
        return v
    if isinstance(v, str) and re.fullmatch(r"[ \t]*\+?-?[0-9]+(\.[0-9]+)?([eE][+-]?[0-9]+)?[ \t]*", v):
        return v
    return None
held = {}   # (pid, label) -> whether it has a value in the window
memory = set()
for e in evs:
    if not isinstance(e, dict) or "ts" not in e:
        continue
    ts = Decimal(str(e["ts"]))
    if e.get("ph") == "C" and isinstance(e.get("args"), dict):
        for k, v in e["args"].items():
            if num(v) is None:
                continue
            parts = [p for p in (e.get("name", ""), "id: %s" % e["id"] if "id" in e else "", k) if p]
            key = (str(e.get("pid")), " ".join(parts))
            held[key] = held.get(key, False) or ts <= w1
    elif e.get("name") == "[memory]" and e.get("ph") in ("i", "I") and ts <= w1:
        memory.add(str(e.get("pid")))
lanes = [l for l in m["lanes"] if l.get("kind") == "counter"]
errs = []
want = sorted(k for k, v in held.items() if v)
got = {(str(l["pid"]), l["label"]) for l in lanes}
def drawn(pid, label):
    return any(p == pid and (g == label or g.endswith(" / " + label)) for p, g in got)
missing = [k for k in want if not drawn(*k)]
cap = 8
if len(want) > cap:
    if len(lanes) != cap or not any("more counter track" in n for n in m["notes"]):
        errs.append("%d series with a value in the window, %d tracks, notes %r" % (len(want), len(lanes), m["notes"]))
elif missing:
    errs.append("no track for %r" % missing[:5])
for pid in sorted(memory):
    if not any(str(l["pid"]) == pid and " / memory " in l["label"] and l["unit"] == "B" for l in lanes):
        errs.append("[memory] events of pid %s, but no memory track" % pid)
if sys.argv[3].startswith("kineto-resnet50-nw0") and not any(
        l["label"].endswith("memory CUDA 0 allocated") for l in lanes):
    errs.append("kineto-resnet50-nw0: no CUDA 0 memory track: %r" % [l["label"] for l in lanes])
print("%d %d %d" % (len(errs), len(want), len(lanes)))
for e in errs[:5]:
    print(e)
PY
)
    set -- $ctr
    if [ "${1:-x}" = 0 ]; then
        result "$file/counters" 0 ""
    else
        result "$file/counters" 1 "$(printf '%s' "$ctr" | sed -n '2,6p' | tr '\n' ' ')"
    fi
    nseries=${2:-?}
    ntracks=${3:-?}
    span=$("$py" -c 'import json,sys; m=json.load(open(sys.argv[1])); print("%s %s" % (m["axis"]["span"], m["axis"]["unit"]))' "$d/fig.json" 2>/dev/null)

    # --- exports: named lanes, and a window by the longest NVTX range
    extra=""
    case $file in
    *.sqlite)
        names=$("$py" -c 'import json,sys; print("; ".join(l["label"] for l in json.load(open(sys.argv[1]))["lanes"]))' "$d/fig.json" 2>/dev/null)
        if printf '%s\n' "$names" | tr ';' '\n' | grep -Eq '(^| )(pid|tid) '; then
            result "$file/named" 1 "a lane without a name: $names"
        else
            result "$file/named" 0 ""
        fi
        extra="
    lanes: $names"
        # The longest NVTX range (text, start, end in ns), if any.
        range=$("$py" - "$src" <<'PY' 2>/dev/null
import sqlite3, sys
db = sqlite3.connect("file:%s?immutable=1" % sys.argv[1], uri=True)
try:
    r = db.execute("SELECT coalesce(e.text, s.value), e.start, e.\"end\" FROM NVTX_EVENTS e "
                   "LEFT JOIN StringIds s ON s.id = e.textId WHERE e.\"end\" IS NOT NULL "
                   "AND e.eventType IN (59, 60) ORDER BY e.\"end\" - e.start DESC, e.start LIMIT 1").fetchone()
except sqlite3.Error:
    r = None
if r:
    print("%s\t%d\t%d" % r)
PY
)
        if [ -n "$range" ]; then
            rname=$(printf '%s' "$range" | cut -f1)
            r0=$(printf '%s' "$range" | cut -f2)
            r1=$(printf '%s' "$range" | cut -f3)
            "$bin" "$src" --window-event "$rname" --format json -o "$d/nvtx.json" 2>"$d/nvtx.err"
            rc=$?
            # the first occurrence of that text: its window
            got=$("$py" -c 'import json,sys; w=json.load(open(sys.argv[1]))["window"]; print("%d %d" % (round(w["start_us"]*1000), round(w["end_us"]*1000)))' "$d/nvtx.json" 2>/dev/null)
            first=$("$py" - "$src" "$rname" <<'PY' 2>/dev/null
import sqlite3, sys
db = sqlite3.connect("file:%s?immutable=1" % sys.argv[1], uri=True)
r = db.execute("SELECT e.start, e.\"end\" FROM NVTX_EVENTS e LEFT JOIN StringIds s ON s.id = e.textId "
               "WHERE coalesce(e.text, s.value) = ? AND e.\"end\" IS NOT NULL AND e.eventType IN (59, 60) "
               "ORDER BY e.start LIMIT 1", (sys.argv[2],)).fetchone()
print("%d %d" % r)
PY
)
            if [ $rc = 0 ] && [ -n "$got" ] && [ "$got" = "$first" ]; then
                result "$file/nvtx" 0 ""
            else
                result "$file/nvtx" 1 "--window-event '$rname': exit $rc, window $got, want $first: $(head -c 200 "$d/nvtx.err")"
            fi
            nb=$("$py" -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["bars"]))' "$d/nvtx.json" 2>/dev/null)
            extra="$extra
    window by NVTX range '$rname' ($(( (r1 - r0) / 1000 )) us): ${nb:-?} bars"
        else
            extra="$extra
    no NVTX ranges: default window only"
        fi
        ;;
    esac

    # --- TeX: the standalone document with every engine
    tex_time="-"
    if [ -n "$engines" ]; then
        "$bin" "$input" --standalone --format tikz -o "$d/sa.tex" 2>/dev/null
        for e in $engines; do
            mkdir -p "$d/$e"
            cp "$d/sa.tex" "$d/$e/sa.tex"
            t0=$(now)
            (cd "$d/$e" && "$e" -interaction=nonstopmode -halt-on-error sa.tex >/dev/null 2>&1)
            rc=$?
            t1=$(now)
            [ "$e" = pdflatex ] && tex_time="$(secs "$t0" "$t1") s"
            if [ $rc = 0 ] && [ -s "$d/$e/sa.pdf" ] && ! grep -q '^!' "$d/$e/sa.log"; then
                result "$file/$e" 0 ""
            else
                result "$file/$e" 1 "does not compile (exit $rc): $(grep -A2 '^!' "$d/$e/sa.log" 2>/dev/null | head -3 | tr '\n' ' ')"
            fi
        done
    fi
    summary="$summary
$file: $lanes lanes, $nbars bars ($ndense dense), $ntracks counter tracks ($nseries C series), span $span, SVG $bytes bytes, pdflatex $tex_time$extra"
done

# --- the OTF2 archives of otf2/ against the OTF2 library (tests/real/otf2_real.py)
otf2_out=$("$py" "$here/otf2_real.py" "$bin" "$traces" "$tmp" 2>&1)
while IFS= read -r line; do
    case $line in
        "ok "*) result "${line#ok }" 0 "" ;;
        "fail "*) name=${line#fail }; result "${name%%:*}" 1 "${name#*: }" ;;
        *) [ -n "$line" ] && echo "real: $line" ;;
    esac
done <<EOF_OTF2
$otf2_out
EOF_OTF2

# --- several traces in one figure (tests/real/multi.py)
multi_out=$("$py" "$here/multi.py" "$bin" "$traces" "$tmp" 2>&1)
while IFS= read -r line; do
    case $line in
        "ok "*) result "${line#ok }" 0 "" ;;
        "fail "*) name=${line#fail }; result "${name%%:*}" 1 "${name#*: }" ;;
        *) [ -n "$line" ] && echo "real: $line" ;;
    esac
done <<EOF_MULTI
$multi_out
EOF_MULTI

# --- the browser: overlapping texts, texts outside the viewBox, tooltips
if [ -n "$svgs" ]; then
    # shellcheck disable=SC2086
    out=$(sh "$root/tests/svg/browser.sh" $svgs)
    if printf '%s\n' "$out" | grep -q '^SKIP'; then
        printf '%s\n' "$out" | grep '^SKIP'
    else
        for s in $svgs; do
            file=$(cat "$(dirname "$s")/.file")
            # browser.sh names each file by its path with unsafe characters as _
            key=$(printf '%s' "$s" | tr -c 'A-Za-z0-9._/-' '_')
            line=$(printf '%s\n' "$out" | grep -F "$key" | head -n 1)
            if [ -z "$line" ] && ! printf '%s\n' "$out" | grep -q 'did not finish'; then
                result "$file/browser" 0 ""
            else
                result "$file/browser" 1 "${line:-chromium did not finish the page}"
            fi
        done
    fi
fi

echo "real: per file (default options):"
printf '%s\n' "$summary" | sed '/^$/d; s/^/  /'
[ -n "$fixed_lines" ] && printf '%s\n' "$fixed_lines" | sed '/^$/d'
if [ -n "$known_lines" ]; then
    echo "real: $nknown known failures (tests/real/KNOWN_FAILURES):"
    printf '%s\n' "$known_lines" | sed '/^$/d'
fi
echo "real: $pass passed, $fail failed"
[ $fail -eq 0 ]
