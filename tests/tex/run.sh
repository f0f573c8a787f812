#!/bin/sh
# TeX tests of the TikZ back-end: the figures must compile, be exactly as wide
# as asked, and leave the document alone.
#
#   sh tests/tex/run.sh TRACEFIG [ENGINE...]     (default: pdflatex lualatex xelatex)
#
# Figures: every tests/golden/*/expected.tex, the cases in tests/tex/cases/
# (extra GPU streams, spans of 1e17 ms and 0.04 ms, a stalled v2 trace) and
# every case of tests/parity/cases/ that tracefig accepts, rendered now.
#   1. each fragment: no \documentclass, no \fontsize or fixed font family,
#      no TikZ library, and a header naming \usepackage{tikz} and the command;
#   2. all.tex, an article that \inputs every figure at 8cm, at \linewidth and
#      at 0.45\linewidth: compiles with each engine, and each box is
#      \tracefigwidth wide within 1pt (\sbox, \typeout of \wd, read the log);
#   3. two.tex, a two-column paper whose title and captions are full of TeX
#      specials, with figures side by side, restyled before \input: no errors,
#      no overfull boxes, and nothing of a figure left defined after it;
#   4. --standalone output compiles with pdflatex to a page just the figure
#      wide;
#   5. counter tracks one over the other (four memory counters of a Kineto
#      trace) at \textwidth in a figure* of a two-column article: no two of
#      their scale labels' boxes (pdftotext -bbox) closer than the gap
#      between text boxes (2pt, tests/tex/labelgap.py).
# Ends with "N passed, N failed"; exit status 1 when anything failed.  Says
# SKIP (and exits 0) when no TeX engine is installed.
set -u
if [ $# -lt 1 ]; then
    echo "usage: $0 TRACEFIG [ENGINE...]" >&2
    exit 2
fi
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
shift
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
engines=${*:-pdflatex lualatex xelatex}
out=${TMPDIR:-/tmp}/tracefig-tex.$$
mkdir -p "$out"
trap 'rm -rf "$out"' EXIT INT TERM

pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() {
    fail=$((fail + 1))
    echo "FAIL tex: $*"
}

have=""
for e in $engines; do
    if command -v "$e" >/dev/null 2>&1; then have="$have $e"; else echo "SKIP tex: $e is not installed"; fi
done
if [ -z "$have" ]; then
    echo "SKIP tex: no TeX engine installed (apt-get install texlive-latex-base texlive-pictures)"
    echo "0 passed, 0 failed"
    exit 0
fi

# --- the figures ---------------------------------------------------------------
figs=""
add_fig() { # NAME DIR [FLAGS...]: render DIR/trace.json into $out/NAME.tex
    name=$1
    dir=$2
    shift 2
    set -- --trace trace.json "$@"
    [ -f "$dir/breakdown.json" ] && set -- "$@" --breakdown breakdown.json
    if (cd "$dir" && "$bin" "$@" --format tikz -o -) >"$out/$name.tex" 2>"$out/err"; then
        figs="$figs $name"
        return 0
    fi
    return 1
}
for dir in "$root"/tests/golden/*/; do
    case=$(basename "$dir")
    if [ -f "$dir/expected.tex" ]; then
        cp "$dir/expected.tex" "$out/g-$case.tex"
        figs="$figs g-$case"
    fi
done
for dir in "$here"/cases/*/; do
    add_fig "t-$(basename "$dir")" "$dir" || bad "$(basename "$dir"): tracefig failed: $(cat "$out/err")"
done
for dir in "$root"/tests/parity/cases/*/; do
    [ -f "$dir/trace.json" ] || continue
    extra=""
    [ -f "$dir/args.txt" ] && extra=$(sed 's/#.*//' "$dir/args.txt" | tr '\n' ' ')
    # shellcheck disable=SC2086
    add_fig "p-$(basename "$dir")" "$dir" $extra || true # some cases are errors on purpose
done
nfigs=$(echo $figs | wc -w)
echo "tex: $nfigs figures; engines:$have"

# --- 1. the fragments ----------------------------------------------------------
for f in $figs; do
    t="$out/$f.tex"
    if grep -Eq '\\(documentclass|fontsize|fontfamily|usefont|rmfamily|sffamily|ttfamily|usetikzlibrary)' "$t"; then
        bad "$f: uses a fixed font, a document class or a TikZ library"
    elif ! grep -q '\\usepackage{tikz}' "$t" || ! grep -q '^% Made with: tracefig' "$t"; then
        bad "$f: header lacks the \\usepackage{tikz} note or the command"
    else
        ok
    fi
done

# --- 2. every figure at three widths, with every engine -------------------------
line() { printf '%s\n' "$*"; }
{
    line '\documentclass{article}'
    line '\usepackage{tikz}'
    line '\newsavebox\tfbox'
    line '\newcommand\tfmeasure[2]{\sbox\tfbox{\input{#1}}\typeout{TFWIDTH #1 #2 \the\wd\tfbox\space\the\dimexpr\ifdefined\tracefigwidth\tracefigwidth\else\linewidth\fi\relax}}'
    line '\begin{document}'
    for f in $figs; do
        line "\\def\\tracefigwidth{8cm}\\tfmeasure{$f.tex}{8cm}"
        line "\\def\\tracefigwidth{0.45\\linewidth}\\tfmeasure{$f.tex}{0.45lw}"
        line "\\let\\tracefigwidth\\undefined\\tfmeasure{$f.tex}{linewidth}"
        line '\noindent\usebox\tfbox\par\bigskip'
    done
    line '\end{document}'
} >"$out/all.tex"

check_widths() { # ENGINE LOG
    n=$(grep -c '^TFWIDTH' "$2")
    if [ "$n" -ne $((3 * nfigs)) ]; then
        bad "$1 all.tex: $n of $((3 * nfigs)) widths measured"
        return
    fi
    # "TFWIDTH file label 227.62204pt 227.62204pt": box width, wanted width
    wrong=$(awk '/^TFWIDTH/ { w = $4; t = $5; sub(/pt/, "", w); sub(/pt/, "", t);
                 d = w - t; if (d < 0) d = -d; if (d > 1) print $2 " at " $3 ": " $4 " for " $5 }' "$2")
    if [ -n "$wrong" ]; then
        bad "$1: box width differs from \\tracefigwidth by more than 1pt:"
        echo "$wrong" | head -10
    else
        ok
    fi
}

compile() { # ENGINE FILE: runs in $out; 0 when it compiled without errors
    (cd "$out" && "$1" -interaction=nonstopmode -halt-on-error "$2" >"$2.$1.out" 2>&1)
    rc=$?
    cp "$out/${2%.tex}.log" "$out/${2%.tex}.$1.log" 2>/dev/null
    [ $rc -eq 0 ] && ! grep -q '^!' "$out/${2%.tex}.$1.log"
}

for e in $have; do
    if compile "$e" all.tex; then
        ok
        check_widths "$e" "$out/all.$e.log"
    else
        bad "$e all.tex: does not compile:"
        grep -A3 '^!' "$out/all.$e.log" | head -12
    fi
done

# --- 3. a two-column paper with specials, restyled, two figures side by side ----
specials='Specials: \# \$ \% \& \_ \{ \} \textasciitilde{} \^{} \textbackslash{} and $\rightarrow$'
first=$(echo $figs | cut -d' ' -f1)
second=$(echo $figs | cut -d' ' -f2)
if [ -f "$out/t-stall.tex" ]; then second=t-stall; fi
cat >"$out/two.tex" <<EOF
\\documentclass[twocolumn]{article}
\\usepackage{tikz}
\\title{$specials}
\\author{tracefig}
\\tikzset{tracefig/io/.style={fill=black!20}}
\\tikzset{tracefig/label font/.initial=\\scriptsize\\itshape}
\\begin{document}
\\maketitle
\\section{$specials}
Text before the figures.
\\begin{figure}
\\centering
\\input{$first.tex}
\\caption{$specials}
\\end{figure}
\\begin{figure}
\\centering
\\input{$second.tex}
\\caption{Second figure, same column: $specials}
\\end{figure}
\\begin{figure*}
\\centering
\\input{$first.tex}
\\caption{Across both columns: $specials}
\\end{figure*}
\\noindent\\input{$second.tex}\\hfill\\input{$first.tex}
\\ifdefined\\tracefiglayout \\typeout{TFLEAK tracefiglayout}\\fi
\\ifdefined\\tracefigspan \\typeout{TFLEAK tracefigspan}\\fi
\\ifdefined\\tracefigfont \\typeout{TFLEAK tracefigfont}\\fi
\\ifcsname\\string\\color@tracefig-io\\endcsname \\typeout{TFLEAK colour tracefig-io}\\fi
\\ifcsname pgfk@/tikz/tracefig/gpu0/.@cmd\\endcsname \\typeout{TFLEAK style tracefig/gpu0}\\fi
\\ifcsname pgfk@/tikz/tracefig/io/.@cmd\\endcsname\\else \\typeout{TFLEAK lost the document's tracefig/io}\\fi
\\end{document}
EOF
# The side-by-side line divides the column: set the width to fit both.
sed -i 's/^\\noindent\\input/\\def\\tracefigwidth{0.48\\linewidth}\\noindent\\input/' "$out/two.tex"
for e in $have; do
    if compile "$e" two.tex; then
        log="$out/two.$e.log"
        if grep -q 'Overfull' "$log"; then
            bad "$e two.tex: overfull boxes:"
            grep -A1 'Overfull' "$log" | head -8
        elif grep -q 'TFLEAK' "$log"; then
            bad "$e two.tex: a figure leaks or overrides definitions: $(grep TFLEAK "$log" | tr '\n' ' ')"
        else
            ok
        fi
    else
        bad "$e two.tex: does not compile:"
        grep -A3 '^!' "$out/two.$e.log" | head -12
    fi
done

# --- 4. standalone ------------------------------------------------------------------
sa_engine=$(echo $have | cut -d' ' -f1)
if (cd "$root/tests/golden/sample_v2" 2>/dev/null &&
    "$bin" --trace trace.json --breakdown breakdown.json --standalone -o "$out/sa.tex") 2>"$out/err" &&
    compile "$sa_engine" sa.tex; then
    if command -v pdfinfo >/dev/null 2>&1; then
        w=$(pdfinfo "$out/sa.pdf" | awk '/Page size/ { print $3 }')
        # 7in + 2 x 1pt border = 507.89pt; PDF sizes are in bp (1bp = 1.00375pt)
        if awk -v w="$w" 'BEGIN { d = w * 1.00375 - 507.89; exit !(d < 1 && d > -1) }'; then
            ok
        else
            bad "standalone: page is ${w}bp wide, expected 7in + 2pt"
        fi
    else
        ok
    fi
else
    bad "standalone: does not compile: $(cat "$out/err")"
    grep -A3 '^!' "$out/sa.log" 2>/dev/null | head -8
fi

# --- 5. counter labels keep the style's gap -----------------------------------------
# A Kineto trace with four memory counters one over the other (thin bands of
# two rows: each band's greatest at its top, its least at its bottom), at
# \textwidth in a figure* of a two-column article, labels left: no two scale
# labels' boxes (pdftotext -bbox) come closer than the gap between text boxes
# (tf_style.text_gap_pt, 2pt).  They touched (0.04pt apart) before.
py=python3
[ -x /usr/bin/python3 ] && py=/usr/bin/python3
if ! command -v pdftotext >/dev/null 2>&1 || ! command -v pdflatex >/dev/null 2>&1; then
    echo "SKIP tex: counter labels (no pdflatex or pdftotext)"
elif ! "$py" "$root/tests/tools/gentrace.py" kineto --steps 2 --layers 4 --memory current \
    --out "$out/mem.json" 2>"$out/err" ||
    ! "$bin" "$out/mem.json" --format tikz -o "$out/mem.tex" 2>>"$out/err"; then
    bad "counter labels: no figure: $(cat "$out/err")"
else
    cat >"$out/memdoc.tex" <<'TEX'
\documentclass[twocolumn]{article}
\usepackage{tikz}
\begin{document}
Text.
\begin{figure*}
\input{mem.tex}
\caption{Counters}
\end{figure*}
More text.
\end{document}
TEX
    if compile pdflatex memdoc.tex; then
        pdftotext -bbox "$out/memdoc.pdf" "$out/mem.bbox" 2>/dev/null
        if why=$("$py" "$here/labelgap.py" "$out/mem.tex" "$out/mem.bbox" 2>&1); then
            ok
        else
            bad "counter labels closer than the gap between text boxes: $why"
        fi
    else
        bad "counter labels: memdoc.tex does not compile:"
        grep -A3 '^!' "$out/memdoc.pdflatex.log" | head -8
    fi
fi

if [ -n "${TEX_KEEP:-}" ]; then
    mkdir -p "$TEX_KEEP" && cp "$out"/*.tex "$out"/*.pdf "$out"/*.log "$TEX_KEEP"/ 2>/dev/null
fi
echo "tex: $pass passed, $fail failed"
[ $fail -eq 0 ]
