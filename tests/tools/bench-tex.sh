#!/bin/sh
# bench-tex.sh TRACEFIG: what a TikZ figure's \input adds to a pdflatex run,
# as a ratio to the seed's figure (issue 40: each real figure at most 2x).
#
# Figures: the seed's v2 + breakdown of examples/ (the reference's sample),
# and with ../shared/real-traces the four dense real traces of issue 40
# (hta-mtia-inference, hta-dist-rank0, kineto-resnet50-nw0,
# hta-diff-control), each as tracefig draws it without options; without
# ../shared, SKIP and two dense traces of tests/texspeed/gendense.py
# instead; and figures with marks (issue 46).  Each is \input at \columnwidth in a figure of a two-column
# article that loads TikZ, side by side in one run: best of BENCH_TEX_RUNS
# runs (default 3) of pdflatex's CPU time (/usr/bin/time; else the wall
# time, by hyperfine or a shell loop), less the same article without a
# figure.  Prints one line per figure: the time it
# adds, the ratio to the seed's, its size; the budget is reported, never
# enforced (the machine may be busy).
# REAL_TRACES=DIR reads the real traces from DIR instead of ../shared.
set -u
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
root=$(cd "$(dirname "$0")/../.." && pwd)
real=${REAL_TRACES:-$root/../shared/real-traces}
runs=${BENCH_TEX_RUNS:-3}
py=/usr/bin/python3
[ -x "$py" ] || py=python3
command -v pdflatex >/dev/null 2>&1 || { echo "bench-tex: SKIP (pdflatex is not installed)"; exit 0; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tracefig-benchtex.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM

"$bin" "$root/examples/overlap_timeline_v2.json" \
    --breakdown "$root/examples/candidate_breakdown.json" -o "$tmp/seed.tex" ||
    { echo "bench-tex: FAIL (tracefig failed on the seed's sample)"; exit 1; }
figs=""
if [ -d "$real" ]; then
    for n in hta-mtia-inference.json.gz hta-dist-rank0.json.gz kineto-resnet50-nw0.pt.trace.json.gz \
        hta-diff-control.json.gz; do
        name=${n%%.*}
        if "$bin" "$real/$n" -o "$tmp/$name.tex" 2>/dev/null; then
            figs="$figs $name"
        else
            echo "bench-tex: FAIL (tracefig failed on $n)"
        fi
    done
else
    echo "bench-tex: real figures: SKIP ($real not found): generated dense traces instead"
    for shape in "12 6" "24 4"; do
        set -- $shape
        name=dense-$1x$2
        "$py" "$root/tests/texspeed/gendense.py" "$1" "$2" "$tmp/$name.json" &&
            "$bin" "$tmp/$name.json" -o "$tmp/$name.tex" 2>/dev/null && figs="$figs $name"
    done
fi
# Marks (issue 46): a figure of every kind of mark on the suite's trace, and
# with the real traces the example's step with its span and measures.
"$py" "$root/tests/tools/gentrace_marks.py" "$tmp/marks-gen.json" &&
    "$bin" "$tmp/marks-gen.json" --span 'ProfilerStep#2' --span 'ProfilerStep#1..ProfilerStep#3=steps' \
        --measure 'end:aten::copy_@2..start:nccl*' --callout 'gemm_kernel@3' --region '9ms..10ms=bubble' \
        --highlight 'nccl*' -o "$tmp/marks.tex" 2>/dev/null && figs="$figs marks"
if [ -d "$real" ] && "$bin" "$real/hta-dist-rank0.json.gz" --window-event 'ProfilerStep#551' \
    --span 'ProfilerStep#551' --measure 'ncclKernel_SendRecv*@2' --measure 'ncclKernel_SendRecv*@4' \
    --highlight 'ncclKernel*,ProfilerStep*' -o "$tmp/hta-dist-marks.tex" 2>/dev/null; then
    figs="$figs hta-dist-marks"
fi
for doc in none seed $figs; do
    {
        printf '%s\n' '\documentclass[twocolumn]{article}' '\usepackage{tikz}' '\begin{document}' 'Text.'
        [ $doc = none ] ||
            printf '\\begin{figure}\\centering\\def\\tracefigwidth{\\columnwidth}\\input{%s.tex}\\end{figure}\n' $doc
        printf '%s\n' '\end{document}'
    } >"$tmp/doc-$doc.tex"
done

# best DOC: the least time of `pdflatex DOC` in seconds: its CPU time (user +
# system, /usr/bin/time), which other work on a busy machine changes far less
# than the wall time; else the wall time (hyperfine, or a shell loop)
best() {
    if [ -x /usr/bin/time ]; then
        i=0 b=""
        while [ $i -lt "$runs" ]; do
            (cd "$tmp" && /usr/bin/time -f "%U %S" -o "$tmp/cpu" \
                pdflatex -interaction=batchmode -halt-on-error "$1" >/dev/null 2>&1) || return 1
            b=$(awk -v b="${b:-1e9}" '{d = $1 + $2; print (d < b ? d : b)}' "$tmp/cpu")
            i=$((i + 1))
        done
        printf '%.3f\n' "$b"
    elif command -v hyperfine >/dev/null 2>&1; then
        (cd "$tmp" && hyperfine -N -w 1 -r "$runs" --export-json "$tmp/h.json" \
            "pdflatex -interaction=batchmode -halt-on-error $1" >/dev/null 2>&1) || return 1
        "$py" -c 'import json, sys; print("%.3f" % min(json.load(open(sys.argv[1]))["results"][0]["times"]))' \
            "$tmp/h.json"
    else
        i=0 b=""
        while [ $i -lt "$runs" ]; do
            s=$(date +%s.%N)
            (cd "$tmp" && pdflatex -interaction=batchmode -halt-on-error "$1" >/dev/null 2>&1) || return 1
            e=$(date +%s.%N)
            b=$(echo "$s $e ${b:-1e9}" | awk '{d = $2 - $1; print (d < $3 ? d : $3)}')
            i=$((i + 1))
        done
        printf '%.3f\n' "$b"
    fi
}

(cd "$tmp" && pdflatex -interaction=batchmode doc-seed.tex >/dev/null 2>&1) # warm the caches
none=$(best doc-none.tex) || { echo "bench-tex: FAIL (the empty article does not compile)"; exit 1; }
seed=$(best doc-seed.tex) || { echo "bench-tex: FAIL (seed.tex does not compile)"; exit 1; }
echo "bench-tex: a two-column article with tikz: $none s (best of $runs)"
echo "seed $seed $none $(wc -c <"$tmp/seed.tex")" | awk '{
    printf "bench-tex: %-20s \\input adds %.3f s (%d bytes): the unit\n", $1, $2 - $3, $4 }'
for fig in $figs; do
    t=$(best doc-$fig.tex) || { echo "bench-tex: FAIL ($fig.tex does not compile)"; continue; }
    echo "$fig $t $none $seed $(wc -c <"$tmp/$fig.tex")" | awk '{d = $2 - $3; s = $4 - $3
        r = s > 0.001 ? d / s : 0; over = r > 2 ? "  OVER the 2x budget" : ""
        printf "bench-tex: %-20s \\input adds %.3f s (%d bytes): %.2fx the seed%s\n", $1, d, $5, r, over}'
done
