#!/bin/sh
# Marks (tracefig(1), MARKS): --span, --measure, --callout, --region,
# --highlight and --marks FILE, resolved against a trace the suite writes
# (tests/tools/gentrace_marks.py): the measured numbers against the
# generator's times, placement without overlapping text in the PDF's text
# boxes at 1.6, 3.3 and 7 in, every back-end, TikZ in three engines, a
# \tikzset restyle, and every error with nothing written.
set -u
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
root=$(cd "$(dirname "$0")/../.." && pwd)
tmp=${TMPDIR:-/tmp}/tracefig-marks.$$
mkdir -p "$tmp"
trap 'rm -rf "$tmp"' EXIT INT TERM
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL marks: $1"; }
check() { if eval "$2"; then ok; else bad "$1"; fi; }
chk="python3 $root/tests/marks/check.py"

t="$tmp/t.json"
python3 "$root/tests/tools/gentrace_marks.py" "$t" --times >"$tmp/times.tsv"
all="--span ProfilerStep#2 --span ProfilerStep#1..ProfilerStep#3=three\\ steps"
all="$all --measure end:aten::copy_@2..start:nccl\\* --callout gemm_kernel@3"
all="$all --region 9ms..10ms=bubble"

# --- the measured numbers -----------------------------------------------------------
check "span, measure, region: t0, t1, dur and {dur} are the trace's, thin merged events too" \
    '"$bin" "$t" --span "ProfilerStep#2" --measure "end:aten::copy_@2..start:ncclDevKernel*" \
        --span "ProfilerStep#1..ProfilerStep#3" --region "start:gemm_kernel@2..end:elementwise_kernel@2" \
        --measure "start:b..end:a" --measure "tiny_kernel@7..tiny_kernel@9" -o "$tmp/m.json" &&
     $chk times "$tmp/m.json" "$tmp/times.tsv" "span ProfilerStep#2 ProfilerStep#2" \
        "measure end:aten::copy_@2 start:ncclDevKernel_AllReduce_Sum_f32" \
        "span ProfilerStep#1 ProfilerStep#3" "region start:gemm_kernel@2 end:elementwise_kernel@2" \
        "measure start:b end:a" "measure tiny_kernel@7 tiny_kernel@9" &&
     ! grep -q "\"name\": \"tiny_kernel\", \"category\"" "$tmp/m.json"'
check "a measure names both events (name, lane, start, end)" \
    'python3 -c "import json,sys; m=json.load(open(sys.argv[1]))[\"marks\"][1]
e=m[\"events\"]; assert [x[\"name\"] for x in e]==[\"aten::copy_\",\"ncclDevKernel_AllReduce_Sum_f32\"], e
assert e[0][\"lane\"].endswith(\"python3\") and \"stream 20\" in e[1][\"lane\"], e
assert abs(e[0][\"end\"]-m[\"t0\"])<1e-9 and abs(e[1][\"start\"]-m[\"t1\"])<1e-9" "$tmp/m.json"'
check "TEXT fields: {name}, {start}, {end}, {dur}" \
    '"$bin" "$t" --span "ProfilerStep#2={name}: {start} to {end}, {dur}" -o - |
     grep -q "\"text\": \"ProfilerStep#2: 4.20 ms to 8.20 ms, 4.00 ms\""'
check "a callout names its event, a region has no default text" \
    '"$bin" "$t" --callout "gemm_kernel@3" --region "9ms..10ms" -o - >"$tmp/c.json" &&
     grep -q "\"kind\": \"callout\", \"text\": \"gemm_kernel\", \"t0\": 9.1, \"t1\": 10.3" "$tmp/c.json" &&
     grep -q "\"kind\": \"region\", \"text\": null, \"t0\": 9, \"t1\": 10, \"dur\": 1" "$tmp/c.json"'
check "a marks file says what the options say" \
    'printf "%s" "[{\"kind\": \"span\", \"from\": {\"event\": \"ProfilerStep#2\"}},
      {\"kind\": \"measure\", \"from\": {\"event\": \"aten::copy_\", \"occurrence\": 2, \"edge\": \"end\",
       \"lane\": \"*python3\"}, \"to\": {\"event\": \"ncclDevKernel*\", \"edge\": \"start\", \"lane\": \"GPU*\"}}]" \
        >"$tmp/marks.json" &&
     "$bin" "$t" --marks "$tmp/marks.json" -o "$tmp/f.json" &&
     "$bin" "$t" --span "ProfilerStep#2" --measure "end:aten::copy_@2..start:ncclDevKernel*" -o "$tmp/o.json" &&
     python3 -c "import json,sys; a,b=(json.load(open(p))[\"marks\"] for p in sys.argv[1:]); assert a==b" \
        "$tmp/f.json" "$tmp/o.json"'
check "a lane glob picks the event on that lane" \
    'printf "%s" "[{\"kind\": \"callout\", \"from\": {\"event\": \"*Kernel*\", \"lane\": \"*stream 20\"}}]" \
        >"$tmp/lane.json" && "$bin" "$t" --marks "$tmp/lane.json" -o - | grep -q "\"text\": \"ncclDevKernel"'
check "an offset moves an end" \
    'printf "%s" "[{\"kind\": \"region\", \"from\": {\"event\": \"a\", \"edge\": \"start\", \"offset\": \"-100us\"},
       \"to\": {\"time\": 5.6}}]" >"$tmp/off.json" &&
     "$bin" "$t" --marks "$tmp/off.json" -o - | grep -q "\"t0\": 4.9, \"t1\": 5.6, \"dur\": 0.7"'

# --- highlight --------------------------------------------------------------------------
check "highlight: kept count, faded bars, the legend's faded classes" \
    '"$bin" "$t" --highlight "nccl*" -o "$tmp/h.json" &&
     python3 -c "import json,sys; m=json.load(open(sys.argv[1]))
h=m[\"marks\"][0]; assert h[\"kind\"]==\"highlight\" and h[\"kept\"]==3, h
kept=[b for b in m[\"bars\"] if not b[\"faded\"]]
assert kept and all(b[\"name\"].startswith(\"nccl\") for b in kept)
assert not any(\"faded\" in c[\"name\"] for c in m[\"categories\"])" "$tmp/h.json" &&
     "$bin" "$t" --highlight "nccl*" -o "$tmp/h.svg" && "$bin" "$t" -o "$tmp/n.svg" &&
     ! cmp -s "$tmp/h.svg" "$tmp/n.svg"'

# --- the window's edges ----------------------------------------------------------------
check "a mark past the window's edge is cut, drawn open and noted" \
    '"$bin" "$t" --from 5ms --to 11ms --span "ProfilerStep#2" -o "$tmp/cut.json" &&
     grep -q "\"open\": \[\"start\"\]" "$tmp/cut.json" &&
     grep -q "runs past the window.s start: cut there, drawn open" "$tmp/cut.json" &&
     python3 -c "import json,sys; m=json.load(open(sys.argv[1]))[\"marks\"][0]
assert m[\"t0\"]==0 and m[\"t1\"]==3200 and m[\"unit\"]==\"\u00b5s\", m" "$tmp/cut.json"'

# --- every back-end ---------------------------------------------------------------------
check "SVG: a group tf-mark tf-KIND with a title per mark" \
    'eval "\"\$bin\" \"\$t\" $all -o \"\$tmp/a.svg\"" &&
     grep -q "<g class=\"tf-mark tf-span\">" "$tmp/a.svg" &&
     grep -q "<g class=\"tf-mark tf-measure\">" "$tmp/a.svg" &&
     grep -q "<g class=\"tf-mark tf-callout\">" "$tmp/a.svg" &&
     grep -q "<g class=\"tf-mark tf-region\">" "$tmp/a.svg" &&
     grep -q "<title>measure: 0.700 ms, from 1.90 ms to 2.60 ms; aten::copy_ on" "$tmp/a.svg"'
check "--stats: a marks table, text and CSV" \
    'eval "\"\$bin\" \"\$t\" $all --stats" >"$tmp/st.txt" &&
     grep -q "^marks$" "$tmp/st.txt" && grep -Eq "^2 +span +three steps +0 +12.4 +12.4$" "$tmp/st.txt" &&
     eval "\"\$bin\" \"\$t\" $all --stats=csv" | grep -q "^marks,3 measure,,dur_ms,0.7$"'
if command -v pdftotext >/dev/null 2>&1 && "$bin" --version | grep -q "pdf "; then
    for w in 1.6in 3.3in 7in; do
        check "PDF at $w: every label drawn, no two words overlap, all inside" \
            'eval "\"\$bin\" \"\$t\" $all --width $w -o \"\$tmp/w.pdf\"" &&
             $chk boxes "$tmp/w.pdf" 4.00 three 0.700'
        check "PDF at $w: stacked spans (several overlapping) keep apart" \
            '"$bin" "$t" --width $w --span "ProfilerStep#1" --span "ProfilerStep#1..ProfilerStep#2=first two" \
                --span "ProfilerStep#2..ProfilerStep#3=last two" --span "ProfilerStep#1..ProfilerStep#3=all" \
                --span "b..a=b to a" -o "$tmp/s.pdf" -o "$tmp/s.json" && $chk boxes "$tmp/s.pdf" first last all'
    done
else
    echo "SKIP marks: PDF text boxes (no pdftotext or no cairo)"
fi
check "PNG is drawn" 'eval "\"\$bin\" \"\$t\" $all -o \"\$tmp/a.png\"" && test -s "$tmp/a.png"'

# --- TikZ -----------------------------------------------------------------------------
eval "\"\$bin\" \"\$t\" $all --highlight \"nccl*\" -o \"\$tmp/f.tex\""
check "TikZ: marks as the template's macros, faded bars in tracefig/faded" \
    'grep -q "tracefigspanmark" "$tmp/f.tex" && grep -q "tracefigmeasuremark" "$tmp/f.tex" &&
     grep -q "tracefig/faded" "$tmp/f.tex" && grep -q "tracefigdefaultstyle{span}" "$tmp/f.tex"'
cat >"$tmp/doc.tex" <<'TEX'
\documentclass[twocolumn]{article}
\usepackage{tikz}
\begin{document}
\begin{figure}\input{f.tex}\caption{Marks.}\end{figure}
\end{document}
TEX
for eng in pdflatex lualatex xelatex; do
    if command -v $eng >/dev/null 2>&1; then
        check "TikZ at \\columnwidth in $eng: compiles, labels typeset" \
            '(cd "$tmp" && rm -f doc.pdf && timeout 300 $eng -interaction=nonstopmode -halt-on-error doc.tex \
                >/dev/null 2>&1) && pdftotext "$tmp/doc.pdf" - | grep -q "three steps" &&
             pdftotext "$tmp/doc.pdf" - | grep -q "0.700 ms" && pdftotext "$tmp/doc.pdf" - | grep -q bubble'
    else
        echo "SKIP marks: $eng not installed"
    fi
done
if command -v pdflatex >/dev/null 2>&1; then
    "$bin" "$t" --span "ProfilerStep#1" --span "ProfilerStep#2" --span "ProfilerStep#3" -o "$tmp/r.tex"
    cat >"$tmp/red.tex" <<'TEX'
\pdfcompresslevel=0 \pdfobjcompresslevel=0
\documentclass{article}
\usepackage{tikz}
\begin{document}
\tikzset{tracefig/span/.style={draw=red}}
\input{r.tex}
\end{document}
TEX
    check "a \\tikzset restyle of tracefig/span colours every span" \
        '(cd "$tmp" && timeout 300 pdflatex -interaction=nonstopmode -halt-on-error red.tex >/dev/null 2>&1) &&
         $chk red "$tmp/red.pdf" 9'
else
    echo "SKIP marks: pdflatex not installed"
fi

# --- errors: one line, exit 1, nothing written, an existing output untouched ----------------
err() { # err NAME EXPECTED-LINE ARGS...
    name=$1 want=$2
    shift 2
    rm -f "$tmp/out.svg"
    printf 'KEEP' >"$tmp/keep.svg"
    (cd "$tmp" && "$bin" "$@" -o out.svg >/dev/null 2>err.txt)
    rc=$?
    (cd "$tmp" && "$bin" "$@" -o keep.svg >/dev/null 2>/dev/null)
    if [ $rc -eq 1 ] && [ "$(cat "$tmp/err.txt")" = "$want" ] && [ ! -e "$tmp/out.svg" ] &&
        [ "$(cat "$tmp/keep.svg")" = KEEP ]; then
        ok
    else
        bad "$name: rc $rc, said: $(cat "$tmp/err.txt")"
    fi
}
err "no event of that name" \
    "tracefig: --measure 'end:foo..start:bar': no event named 'foo' in the window (0.000–12.400 ms)" \
    "$t" --measure 'end:foo..start:bar'
err "B before A" "tracefig: --span 'a..b': b ends before a starts" "$t" --span 'a..b'
err "fewer matches than @K" \
    "tracefig: --callout 'ProfilerStep#*@4': 3 events named 'ProfilerStep#*' in the window (0.000–12.400 ms), no @4" \
    "$t" --callout 'ProfilerStep#*@4'
err "wholly outside the window" \
    "tracefig: --region '20ms..30ms': wholly outside the window (0.000–12.400 ms)" "$t" --region '20ms..30ms'
printf '%s' '[{"kind": "span", "from": {"time": 1}, "to": {"time": 2}},
 {"kind": "span", "from": {"time": 1}, "to": {"time": 2}},
 {"kind": "measure", "from": {"event": "a", "edge": "middle"}, "to": {"event": "b"}}]' >"$tmp/marks.json"
err "a marks file's bad field" 'tracefig: marks.json: [2].from.edge: expected "start" or "end"' \
    "$t" --marks marks.json
printf '[{"kind": "span",\n  "from": {"time": 1}, "to": }]' >"$tmp/marks.json"
check "a marks file's bad JSON: file:line:col, exit 1, nothing written" \
    '(cd "$tmp" && "$bin" "$t" --marks marks.json -o bj.svg 2>bj.txt); test $? -eq 1 &&
     grep -q "^tracefig: marks.json:2:[0-9]*: " "$tmp/bj.txt" && test ! -e "$tmp/bj.svg"'
printf '%s' '[{"kind": "arrow", "from": {"time": 1}}]' >"$tmp/marks.json"
err "a marks file's unknown kind" \
    'tracefig: marks.json: [0].kind: expected "span", "measure", "callout", "region" or "highlight"' \
    "$t" --marks marks.json
check "a malformed option is a usage error (exit 2)" \
    '"$bin" "$t" --span "..x" -o "$tmp/u.svg" 2>/dev/null; test $? -eq 2 && test ! -e "$tmp/u.svg"'

# --- the library and Python ----------------------------------------------------------------
lib="$(dirname "$bin")/libtracefig.so.0"
if grep -q __asan_init "$lib" 2>/dev/null; then
    echo "SKIP marks: Python part (a sanitizer build's library loads only into programs built with it)"
elif [ -e "$lib" ] && python3 -c "import ctypes" 2>/dev/null; then
    check "Python: marks=[{...}], span=[...] and errors as exceptions" \
        'TRACEFIG_LIB="$lib" PYTHONPATH="$root/python" python3 -c "
import json, sys, tracefig
f = tracefig.Figure(sys.argv[1], span=[\"ProfilerStep#2\"], measure=[\"end:aten::copy_@2..start:nccl*\"],
                    marks=[{\"kind\": \"region\", \"from\": {\"time\": \"9ms\"}, \"to\": {\"time\": \"10ms\"}}])
m = json.loads(f.json())[\"marks\"]
assert [x[\"kind\"] for x in m] == [\"span\", \"measure\", \"region\"] and m[0][\"dur\"] == 4, m
try:
    tracefig.Figure(sys.argv[1], span=[\"nope\"])
    raise SystemExit(1)
except tracefig.TraceError as e:
    assert \"no event named\" in str(e)
" "$t"'
else
    echo "SKIP marks: Python part (no libtracefig.so.0: make lib)"
fi

echo "marks: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
