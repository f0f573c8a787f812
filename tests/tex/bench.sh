#!/bin/sh
# What \input of one tracefig figure costs a pdflatex run.
#
#   sh tests/tex/bench.sh TRACEFIG [RUNS]     (default 11 runs of each document)
#
# Renders the sample v2 + breakdown figure (tests/golden/sample_v2), then times
# pdflatex on two articles that both load TikZ: one \inputs the figure, the
# other does not.  Prints the median of each and their difference; the TikZ
# back-end's budget is 0.15 s.  Exit status 1 when the difference is larger.
set -u
if [ $# -lt 1 ]; then
    echo "usage: $0 TRACEFIG [RUNS]" >&2
    exit 2
fi
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
runs=${2:-11}
here=$(cd "$(dirname "$0")" && pwd)
case_dir="$here/../golden/sample_v2"
command -v pdflatex >/dev/null 2>&1 || { echo "SKIP bench: pdflatex is not installed"; exit 0; }
out=${TMPDIR:-/tmp}/tracefig-texbench.$$
mkdir -p "$out"
trap 'rm -rf "$out"' EXIT INT TERM

(cd "$case_dir" && "$bin" --trace trace.json --breakdown breakdown.json \
    $(sed 's/#.*//' args 2>/dev/null) -o "$out/fig.tex") || exit 1
for doc in with without; do
    {
        printf '%s\n' '\documentclass{article}' '\usepackage{tikz}' '\begin{document}' 'Text.'
        [ $doc = with ] && printf '%s\n' '\begin{figure}\centering\input{fig.tex}\end{figure}'
        printf '%s\n' '\end{document}'
    } >"$out/$doc.tex"
done

# Median wall time of `pdflatex DOC`, in seconds.
median() {
    i=0
    : >"$out/times"
    while [ $i -lt "$runs" ]; do
        s=$(date +%s.%N)
        (cd "$out" && pdflatex -interaction=batchmode -halt-on-error "$1" >/dev/null 2>&1) ||
            { echo "bench: pdflatex $1 failed" >&2; exit 1; }
        e=$(date +%s.%N)
        echo "$s $e" | awk '{ printf "%.4f\n", $2 - $1 }' >>"$out/times"
        i=$((i + 1))
    done
    sort -n "$out/times" | awk '{ t[NR] = $1 } END { print t[int((NR + 1) / 2)] }'
}

# Interleave the two documents so a change in machine load hits both.
(cd "$out" && pdflatex -interaction=batchmode with.tex >/dev/null 2>&1) # warm the caches
a=$(median without.tex)
b=$(median with.tex)
a2=$(median without.tex)
b2=$(median with.tex)
echo "$a $b $a2 $b2" | awk -v runs="$runs" '{
    without = ($1 < $3) ? $1 : $3; with = ($2 < $4) ? $2 : $4; d = with - without
    printf "bench: pdflatex median of %d runs: without the figure %.3f s, with it %.3f s: +%.3f s (budget 0.150 s)\n", runs, without, with, d
    exit (d > 0.15) }'
