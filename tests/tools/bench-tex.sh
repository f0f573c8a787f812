#!/bin/sh
# bench-tex.sh TRACEFIG: what a TikZ figure's \input adds to a pdflatex run
# (issue 26's budget: at most 0.15 s).  Two figures of the project's own
# inputs: a Kineto trace of tests/tools/gentrace.py (kineto --steps 2
# --layers 4, one profiler step: flame rows, busy shares, a legend of 11
# entries) and the seed's v2 + breakdown of examples/ without any option.
# Each is timed as a one-line article that loads TikZ, against the same
# article with \input{fig.tex}: best of BENCH_TEX_RUNS runs (default 5) with
# hyperfine, else a shell loop.  Prints one line per figure; the budget is
# reported, never enforced (no timed tests: the machine may be busy).
set -u
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
root=$(cd "$(dirname "$0")/../.." && pwd)
runs=${BENCH_TEX_RUNS:-5}
py=/usr/bin/python3
[ -x "$py" ] || py=python3
command -v pdflatex >/dev/null 2>&1 || { echo "bench-tex: SKIP (pdflatex is not installed)"; exit 0; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tracefig-benchtex.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM

"$py" "$root/tests/tools/gentrace.py" kineto --steps 2 --layers 4 --out "$tmp/kineto.json" ||
    { echo "bench-tex: SKIP (gentrace failed)"; exit 0; }
"$bin" "$tmp/kineto.json" --window-event 'ProfilerStep#3' -o "$tmp/kineto.tex" 2>/dev/null &&
    "$bin" "$root/examples/overlap_timeline_v2.json" \
        --breakdown "$root/examples/candidate_breakdown.json" -o "$tmp/seed.tex" ||
    { echo "bench-tex: FAIL (tracefig failed)"; exit 1; }
for doc in none kineto seed; do
    {
        printf '%s\n' '\documentclass{article}' '\usepackage{tikz}' '\begin{document}' 'Text.'
        [ $doc = none ] || printf '\\input{%s.tex}\n' $doc
        printf '%s\n' '\end{document}'
    } >"$tmp/doc-$doc.tex"
done

# best DOC: the least wall time of `pdflatex DOC` in seconds
best() {
    if command -v hyperfine >/dev/null 2>&1; then
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

none=$(best doc-none.tex) || { echo "bench-tex: FAIL (the empty article does not compile)"; exit 1; }
echo "bench-tex: a one-line article with tikz: $none s (best of $runs)"
for fig in kineto seed; do
    t=$(best doc-$fig.tex) || { echo "bench-tex: FAIL ($fig.tex does not compile)"; exit 1; }
    echo "$fig $t $none $(wc -c <"$tmp/$fig.tex")" | awk '{d = $2 - $3; over = ""
        if (d > 0.15) over = "  OVER the 0.15 s budget"
        printf "bench-tex: %-6s \\input adds %.3f s (%s s in all; %d bytes)%s\n", $1, d, $2, $4, over}'
done
