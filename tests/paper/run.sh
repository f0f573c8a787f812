#!/bin/sh
# Paper suite: run.sh TRACEFIG
#
# Are figures fit to print in a two-column paper?  Figures of the project's
# own traces (tests/tools/gentrace.py: long process names, many threads,
# deep nesting, many categories, a Kineto trace, the seed's v2 + breakdown
# with --labels auto and without any option, and examples/' v2 + breakdown;
# tests/tools/genotf2.py: an OTF2 archive of 4 ranks)
# and of ../shared/real-traces with the windows its README names (SKIP for
# those without it), each
#   tikz   typeset in ONE 10 pt two-column article (pdflatex), at \columnwidth
#          and as a 0.48\columnwidth pair; the figures report their plan
#          (\tracefigreport) and their boxes are measured (\sbox);
#   pdf    rendered with --width 229.5pt and --width 110pt (with its JSON
#          model, whose "layout" holds the plan);
#   svg    rendered with --width 3.3in for the browser checks
#          (tests/svg/browser.sh, headless Chromium; SKIP without it);
# and checked by check.py: width at most the room and no overfull box,
# height at most 400 pt, plot at least 60 % of the width at the column and
# 50 % in the pair, no text smaller than 5 pt and no two words overlapping
# (from the PDFs' word boxes, pdftotext -bbox), no two lane labels alike;
# the seed's figures in the pair: labels short or above, the breakdown under
# the timeline.
# Prints one line per figure and size (plot share, height, smallest text).
# Ends with "paper: N passed, N failed"; exit 1 on failure.  SKIP without
# pdflatex or pdftotext.
set -u
if [ $# -lt 1 ]; then
    echo "usage: $0 TRACEFIG" >&2
    exit 2
fi
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
py=python3
[ -x /usr/bin/python3 ] && py=/usr/bin/python3
gen="$py $root/tests/tools/gentrace.py"
for tool in pdflatex pdftotext; do
    if ! command -v $tool >/dev/null 2>&1; then
        echo "SKIP paper: $tool is not installed (texlive-latex-base, poppler-utils)"
        echo "paper: 0 passed, 0 failed"
        exit 0
    fi
done
out=$(mktemp -d "${TMPDIR:-/tmp}/tracefig-paper.XXXXXX")
trap 'rm -rf "$out"' EXIT INT TERM
fail=0

# --- the figures: NAME|TRACE|OPTIONS ------------------------------------------
list=$out/figures
: >"$list"
g() { # NAME GENTRACE-ARGS... : a generated trace
    name=$1
    shift
    $gen "$@" --out "$out/$name.json" || { echo "FAIL paper: gentrace $*"; fail=1; }
}
g long chrome --processes 3 --threads 4 --depth 5 --categories 9 --long-names --thread-style kineto
g threads chrome --processes 2 --threads 14 --thread-style same --depth 2
g deep chrome --processes 1 --threads 2 --depth 12 --categories 6
g cats chrome --processes 1 --threads 3 --categories 24 --long-categories
g kineto kineto --steps 2 --layers 4
g seed timeline --version 2 --num-candidates 8 --start-candidate 3 --trsm-prob 0.3
$gen breakdown --candidate 3 --cast --out "$out/seed-bd.json"
# an OTF2 archive of the project's own (4 ranks x 2 threads, a GPU stream,
# counters), when python3-otf2 can write it
if $py -c 'import otf2' 2>/dev/null && $py "$root/tests/tools/genotf2.py" basic "$out/otf2" \
    >/dev/null 2>&1; then
    echo "otf2-basic|$out/otf2/traces.otf2|--flows" >>"$list"
fi
cat >>"$list" <<EOF
long|$out/long.json|
threads|$out/threads.json|
deep|$out/deep.json|
cats|$out/cats.json|
kineto|$out/kineto.json|--window-event ProfilerStep#3
seed|$out/seed.json|--breakdown $out/seed-bd.json --labels auto
seed-plain|$out/seed.json|--breakdown $out/seed-bd.json
seed-example|$root/examples/overlap_timeline_v2.json|--breakdown $root/examples/candidate_breakdown.json
EOF
real=$root/../shared/real-traces
if [ -d "$real" ]; then
    cat >>"$list" <<EOF
hta-cpu-only|$real/hta-cpu-only.pt.trace.json.gz|--window-event ProfilerStep#551
hta-simple-add|$real/hta-simple-add.pt.trace.json.gz|
hta-amd-mi250|$real/hta-amd-mi250.json.gz|--window-event ProfilerStep#1
hta-dist-rank0|$real/hta-dist-rank0.json.gz|--window-event ProfilerStep#551
hta-mtia-inference|$real/hta-mtia-inference.json.gz|
chrome-big-trace|$real/chrome-big-trace.json|
chrome-flow|$real/chrome-flow.json|--flows
perfetto-flow-v2|$real/perfetto-flow-v2.json|--flows
tf1-timeline|$real/tf1-timeline.ctf.json|
clang-ftime-trace|$real/clang-ftime-trace.json|
kineto-resnet50-nw0|$real/kineto-resnet50-nw0.pt.trace.json.gz|--window-event ProfilerStep#6
hta-diff-control|$real/hta-diff-control.json.gz|--window-event ProfilerStep#1010
otf2-tracer-32|$real/otf2/tracer-stencil4d-32/traces.otf2|--window-event TRACER_Loop --flows
otf2-ping-pong|$real/otf2/ping-pong-otf2/traces.otf2|--flows
EOF
else
    echo "SKIP paper: no ../shared/real-traces (the real traces' figures)"
fi

# --- render each figure: TikZ, PDF at both widths, SVG ----------------------------
names=""
svgs=""
while IFS='|' read -r name trace opts; do
    [ -n "$name" ] || continue
    if [ ! -e "$trace" ]; then
        # only ../shared's traces can be missing: the project's own are made above
        echo "SKIP paper: $name ($trace not found)"
        continue
    fi
    ok=1
    # shellcheck disable=SC2086
    "$bin" "$trace" $opts -o "$out/$name.tex" 2>/dev/null || ok=0
    for w in 229.5pt 110pt; do
        # shellcheck disable=SC2086
        "$bin" "$trace" $opts --width $w -o "$out/$name-$w.pdf" -o "$out/$name-$w.json" \
            2>/dev/null || ok=0
    done
    # shellcheck disable=SC2086
    "$bin" "$trace" $opts --width 3.3in -o "$out/$name.svg" 2>/dev/null || ok=0
    if [ $ok = 1 ]; then
        names="$names $name"
        svgs="$svgs $out/$name.svg"
    else
        echo "FAIL paper: $name: tracefig failed"
        fail=1
    fi
done <"$list"

# --- one article: each figure at \columnwidth and as a 0.48\columnwidth pair -----
{
    printf '%s\n' '\documentclass[10pt,twocolumn]{article}' '\usepackage{tikz}' \
        '\def\tracefigreport{}' '\newsavebox\tfbox' \
        '\newcommand\tffig[3]{\typeout{TFFIG #1 #2}\sbox\tfbox{\input{#1.tex}}%' \
        '  \typeout{TFBOX #1 #2 \the\wd\tfbox\space\the\ht\tfbox\space\the\dp\tfbox\space\the\linewidth}%' \
        '  \usebox\tfbox}' '\pagestyle{empty}' '\begin{document}'
    # A page per figure and width, so check.py reads each figure's words
    # from its own page.
    for n in $names; do
        printf '\\noindent\\tffig{%s}{col}{}\\par\\clearpage\n' "$n"
        printf '\\noindent\\begin{minipage}[t]{0.48\\columnwidth}\\tffig{%s}{sub}{}\\end{minipage}\\hfill\n' "$n"
        printf '\\begin{minipage}[t]{0.48\\columnwidth}\\tffig{%s}{sub2}{}\\end{minipage}\\par\\clearpage\n' "$n"
    done
    printf '%s\n' '\end{document}'
} >"$out/paper.tex"
if (cd "$out" && pdflatex -interaction=nonstopmode -halt-on-error paper.tex >paper.out 2>&1); then
    :
else
    echo "FAIL paper: paper.tex does not compile:"
    grep -A4 '^!' "$out/paper.log" | head -12
    fail=1
fi

# --- the browser checks on the SVGs at 3.3in ------------------------------------------
bres=""
if [ -n "$svgs" ]; then
    # shellcheck disable=SC2086
    bres=$(sh "$root/tests/svg/browser.sh" $svgs 2>&1)
fi
printf '%s\n' "$bres" >"$out/browser.txt"

"$py" "$here/check.py" "$out" "$names" || fail=1
[ -n "${PAPER_KEEP:-}" ] && mkdir -p "$PAPER_KEEP" && cp "$out"/*.pdf "$out"/*.tex "$out"/*.log "$out"/*.svg "$PAPER_KEEP"/ 2>/dev/null
exit $fail
