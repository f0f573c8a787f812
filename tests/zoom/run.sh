#!/bin/sh
# --zoom (tracefig(1), ZOOM) on a distributed step the suite writes
# (tests/tools/gentrace_marks.py): each zoom's bars against a figure of its
# range alone (--from/--to) at the panel's width, in the JSON model, the
# SVG and --stats; the connectors against the band's and the panel's
# corners, none crossing; no text overlapping at 3.3 and 7 in with two and
# three zooms; marks in the zooms; the errors, with nothing written.
set -u
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
root=$(cd "$(dirname "$0")/../.." && pwd)
tmp=${TMPDIR:-/tmp}/tracefig-zoom.$$
mkdir -p "$tmp"
trap 'rm -rf "$tmp"' EXIT INT TERM
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL zoom: $1"; }
check() { if eval "$2"; then ok; else bad "$1"; fi; }
chk="python3 $root/tests/zoom/check.py"

t="$tmp/t.json"
python3 "$root/tests/tools/gentrace_marks.py" "$t"
two="--zoom ncclDevKernel*@2 --zoom 1ms..2ms"
three="--zoom 3.2ms..3.5ms --zoom 1ms..2ms --zoom ProfilerStep#3"

# --- the bars of a figure of the range alone -----------------------------------------
for w in 3.3in 7in; do
    check "two zooms at $w: bars, drawn bars and busy times are the figure alone's" \
        '$chk equal "$bin" "$t" "$tmp" $two --width $w >/dev/null'
    check "three zooms at $w (share bars among them): the figure alone's" \
        '$chk equal "$bin" "$t" "$tmp" $three --width $w >/dev/null'
done
check "--zoom-pad 0: the zoom is the event's extent" \
    '"$bin" "$t" --zoom "ncclDevKernel*@2" --zoom-pad 0 -o "$tmp/p.json" &&
     python3 -c "import json,sys; z=json.load(open(sys.argv[1]))[\"zooms\"][0]
assert abs(z[\"t0\"]-6.8)<1e-9 and abs(z[\"t1\"]-8.1)<1e-9, z" "$tmp/p.json"'
check "--zoom-pad 5 (the default) widens by 5 % each side" \
    '"$bin" "$t" --zoom "ncclDevKernel*@2" -o "$tmp/p.json" &&
     python3 -c "import json,sys; z=json.load(open(sys.argv[1]))[\"zooms\"][0]
assert abs(z[\"t0\"]-6.735)<1e-9 and abs(z[\"t1\"]-8.165)<1e-9, z" "$tmp/p.json"'

# --- connectors, panels, text --------------------------------------------------------
for w in 3.3in 7in; do
    for z in two three; do
        eval "zs=\$$z"
        check "$z zooms at $w: connectors join the corners, none cross" \
            '"$bin" "$t" $zs --width $w -o "$tmp/j.json" -o "$tmp/j.svg" &&
             $chk joins "$tmp/j.json" "$tmp/j.svg" >/dev/null'
        if command -v pdftotext >/dev/null 2>&1; then
            check "$z zooms at $w: no text overlaps, none leaves the page" \
                '"$bin" "$t" $zs --width $w -o "$tmp/w.pdf" 2>/dev/null &&
                 $chk words "$tmp/w.pdf" Time kernel'
        else
            echo "zoom: SKIP text boxes (no pdftotext)"
        fi
    done
done
check "panels in time order, whatever the order given" \
    '"$bin" "$t" --zoom ProfilerStep#3 --zoom 1ms..2ms -o - |
     python3 -c "import json,sys; l=json.load(sys.stdin)[\"layout\"][\"zooms\"]
assert [z[\"zoom\"] for z in l]==[1,0], l"'
check "a zoom's classes keep the main figure's colours" \
    '"$bin" "$t" $three -o - | python3 -c "import json,sys; m=json.load(sys.stdin)
c={x[\"name\"]: x[\"color\"] for x in m[\"categories\"]}
col={}
for b in m[\"bars\"]: col[b[\"category\"]]=1
assert m[\"zooms\"] and all(len(z[\"bars\"]) for z in m[\"zooms\"])"'
check "--max-lanes 2: the zoom draws the main figure's 2 lanes; the legend holds its classes" \
    '"$bin" "$t" --max-lanes 2 --zoom "ncclDevKernel*@2" -o - 2>/dev/null |
     python3 -c "import json,sys; m=json.load(sys.stdin)
assert m[\"zooms\"][0][\"lanes\"]==[l[\"label\"] for l in m[\"lanes\"]], m[\"zooms\"][0][\"lanes\"]
assert \"NCCL kernel\" in [e[\"label\"] for e in m[\"legend\"]], m[\"legend\"]"'
check "a zoom where a main lane is idle keeps it, in order, labelled as the main panel (no labels of its own)" \
    '"$bin" "$t" --zoom 1ms..2ms -o - | python3 -c "import json,sys; m=json.load(sys.stdin)
z=m[\"zooms\"][0]; lanes=[l[\"label\"] for l in m[\"lanes\"]]
assert z[\"lanes\"]==lanes, (z[\"lanes\"], lanes)
used={b[\"lane\"] for b in z[\"bars\"]}
assert lanes.index(\"GPU 0 / stream 20\") not in used and len(used)==len(lanes)-1, used
assert m[\"layout\"][\"zooms\"][0][\"labels\"]==\"none\", m[\"layout\"][\"zooms\"]"'
check "the row fits the height budget by the main panel's rows, never its lanes" \
    '"$bin" "$t" --width 3.3in -o "$tmp/h0.json" && "$bin" "$t" $three --width 3.3in -o "$tmp/h3.json" 2>/dev/null &&
     python3 -c "import json,sys; a,b=(json.load(open(p))[\"layout\"] for p in sys.argv[1:])
assert b[\"lanes_drawn\"]==a[\"lanes_drawn\"], (a[\"lanes_drawn\"], b[\"lanes_drawn\"])
assert b[\"depth\"]<=a[\"depth\"] and b[\"height_pt\"]>a[\"height_pt\"], (a, b)" "$tmp/h0.json" "$tmp/h3.json"'
check "no --zoom: no zooms key, no panel group" \
    '"$bin" "$t" -o "$tmp/n.json" -o "$tmp/n.svg" && ! grep -q "\"zooms\"" "$tmp/n.json" &&
     ! grep -q "tf-panel" "$tmp/n.svg"'

# --- TikZ ----------------------------------------------------------------------------
"$bin" "$t" $two --measure "ncclDevKernel*@2" -o "$tmp/z.tex" || bad "the TikZ figure is not written"
for e in pdflatex lualatex xelatex; do
    if command -v $e >/dev/null 2>&1; then
        d="$tmp/tex-$e"
        mkdir -p "$d"
        cp "$tmp/z.tex" "$d/z.tex"
        printf '%s\n' '\documentclass{article}' '\usepackage{tikz}' '\begin{document}' \
            '\tikzset{tracefig/zoom band/.style={fill=red, fill opacity=0.2}}' \
            '\begin{figure}\input{z.tex}\caption{c}\end{figure}' '\end{document}' >"$d/doc.tex"
        check "TikZ with two zooms compiles in $e, the band restyled" \
            '(cd "$d" && $e -interaction=nonstopmode -halt-on-error doc.tex >/dev/null 2>&1) &&
             grep -q "tracefigzoomband{a}" "$d/z.tex" && grep -q "tracefigzoomboxb" "$d/z.tex"'
        check "TikZ --standalone with two zooms compiles in $e (the row in a vertical box)" \
            '"$bin" "$t" $two --standalone -o "$d/sa.tex" &&
             (cd "$d" && $e -interaction=nonstopmode -halt-on-error sa.tex >/dev/null 2>&1)'
        if [ "$e" = pdflatex ] && command -v pdftotext >/dev/null 2>&1; then
            check "TikZ: the legend is under the zoom row (no connector crosses it)" \
                '$chk below "$d/doc.pdf" NCCL'
        fi
    else
        echo "zoom: SKIP TikZ in $e (not installed)"
    fi
done

# --- marks ---------------------------------------------------------------------------
check "marks are drawn in the zoom where their range lies, not elsewhere" \
    '"$bin" "$t" --zoom "ncclDevKernel*@2" --zoom 1ms..2ms \
        --measure "start:ncclDevKernel*@2..end:ncclDevKernel*@2" -o "$tmp/mk.json" -o "$tmp/mk.svg" &&
     python3 -c "import json,sys; m=json.load(open(sys.argv[1])); z=m[\"zooms\"]
assert len(m[\"marks\"])==1 and len(z[0][\"marks\"])==1 and len(z[1][\"marks\"])==0, z
assert abs(z[0][\"marks\"][0][\"dur\"]-1300)<1e-6 and z[0][\"marks\"][0][\"unit\"]==\"\\u00b5s\", z[0][\"marks\"]
import xml.etree.ElementTree as E
r=E.parse(sys.argv[2]).getroot(); n=\"{http://www.w3.org/2000/svg}\"
p=[g for g in r.iter(n+\"g\") if \"tf-zoom\" in (g.get(\"class\") or \"\").split()]
k=[sum(1 for g in q.iter(n+\"g\") if \"tf-mark\" in (g.get(\"class\") or \"\").split()) for q in p]
assert sorted(k)==[0,1], k" "$tmp/mk.json" "$tmp/mk.svg"'

# --- --stats -------------------------------------------------------------------------
check "--stats: each zoom's table under its own heading" \
    '"$bin" "$t" $two --stats >"$tmp/s.txt" &&
     grep -q "^Zoom 1: --zoom .ncclDevKernel\*@2., 6.7[34] ms to 8.1[67] ms$" "$tmp/s.txt" &&
     grep -q "^Zoom 2: --zoom .1ms..2ms., 0.950 ms to 2.05 ms$" "$tmp/s.txt" &&
     [ "$(grep -c "^overlap ms" "$tmp/s.txt")" = 3 ]'
check "--stats=csv: a heading line before each zoom's CSV" \
    '"$bin" "$t" $two --stats=csv | grep -c "^# Zoom [12]: " | grep -qx 2'

# --- errors --------------------------------------------------------------------------
# err NAME CODE PATTERN ARGS...: exit CODE, one "tracefig:" line matching
# PATTERN, nothing written, an existing output kept.
err() {
    name=$1 code=$2 pat=$3
    shift 3
    rm -f "$tmp/e.svg"
    echo keep >"$tmp/k.svg"
    "$bin" "$t" "$@" -o "$tmp/e.svg" 2>"$tmp/e.txt"
    rc=$?
    "$bin" "$t" "$@" -o "$tmp/k.svg" 2>/dev/null
    if [ "$rc" = "$code" ] && [ "$(grep -c "^tracefig:" "$tmp/e.txt")" = 1 ] &&
        grep -q -- "$pat" "$tmp/e.txt" && [ ! -e "$tmp/e.svg" ] &&
        [ "$(cat "$tmp/k.svg")" = keep ]; then
        ok
    else
        bad "$name (exit $rc): $(cat "$tmp/e.txt")"
    fi
}
err "a range outside the window" 1 "^tracefig: --zoom '1ms..200ms': the range .* lies outside the window" \
    --zoom 1ms..200ms
err "a range before the window" 1 "^tracefig: --zoom '-5ms..-1ms': .*outside the window" --zoom -5ms..-1ms
err "an empty range" 1 "^tracefig: --zoom '5ms..5ms': the range is empty" --zoom 5ms..5ms
err "a reversed range" 1 "^tracefig: --zoom '3ms..2ms': " --zoom 3ms..2ms
err "an event the window lacks" 1 "^tracefig: --zoom 'nosuch': " --zoom nosuch
err "four zooms: a usage error" 2 "^tracefig: --zoom: at most 3 zooms" \
    --zoom 1ms..2ms --zoom 2ms..3ms --zoom 3ms..4ms --zoom 4ms..5ms
err "a zoom that is no range" 2 "^tracefig: --zoom: expected A..B" --zoom "1ms..2ms=text"
check "standard input: a usage error (a zoom reads the trace again)" \
    '"$bin" - --zoom 1ms..2ms -o "$tmp/si.svg" <"$t" 2>"$tmp/si.txt"; [ $? = 2 ] &&
     grep -q "^tracefig: --zoom: draws zooms of one trace read from a file" "$tmp/si.txt" &&
     [ ! -e "$tmp/si.svg" ]'

# One class is one legend entry: --highlight fades a class's first bar in
# the zoom and not in the main panel, and the legend still names it once.
check "a class named once in the legend with --highlight and a zoom" \
    '"$bin" "$root/examples/kineto_trace.json" --window-event "ProfilerStep#*" \
        --highlight "nccl*,Memcpy*" --zoom "nccl*Kernel*" --format json -o "$tmp/hl.json" 2>/dev/null &&
     python3 -c "import json,sys; l=[e[\"label\"] for e in json.load(open(sys.argv[1]))[\"legend\"]]; sys.exit(len(l) != len(set(l)) or \"user_annotation\" not in l)" "$tmp/hl.json"'

echo "zoom: $pass passed, $fail failed"
[ "$fail" = 0 ]
